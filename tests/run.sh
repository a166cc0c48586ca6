#!/bin/sh
# run.sh BIN TBIN -- run every test: the cmocka units in TBIN and the
# end-to-end scripts tests/e2e_*.sh (with STAIRS_BIN=BIN).  Each program
# or script is one test; its own output says what it checked.
#
# - Tests run in parallel, at most $STAIRS_JOBS at once (default: two per
#   CPU: the tests mostly wait, on their daemons, children and tmux,
#   using under half a CPU between them).  Those marked serial below
#   (real processes, timing) never run at the same time as each other.
#   Those marked alone (they count a real process's wakes against the
#   wall clock) run last, each by itself.  The longest start first.
# - Each test's output goes to TBIN/log/NAME.out and is printed whole
#   when it ends, under "=== NAME", never interleaved with another's.
# - Each test has a time limit ($STAIRS_TEST_TIMEOUT seconds, default
#   120; the longest have two or three times that; $STAIRS_TEST_TIMEOUTS,
#   a list of NAME=SECONDS, overrides it per test).  One that overruns is
#   killed with its whole process group (timeout(1): TERM, then KILL 5 s later) and
#   named on a line "TIMEOUT: NAME after N s".  Any process still
#   carrying the test's STAIRS_RUN_TAG afterwards (a detached daemon, a
#   tmux server) is killed too, and named on a "STRAY:" line.
#
# Ends with "N passed, N failed, N skipped"; exit 0 when none failed.
bin=${1:-.}
tbin=${2:-build/obj/t}
jobs=${STAIRS_JOBS:-$((2 * $(nproc 2>/dev/null || echo 1)))}
limit_default=${STAIRS_TEST_TIMEOUT:-120}
logs=$tbin/log

# serial NAME: true for tests that use real processes or sample timing,
# and for e2e_layers.sh and e2e_import.sh, whose builds and recorded
# workloads (hackbench) would load the CPUs the others time.
serial() {
	case "$1" in
	test_proc|test_cgroup|test_daemon_life|test_daemon_storm|test_hold|test_observe|test_perfetto|e2e_real.sh|e2e_hold.sh|e2e_install.sh|e2e_kruns.sh|e2e_sleeping.sh|e2e_exit_tick.sh|e2e_layers.sh|e2e_import.sh)
		return 0 ;;
	esac
	return 1
}

# alone NAME: true for tests that need the CPUs to themselves: they
# count a real sleeper's wakes in wall-clock time, which other tests'
# load starves (test_observe saw 14 wakes where 70 come on a quiet box).
alone() {
	case "$1" in
	test_observe)
		return 0 ;;
	esac
	return 1
}

# limit NAME: the time limit of a test in seconds.
limit() {
	for o in $STAIRS_TEST_TIMEOUTS; do
		[ "${o%%=*}" = "$1" ] && { echo "${o#*=}"; return; }
	done
	case "$1" in
	e2e_real.sh)
		echo $((limit_default * 3)) ;;
	e2e_client.sh|e2e_client_many.sh|e2e_headless.sh|test_proc|\
	test_draw|e2e_client_hogs.sh|e2e_layers.sh)
		echo $((limit_default * 2)) ;;
	*)	echo "$limit_default" ;;
	esac
}

mkdir -p "$logs" || exit 1
rm -f "$logs"/*.out "$logs"/*.rc "$logs"/*.time
to=""
command -v timeout >/dev/null 2>&1 && to=timeout

# The longest tests (as measured), longest first: they start first.
long="e2e_real.sh e2e_client.sh e2e_headless.sh test_proc e2e_client_many.sh"
long="$long test_daemon_life test_daemon_cmds test_daemon_load"
long="$long test_engine_model test_engine_random"

# The tests: the long ones first, then the rest in name order.
all=""
for t in "$tbin"/test_* tests/e2e_*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *.o|*.d) continue;; esac
	all="$all $t"
done
pending=""
for n in $long; do
	for t in $all; do
		[ "${t##*/}" = "$n" ] && pending="$pending $t"
	done
