#!/bin/sh
# e2e_import.sh -- stairs-import end to end (SPEC.md section 11): its
# usage; bad traces refused with FILE:LINE and exit 2, lost events
# survived; then real traces of a real workload (stairs-load processes
# and hackbench, from Debian's rt-tests) recorded with the real tools --
# perf sched record + perf script, tracefs through --capture, and a
# tracefs instance read back by trace-cmd extract -B + trace-cmd report
# (trace-cmd record cannot run on this kind of VM) -- imported, each
# workload task's CPU time checked against the trace's (computed apart,
# by tests/cpu_of_trace.awk) within 1%, and replayed under every policy
# with the kernel as a row, whose figures match the trace too.  The
# captured scenario runs in a live daemon.  --capture's instance is gone
# afterwards, also when a SIGINT stops it.
#
# Where the machine cannot trace (not root, no tracefs, no perf...),
# those parts are skipped and say why; exit 77 if none could run.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_import

imp="$bin/stairs-import"
load="$bin/stairs-load"
[ -x "$imp" ] || { echo "no $imp"; exit 1; }
traced=0
inst=

cleanup() {
	[ -n "$daemon" ] && kill "$daemon" 2>/dev/null
	[ -n "$inst" ] && [ -d "$inst" ] && rmdir "$inst" 2>/dev/null
	:
}

# expect_status WANT CMD...: run CMD, output in $tmp/out and $tmp/err.
expect_status() {
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$* exited $got, want $want: $(head -3 "$tmp/err")"
		return 1
	fi
	return 0
}

# --- Usage. -------------------------------------------------------------
expect_status 0 "$imp" --help &&
    grep -q '^usage: stairs-import \[options\] FILE' "$tmp/out" &&
    ok "--help" || fail "--help"
expect_status 0 "$imp" --version &&
    [ "$(cat "$tmp/out")" = "stairs-import 0.1.0" ] && ok "--version" ||
    fail "--version"
expect_status 2 "$imp" && ok "no FILE: exit 2"
expect_status 2 "$imp" --top x f && ok "--top x: exit 2"
expect_status 2 "$imp" --from 2 --to 1 f && ok "--to before --from: exit 2"
expect_status 1 "$imp" "$tmp/nonexistent" && ok "a missing file: exit 1"

# --- Bad traces: FILE:LINE and exit 2. ----------------------------------
sw() {	# sw CPU TIME PREV PPID STATE NEXT NPID: one tracefs switch line
	printf '  x-1  [00%s] d..2.  %s: sched_switch: prev_comm=%s ' "$1" "$2" "$3"
	printf 'prev_pid=%s prev_prio=120 prev_state=%s ==> next_comm=%s ' "$4" "$5" "$6"
	printf 'next_pid=%s next_prio=120\n' "$7"
}
# bad NAME LINE TEXT: the trace in $tmp/NAME is refused at LINE.
bad() {
	if expect_status 2 "$imp" "$tmp/$1" -o "$tmp/$1.cfg"; then
		if grep -q "^$tmp/$1:$2: $3" "$tmp/err"; then
			ok "$1: refused at line $2"
		else
			fail "$1: wanted '$tmp/$1:$2: $3', got: $(cat "$tmp/err")"
		fi
		[ -e "$tmp/$1.cfg" ] && fail "$1: left a scenario behind"
	fi
}
{ sw 0 1.000000 a 5 S b 6; echo 'garbage here'; } > "$tmp/garbled"
bad garbled 2 "not a line of perf script"
{ sw 0 1.000000 a 5 S b 6
  printf '%s' "$(sw 0 1.000100 b 6 S a 5 | cut -c1-60)"; } > "$tmp/truncated"
