#!/bin/sh
# e2e_client_themes.sh -- a room that can read it, through the real
# thing: a live daemon (stairsd -f, one CPU, two hogs and an editor,
# paused) and the client in a private tmux server.
#   - `stairs --theme projector` at 200x60: heavy borders, thick stairs,
#     big type (risers, ranks two rows apart or more) and its own black
#     background in the escape codes (capture-pane -e);
#   - T goes to dark (thin stairs, no black background), then light;
#   - B turns big type on, then off (ranks one row apart again);
#   - NO_COLOR keeps the projector's glyphs but sends no colour at all;
#   - ? at 80x24 shows the scenario and, paged with PgDn, the concepts
#     (rank, descent, LEFT, rr, nr, %CPU is engine time); q closes it
#     and the client stays;
#   - --theme with an unknown name exits 2 saying so.
# Exits 0 pass, 77 skip (no tmux/socat, or the live daemon not built
# yet), 1 fail.

lib_name=e2e-themes
lib_skip=77
. "$(dirname "$0")/client_lib.sh"

cat >"$tmp/room.cfg" <<EOF
name = "room";
description = "Two hogs and an editor on one CPU, for the back row.";
cpus = 1;
tasks = (
  { name = "hogA"; }, { name = "hogB"; },
  { name = "editor"; pattern = [ 2, 40 ]; }
);
EOF
if ! start_daemon "$tmp/room.cfg"; then
	echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
	exit 1
fi
ask "speed 10" >/dev/null
sleep 1
ask pause >/dev/null

# client SESSION W H [ENV...] -- [ARGS...]: the client in session SESSION.
client() {
	s=$1 w=$2 h=$3
	shift 3
	envs=
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do
		envs="$envs $1"
		shift
	done
	shift
	$tm new-session -d -s "$s" -x "$w" -y "$h" "env LANG=C.UTF-8 \
	    LC_ALL=C.UTF-8 TERM=xterm-256color$envs $bin/stairs -S $sock $*; \
	    sleep 600"
}

# line_of SESSION TEXT: the first screen line (0 the top) starting TEXT.
line_of() {
	screen "$1" | awk -v t="$2" 'index($0, t) == 1 { print NR - 1; exit }'
}

# escapes SESSION: the screen with its escape codes.
escapes() {
	$tm capture-pane -p -e -t "$1" 2>/dev/null
}

# 1. The projector at 200x60.
client p 200 60 -- --theme projector
wait_screen "hogA" 50 p || bad "the client did not start: $(screen p)"
# The key bar, at the bottom, is drawn last ("hogA" first shows in row 1).
wait_screen "Q quit" 50 p || bad "no key bar: $(screen p | tail -2)"
screen p >"$tmp/p.txt"
grep -q "┏ CPU0 " "$tmp/p.txt" && grep -q "▄▄" "$tmp/p.txt" &&
    ! grep -q "▁" "$tmp/p.txt" &&
    ok "projector: heavy borders, thick stairs" ||
    bad "projector glyphs: $(head -8 "$tmp/p.txt")"
grep -q "▐" "$tmp/p.txt" && top=$(line_of p "┃120 ") &&
    bot=$(line_of p "┃139 ") && [ -n "$top" ] && [ -n "$bot" ] &&
    [ $((bot - top)) -ge 38 ] &&
    ok "big type: 120..139 on lines $top..$bot, joined by risers" ||
    bad "big type: 120 on ${top:-?}, 139 on ${bot:-?}"
escapes p | grep -q "$(printf '\033')\[40m" &&
    ok "projector: its own black background" ||
    bad "projector: no black background in the escape codes"

# 2. T: dark, then light (the same cells, other colours); B on and off.
$tm send-keys -t p T
wait_screen "theme: dark" 50 p && screen p | grep -q "┌ CPU0 " &&
    screen p | grep -q "▁▁" && ! escapes p | grep -q "$(printf '\033')\[40m" &&
    ok "T: dark, thin stairs, the terminal's background" ||
    bad "T to dark: $(screen p | head -4)"
$tm send-keys -t p T
wait_screen "theme: light (for a light terminal)" 50 p &&
    ok "T again: light" || bad "T to light: $(screen p | tail -2)"
$tm send-keys -t p B
wait_screen "big type: on" 50 p || bad "B: $(screen p | tail -2)"
$tm send-keys -t p B
wait_screen "big type: off" 50 p || bad "B again: $(screen p | tail -2)"
top=$(line_of p "│120 ")
bot=$(line_of p "│139 ")
[ -n "$top" ] && [ -n "$bot" ] && [ $((bot - top)) -eq 19 ] &&
    ok "B off: a rank a line ($top..$bot)" ||
    bad "B off: 120 on ${top:-?}, 139 on ${bot:-?}"

# 3. NO_COLOR: the projector's glyphs, no colour codes at all.
client n 100 30 NO_COLOR=1 -- --theme projector
wait_screen "hogA" 50 n || bad "NO_COLOR client: $(screen n)"
esc=$(printf '\033')
screen n | grep -q "┏ CPU0 " && ! escapes n | grep -q "$esc\[[0-9;]*[34][0-7]m" &&
    ok "NO_COLOR: thick glyphs, no colours" ||
    bad "NO_COLOR: $(escapes n | head -3 | cat -v)"

# 4. The help at 80x24: the scenario, then paged to the concepts.
client h 80 24 --
wait_screen "hogA" 50 h || bad "80x24 client: $(screen h)"
$tm send-keys -t h '?'
wait_screen "Scenario room: Two hogs and an editor" 50 h &&
    wait_screen "PgDn: what rank" 10 h &&
    ok "help: the scenario's name and description" ||
    bad "help: $(screen h)"
: >"$tmp/help.txt"
n=0
while [ $n -lt 6 ]; do
	screen h >>"$tmp/help.txt"
	$tm send-keys -t h NPage
	sleep 0.3
	n=$((n + 1))
done
missing=
for w in "rank " "descent" "LEFT" "rr " "nr " "%CPU" "engine time"; do
	grep -qF -- "$w" "$tmp/help.txt" || missing="$missing '$w'"
done
[ -z "$missing" ] && ok "help: the concepts, paged with PgDn" ||
    bad "help lacks$missing"
$tm send-keys -t h q
wait_screen_gone "help:" 30 h || bad "q did not close the help"
$tm has-session -t h 2>/dev/null && screen h | grep -q "hogA" &&
    ok "q closed the help; the client runs on" ||
    bad "after q: $(screen h)"

# 5. An unknown theme.
"$bin/stairs" -S "$sock" --theme beamer >"$tmp/out" 2>&1 </dev/null
st=$?
[ $st -eq 2 ] && grep -q "theme beamer: not dark, light or projector" \
    "$tmp/out" && ok "--theme beamer: exit 2" ||
    bad "--theme beamer: exit $st: $(cat "$tmp/out")"

if [ $fails -ne 0 ]; then
	echo "$lib_name: $fails failed"
	exit 1
fi
echo "$lib_name: all passed"
