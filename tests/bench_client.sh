#!/bin/sh
# bench_client.sh -- the client's CPU use while it draws 200 tasks on 4
# CPUs at 30 frames a second: a live daemon runs a 200-task scenario
# (written to a temp file), the client runs in a private tmux server at
# 120x40, and the client's utime+stime from /proc/PID/stat is read over
# ~10 s.  The issue's goal: under 5% of one core.  Also the daemon's,
# for comparison.  Without the live daemon it says so and exits 0, so
# `make bench` goes on.
#
# Usage: bench_client.sh [SECONDS]   (STAIRS_BIN: where the binaries are)

secs=${1:-10}
lib_name=bench_client
lib_skip=0
. "$(dirname "$0")/client_lib.sh"

# 200 scripted tasks: a quarter hogs, the rest sleepers of various
# patterns, nice -5..5, so stairs are busy on every CPU.
{
	echo 'name = "bench200";'
	echo 'description = "200 tasks on 4 CPUs for the client bench.";'
	echo 'cpus = 4;'
	echo 'tasks = ('
	i=1
	while [ $i -le 200 ]; do
		nice=$((i % 11 - 5))
		sep=","
		[ $i -eq 200 ] && sep=""
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
} >"$tmp/bench200.cfg"

if ! start_daemon "$tmp/bench200.cfg"; then
	echo "bench_client: the daemon did not start:"
	cat "$tmp/daemon.log"
	exit 1
fi

$tm new-session -d -s c -x 120 -y 40 \
    "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock"
cpid=$($tm display-message -p -t c '#{pane_pid}')
if ! wait_screen CPU3 50; then
	echo "bench_client: the client did not draw"
	screen
	exit 1
fi
sleep 1

# utime + stime of a process, in clock ticks.
cputicks() {
	sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

hz=$(getconf CLK_TCK)
c0=$(cputicks "$cpid")
d0=$(cputicks "$dpid")
t0=$(date +%s.%N)
sleep "$secs"
c1=$(cputicks "$cpid")
d1=$(cputicks "$dpid")
t1=$(date +%s.%N)
greet=$(ask status | sed -n 2p)

echo "client CPU, 200 tasks on 4 CPUs, 120x40, 30 fps subscription"
echo "| seconds | client (% of a core) | daemon (% of a core) | goal |"
echo "|---|---|---|---|"
awk -v c0="$c0" -v c1="$c1" -v d0="$d0" -v d1="$d1" -v t0="$t0" \
    -v t1="$t1" -v hz="$hz" 'BEGIN {
	s = t1 - t0
	printf "| %.1f | %.2f | %.2f | client < 5 |\n", s,
	    (c1 - c0) / hz / s * 100, (d1 - d0) / hz / s * 100
}'
echo "daemon: $greet"
exit 0
