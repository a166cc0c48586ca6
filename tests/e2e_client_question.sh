#!/bin/sh
# e2e_client_question.sh -- a question never slips past the room (issue
# 25, item 1), end to end: a live daemon and `stairs` in tmux at
# 120x40.  The lesson pauses at 0 under a caption, and asks a question at
# tick 1, 2 ms after space resumes it (the clock stops the tick after):
# faster than a frame, so the client never sees the clock run.
#   - the question is on screen at once, not after the caption's hold;
#   - one space then resumes from the question (it used to be taken
#     for a pause, the client still waiting for a frame showing its
#     resume: the room pressed space and nothing happened).
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
    answer = "The editor: it just woke"; }
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

# At once, while the caption is held (3 s from when it went up).
$tm send-keys -t q Space
wait_for 10 "the question's pause at 2" at_question >/dev/null ||
    bad "the clock did not stop at the question: $(state)"
# On screen within a second (the caption's hold is 3 s).
wait_screen "Who runs next here?" 10 q && ok "the question is up at once" ||
    bad "the question is not up within 1 s: $(screen q | tail -2 | head -1)"
# One space: the clock goes on from the question.
$tm send-keys -t q Space
if wait_for 5 "the clock past 2" tick_past 2 >/dev/null; then
	ok "one space resumed from the question"
else
	bad "the space after the question did nothing: $(state)"
fi
[ $fails -eq 0 ] && echo "e2e_client_question: all passed" && exit 0
echo "e2e_client_question: $fails failed"
exit 1
