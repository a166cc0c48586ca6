#!/bin/sh
# e2e_room.sh -- the room answers (SPEC.md section 12; issue 25), end to
# end over socat with a real daemon recording its journal:
# - an `ask` with `choices` pauses the clock; `status` and frames say
#   `ask=open votes=0,0,0`, frames carry a `choice n=N text=...` line per
#   choice; before it, `answer 1` is refused;
# - every connection answers, read-only ones too, one answer each that
#   it may change (`answer 1` then `answer 3` counts once, for 3); a
#   choice out of range or not a number is refused;
# - `resume` reveals: `ask=revealed` with the votes, the answer the
#   caption, a `votes: ...` event line, a `tally votes=...` line in the
#   journal; answering then is refused; the next lesson event ends it
#   (`ask=none votes=-`);
# - a step past a question reveals it as resume does: its votes, the
#   answer, the tally in the journal;
# - the journal replays (the tally changes nothing in the engine): its
#   trace equals the live one.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_room
sub=""
cleanup() {
	[ -n "$sub" ] && kill "$sub" 2>/dev/null
	[ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null
}

e2e_daemon
cat >"$tmp/quiz.cfg" <<EOF
name = "quiz";
cpus = 1;
speed = 0.5;
tasks = ( { name = "hog"; }, { name = "inter"; pattern = [ 2, 30 ]; } );
events = (
  { at = 1500; action = "ask"; text = "Who runs next?";
    answer = "inter: it woke at a better rank";
    choices = [ "hog", "inter", "nobody" ]; },
  { at = 1560; action = "caption"; text = "On we go"; },
  { at = 2200; action = "ask"; text = "And now?"; answer = "The hog";
    choices = [ "inter", "hog" ]; }
);
EOF

# paused: is the daemon's clock stopped?  (A condition for wait_for.)
paused() {
	[ "$(field paused)" = 1 ]
}
# say LINES: the replies, less the greeting.
say() {
	ask "$@" | sed 1d
}

start "$tmp/quiz.cfg" --record "$tmp/j" --trace "$tmp/live.csv" || e2e_end
(printf 'readonly\nsubscribe 30\n'; sleep 30) |
    socat -t 30 - UNIX-CONNECT:"$sock" >"$tmp/sub.out" 2>/dev/null &
sub=$!

r=$(say "answer 1")
[ "$r" = "err no question with choices is open" ] &&
    ok "before the question: $r" || fail "answer before the question: '$r'"
[ "$(field ask)" = none ] && [ "$(field votes)" = - ] &&
    ok "status: ask=none votes=-" || fail "status: $(ask status | sed 1d)"

wait_for 20 "the question's pause" paused
if [ "$(field ask)" = open ] && [ "$(field votes)" = 0,0,0 ] &&
    [ "$(field tick)" = 1501 ]; then
	ok "the ask pauses at 1501: ask=open votes=0,0,0"
else
	fail "at the question: $(ask status | sed 1d)"
fi

# Three read-only connections; the first changes its mind.
r=$(say readonly "answer 1" "answer 3" | tr '\n' ' ')
[ "$r" = "ok ok ok " ] && ok "read-only: answer 1, then 3" ||
    fail "read-only answers: '$r'"
say readonly "answer 2" >/dev/null
say readonly "answer 2" >/dev/null
v=$(field votes)
[ "$v" = 0,2,1 ] && ok "votes=0,2,1: one answer per connection" ||
    fail "votes=$v, wanted 0,2,1"
r=$(say "answer 4")
[ "$r" = "err answer 4: the question has choices 1..3" ] &&
    ok "out of range: $r" || fail "answer 4: '$r'"
r=$(say "answer two")
case "$r" in
"err answer \"two\": not a choice's number"*) ok "not a number: refused" ;;
*) fail "answer two: '$r'" ;;
esac
wait_for 10 "a frame with the votes" grep -q \
    '^frame .* ask=open votes=0,2,1' "$tmp/sub.out" &&
    ok "frames say ask=open votes=0,2,1" ||
    fail "no frame with the votes: $(grep '^frame' "$tmp/sub.out" | tail -1)"
grep -q '^choice n=1 text=hog$' "$tmp/sub.out" &&
    grep -q '^choice n=3 text=nobody$' "$tmp/sub.out" &&
    ok "frames carry the choices" || fail "no choice lines in the frames"

# The reveal (slowly: the caption 60 ticks on ends it).
ask "speed 0.01" resume >/dev/null
ask pause >/dev/null
if [ "$(field ask)" = revealed ] && [ "$(field votes)" = 0,2,1 ]; then
	ok "resume reveals: ask=revealed votes=0,2,1"
else
	fail "after resume: $(ask status | sed 1d)"
fi
r=$(say "answer 1")
[ "$r" = "err no question with choices is open" ] &&
    ok "after the reveal: $r" || fail "answer after the reveal: '$r'"
wait_for 10 "the votes event" grep -q '^event tick=[0-9]* text=votes: 0,2,1$' \
    "$tmp/sub.out" && ok "an event line says the votes" ||
    fail "no votes event: $(grep '^event' "$tmp/sub.out" | tail -3)"
grep -q '^caption tick=[0-9]* text=inter: it woke' "$tmp/sub.out" &&
    ok "the answer is the caption" || fail "no answer caption"
ask "speed 0.5" resume >/dev/null
wait_for 20 "tick 1561" tick_past 1561
[ "$(field ask)" = none ] && [ "$(field votes)" = - ] &&
    ok "the next lesson event ends it: ask=none" ||
    fail "after the caption: $(ask status | sed 1d)"

# A step past the next question reveals it too.
wait_for 20 "the second question's pause" paused
[ "$(field tick)" = 2201 ] && [ "$(field ask)" = open ] ||
    fail "at the second question: $(ask status | sed 1d)"
say readonly "answer 2" >/dev/null
ask "step 5" >/dev/null
if [ "$(field ask)" = revealed ] && [ "$(field votes)" = 0,1 ]; then
	ok "step reveals: ask=revealed votes=0,1"
else
	fail "after step: $(ask status | sed 1d)"
fi
wait_for 10 "the step's votes event" grep -q \
    '^event tick=[0-9]* text=votes: 0,1$' "$tmp/sub.out" &&
    ok "an event line says the step's votes" ||
    fail "no votes event after step: $(grep '^event' "$tmp/sub.out" | tail -3)"
wait_for 10 "the step's answer" grep -q '^caption tick=[0-9]* text=The hog$' \
    "$tmp/sub.out" && ok "the step shows the answer" ||
    fail "no answer caption after step"

kill "$daemon"
wait "$daemon"
daemon=""
t=$(grep ' tally ' "$tmp/j" | tr '\n' ' ')
case "$t" in
"1501 tally votes=0,2,1 2201 tally votes=0,1 ")
	ok "the journal keeps both tallies: $t" ;;
*) fail "journal: '$t': $(grep -v '^text' "$tmp/j")" ;;
esac
"$sd" --headless --replay "$tmp/j" --trace "$tmp/re.csv" 2>"$tmp/err" &&
    cmp -s "$tmp/live.csv" "$tmp/re.csv" &&
    ok "the journal replays: the same trace" ||
    fail "replay: $(cat "$tmp/err"); $(cmp "$tmp/live.csv" "$tmp/re.csv" 2>&1)"

e2e_end