done
for t in $all; do
	case " $long " in *" ${t##*/} "*) ;; *) pending="$pending $t" ;; esac
done

# start T: run test T in the background; NAME.rc appears when it ends.
start() {
	n=${1##*/}
	lim=$(limit "$n")
	tag="run$$-$n"
	(
		s=$(date +%s)
		if [ "${1%.sh}" != "$1" ]; then
			set -- sh "$1"
		fi
		env STAIRS_BIN="$bin" STAIRS_RUN_TAG="$tag" \
		    ${to:+$to -k 5 "$lim"} "$@" </dev/null >"$logs/$n.out" 2>&1
		rc=$?
		echo $(($(date +%s) - s)) >"$logs/$n.time"
		echo $rc >"$logs/$n.rc.tmp"
		mv "$logs/$n.rc.tmp" "$logs/$n.rc"
	) &
}

# sweep NAME: kill what the test left running, naming it.
sweep() {
	for f in $(grep -lzsx "STAIRS_RUN_TAG=run$$-$1" /proc/[0-9]*/environ \
	    2>/dev/null); do
		p=${f#/proc/}; p=${p%/environ}
		echo "STRAY: $1 left pid $p ($(tr '\0' ' ' 2>/dev/null \
		    <"/proc/$p/cmdline" | cut -c1-80)); killed"
		kill -KILL "$p" 2>/dev/null
	done
}

pass=0; fail=0; skip=0; failed=""
running=""; nrun=0; serial_busy=""; alone_busy=""
# Interrupted: take the running tests and what they started along.
trap 'for n in $running; do sweep "$n"; done; exit 130' INT TERM HUP
while [ -n "$pending" ] || [ $nrun -gt 0 ]; do
	# Start what may start, in order; the alone ones when nothing else
	# runs or waits.
	others=0
	for t in $pending; do
		alone "${t##*/}" || others=1
	done
	left=""
	for t in $pending; do
		n=${t##*/}
		if alone "$n"; then
			ok=$([ $nrun -eq 0 ] && [ $others -eq 0 ] && echo 1)
		else
			ok=$([ $nrun -lt "$jobs" ] && [ -z "$alone_busy" ] &&
			    { ! serial "$n" || [ -z "$serial_busy" ]; } &&
			    echo 1)
		fi
		if [ -n "$ok" ]; then
			start "$t"
			running="$running $n"; nrun=$((nrun + 1))
			serial "$n" && serial_busy=$n
			alone "$n" && alone_busy=$n
		else
			left="$left $t"
		fi
	done
	pending=$left
	# Collect what ended.
	still=""
	for n in $running; do
		if [ ! -e "$logs/$n.rc" ]; then
			still="$still $n"
			continue
		fi
		rc=$(cat "$logs/$n.rc"); secs=$(cat "$logs/$n.time")
		nrun=$((nrun - 1))
		[ "$serial_busy" = "$n" ] && serial_busy=""
		[ "$alone_busy" = "$n" ] && alone_busy=""
		echo "=== $n (${secs} s)"
		cat "$logs/$n.out"
		lim=$(limit "$n")
		if [ -n "$to" ] && { [ $rc -eq 124 ] ||
		    { [ $rc -eq 137 ] && [ "$secs" -ge "$lim" ]; }; }; then
			echo "TIMEOUT: $n after $secs s (limit $lim s); killed" \
			    "with its process group"
			rc=124
		fi
		sweep "$n"
		if [ $rc -eq 0 ]; then pass=$((pass + 1))
		elif [ $rc -eq 77 ]; then skip=$((skip + 1))
		else fail=$((fail + 1)); failed="$failed $n"
		fi
	done
	running=$still
	[ $nrun -gt 0 ] && sleep 0.1
done
# Each failed test's failing lines again, last, where a log cut to its
# tail (CI's) still shows them.
for n in $failed; do
	echo "--- $n: what failed"
	grep -E -i 'fail|error|timeout|abort|sanitizer' "$logs/$n.out" |
	    grep -v -E '^\[ +(RUN|OK) ' | head -12
done
[ -n "$failed" ] && echo "FAILED:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