bad truncated 2 "truncated"
{ sw 0 1.000000 a 5 S b 6
  echo '       b     6 [000]  1.000100:       sched:sched_switch: prev_comm=b prev_pid=6 prev_prio=120 prev_state=S ==> next_comm=a next_pid=5 next_prio=120'
} > "$tmp/mixed"
bad mixed 2 "a mix of formats"
{ sw 0 1.000000 a 5 S b 6; sw 1 1.000100 c 7 S b 6; sw 0 1.000200 b 6 S a 5
} > "$tmp/twice"
bad twice 2 "pid 6 (b) is switched in on CPU 1 while it runs on CPU 0"
{ sw 0 1.000200 a 5 S b 6; sw 0 1.000100 b 6 S a 5; } > "$tmp/back"
bad back 2 "time goes back on CPU 0"
# Lost events: survived, counted.
{ sw 0 1.000000 a 5 S b 6; echo 'CPU:0 [LOST 42 EVENTS]'
  sw 0 1.002000 c 7 S a 5; sw 0 1.003000 a 5 S b 6; } > "$tmp/lost"
if expect_status 0 "$imp" "$tmp/lost" -o "$tmp/lost.cfg"; then
	grep -q '42 events lost' "$tmp/err" && ok "lost events: counted" ||
	    fail "lost events: no count: $(cat "$tmp/err")"
fi

# --- Real traces. -------------------------------------------------------
# check TRACE SCENARIO WHAT: each workload task's CPU time (stairs-load,
# hackbench) in the scenario's bursts, in the replay under each policy
# and in the kernel block, against the trace's within 1% (or a tick).
check() {
	# A switch the recording missed (tracefs drops some under load
	# here; stairs-import says how many it repaired) leaves a gap the
	# trace cannot say whose it was: the importer and the awk may each
	# give it to another task.  Each repair may leave two tasks off.
	gaps=$(sed -n 's/.*: \([0-9]*\) switches missing.*/\1/p; s/.*; \([0-9]*\) impossible steps.*/\1/p' \
	    "$tmp/err" | awk '{ n += $1 } END { print n + 0 }')
	allow=$((gaps * 2))
	awk -f tests/cpu_of_trace.awk "$1" | sort > "$tmp/trace.cpu"
	# name -> pid, and the sum of its run bursts (us).
	awk '/name = "/ { match($0, /name = "[^"]*"/)
		n = substr($0, RSTART + 8, RLENGTH - 9) }
	    /bursts = \[/ { inb = 1; k = 0 }
	    inb { s = $0; sub(/.*\[/, "", s); sub(/\].*/, "", s)
		gsub(/[^0-9,]/, "", s); m = split(s, v, ",")
		for (i = 1; i <= m; i++) if (v[i] != "") {
			if (k % 2 == 0) sum[n] += v[i]; k++ }
		if ($0 ~ /\]/) inb = 0 }
	    END { for (n in sum) { p = n; sub(/.*-/, "", p); sub(/\..*/, "", p)
		print p, n, sum[n] } }' "$2" | sort > "$tmp/bursts.cpu"
	join "$tmp/trace.cpu" "$tmp/bursts.cpu" > "$tmp/both"
	n=0; off=0
	while read -r pid us name imp_us; do
		case "$name" in stairs-load-*|hackbench-*) ;; *) continue ;; esac
		n=$((n + 1))
		awk -v a="$us" -v b="$imp_us" 'BEGIN { d = a - b; if (d < 0) d = -d
		    exit !(d <= a / 100 || d <= 1) }' || {
			off=$((off + 1)); echo "  $name: trace $us us, imported $imp_us us"; }
	done < "$tmp/both"
	if [ "$n" -eq 0 ]; then
		fail "$3: no stairs-load or hackbench task imported"
		return 1
	fi
	if [ "$off" -eq 0 ]; then
		ok "$3: $n workload tasks' CPU time within 1% of the trace's"
	elif [ "$off" -le "$allow" ]; then
		ok "$3: $n workload tasks' CPU time within 1% of the trace's but $off, where the recording missed switches ($gaps repaired)"
	else
		fail "$3: $off of $n workload tasks off by more than 1% ($gaps switches repaired)"
	fi
	# Replay: every policy, the kernel as a row; long enough that every
	# task's bursts are played out.
	span=$(sed -n 's/.*--ticks \([0-9]*\) --compare.*/\1/p' "$2")
	ticks=$((span * 4 + 2000))
	if ! expect_status 0 "$sd" --headless --scenario "$2" --ticks "$ticks" \
	    --compare staircase,o1,cfs,rr,kernel; then
		return 1
	fi
	cp "$tmp/out" "$tmp/compare"
	for p in staircase o1 cfs rr kernel; do
		grep -q "^policy $p\$" "$tmp/compare" || fail "$3: no $p block"
	done
	# ran (ticks) per task per policy vs the trace's ms.
	awk -v trace="$tmp/both" 'BEGIN { while ((getline l < trace) > 0) {
		split(l, f, " "); us[f[3]] = f[2] } }
	    /^policy / { pol = $2; next }
	    /^task,/ || /^$/ { next }
	    { split($0, c, ","); name = c[1]
	      if (name !~ /^(stairs-load|hackbench)-/ || !(name in us)) next
	      n++; ms = us[name] / 1000; d = c[4] - ms; if (d < 0) d = -d
	      if (d > ms / 100 && d > 1) { bad++
		print "  " pol " " name ": ran " c[4] ", trace " ms " ms" } }
	    END { print n " " bad + 0 > "/dev/stderr" }' "$tmp/compare" \
	    2>"$tmp/counts" | head -20
	read -r n bad < "$tmp/counts"
	if [ "${bad:-1}" -eq 0 ]; then
		ok "$3: replayed under staircase, o1, cfs, rr; each task's ran and the kernel's within 1% of the trace ($n rows)"
	elif [ "$bad" -le $((allow * 5)) ]; then
		ok "$3: replayed under every policy and the kernel's row; $bad of $n rows off by more than 1%, of tasks where the recording missed switches ($gaps repaired)"
	else
		fail "$3: $bad of $n rows' CPU time off by more than 1% ($gaps switches repaired)"
	fi
}

