#!/bin/sh
# bench_client_scale.sh -- the whole client at scale (issue 13): a live
# daemon runs N CPU hogs on 8 CPUs (N = 2 000 and 20 000, at speed 1),
# the client runs in a private tmux server at 200x60 subscribed at 30
# fps, and over SECONDS (default 10) the client's utime+stime and its
# voluntary context switches (wake-ups) come from /proc/PID, with the
# daemon's CPU beside them.  This client subscribes with delta frames;
# with STAIRS_OLD_CLIENT (a directory holding an older `stairs`, one
# from before delta frames, which gets full frames) the old client is
# measured too, against the same daemon (STAIRS_OLD_CLIENT_FRAMES names
# what it subscribes to: "full" unless said).  Goal at 20 000: the client
# under 10 % of a core.
#
# Usage: bench_client_scale.sh [SECONDS]   (STAIRS_BIN: where the
#        binaries are)

secs=${1:-10}
lib_name=bench_client_scale
lib_skip=0
. "$(dirname "$0")/client_lib.sh"

# $1 CPU hogs on 8 CPUs.
scenario() {
	{
		echo "name = \"hogs$1\";"
		echo 'cpus = 8;'
		echo 'tasks = ('
		i=1
		while [ "$i" -le "$1" ]; do
			sep=","
			[ "$i" -eq "$1" ] && sep=""
			echo "  { name = \"h$i\"; }$sep"
			i=$((i + 1))
		done
		echo ');'
	} >"$tmp/hogs$1.cfg"
}

echo "client at scale: N hogs on 8 CPUs, 200x60, 30 fps, over $secs s"
echo "| tasks | client | frames | client CPU (% of a core) |" \
    "client wake-ups/s | daemon CPU (% of a core) |"
echo "|---:|---|---|---:|---:|---:|"
for ntask in 2000 20000; do
	scenario "$ntask"
	if ! start_daemon "$tmp/hogs$ntask.cfg"; then
		echo "bench_client_scale: the daemon did not start:"
		cat "$tmp/daemon.log"
		exit 1
	fi
	for which in new old; do
		cbin=$bin
		what="delta"
		if [ "$which" = old ]; then
			[ -n "$STAIRS_OLD_CLIENT" ] || continue
			cbin=$(cd "$STAIRS_OLD_CLIENT" && pwd)
			what=${STAIRS_OLD_CLIENT_FRAMES:-full}
		fi
		tm_stop
		$tm new-session -d -s c -x 200 -y 60 \
		    "exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 $cbin/stairs -S $sock"
		cpid=$($tm display-message -p -t c '#{pane_pid}')
		if ! wait_screen CPU7 100; then
			echo "bench_client_scale: the client did not draw"
			screen
			exit 1
		fi
		sleep 2
		set -- $(usage_over "$secs" "$cpid" "$dpid")
		echo "| $ntask | $which | $what | $2 | $3 | $4 |"
	done
	tm_stop
	stop_daemon
done
exit 0
