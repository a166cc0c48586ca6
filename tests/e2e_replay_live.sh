#!/bin/sh
# e2e_replay_live.sh -- a recording played on the clock (SPEC.md section
# 12: the daemon `stairs --replay` starts, `stairsd --replay PATH`), end
# to end over socat:
# - a live daemon records two lessons (--record J --trace live.csv):
#   the demo with a nice change, then `load article` with another and
#   two answers to its question, revealed (a tally);
# - `stairsd -f --replay J --trace re.csv` opens part 1 at tick 0,
#   paused; `parts` lists both parts, the one shown marked; changes to
#   the engine and `load` are refused, the clock's commands are not;
#   resumed, part 1 stops at the tick the live daemon ended it, with an
#   event line; `part 2` opens the article at tick 0, paused; its
#   question's reveal shows the recorded votes; played to its end its
#   trace equals the live one,
#   byte for byte; a seek back and resume return to the present (the
#   past is view-only); `part 3` of two is refused.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_replay_live
e2e_daemon

# Record two lessons.
start demo --record "$tmp/j" --trace "$tmp/live.csv" || e2e_end
ask pause "nice 1 5" "step 400" >/dev/null
end1=$(status_tick)
# The article's question at 195: two answers, revealed (a tally).
ask "load article" "nice hog 3" "step 196" >/dev/null
ask readonly "answer 2" >/dev/null
ask readonly "answer 2" >/dev/null
ask resume pause >/dev/null
ask "step $((300 - $(status_tick)))" >/dev/null
kill "$daemon"
wait "$daemon"
daemon=""
[ "$(grep -c '^stairs-journal 1$' "$tmp/j")" = 2 ] &&
    grep -q '^196 tally votes=0,2,0$' "$tmp/j" &&
    ok "recorded two parts (part 1 ends at $end1)" ||
    fail "the recording: $(grep -v '^text' "$tmp/j")"

# Play it.
sock="$tmp/sock2"
"$sd" -f -c "$tmp/stairsd.cfg" -S "$sock" --replay "$tmp/j" \
    --trace "$tmp/re.csv" >"$tmp/log2" 2>&1 &
daemon=$!
wait_for 10 "the socket" test -S "$sock" ||
    { fail "no replaying daemon: $(cat "$tmp/log2")"; e2e_end; }
if [ "$(field scenario)" = demo ] && [ "$(field tick)" = 0 ] &&
    [ "$(field paused)" = 1 ] && [ "$(field part)" = 1 ] &&
    [ "$(field parts)" = 2 ]; then
	ok "--replay opens part 1 (demo) at tick 0, paused: part=1 parts=2"
else
	fail "--replay: $(ask status | sed 1d)"
fi
r=$(ask parts | sed 1d | tr '\n' ';')
case "$r" in
"part n=1 scenario=\"demo\" cpus=2 tasks=5 changes=1 end=$end1 shown=1;part n=2 scenario=\"article\" cpus=1 tasks=1 changes=2 end=300 shown=0;ok 2;")
	ok "parts: both, part 1 shown" ;;
*)	fail "parts: '$r'" ;;
esac
r=$(ask "nice 1 3" | sed 1d)
[ "$r" = "err replaying a recording: it shows what was, and changes nothing" ] &&
    ok "a change refused: $r" || fail "nice while replaying: '$r'"
r=$(ask "load article" | sed 1d)
case "$r" in
"err replaying a recording: \`part N\` moves between its 2 parts")
	ok "load refused: $r" ;;
*)	fail "load while replaying: '$r'" ;;
esac
(printf 'readonly\nsubscribe 5\n'; sleep 20) |
    socat -t 20 - UNIX-CONNECT:"$sock" >"$tmp/sub.out" 2>/dev/null &
sub=$!
wait_for 10 "the subscriber's first frame" grep -q '^frame ' "$tmp/sub.out"
ask "speed 100" resume >/dev/null
wait_for 20 "the end of part 1" sh -c \
    "printf 'status\n' | socat -t 5 - UNIX-CONNECT:$sock | grep -q ' paused=1 '"
[ "$(field tick)" = "$end1" ] && ok "part 1 stops where it ended: $end1" ||
    fail "part 1 stopped at $(field tick), not $end1"
wait_for 10 "the end's event" grep -q \
    "^event tick=$end1 text=the recording's part 1 of 2 ends here" \
    "$tmp/sub.out" && ok "an event line says so" ||
    fail "no end event: $(grep '^event' "$tmp/sub.out" | tail -2)"
kill "$sub" 2>/dev/null

r=$(ask "part 2" | sed 1d)
if [ "$r" = ok ] && [ "$(field scenario)" = article ] &&
    [ "$(field tick)" = 0 ] && [ "$(field paused)" = 1 ] &&
    [ "$(field part)" = 2 ]; then
	ok "part 2: the article at tick 0, paused"
else
	fail "part 2: '$r' $(ask status | sed 1d)"
fi
# Played through its question (the lesson pauses at 196) to the end.
ask "speed 100" resume >/dev/null
wait_for 20 "the question" tick_past 195
sleep 0.3
# Resumed, revealed, and paused at once: the next lesson event would
# end the reveal, a few ticks on (on a loaded machine before a status).
ask "speed 0.01" resume pause >/dev/null
[ "$(field ask)" = revealed ] && [ "$(field votes)" = 0,2,0 ] &&
    ok "the reveal shows the room's recorded answers: votes=0,2,0" ||
    fail "the reveal: $(ask status | sed 1d)"
ask "speed 100" resume >/dev/null
wait_for 20 "the end of part 2" tick_past 299
sleep 0.3
[ "$(field tick)" = 300 ] && [ "$(field paused)" = 1 ] &&
    ok "part 2 stops at 300" || fail "part 2: $(ask status | sed 1d)"
# (The trace is flushed on the pause.)
cmp -s "$tmp/live.csv" "$tmp/re.csv" &&
    ok "part 2's trace played equals the live one, byte for byte" ||
    fail "traces differ: $(cmp "$tmp/live.csv" "$tmp/re.csv" 2>&1)"
ask "seek 100" >/dev/null
r=$(ask resume pause | sed 1d | tr '\n' ' ')
n=$(field now)
[ "$r" = "ok ok " ] && [ "$(field live)" = 1 ] && [ "$n" -ge 300 ] &&
    ok "seek back, resume: the present again, $n (the past is view-only)" ||
    fail "seek, resume: '$r' $(ask status | sed 1d)"
r=$(ask "part 3" | sed 1d)
[ "$r" = "err $tmp/j: no part 3 (the journal has 2 parts)" ] &&
    ok "part 3 refused" || fail "part 3: '$r'"
kill "$daemon"
wait "$daemon"
daemon=""

e2e_end
