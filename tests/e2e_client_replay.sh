#!/bin/sh
# e2e_client_replay.sh -- a workshop recorded whole, played back in the
# client (SPEC.md section 12, issue 25), end to end in tmux: a live
# daemon with --record starts on the article, then loads it again and
# the demo (three parts); then `stairs --replay J` at 120x40 starts a
# daemon of its own and shows the recording's part 1 of 3; P 3 opens
# the third part (the demo); q quits, and the replay's daemon goes with
# it.
# Exits 0 pass, 77 skip, 1 fail.
lib_name=e2e-client-replay
lib_skip=77
. "$(dirname "$0")/client_lib.sh"

# What the test starts goes with it, whatever fails: the live daemon
# and the replay's own.
cleanup_more() {
	pkill -f -- "--replay $tmp/j" 2>/dev/null
}
start_daemon article --record "$tmp/j" ||
    { bad "no live daemon: $(cat "$tmp/daemon.log")"; exit 1; }
ask "load article run" >/dev/null
wait_for 10 "tick 150" tick_past 149 >/dev/null ||
    bad "the article did not pass tick 149: $(field tick)"
ask "load demo run" >/dev/null
wait_field scenario demo || bad "no demo: scenario=$(field scenario)"
sleep 0.5
stop_daemon
grep -q '^end ' "$tmp/j" || { bad "the journal has no end: $(tail -2 "$tmp/j")"; exit 1; }

# Its own daemon: on a socket of the client's choosing here (-S), so the
# test can see it go.
rsock="$tmp/replay.sock"
$tm new-session -d -s p -x 120 -y 40 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs --replay $tmp/j -S $rsock; echo CLIENT-EXIT \$?; sleep 600"
wait_screen "REPLAY part 1/3" 100 p && ok "stairs --replay: part 1 of 3 shown" ||
    bad "no replay shown: $(screen p | head -3)"
screen p | head -1 | grep -q article && ok "part 1 is the article" ||
    bad "part 1: $(screen p | head -1)"
$tm send-keys -t p P
wait_screen "part (1..3)" 30 p || bad "P: no prompt: $(screen p | tail -3)"
$tm send-keys -t p C-u 3 Enter
wait_screen "REPLAY part 3/3" 100 p && ok "P 3: the third part" ||
    bad "P 3: $(screen p | head -1)"
screen p | head -1 | grep -q demo && ok "part 3 is the demo" ||
    bad "part 3: $(screen p | head -1)"
$tm send-keys -t p q
wait_screen "CLIENT-EXIT 0" 50 p && ok "q: the client quit" ||
    bad "q: $(screen p | tail -2)"
wait_for 10 "the replay's daemon to go" sh -c "[ ! -S $rsock ]" >/dev/null &&
    ok "the replay's daemon went with the client" ||
    bad "the replay's daemon still listens on $rsock"
[ $fails -eq 0 ] && echo "e2e_client_replay: all passed" && exit 0
echo "e2e_client_replay: $fails failed"
exit 1
