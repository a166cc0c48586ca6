#!/bin/sh
# e2e_hostile.sh -- every hostile-input reproduction of issue 12 against
# one real daemon, which must keep serving with bounded memory and exit
# cleanly at the end:
#   1  a reload whose config includes a directory
#   2  a reload whose config is a FIFO (and a scenario that is one)
#   3  stalled subscribers that never read; add past max_tasks
#   5  step 1000000 while another client asks for status; pause cancels
#   6  the open-file limit reached (a second daemon, under prlimit)
#   7  error replies to a 4 000-byte cpu list, raw UTF-8 and control bytes
#   8  numbers that would wrap, in a reload and in a scenario
#   9  a big scenario with a duplicate name at its end
#   10 the names ".", ".." and "-"
#   4  the client refusing a socket in a directory others may write
# Each check says what it saw when it fails.  Every wait has a deadline.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_hostile
chmod 700 "$tmp"
pids=""
groups=""
cleanup() {
	for p in $pids; do kill -KILL "$p" 2>/dev/null; done
	# Pipelines run in their own session (setsid): every process of
	# each.  (No "--": dash's kill takes none and would kill nothing.)
	for g in $groups; do kill -KILL "-$g" 2>/dev/null; done
}

[ -x "$sd" ] || { echo "no $sd"; exit 1; }
command -v socat >/dev/null || { echo "skip: no socat"; exit 77; }

# ASan pads allocations and keeps freed memory in quarantine.
case "$bin" in *asan*) mfactor=3 ;; *) mfactor=1 ;; esac

serving() {
	ask status | grep -q '^status tick='
}

# reload_more: has the log more "reload failed" lines than $rf_n?  (A
# function, so that wait_for counts again on every try: a "$(grep -c)"
# among wait_for's arguments is counted once, before the first try.)
reload_more() {
	[ "$(grep -c 'reload failed' "$tmp/log")" -gt "$rf_n" ]
}

# reload_fails WHAT: send SIGHUP and wait up to 20 s for one more "reload
# failed" in the log.  A timeout says, on its FAIL line, what the daemon
# was doing: its state, its pending, blocked and caught signals, and the
# log's last line.
reload_fails() {
	rf_n=$(grep -c 'reload failed' "$tmp/log")
	kill -HUP "$daemon" || { fail "kill -HUP $daemon failed"; return; }
	wait_for 20 "'reload failed' for $1" reload_more ||
	    fail "timed out: 'reload failed' for $1 (daemon state" \
		"$(proc_state "$daemon");" \
		"$(grep -E '^(SigPnd|ShdPnd|SigBlk|SigCgt)' \
		"/proc/$daemon/status" 2>/dev/null | tr '\n\t' '  ')" \
		"log: $(tail -n 1 "$tmp/log"))"
}

rss() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

sock="$tmp/socket"
cfg="$tmp/stairsd.cfg"
printf 'realtime = false;\nmax_tasks = 200;\n' >"$cfg"
"$sd" -f -c "$cfg" -S "$sock" 2>"$tmp/log" &
daemon=$!
pids="$pids $daemon"
wait_for 20 "the daemon to serve" serving || { cat "$tmp/log"; exit 1; }
rss0=$(rss "$daemon")

# 1: a reload whose config includes a directory.
printf 'realtime = false;\nmax_tasks = 200;\n@include "%s"\n' "$tmp" >"$cfg"
reload_fails "an include of a directory"
grep -q 'not a regular file' "$tmp/log" ||
    fail "the reload error does not say 'not a regular file'"
serving || fail "not serving after a reload including a directory"

# 2: a reload whose config is a FIFO: refused at once, never waited on.
rm -f "$cfg"
mkfifo "$cfg"
reload_fails "a FIFO"
t0=$(status_tick)
sleep 0.2
t1=$(status_tick)
[ -n "$t0" ] && [ -n "$t1" ] && [ "$t1" -gt "$t0" ] ||
    fail "the clock does not move after a FIFO reload ($t0 -> $t1)"
rm -f "$cfg"
printf 'realtime = false;\nmax_tasks = 200;\n' >"$cfg"

# 8: a reload with a number that would wrap keeps the running settings.
printf 'realtime = false;\nmax_clients = 4294967298;\n' >"$cfg"
reload_fails "a number that does not fit"
grep -q 'does not fit' "$tmp/log" ||
    fail "the reload error does not say 'does not fit'"
printf 'realtime = false;\nmax_tasks = 200;\n' >"$cfg"
serving || fail "not serving after the wrapping reload"

# 7: error replies are bounded printable ASCII.
long=$(head -c 4000 /dev/zero | tr '\0' '9')
ask "affinity hog $long" "add $(printf 'caf\303\251\001x')" \
    "spawn p -- $long" "$long" >"$tmp/errs"
[ "$(grep -c '^err ' "$tmp/errs")" -eq 4 ] ||
    fail "expected 4 err replies, got: $(head -c 300 "$tmp/errs")"
