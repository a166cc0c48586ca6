#!/bin/sh
# e2e_client.sh -- the ncurses client against a live daemon, inside a
# private tmux server (120x40, LANG=C.UTF-8), checked with capture-pane
# and, through the socket, with socat:
#   - with no daemon, `stairs` starts one with the demo and draws it;
#   - every CPU, every task and the ranks are on screen;
#   - the screen moves (the tick changes);
#   - `s` makes the selected task sleep (`tasks` says sleeping); space,
#     `.`, `>`, `<`, `+`, `-` do what they say (checked with `status`,
#     `tasks`);
#   - a mouse click selects a task, and its article table shows;
#   - at 80x24 every CPU is still there;
#   - `q` detaches and the daemon keeps serving;
#   - `-r` refuses keys that change things, saying so;
#   - NO_COLOR gives attributes only; a C locale gives ASCII only;
#   - the daemon going away ends the client: status 1, a message on
#     stderr, the terminal restored;
#   - `Q` asks, then shuts the daemon down.
# Each run has its own XDG_RUNTIME_DIR, so the default socket is private.
# Exits 0 pass, 77 skip (no tmux/socat, or the live daemon not built
# yet), 1 fail.

lib_name=e2e-client
lib_skip=77
. "$(dirname "$0")/client_lib.sh"
sock=$tmp/stairs/socket
sess=t

