#!/bin/sh
# e2e_client_caption.sh -- a caption stays on screen long enough to
# read (docs/CLIENT.md "Captions"), end to end: a live daemon, a
# presenter (`stairs`) and a follower (`stairs -r --follow`) in tmux at
# 120x40.  The lesson asks a question at tick 100 and puts up another
# caption 5 ms of ticks after it:
#   - the question is on both screens while the clock waits;
#   - after space (resume) the answer is on both, and still there 2 s
#     later, though the daemon's caption is the next one by then;
#   - a key on the presenter lets the next caption up there; the event
#     log (e) has the question, the answer and the caption, by text.
# Exits 0 pass, 77 skip (no tmux/socat, or the live daemon not built
# yet), 1 fail.
lib_name=e2e-caption
lib_skip=77
. "$(dirname "$0")/client_lib.sh"

cat >"$tmp/caption.cfg" <<EOF
name = "caption";
cpus = 1;
tasks = ( { name = "ed"; pattern = [ 2, 40 ]; } );
events = (
  { at = 0; action = "pause"; },
  { at = 100; action = "ask"; text = "Who runs next here?";
    answer = "The editor, it just woke"; },
  { at = 105; action = "caption"; text = "Now watch the editor sleep"; }
);
EOF
if ! start_daemon "$tmp/caption.cfg"; then
	echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
	exit 1
fi

# The caption line: the row above the bottom one.
capline() {
	screen "$1" | tail -n 2 | head -n 1
}

$tm new-session -d -s c -x 120 -y 40 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock; sleep 600"
$tm new-session -d -s f -x 120 -y 40 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -r --follow -S $sock; sleep 600"
# The lesson's pause at 0 acts as the session opens, before tick 0 runs
# (issue 27, item 9): both clients find the clock paused at tick 0, the
# task not run yet, and the first space starts it.
wait_screen " tick 0 " 100 c || { bad "the client did not start: $(screen c)"; exit 1; }
wait_screen " tick 0 " 100 f || { bad "the follower did not start: $(screen f)"; exit 1; }
wait_screen "PAUSED" 100 c || { bad "not paused at tick 0: $(screen c)"; exit 1; }
wait_screen "PAUSED" 100 f || { bad "follower: not paused at tick 0: $(screen f)"; exit 1; }

# Resume from the pause at 0: the question at 100 stops the clock.
$tm send-keys -t c Space
wait_screen "Who runs next here?" 100 c && ok "the question is up" ||
    bad "no question: $(capline c)"
wait_screen "Who runs next here?" 100 f && ok "the follower: the question" ||
    bad "follower: no question: $(capline f)"

# Resume: the answer, then 5 ms of ticks later the next caption.
$tm send-keys -t c Space
wait_screen "The editor, it just woke" 100 c && ok "the answer is up" ||
    bad "no answer: $(capline c)"
wait_screen "The editor, it just woke" 100 f &&
    ok "the follower: the answer" || bad "follower: no answer: $(capline f)"
# The daemon's caption is the next one now; the screens keep the answer.
# (Past 105, the next caption's tick: the question held it at 101.)
wait_for 10 "the tick past 105" tick_past 105
printf 'subscribe 1\n' | socat -t1 - UNIX-CONNECT:"$sock" 2>/dev/null |
    grep -q "^caption tick=105 text=Now watch the editor sleep" ||
    bad "the daemon's caption is not the next one"
sleep 2
capline c | grep -qF "The editor, it just woke" &&
    ok "the answer is still up 2 s on" || bad "the answer went: $(capline c)"
capline f | grep -qF "The editor, it just woke" &&
    ok "the follower: the answer is still up 2 s on" ||
    bad "follower: the answer went: $(capline f)"

# A key (e: the event log) lets the next caption up.
$tm send-keys -t c e
wait_screen "Now watch the editor sleep" 30 c && ok "a key: the next caption" ||
    bad "a key: no next caption: $(capline c)"
for want in "question: Who runs next here?" \
    "answer: The editor, it just woke" "caption: Now watch the editor sleep"; do
	screen c | grep -qF "$want" && ok "the event log: $want" ||
	    bad "the event log has no \"$want\": $(screen c)"
done

[ $fails -eq 0 ] && echo "e2e_client_caption: all passed" && exit 0
echo "e2e_client_caption: $fails failed"
exit 1