awk 'length($0) > 200 { exit 1 }' "$tmp/errs" ||
    fail "an error reply is longer than 200 bytes"
LC_ALL=C grep -q '[^ -~]' "$tmp/errs" &&
    fail "an error reply has a byte that is not printable ASCII"
# 7: a program found but failing exec (a long UTF-8 name): the daemon's
# log and the task's exit= field quote it too.
prog="$tmp/$(printf 'caf\303\251\177')$(head -c 200 /dev/zero | tr '\0' z)"
printf '\177ELFgarbage' >"$prog"
chmod 755 "$prog"
ask "spawn badexec -- $prog" | grep -q '^ok ' ||
    fail "spawn of a bad executable was not ok"
wait_for 20 "the failed exec in the log" grep -q 'badexec' "$tmp/log" ||
    fail "timed out: the failed exec in the log"
LC_ALL=C grep 'badexec' "$tmp/log" | grep -q '[^ -~]' &&
    fail "the log echoes raw bytes: $(grep badexec "$tmp/log" | head -c 300)"
grep 'badexec' "$tmp/log" | awk 'length($0) > 200 { exit 1 }' ||
    fail "the log echoes a long program name unbounded"
ask tasks | grep 'name=badexec' | grep -q 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz' &&
    fail "exit= echoes more than 40 characters of the program name"
ask "kill badexec" >/dev/null

# 10: reserved names.
for nm in . .. -; do
	ask "add $nm" | grep -q '^err ' || fail "add '$nm' was not refused"
done

# 3: max_tasks, then stalled subscribers.  First a real task that sleeps,
# so that the long step of 5 is paced (real tasks alive: the step takes
# its ticks' wall time); without one, its million ticks of 200 scripted
# tasks are over in half a second.
ask "spawn pacer -- sleep 1000" | grep -q '^ok ' ||
    fail "spawn of a sleeping real task was not ok"
i=0
: >"$tmp/adds"
while [ $i -lt 200 ]; do
	echo "add t$i"
	i=$((i + 1))
done | timeout 20 socat -t 5 - UNIX-CONNECT:"$sock" >"$tmp/adds" 2>&1
grep -q '^err too many tasks (max_tasks 200)' "$tmp/adds" ||
    fail "no 'too many tasks' past max_tasks: $(tail -1 "$tmp/adds")"
ask status | grep -q ' tasks=200 ' ||
    fail "not exactly 200 tasks: $(ask status | head -1)"
ask "speed 10" >/dev/null
i=0
while [ $i -lt 12 ]; do
	# A reader that never reads: socat blocks on the full pipe.
	# Each in its own session, so the cleanup ends the whole pipeline.
	setsid sh -c '(printf "subscribe 60\n"; sleep 30) |
	    socat -t 30 - UNIX-CONNECT:"$1" 2>/dev/null | sleep 30' \
	    sh "$sock" &
	groups="$groups $!"
	i=$((i + 1))
done
sleep 6
serving || fail "not serving with 12 stalled subscribers"
rss1=$(rss "$daemon")
grow=$(( (rss1 - rss0) / 1024 ))
limit=$(( (12 * 2 + 16) * mfactor ))
[ "$grow" -le "$limit" ] ||
    fail "12 stalled subscribers grew the daemon by $grow MiB (> $limit)"
echo "stalled subscribers: RSS $rss0 -> $rss1 kB"
ask status | grep -q 'dropped=\|^status' || fail "no status"

# 5: a long step does not stall the others; pause cancels it.
ask tasks | grep 'name=pacer' | grep -qv 'state=exited' ||
    fail "the real task that paces the step is gone"
ask pause >/dev/null
tick0=$(status_tick)
setsid sh -c '(printf "step 1000000\n"; sleep 20) | timeout 25 socat -t 20 - \
    UNIX-CONNECT:"$1" >"$2" 2>/dev/null' sh "$sock" "$tmp/step" &
groups="$groups $!"
# The step under way (paused, only it moves the tick) before the pause
# that is to cancel it: sent first, that pause would be a no-op.
wait_for 10 "the step under way" tick_past "$tick0" ||
    fail "the step did not start"
start=$(date +%s)
serving || fail "status did not answer during a long step"
[ $(( $(date +%s) - start )) -le 3 ] ||
    fail "status took more than 3 s during a long step"
ask pause | grep -q '^ok' || fail "pause during a step was not ok"
wait_for 20 "the step's cancel reply" grep -q '^err step cancelled' "$tmp/step" ||
    fail "timed out: the step's cancel reply"

# 9: a big scenario with a duplicate at its end is refused, FILE:LINE.
{
	printf 'name = "big";\ntasks = (\n'
	i=0
	while [ $i -lt 20000 ]; do
		printf '{ name = "t%d"; },\n' $i
		i=$((i + 1))
	done
	printf '{ name = "t7"; }\n);\n'
} >"$tmp/big.cfg"
timeout 60 "$sd" --headless --scenario "$tmp/big.cfg" --ticks 1 \
    >/dev/null 2>"$tmp/big.err"
