#!/bin/sh
# e2e_seek.sh -- rewind in a live daemon, end to end over socat:
# - with scripted tasks, `seek T` back (and then forward) shows exactly
#   the state the daemon had at tick T (its `tasks` and `cpus` replies
#   saved then, changes made by clients before T included), with
#   `live=0` and `now=` the present; `seek NOW` is the present again;
# - a seek outside the history is refused with its bounds, and changes
#   nothing (a running clock is not paused);
# - after a seek, `step` (like resume) goes on from there: a branch; the
#   state then is what it was the first time through, and the journal
#   recorded (--record) replays to the live trace byte for byte, the
#   branch's repeated rows included;
# - with real tasks a seek is view-only: `resume` returns to the present;
#   changes are refused while viewing the past;
# - `table` while viewing the past is the past's, up to the tick shown (now=);
# - `marks` lists the scenario's marks.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_seek
e2e_daemon 'history = 60;'
cat >"$tmp/mix.cfg" <<EOF
name = "mix";
cpus = 2;
tasks = (
  { name = "hog"; },
  { name = "inter"; pattern = [ 3, 30 ]; },
  { name = "low"; nice = 10; }
);
events = (
  { at = 2500; action = "nice"; task = "hog"; value = 5; },
  { at = 100; action = "mark"; text = "first chapter"; },
  { at = 9000; action = "mark"; text = "second chapter"; }
);
EOF

# say LINES: ask, less the greeting.
say() {
	ask "$@" | sed 1d
}
# to T: step the paused daemon to tick T.
to() {
	n=$(($1 - $(field now)))
	[ "$n" -gt 0 ] && say "step $n" >/dev/null
}
# state FILE: the tasks and cpus replies.
state() {
	say tasks cpus >"$1"
}

sock="$tmp/sock"
"$sd" -f -c "$tmp/stairsd.cfg" -S "$sock" --scenario "$tmp/mix.cfg" \
    --record "$tmp/j" --trace "$tmp/live.csv" >"$tmp/log" 2>&1 &
daemon=$!
wait_for 10 "the socket" test -S "$sock" || { fail "no daemon: $(cat "$tmp/log")"; e2e_end; }
say pause >/dev/null

to 1000; say "sleep inter 70" "add extra nice=2 pattern=5,5" >/dev/null
to 2000; state "$tmp/s2000"
to 3000; say "nice low -3" "affinity hog 1" >/dev/null
to 4500; state "$tmp/s4500"
to 5500; state "$tmp/s5500"
to 6000; say "kill extra" >/dev/null
to 8000

r=$(say "seek 4500")
if [ "$r" = ok ] && [ "$(field tick)" = 4500 ] && [ "$(field now)" = 8000 ] &&
    [ "$(field live)" = 0 ]; then
	ok "seek 4500: tick=4500 now=8000 live=0"
else
	fail "seek 4500: '$r' $(say status)"
fi
state "$tmp/v4500"
cmp -s "$tmp/s4500" "$tmp/v4500" && ok "seek back: the state at 4500 as it was" ||
    fail "seek 4500 differs: $(diff "$tmp/s4500" "$tmp/v4500" | head -5)"
say "seek 2000" >/dev/null
state "$tmp/v2000"
cmp -s "$tmp/s2000" "$tmp/v2000" && ok "seek 2000: as it was" ||
    fail "seek 2000 differs: $(diff "$tmp/s2000" "$tmp/v2000" | head -5)"
say "seek 4500" >/dev/null
state "$tmp/v4500b"
cmp -s "$tmp/s4500" "$tmp/v4500b" && ok "seek forward 2000 -> 4500: as it was" ||
    fail "seek forward differs"
r=$(say "nice low 3")
case "$r" in
"err viewing the past (tick 4500 of 8000): resume first") ok "changes refused in the past" ;;
*) fail "nice in the past: '$r'" ;;
esac
# table in the past: the past's counts, up to the tick shown.
t=$(say "table hog" | sed -n 1p)
case "$t" in
"table task=1 name=hog "*" now=4500 descent="[0-9]*) ok "table in the past: now=4500 (the past's counts)" ;;
*) fail "table in the past is not the past's: '$t'" ;;
esac
r=$(say "seek 9000")
[ "$r" = "err seek: tick 9000 is outside the history 0..8000" ] &&
    ok "seek past now refused: $r" || fail "seek 9000: '$r'"
say "seek 8000" >/dev/null
[ "$(field live)" = 1 ] && [ "$(field tick)" = 8000 ] &&
    ok "seek now: the present again" || fail "seek 8000: $(say status)"

# marks
m=$(say marks)
exp="mark tick=100 text=first chapter
mark tick=9000 text=second chapter
ok 2"
[ "$m" = "$exp" ] && ok "marks" || fail "marks: $m"

# Branch: seek 4500, step on: the same road again up to the old changes.
say "seek 4500" >/dev/null
say "step 1000" >/dev/null
state "$tmp/b5500"
if [ "$(field tick)" = 5500 ] && [ "$(field live)" = 1 ] &&
    cmp -s "$tmp/s5500" "$tmp/b5500"; then
	ok "branch at 4500, step 1000: the state at 5500 as before"
else
	fail "branch: $(say status); $(diff "$tmp/s5500" "$tmp/b5500" | head -3)"
fi
# A different road: extra is not killed this time.
to 7000
say "sleep hog 10" >/dev/null
to 7500
kill "$daemon"
wait "$daemon"
daemon=""
grep -q '^8000 branch tick=4500$' "$tmp/j" && ok "journal: 8000 branch tick=4500" ||
    fail "no branch line: $(grep branch "$tmp/j")"
"$sd" --headless --replay "$tmp/j" --trace "$tmp/re.csv" 2>"$tmp/err"
if cmp "$tmp/live.csv" "$tmp/re.csv"; then
	ok "replay of the branched journal = live trace ($(wc -l <"$tmp/re.csv") lines)"
else
	fail "branched replay differs: $(head -3 "$tmp/err")"
fi

# Real tasks: view-only.
command -v stairs-load >/dev/null 2>&1 || [ -x "$bin/stairs-load" ] || {
	echo "skipped: real tasks (no stairs-load)"; e2e_end; }
"$sd" -f -c "$tmp/stairsd.cfg" -S "$sock" --scenario real-mixed \
    >"$tmp/log2" 2>&1 &
daemon=$!
wait_for 10 "the socket" test -S "$sock" || { fail "no daemon: $(cat "$tmp/log2")"; e2e_end; }
wait_for 20 "tick 1500" tick_past 1500
say "seek 1000" >/dev/null
now=$(field now)
if [ "$(field tick)" = 1000 ] && [ "$(field live)" = 0 ]; then
	ok "real tasks: seek 1000 viewed (now $now)"
else
	fail "real seek: $(say status)"
fi
say resume >/dev/null
t=$(field tick)
if [ "$(field live)" = 1 ] && [ "$t" -ge "$now" ]; then
	ok "real tasks: resume returns to the present ($t >= $now)"
else
	fail "real resume: $(say status)"
fi
# A refused seek changes nothing: the clock runs on, not paused.
r=$(say "seek 999999999")
case "$r" in
"err seek: tick 999999999 is outside the history "*) ;;
*) fail "seek 999999999: '$r'" ;;
esac
[ "$(field paused)" = 0 ] && ok "a refused seek leaves the clock running" ||
    fail "a refused seek paused the daemon: $(say status)"
kill "$daemon"
wait "$daemon"
st=$?
daemon=""
[ "$st" -eq 0 ] && ok "exit 0" || fail "exit $st"
e2e_end