# workload: two stairs-load processes and hackbench, for about a second.
workload() {
	"$load" --run 20 --sleep 10 --count 25 &
	"$load" --run 3 --sleep 7 --count 80 &
	hackbench -g 2 -l 40 >/dev/null 2>&1
	wait
}

why=
if [ "$(id -u)" != 0 ]; then
	why="not root"
elif [ ! -d /sys/kernel/tracing ]; then
	why="no /sys/kernel/tracing"
elif ! command -v hackbench >/dev/null 2>&1; then
	why="no hackbench (Debian rt-tests)"
fi

# perf sched record.
if [ -n "$why" ]; then
	echo "skip: perf sched record: $why"
elif ! command -v perf >/dev/null 2>&1; then
	echo "skip: perf sched record: no perf (Debian linux-perf)"
elif ! perf sched record -o "$tmp/perf.data" -- sh -c \
    "'$load' --run 20 --sleep 10 --count 25 &
    '$load' --run 3 --sleep 7 --count 80 &
    hackbench -g 2 -l 40 >/dev/null 2>&1; wait" >"$tmp/perf.log" 2>&1; then
	echo "skip: perf sched record cannot record here: $(tail -2 "$tmp/perf.log")"
else
	perf script -i "$tmp/perf.data" > "$tmp/perf.txt" 2>/dev/null
	if expect_status 0 "$imp" "$tmp/perf.txt" -o "$tmp/perf.cfg"; then
		grep -q '(perf script)' "$tmp/perf.cfg" &&
		    ok "perf: recognized as perf script" ||
		    fail "perf: not recognized: $(head -2 "$tmp/perf.cfg")"
		check "$tmp/perf.txt" "$tmp/perf.cfg" "perf sched record"
		traced=1
	fi
fi

# tracefs, through --capture.
if [ -n "$why" ]; then
	echo "skip: --capture: $why"
