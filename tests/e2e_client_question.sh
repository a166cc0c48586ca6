#!/bin/sh
# e2e_client_question.sh -- a question never slips past the room (issue
# 25, item 1), end to end: a live daemon and `stairs` in tmux at
# 120x40.  The lesson pauses at 0 under a caption, and asks a question at
# tick 1, 2 ms after space resumes it (the clock stops the tick after):
# faster than a frame, so the client never sees the clock run.
#   - the question is on screen at once, not after the caption's hold;
#   - one space then resumes from the question (it used to be taken
#     for a pause, the client still waiting for a frame showing its
#     resume: the room pressed space and nothing happened);
#   - the answer stays up though the next question stops the clock 2 ms
#     later (it used to go at once: the room never saw it), then the
#     question goes up on its own; a space while an answer is up and
#     the next question waits brings the question up, and only the next
#     space resumes.
# Exits 0 pass, 77 skip, 1 fail.
lib_name=e2e-question
lib_skip=77
. "$(dirname "$0")/client_lib.sh"
. "$(dirname "$0")/wait.sh"

cat >"$tmp/q.cfg" <<EOF
name = "question";
cpus = 1;
speed = 1.0;
tasks = ( { name = "hog"; }, { name = "ed"; pattern = [ 2, 5 ]; } );
events = (
  { at = 0; action = "pause"; },
  { at = 0; action = "caption"; text = "Watch the hog walk down"; },
  { at = 1; action = "ask"; text = "Who runs next here?";
    answer = "The editor: it just woke"; },
  { at = 3; action = "ask"; text = "And when the editor sleeps?";
    answer = "The hog again, one stair lower"; },
  { at = 5; action = "ask"; text = "How far can the hog fall?";
    answer = "To the bottom stair, then back up"; }
);
EOF
if ! start_daemon "$tmp/q.cfg"; then
	echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
	exit 1
fi
# status: "TICK PAUSED" of the daemon.
state() {
	ask status | sed -n 's/^status tick=\([0-9]*\) .* paused=\([01]\) .*/\1 \2/p'
}
at_question() {
	[ "$(state)" = "2 1" ]
}

$tm new-session -d -s q -x 120 -y 40 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock; sleep 600"
wait_screen "Watch the hog walk down" 100 q ||
    { bad "no caption at tick 0: $(screen q)"; exit 1; }
wait_screen "PAUSED" 100 q || { bad "not paused at 0: $(screen q)"; exit 1; }

# At once, while the caption is held (4 s from when it went up).
$tm send-keys -t q Space
wait_for 10 "the question's pause at 2" at_question >/dev/null ||
    bad "the clock did not stop at the question: $(state)"
# On screen within a second (the caption's hold is 4 s).
wait_screen "Who runs next here?" 10 q && ok "the question is up at once" ||
    bad "the question is not up within 1 s: $(screen q | tail -2 | head -1)"
# One space: the clock goes on from the question.
$tm send-keys -t q Space
if wait_for 5 "the clock past 2" tick_past 2 >/dev/null; then
	ok "one space resumed from the question"
else
	bad "the space after the question did nothing: $(state)"
fi
# The next question stops the clock at 4, 2 ms on: the answer stays up.
at_second() {
	[ "$(state)" = "4 1" ]
}
wait_for 10 "the second question's pause at 4" at_second >/dev/null ||
    bad "the clock did not stop at the second question: $(state)"
wait_screen "The editor: it just woke" 20 q &&
    ok "the answer is up, the next question waiting" ||
    bad "the answer was skipped: $(screen q | tail -2 | head -1)"
sleep 1.5
screen q | grep -q "The editor: it just woke" &&
    ok "the answer still up 1.5 s on" ||
    bad "the answer gone within 1.5 s: $(screen q | tail -2 | head -1)"
# Then the question, by itself (the answer's hold is 4 s).
wait_screen "And when the editor sleeps?" 60 q &&
    ok "the next question up after the answer's hold" ||
    bad "the next question never up: $(screen q | tail -2 | head -1)"
screen q | grep -q "skipped" && bad "said skipped: $(screen q | tail -2)"
# One space: from the question.
$tm send-keys -t q Space
wait_for 5 "the clock past 4" tick_past 4 >/dev/null &&
    ok "one space resumed from the second question" ||
    bad "the space after the second question did nothing: $(state)"
# The third question stops the clock at 6 under the second answer: a
# space now brings the question up, and the clock stays.
at_third() {
	[ "$(state)" = "6 1" ]
}
wait_for 10 "the third question's pause at 6" at_third >/dev/null ||
    bad "the clock did not stop at the third question: $(state)"
wait_screen "The hog again, one stair lower" 20 q ||
    bad "the second answer was skipped: $(screen q | tail -2 | head -1)"
$tm send-keys -t q Space
wait_screen "How far can the hog fall?" 10 q &&
    ok "a space on the answer brought the question up" ||
    bad "the space did not bring the question: $(screen q | tail -2 | head -1)"
sleep 0.5
[ "$(state)" = "6 1" ] && ok "and the clock still waits on it" ||
    bad "that space resumed past an unseen question: $(state)"
$tm send-keys -t q Space
wait_for 5 "the clock past 6" tick_past 6 >/dev/null &&
    ok "the next space resumed" || bad "the next space did nothing: $(state)"
[ $fails -eq 0 ] && echo "e2e_client_question: all passed" && exit 0
echo "e2e_client_question: $fails failed"
exit 1