rc=$?
[ $rc -eq 2 ] || fail "duplicate in a big scenario: exit $rc, not 2"
grep -q "^$tmp/big.cfg:20003: " "$tmp/big.err" ||
    fail "duplicate not named at its line: $(head -c 200 "$tmp/big.err")"

# 8: a scenario number that would wrap.
printf 'tasks = ( { name = "a"; nice = 4294967295; } );\n' >"$tmp/wrap.cfg"
"$sd" --headless --scenario "$tmp/wrap.cfg" --ticks 1 >/dev/null \
    2>"$tmp/wrap.err"
rc=$?
[ $rc -eq 2 ] && grep -q "^$tmp/wrap.cfg:1: " "$tmp/wrap.err" ||
    fail "nice = 4294967295: exit $rc, $(head -c 200 "$tmp/wrap.err")"

# 2: a scenario that is a FIFO is refused at once.
mkfifo "$tmp/fifo.cfg"
timeout 10 "$sd" --headless --scenario "$tmp/fifo.cfg" --ticks 1 \
    >/dev/null 2>"$tmp/fifo.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'not a regular file' "$tmp/fifo.err" ||
    fail "a FIFO scenario: exit $rc, $(head -c 200 "$tmp/fifo.err")"

# The daemon still serves, then exits cleanly.
serving || fail "not serving at the end"
kill -TERM "$daemon"
i=0
while kill -0 "$daemon" 2>/dev/null && [ $i -lt 400 ]; do
	sleep 0.05
	i=$((i + 1))
done
if kill -0 "$daemon" 2>/dev/null; then
	fail "still running 20 s after SIGTERM"
else
	wait "$daemon"
	rc=$?
	[ $rc -eq 0 ] || fail "exit status $rc after SIGTERM"
	[ -e "$sock" ] && fail "socket left behind"
fi

# 6: at the open-file limit the listener backs off instead of spinning.
if command -v prlimit >/dev/null; then
	sock2="$tmp/socket2"
	prlimit --nofile=40 "$sd" -f -c "$cfg" -S "$sock2" 2>"$tmp/log2" &
	d2=$!
	pids="$pids $d2"
	sock_save=$sock
	sock=$sock2
	wait_for 20 "the second daemon" serving ||
	    fail "timed out: the second daemon"
	i=0
	while [ $i -lt 50 ]; do
		setsid sh -c 'sleep 8 | socat -t 8 - UNIX-CONNECT:"$1" \
		    >/dev/null 2>&1' sh "$sock2" &
		groups="$groups $!"
		i=$((i + 1))
	done
	sleep 1
	c0=$(awk '{ print $14 + $15 }' "/proc/$d2/stat")
	sleep 2
	c1=$(awk '{ print $14 + $15 }' "/proc/$d2/stat")
	# Clock ticks of CPU in 2 s: a spinning listener uses nearly 200.
	[ $((c1 - c0)) -lt $((60 * mfactor)) ] ||
	    fail "at EMFILE the daemon used $((c1 - c0)) ticks of CPU in 2 s"
	nlog=$(grep -c -i 'accept' "$tmp/log2")
	[ "$nlog" -le 10 ] || fail "$nlog accept log lines at EMFILE"
	kill -TERM "$d2"
	wait_for 20 "the EMFILE daemon to exit" gone "$d2" >/dev/null ||
	    fail "the EMFILE daemon still runs 20 s after SIGTERM"
	sock=$sock_save
else
	echo "skip: no prlimit for the open-file limit check"
fi

# 4: the client refuses a socket in a directory others may write.
if [ -x "$bin/stairs" ] && command -v script >/dev/null; then
	mkdir -p "$tmp/open"
	chmod 777 "$tmp/open"
	"$sd" -f -c "$cfg" -S "$tmp/ok/socket" 2>"$tmp/log3" &
	d3=$!
	pids="$pids $d3"
	wait_for 20 "the third daemon" test -S "$tmp/ok/socket" ||
	    fail "timed out: the third daemon"
	ln "$tmp/ok/socket" "$tmp/open/socket" 2>/dev/null ||
	    cp -a "$tmp/ok/socket" "$tmp/open/socket"
	# Under script(1), so the client has a terminal and gets as far as
	# its checks.
	TERM=xterm timeout 10 script -qec "$bin/stairs -S $tmp/open/socket" \
	    /dev/null </dev/null >"$tmp/client.out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] ||
	    fail "the client used a socket in a mode 0777 directory (rc $rc)"
	grep -q "$tmp/open" "$tmp/client.out" ||
	    fail "the client's refusal does not name the directory:" \
	    "$(head -c 200 "$tmp/client.out")"
	kill -TERM "$d3"
	wait_for 20 "the third daemon to exit" gone "$d3" >/dev/null ||
	    fail "the third daemon still runs 20 s after SIGTERM"
fi

e2e_end