else
	workload &
	wl=$!
	if expect_status 0 "$imp" --capture 2 --save "$tmp/cap.txt" \
	    -o "$tmp/cap.cfg"; then
		ls /sys/kernel/tracing/instances | grep -q '^stairs-import-' &&
		    fail "--capture left its instance behind" ||
		    ok "--capture: its instance is gone"
		grep -q '(tracefs trace)' "$tmp/cap.cfg" &&
		    ok "--capture: a tracefs trace" || fail "--capture: form"
		check "$tmp/cap.txt" "$tmp/cap.cfg" "--capture"
		traced=1
		# The captured scenario loads in a live daemon and runs.
		: > "$tmp/stairsd.cfg"
		if start "$tmp/cap.cfg"; then
			wait_for 10 "the daemon to run the capture" sh -c \
			    "printf 'status\n' | timeout 5 socat -t 2 - \
			    UNIX-CONNECT:$sock 2>/dev/null | grep -q 'imported'" &&
			    ok "--capture: the scenario runs in a live daemon" ||
			    fail "--capture: the live daemon: $(cat "$tmp/log")"
			kill "$daemon"; wait "$daemon" 2>/dev/null; daemon=
		fi
	else
		case "$(cat "$tmp/err")" in
		*"cannot trace"*) echo "skip: --capture: $(cat "$tmp/err")";
			failed=$((failed - 1)) ;;
		esac
	fi
	wait "$wl" 2>/dev/null
	# SIGINT while capturing: exit 130, the instance removed.
	"$imp" --capture 60 -o "$tmp/int.cfg" 2>"$tmp/int.err" &
	ip=$!
	if wait_for 10 "the capture's instance" sh -c \
	    "ls /sys/kernel/tracing/instances | grep -q '^stairs-import-$ip\$'"; then
		kill -INT "$ip"
		wait "$ip"
		st=$?
		[ "$st" -eq 130 ] && ok "--capture: SIGINT exits 130" ||
		    fail "--capture: SIGINT exited $st"
		[ -d "/sys/kernel/tracing/instances/stairs-import-$ip" ] &&
		    fail "--capture: SIGINT left its instance" ||
		    ok "--capture: SIGINT removes its instance"
	else
		kill "$ip" 2>/dev/null
		fail "--capture 60: no instance appeared: $(cat "$tmp/int.err")"
	fi
fi

# trace-cmd report of a tracefs instance (trace-cmd extract -B).
if [ -n "$why" ]; then
	echo "skip: trace-cmd: $why"
elif ! command -v trace-cmd >/dev/null 2>&1; then
	echo "skip: trace-cmd: not installed (Debian trace-cmd)"
else
	name=stairs-e2e-$$
	inst=/sys/kernel/tracing/instances/$name
	if mkdir "$inst" 2>/dev/null; then
		for e in sched_switch sched_wakeup sched_waking sched_wakeup_new \
		    sched_process_fork sched_process_exit; do
			echo 1 > "$inst/events/sched/$e/enable"
		done
		echo 1 > "$inst/tracing_on"
		workload
		echo 0 > "$inst/tracing_on"
		trace-cmd extract -B "$name" -o "$tmp/tc.dat" >/dev/null 2>&1
		rmdir "$inst" 2>/dev/null
		inst=
		if trace-cmd report -i "$tmp/tc.dat" > "$tmp/tc.txt" 2>/dev/null &&
		    expect_status 0 "$imp" "$tmp/tc.txt" -o "$tmp/tc.cfg"; then
			grep -q '(trace-cmd report)' "$tmp/tc.cfg" &&
			    ok "trace-cmd: recognized" || fail "trace-cmd: form"
			check "$tmp/tc.txt" "$tmp/tc.cfg" "trace-cmd report"
			traced=1
		else
			fail "trace-cmd report: $(head -3 "$tmp/err")"
		fi
	else
		echo "skip: trace-cmd: cannot make a tracefs instance"
		inst=
	fi
fi

if [ "$traced" -eq 0 ] && [ "$failed" -eq 0 ]; then
	echo "e2e_import: skipped: the machine cannot trace"
	exit 77
fi
e2e_end
