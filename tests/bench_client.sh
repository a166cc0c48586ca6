#!/bin/sh
# bench_client.sh -- the client's CPU use while it draws live at 30
# frames a second, with and without the history panes: a live daemon
# runs a scenario written to a temp file (a quarter hogs, the rest
# sleepers of various patterns, nice -5..5), the client runs in a
# private tmux server subscribed at 30 fps, and its utime+stime from
# /proc/PID/stat is read over SECONDS (default 10), with its voluntary
# context switches (its wake-ups: about one a frame) and the daemon's
# CPU beside them.  Two cases, as issue 10 asks:
#   200 tasks on 4 CPUs at 120x40     goal: client under 5 % of a core
#   2 000 tasks on 8 CPUs at 200x60   goal: client under 10 %
# each first as the client starts, then with the timeline and the rank
# line on (keys w and r).  tmux's own work is not counted.  Without the
# live daemon it says so and exits 0, so `make bench` goes on.
#
# Usage: bench_client.sh [SECONDS] [CASES]   (STAIRS_BIN: where the
#        binaries are; CASES: "200 2000" by default, the task counts)

secs=${1:-10}
cases=${2:-200 2000}
lib_name=bench_client
lib_skip=0
. "$(dirname "$0")/client_lib.sh"

# $1 scripted tasks on $2 CPUs: a quarter hogs, the rest sleepers of
# various patterns, nice -5..5, so stairs are busy on every CPU.
scenario() {
	{
		echo "name = \"bench$1\";"
		echo "description = \"$1 tasks on $2 CPUs for the client bench.\";"
		echo "cpus = $2;"
		echo 'tasks = ('
		i=1
		while [ "$i" -le "$1" ]; do
			nice=$((i % 11 - 5))
			sep=","
			[ "$i" -eq "$1" ] && sep=""
			if [ $((i % 4)) -eq 0 ]; then
				echo "  { name = \"hog$i\"; nice = $nice; }$sep"
			else
				run=$((i % 7 + 1))
				slp=$((i % 13 * 5 + 10))
				echo "  { name = \"t$i\"; nice = $nice;" \
				    "pattern = [ $run, $slp ]; }$sep"
			fi
			i=$((i + 1))
		done
		echo ');'
	} >"$tmp/bench$1.cfg"
}

# Measure the client $cpid and the daemon over $secs; print a row.
measure() {
	set -- "$1" "$2" $(usage_over "$secs" "$cpid" "$dpid")
	awk -v what="$1" -v goal="$2" -v s="$3" -v c="$4" -v w="$5" \
	    -v d="$6" 'BEGIN {
		printf "| %s | %s | %s | %s | %s | < %d: %s |\n", what, s, c,
		    w, d, goal, c + 0 < goal + 0 ? "met" : "missed"
	}'
}

echo "client CPU at 30 fps, over $secs s a row (load: $(cut -d' ' -f1-3 \
    /proc/loadavg))"
echo "| tasks, CPUs, screen, panes | seconds | client (% of a core) |" \
    "client wake-ups/s | daemon (% of a core) | goal (%) |"
echo "|---|---:|---:|---:|---:|---|"
for ntask in $cases; do
	case $ntask in
	200)	ncpu=4; w=120; h=40; goal=5 ;;
	*)	ncpu=8; w=200; h=60; goal=10 ;;
	esac
	scenario "$ntask" "$ncpu"
	if ! start_daemon "$tmp/bench$ntask.cfg"; then
		echo "bench_client: the daemon did not start:"
		cat "$tmp/daemon.log"
		exit 1
	fi
	tm_stop
	$tm new-session -d -s c -x "$w" -y "$h" \
	    "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock"
	cpid=$($tm display-message -p -t c '#{pane_pid}')
	if ! wait_screen "CPU$((ncpu - 1))" 100; then
		echo "bench_client: the client did not draw"
		screen
		exit 1
	fi
	sleep 2
	measure "$ntask on $ncpu, ${w}x$h, none" "$goal"
	$tm send-keys -t c w r
	if ! wait_screen "rank of " 50 || ! wait_screen "who ran when" 50
	then
		echo "bench_client: w r: no timeline or rank line"
		screen
		exit 1
	fi
	sleep 2
	measure "$ntask on $ncpu, ${w}x$h, timeline + rank line (w r)" \
	    "$goal"
	tm_stop
	stop_daemon
done
exit 0