# Stop the daemons on our socket (the client started them).
cleanup_more() {
	if [ -S "$sock" ]; then
		echo shutdown | socat -t2 - UNIX-CONNECT:"$sock" >/dev/null 2>&1
		n=0
		while [ -S "$sock" ] && [ $n -lt 30 ]; do
			sleep 0.1
			n=$((n + 1))
		done
	fi
	for p in /proc/[0-9]*; do
		if { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null |
		    grep -qF "$tmp/"; then
			kill "${p#/proc/}" 2>/dev/null
		fi
	done
}

# Wait (up to 3 s) until the reply to command $1 matches pattern $2.
wait_ask() {
	n=0
	while [ $n -lt 30 ]; do
		ask "$1" | grep -q -- "$2" && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# Start the client in tmux session $1 with arguments $2; its exit status
# goes to $tmp/$1.rc and its stderr to $tmp/$1.err.
client() {
	$tm new-session -d -s "$1" -x 120 -y 40 \
	    "env XDG_RUNTIME_DIR=$tmp LANG=C.UTF-8 LC_ALL=C.UTF-8 \
	    $bin/stairs $2 2>$tmp/$1.err; echo \$? >$tmp/$1.rc; sleep 600"
}

# Wait for a client's exit status file.
wait_rc() {
	n=0
	while [ $n -lt 50 ] && [ ! -s "$tmp/$1.rc" ]; do
		sleep 0.1
		n=$((n + 1))
	done
	cat "$tmp/$1.rc" 2>/dev/null
}

# The tick on the status line.
tick_of() {
	screen "$1" | sed -n '1s/.*tick \([0-9]*\).*/\1/p'
}

# 1. No daemon: the client starts one with the demo.
export XDG_RUNTIME_DIR=$tmp
client t ""
if wait_screen CPU0 100; then
	ok "client started a daemon and draws"
else
	bad "no CPU0 on screen"
	screen
	cat "$tmp/t.err"
	exit 1
fi
ask status | grep -q '^status .*cpus=2' && ok "the demo daemon answers" ||
    bad "status from the started daemon: $(ask status)"

# 2. Every CPU, every task, the ranks (once the last task is drawn).
names=$(ask tasks | sed -n 's/^task .*name=\([^ ]*\).*/\1/p')
[ -n "$names" ] || bad "no tasks from the daemon"
for n in CPU1 $names 139; do
	wait_screen "$n" 30 || echo "timed out after 3 s waiting for $n on screen"
done
s=$(screen)
for c in CPU0 CPU1; do
	echo "$s" | grep -qF "$c" || bad "$c not on screen"
done
for n in $names; do
	echo "$s" | grep -qF "$n" || bad "task $n not on screen"
done
for r in 120 139; do
	echo "$s" | grep -qF "$r" || bad "rank $r not on screen"
done
ok "CPUs, tasks ($(echo $names)) and ranks on screen"

# 3. The screen moves.
t1=$(tick_of t)
n=0
while [ $n -lt 50 ] && [ "$(tick_of t)" = "$t1" ]; do
	sleep 0.1
	n=$((n + 1))
done
[ $n -lt 50 ] || echo "timed out after 5 s waiting for the tick to move"
t2=$(tick_of t)
if [ -n "$t1" ] && [ -n "$t2" ] && [ "$t1" != "$t2" ]; then
	ok "tick moves: $t1 -> $t2"
else
	bad "tick did not move: '$t1' -> '$t2'"
fi

# 4. space pauses (so nothing wakes on its own while we look), `s`
# makes the selected task (the first row) sleep, `.` steps one tick.
first=$(ask tasks |
    sed -n '/^task /{s/^task id=\([0-9]*\) name=\([^ ]*\).*/\1 \2/p;q;}')
fid=${first%% *}
fname=${first#* }
$tm send-keys -t t ' '
wait_screen PAUSED 30 && ok "space: PAUSED on the status line" ||
    bad "space: not paused on screen"
wait_ask status 'paused=1' && ok "space: the daemon is paused" ||
    bad "space: daemon not paused"
$tm send-keys -t t s
wait_ask tasks "^task id=$fid .*state=sleeping" && ok "s: $fname sleeps" ||
    bad "s: $fname not sleeping"
wait_screen "$fname sleeps" 30 && ok "s: said on the caption line" ||
    bad "s: no message"
k1=$(status_tick)
$tm send-keys -t t .
n=0
while [ $n -lt 30 ] && [ "$(status_tick)" = "$k1" ]; do
	sleep 0.1
	n=$((n + 1))
done
k2=$(status_tick)
[ "$k2" = $((k1 + 1)) ] && ok ".: one tick ($k1 -> $k2)" ||
    bad ".: tick $k1 -> $k2"
wait_screen "tick $k2 " 30 && ok ".: the screen shows tick $k2" ||
    bad ".: the screen did not move to tick $k2"

# 4b. space resumes, > doubles the speed, < halves it, + and - renice.
$tm send-keys -t t ' '
$tm send-keys -t t '>'
wait_ask status 'paused=0 speed=2' && ok "space, >: running at speed 2" ||
    bad "space, >: $(ask status | grep '^status')"
$tm send-keys -t t '<'
$tm send-keys -t t +
wait_ask tasks "^task id=$fid .* nice=1 " && ok "+: $fname nice 1" ||
    bad "+: $fname not reniced"
$tm send-keys -t t -
wait_ask tasks "^task id=$fid .* nice=0 " && ok "-: $fname nice 0" ||
    bad "-: $fname not reniced back"

# 4c. An error from the daemon shows on the caption line: CPU 9 of 2.
$tm send-keys -t t a
wait_screen "CPUs for $fname" 30 || bad "a: no prompt"
$tm send-keys -t t C-u 9 Enter
wait_screen "refused: $fname on CPUs 9: " 30 &&
    ok "a 9: the daemon's error shown, as a refusal" ||
    bad "a 9: no refusal on the caption line"
ask tasks | grep -q "^task id=$fid .* cpus=0-1 " ||
    bad "a 9: affinity changed anyway"

# 4d. A mouse click on a task's row selects it; its article table follows.
third=$(echo $names | cut -d' ' -f3)
row=$(screen | grep -n "^[ ▶]*[0-9][0-9]* $third " | head -1 | cut -d: -f1)
if [ -n "$row" ]; then
	# An X10 mouse report: button 1 pressed at column 10, row $row.
	$tm send-keys -t t -H 1b 5b 4d 20 2b "$(printf %x $((32 + row)))"
	# (Polled: the first row is selected before the click.)
	wait_screen_re "^▶ *[0-9][0-9]* $third " 30 &&
	    ok "click: $third selected" || bad "click: $third not selected"
	wait_screen "$third: descents" 30 && ok "click: $third's table" ||
	    bad "click: no article table for $third"
else
	bad "click: no row for $third on screen"
fi

# 5. Smaller: every CPU still on screen.
$tm resize-window -t t -x 80 -y 24
n=0
until s=$(screen); [ "$(echo "$s" | wc -l)" -le 24 ] &&
    echo "$s" | grep -qF CPU1 || [ $n -ge 30 ]; do
	sleep 0.1
	n=$((n + 1))
done
[ $n -lt 30 ] || echo "timed out after 3 s waiting for CPU1 on 24 lines"
s=$(screen)
lines=$(echo "$s" | wc -l)
for c in CPU0 CPU1; do
	echo "$s" | grep -qF "$c" || bad "80x24: $c not on screen"
done
[ "$lines" -le 24 ] || bad "80x24: $lines lines"
echo "$s" | grep -qF CPU1 && ok "80x24: every CPU on screen"

# 6. `q` detaches; the daemon keeps serving.
$tm send-keys -t t q
rc=$(wait_rc t)
[ "$rc" = 0 ] && ok "q: exit 0" || bad "q: exit '$rc'"
ask status | grep -q '^status ' && ok "q: the daemon still serves" ||
    bad "q: the daemon is gone"

# 7. Read-only refuses what changes things.
client r "-r"
wait_screen CPU0 50 r || bad "-r: nothing drawn"
wait_screen READ-ONLY 20 r || bad "-r: no READ-ONLY on the status line"
$tm send-keys -t r x
wait_screen "refused" 20 r && ok "-r: x refused on the caption line" ||
    bad "-r: x not refused"
ask tasks | grep -q "state=exited" && bad "-r: a task was killed"
$tm send-keys -t r q
[ "$(wait_rc r)" = 0 ] || bad "-r: q did not exit 0"

# 8. NO_COLOR: attributes only (reverse for the status line), no colours.
$tm new-session -d -s n -x 120 -y 40 \
    "env XDG_RUNTIME_DIR=$tmp LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 \
    $bin/stairs; sleep 600"
wait_screen CPU0 50 n || bad "NO_COLOR: nothing drawn"
esc=$(printf '\033')
if $tm capture-pane -e -p -t n | grep -q "$esc\[[34][0-7]m"; then
	bad "NO_COLOR: colours on screen"
elif ! $tm capture-pane -e -p -t n | grep -q "$esc\[7m"; then
	bad "NO_COLOR: no reverse video"
else
	ok "NO_COLOR: reverse/bold, no colours"
fi
$tm send-keys -t n q

# 9. A locale that is not UTF-8: ASCII only, never garbage.
$tm new-session -d -s a -x 120 -y 40 \
    "env XDG_RUNTIME_DIR=$tmp LANG=C LC_ALL=C $bin/stairs; sleep 600"
wait_screen CPU0 50 a || bad "C locale: nothing drawn"
s=$(screen a)
if echo "$s" | LC_ALL=C grep -q '[^ -~]'; then
	bad "C locale: non-ASCII on screen"
elif ! echo "$s" | grep -q '^+ CPU0'; then
	bad "C locale: no ASCII panel border"
else
	ok "C locale: ASCII panels"
fi
$tm send-keys -t a q

# 10. The daemon going away: status 1, a message, the terminal restored.
client g ""
wait_screen CPU0 50 g || bad "g: nothing drawn"
ask shutdown >/dev/null
rc=$(wait_rc g)
[ "$rc" = 1 ] && ok "daemon gone: exit 1" || bad "daemon gone: exit '$rc'"
grep -q "daemon went away" "$tmp/g.err" && ok "daemon gone: said so" ||
    bad "daemon gone: stderr: $(cat "$tmp/g.err")"
screen g | grep -qF "CPU0" && bad "daemon gone: screen not restored"

# 11. `Q` asks, then shuts the daemon down (the client starts a fresh
# one first); n at the question keeps it.
client k ""
wait_screen CPU0 100 k || bad "Q: no daemon started again"
$tm send-keys -t k Q
wait_screen "every client" 30 k && ok "Q: asks first" || bad "Q: no question"
$tm send-keys -t k n
wait_screen cancelled 30 k || bad "Q n: not cancelled"
ask status | grep -q '^status ' && ok "Q n: the daemon still serves" ||
    bad "Q n: the daemon stopped"
$tm send-keys -t k Q
wait_screen "every client" 30 k || bad "Q: no question the second time"
$tm send-keys -t k y
rc=$(wait_rc k)
[ "$rc" = 0 ] && ok "Q: exit 0" || bad "Q: exit '$rc'"
n=0
while [ $n -lt 30 ] && ask status | grep -q '^status '; do
	sleep 0.1
	n=$((n + 1))
done
ask status | grep -q '^status ' && bad "Q: the daemon still serves" ||
    ok "Q: the daemon is gone"

if [ $fails -gt 0 ]; then
	echo "e2e_client: $fails failed"
	exit 1
fi
echo "e2e_client: all passed"
exit 0
