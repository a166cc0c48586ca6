#!/bin/sh
# e2e_client_room.sh -- the room answers (SPEC.md section 12, issue 25),
# end to end: a live daemon, the presenter's `stairs` at 120x40 and two
# read-only `stairs -r` at 80x24 in tmux.  The lesson asks a question
# with three choices at tick 1:
#   - every screen shows the choices on a line of their own;
#   - the read-only clients answer with a digit (2 and 3), the
#     presenter too (2): the presenter's line counts 3, votes 0 2 1;
#   - space reveals: the answer is up, and beside it the room's votes.
# Exits 0 pass, 77 skip, 1 fail.
lib_name=e2e-room
lib_skip=77
. "$(dirname "$0")/client_lib.sh"
. "$(dirname "$0")/wait.sh"

cat >"$tmp/room.cfg" <<EOF
name = "room";
cpus = 1;
speed = 1.0;
tasks = ( { name = "hog"; }, { name = "ed"; pattern = [ 2, 30 ]; } );
events = (
  { at = 0; action = "pause"; },
  { at = 1; action = "ask"; text = "Who runs at the editor's wake?";
    answer = "The editor: a wake lifts it above the hog";
    choices = [ "The hog", "The editor", "Both, in turn" ]; },
  { at = 60000; action = "caption"; text = "Much later"; }
);
EOF
if ! start_daemon "$tmp/room.cfg"; then
	echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
	exit 1
fi
run() {	# SESSION COLS ROWS ARGS
	$tm new-session -d -s "$1" -x "$2" -y "$3" \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs $4 -S $sock; sleep 600"
}
run p 120 40 ""
run r1 80 24 -r
run r2 80 24 -r
for s in p r1 r2; do
	wait_screen "PAUSED" 100 $s || { bad "$s: not paused at 0"; exit 1; }
done
$tm send-keys -t p Space
for s in p r1 r2; do
	wait_screen "answer 1-3 (0 so far)" 50 $s &&
	    ok "$s: the choices are up" ||
	    bad "$s: no choices: $(screen $s | tail -4)"
done
$tm send-keys -t r1 2
$tm send-keys -t r2 3
$tm send-keys -t p 2
wait_screen "answer 1-3 (3 so far)" 50 p &&
    ok "the presenter counts three answers" ||
    bad "the presenter's count: $(screen p | grep 'so far')"
screen p | grep 'so far' | grep -q ' 1 The hog 0 .* 2 The editor 2 .* 3 Both, in turn 1' &&
    ok "the votes by choice: 0 2 1" ||
    bad "the votes: $(screen p | grep 'so far')"
screen r1 | grep -q "your answer: 2" && ok "r1 (read-only): its answer said" ||
    bad "r1: $(screen r1 | tail -3)"
# Space reveals: the answer up with the room's votes beside it (held
# 4 s behind the question, so allow for it).
$tm send-keys -t p Space
wait_screen "The editor: a wake lifts it" 80 p && ok "the answer is up" ||
    bad "no answer: $(screen p | tail -4)"
wait_screen "the room answered (3)" 30 p && ok "the reveal shows the room's 3 answers" ||
    bad "no tally at the reveal: $(screen p | tail -4)"
[ $fails -eq 0 ] && echo "e2e_client_room: all passed" && exit 0
echo "e2e_client_room: $fails failed"
exit 1
