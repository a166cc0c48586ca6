#!/bin/sh
# e2e_client_presenter.sh -- the keys a presenter needs not to lose the
# room's session (issue 25, item 3 and 4), end to end: a live daemon and
# `stairs` in tmux at 120x40.
#   - R asks first and says what goes; n keeps the session, y resets;
#   - space in the past asks before dropping the ticks after it; n keeps
#     them;
#   - F goes back to the present, nothing dropped;
#   - : goes to a tick typed, or to a mark by its words.
# Exits 0 pass, 77 skip, 1 fail.
lib_name=e2e-presenter
lib_skip=77
. "$(dirname "$0")/client_lib.sh"
. "$(dirname "$0")/wait.sh"

cat >"$tmp/p.cfg" <<EOF
name = "presenter";
cpus = 1;
speed = 1.0;
tasks = ( { name = "hog"; }, { name = "ed"; pattern = [ 2, 30 ]; } );
events = ( { at = 700; action = "mark"; text = "The editor wakes"; } );
EOF
if ! start_daemon "$tmp/p.cfg"; then
	echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
	exit 1
fi
now_past() {
	[ "$(field now)" -gt "$1" ] 2>/dev/null
}

$tm new-session -d -s p -x 120 -y 40 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock; sleep 600"
wait_screen "[hog " 100 p || { bad "the client did not start: $(screen p)"; exit 1; }
wait_for 20 "tick 2500" now_past 2500 >/dev/null
ask pause >/dev/null
wait_screen "PAUSED" 100 p || { bad "not paused: $(screen p | tail -3)"; exit 1; }
now=$(field now)

# R: asked; n keeps the session.
$tm send-keys -t p R
wait_screen "reset presenter for all, dropping $now ticks and all history? y/N" 30 p &&
    ok "R asks: $(screen p | grep -o 'reset presenter[^?]*?')" ||
    bad "R did not ask: $(screen p | tail -3)"
$tm send-keys -t p n
wait_screen "cancelled" 30 p
sleep 0.3
[ "$(field now)" = "$now" ] && ok "n kept the session (now=$now)" ||
    bad "after R n: now=$(field now), was $now"

# b: back a second; space asks; n keeps the future.
$tm send-keys -t p b
wait_for 10 "the past" sh -c "[ \"\$(printf 'status\n' | socat -t2 - UNIX-CONNECT:$sock 2>/dev/null | sed -n 's/.* live=\([01]\).*/\1/p')\" = 0 ]" >/dev/null
$tm send-keys -t p Space
wait_screen "resume from $((now - 1000)) for all, dropping ticks $((now - 999))..$now? y/N" 30 p &&
    ok "space in the past asks: $(screen p | grep -o 'resume from [^?]*?')" ||
    bad "space in the past did not ask: $(screen p | tail -3)"
$tm send-keys -t p n
sleep 0.3
[ "$(field now)" = "$now" ] && [ "$(field live)" = 0 ] &&
    ok "n: still in the past, the present kept" ||
    bad "after space n: now=$(field now) live=$(field live)"

# F: the present again, nothing dropped.
$tm send-keys -t p F
wait_for 10 "live again" sh -c "[ \"\$(printf 'status\n' | socat -t2 - UNIX-CONNECT:$sock 2>/dev/null | sed -n 's/.* live=\([01]\).*/\1/p')\" = 1 ]" >/dev/null &&
    [ "$(field now)" = "$now" ] && ok "F: back to the present, now=$now" ||
    bad "F: live=$(field live) now=$(field now), was $now"

# : a tick, then a mark by its words.
$tm send-keys -t p : 500 Enter
wait_for 10 "tick 500" sh -c "printf 'status\n' | socat -t2 - UNIX-CONNECT:$sock 2>/dev/null | grep -q '^status tick=500 '" >/dev/null &&
    ok ": 500 went to tick 500" || bad ": 500: tick=$(field tick)"
$tm send-keys -t p : editor Enter
wait_for 10 "tick 700" sh -c "printf 'status\n' | socat -t2 - UNIX-CONNECT:$sock 2>/dev/null | grep -q '^status tick=700 '" >/dev/null &&
    ok ": editor went to the mark at 700" || bad ": editor: tick=$(field tick)"

# R, y: reset, tick 0.
$tm send-keys -t p F
$tm send-keys -t p R
wait_screen "y/N" 30 p
$tm send-keys -t p y
wait_for 10 "the reset" sh -c "[ \"\$(printf 'status\n' | socat -t2 - UNIX-CONNECT:$sock 2>/dev/null | sed -n 's/.* now=\([0-9]*\).*/\1/p')\" -lt 1000 ]" >/dev/null &&
    ok "R y reset the session (now=$(field now))" ||
    bad "R y: now=$(field now)"
[ $fails -eq 0 ] && echo "e2e_client_presenter: all passed" && exit 0
echo "e2e_client_presenter: $fails failed"
exit 1
