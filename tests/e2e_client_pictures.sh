#!/bin/sh
# e2e_client_pictures.sh -- every policy explains itself in the client
# (issue 24, SPEC.md section 10), through the real thing: a live daemon
# (stairsd -f) on o1-vs-staircase (one CPU, three hogs and an editor),
# paused, the client in a private tmux server (LANG=C.UTF-8), checked
# with capture-pane:
#   - each policy enforced in turn (policy NAME through the socket) is
#     drawn in its own picture: o1's active and expired arrays, cfs's
#     vruntime axis with the next marked, eevdf's lag line V with the
#     deadlines, rr's FIFO from its head, the staircase's stairs; and
#     under the CPU, the why of its last switch;
#   - C asks which policies to compare with (staircase,o1,cfs by
#     default under eevdf), Enter shows four pictures at 200x60, each
#     titled with its policy, the status line naming them all, and the
#     table each task's share, runs and wake-up latency under each;
#   - the same four at 80x24;
#   - the event log (e) has the why lines, "CPU0: ...";
#   - C again with rr: two policies, rr's queue beside eevdf's lag line;
#   - c shows the enforced one alone.
# Exits 0 pass, 1 fail, 77 skip (no tmux/socat, or no live daemon).

lib_name=e2e-pictures
lib_skip=77
. "$(dirname "$0")/client_lib.sh"

if ! start_daemon o1-vs-staircase; then
	echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
	exit 1
fi
ask "pause" | grep -q '^ok' || bad "pause refused"
ask "compare off" >/dev/null

$tm new-session -d -s "$sess" -x 200 -y 60 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock \
    2>$tmp/c.err; echo \$? >$tmp/c.rc; sleep 600"
wait_screen "CPU0" || bad "no panels: $(screen)"

# picture POLICY WORD...: POLICY enforced, 300 ticks on, every WORD on
# the screen (for up to 2 s: a capture can catch a repaint).
picture() {
	p=$1
	shift
	ask "policy $p" | grep -q '^ok' || bad "policy $p refused"
	ask "step 300" >/dev/null
	# The words apart by |, so that a word may have spaces.
	old_ifs=$IFS
	IFS='|'
	words="$*"
	IFS=$old_ifs
	has_words() {
		s=$(screen)
		IFS='|'
		for w in $words; do
			echo "$s" | grep -qF -- "$w" || { IFS=$old_ifs; return 1; }
		done
		IFS=$old_ifs
	}
	if wait_for 2 "$p's picture" has_words; then
		ok "$p: $words"
	else
		IFS='|'
		for w in $words; do
			echo "$s" | grep -qF -- "$w" || bad "$p: no \"$w\": $s"
		done
		IFS=$old_ifs
	fi
}
picture o1 "CPU0 o1 run:" active expired "prio, bonus" "why"
picture cfs "CPU0 cfs run:" min_vruntime "◀ next: smallest" "●" "why"
picture eevdf "CPU0 eevdf run:" "owed: eligible" "ahead: not eligible" \
    "┫ d " "why"
picture rr "CPU0 rr run:" "head [" "of 10 ms]" "why"
picture staircase "▁▁" "why:"

# Four policies: C, its default under eevdf, Enter.
ask "policy eevdf" >/dev/null
ask "step 300" >/dev/null
$tm send-keys -t "$sess" C
wait_screen "compare with (up to 3, or off): staircase,o1,cfs" &&
    ok "C: asks, staircase,o1,cfs by default" || bad "C: $(screen)"
$tm send-keys -t "$sess" Enter
four() {
	s=$(screen)
	for w in "eevdf (enforced)" "staircase (shadow 1)" "o1 (shadow 2)" \
	    "cfs (shadow 3)" "eevdf vs staircase,o1,cfs" "owed: eligible" \
	    "active" "min_vruntime" "wait ms p50/p95/max"; do
		echo "$s" | grep -qF -- "$w" || return 1
	done
}
if wait_for 3 "four policies at 200x60" four; then
	ok "200x60: four pictures, their titles, the tally table"
else
	bad "200x60: not four pictures: $s"
fi
ask "status" | grep -q 'compare=staircase,o1,cfs' &&
    ok "the daemon compares staircase,o1,cfs" ||
    bad "status: $(ask status | head -1)"
# The tally: each task a row, a share in each policy's block.
ask "step 200" >/dev/null
tally() {
	s=$(screen)
	echo "$s" | grep -q "^[ ▶]* 4 editor .*│ *[0-9.]*% .*│ *[0-9.]*% .*│ *[0-9.]*% .*│ *[0-9.]*%"
}
wait_for 2 "the editor's tally" tally && ok "the editor's tally under four" ||
    bad "no tally row for the editor: $s"
[ -n "${STAIRS_SHOTS:-}" ] && "$(dirname "$0")/../../shared/tools/screenshot" \
    -L "$tmsock" "$STAIRS_SHOTS/four_200x60.png" >/dev/null 2>&1

$tm resize-window -t "$sess" -x 80 -y 24
four80() {
	s=$(screen)
	for w in "eevdf (enforced)" "staircase (shadow 1)" "o1 (shadow 2)" \
	    "cfs (shadow 3)" "% runs wait ms" "editor"; do
		echo "$s" | grep -qF -- "$w" || return 1
	done
}
wait_for 3 "four policies at 80x24" four80 &&
    ok "80x24: four pictures and the tally" || bad "80x24: $s"
[ -n "${STAIRS_SHOTS:-}" ] && "$(dirname "$0")/../../shared/tools/screenshot" \
    -L "$tmsock" "$STAIRS_SHOTS/four_80x24.png" >/dev/null 2>&1
$tm resize-window -t "$sess" -x 200 -y 60

# The event log: the why lines, each with its CPU.
$tm send-keys -t "$sess" e
wait_screen_re "CPU0: .*eligible" 30 &&
    ok "the event log has the why lines" || bad "no why in the log: $(screen)"
$tm send-keys -t "$sess" e

# C again, rr typed over the default: two policies.
$tm send-keys -t "$sess" C
wait_screen "compare with (up to 3" || bad "C again: $(screen)"
$tm send-keys -t "$sess" rr Enter
ask "step 100" >/dev/null
two() {
	s=$(screen)
	echo "$s" | grep -q "eevdf (enforced).*rr (shadow)" &&
	    echo "$s" | grep -qF "head [" &&
	    ! echo "$s" | grep -qF "(shadow 2)"
}
wait_for 3 "eevdf and rr" two && ok "C: rr alone beside eevdf" ||
    bad "C rr: $s"

# c: the enforced policy alone, its task table back.
$tm send-keys -t "$sess" c
alone() {
	s=$(screen)
	! echo "$s" | grep -qF "(shadow)" && echo "$s" | grep -q " RANK "
}
wait_for 2 "one policy" alone && ok "c: eevdf alone" || bad "c: $s"

[ "$fails" -eq 0 ] || exit 1
exit 0
