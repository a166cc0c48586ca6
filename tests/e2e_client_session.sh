#!/bin/sh
# e2e_client_session.sh -- the client's side of the session (issue 9),
# through the real thing: a live daemon (stairsd -f, protocol 2) on a
# scenario of one CPU and two hogs ("one", a file: not a built-in), then
# the demo (built in, two CPUs, unattended: no ask or pause events),
# the client and a read-only viewer (-r) in a private tmux server
# (LANG=C.UTF-8, 80x24), checked with capture-pane and, through the
# socket, with socat:
#   - the viewer refuses the picker (l), saying so;
#   - l opens the picker: every scenario of `scenarios` on screen, the
#     selected one's description; j/k move, Esc closes, Enter loads the
#     demo: the daemon's status and both screens (the viewer's too,
#     without reconnecting) show it, its two CPUs and its tasks, none
#     of the old ones; it opens at tick 0, paused, and space starts it;
#   - R resets (y to its question): the tick starts again from 0,
#     paused; space starts it;
#   - paused, Left / Right, { / }, b / f seek by a tick, an rr interval,
#     a second (`status` says tick= and live=0), and both screens show
#     "tick T of NOW" and the past; ( / ) go to the marks when the
#     scenario has some;
#   - space resumes: live again, running;
#   - a load of "one" by path, typed in the picker after o (relative to
#     the client's directory): the viewer is back to one CPU; with the
#     timeline on, the client and a follower (-r --follow) keep none of
#     the demo's runs (no CPU1 row, no "c=?" in the legend).
# Exits 0 pass, 1 fail, 77 skip (no tmux/socat, the live daemon not
# built, or a daemon that does not know `scenarios` yet: issue 9's
# daemon side).

lib_name=e2e-session
lib_skip=77
. "$(dirname "$0")/client_lib.sh"
src=$(cd "$(dirname "$0")/.." && pwd)

cat >"$tmp/one.cfg" <<EOF
name = "one";
description = "Two hogs on one CPU.";
cpus = 1;
tasks = ( { name = "hogA"; }, { name = "hogB"; } );
EOF
if ! start_daemon "$tmp/one.cfg"; then
	echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
	exit 1
fi
if ! ask scenarios | grep -q '^scenario '; then
	echo "FAIL: \`scenarios\` lists none: $(ask scenarios | tail -1)"
	exit 1
fi

# Start a client in tmux session $1 (80x24) with arguments $2.
client() {
	$tm new-session -d -s "$1" -x 80 -y 24 \
	    "cd $tmp && env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock $2 \
	    2>$tmp/$1.err; echo \$? >$tmp/$1.rc; sleep 600"
}

# Wait (up to 10 s) until the tick is at least $1.
wait_tick() {
	n=0
	while [ $n -lt 100 ]; do
		t=$(field tick)
		[ -n "$t" ] && [ "$t" -ge "$1" ] && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

client c ""
client v "-r"
client f "-r --follow"
wait_screen " one " 100 c && ok "client: one on the status line" ||
    bad "client: no 'one' on the status line: $(screen c | head -1)"
wait_screen "READ-ONLY" 100 v && ok "viewer: attached read-only" ||
    bad "viewer: not drawn"

# 1. The viewer cannot open the picker.
$tm send-keys -t v l
wait_screen "read-only client: 'l' refused" 30 v &&
    ok "viewer: l refused, said so" || bad "viewer: l not refused"
screen v | grep -q "Enter loads" && bad "viewer: the picker opened"

# 2. The picker: every scenario, the first one's description (one is
# not among them: the selection starts on the first).
ask scenarios | sed -n 's/^scenario name=\([^ ]*\).*/\1/p' >"$tmp/names"
nnames=$(wc -l <"$tmp/names")
$tm send-keys -t c l
if wait_screen "Esc closes" 30 c; then
	ok "l: the picker is open"
else
	bad "l: no picker"
	screen c
fi
# listed: every scenario in the picker, from its top and, scrolled, its
# end (G; g back to the first: more than fit at 80x24); a capture can
# catch the client mid-repaint: taken again for up to 2 s.
listed() {
	screen c >"$tmp/picker.top"
	$tm send-keys -t c G
	sleep 0.3
	screen c >"$tmp/picker.end"
	$tm send-keys -t c g
	sleep 0.3
	screen c >"$tmp/picker"
	missing=""
	while read -r n; do
		cat "$tmp/picker.top" "$tmp/picker.end" |
		    grep -qE "[│ ▶]$n " || missing="$missing $n"
	done <"$tmp/names"
	[ -z "$missing" ]
}
wait_for 5 "every scenario listed" listed
[ -z "$missing" ] && ok "l: all $nnames scenarios listed at 80x24 (scrolled)" ||
    bad "l: not listed:$missing"
first=$(head -1 "$tmp/names")
grep -q "▶$first " "$tmp/picker" && ok "l: on the first one, $first" ||
    bad "l: not on $first"
desc=$(ask scenarios | sed -n "s/^scenario name=$first .*text=//p" |
    cut -c1-30 | tr -d '"')
grep -qF "$desc" "$tmp/picker" && ok "l: $first's description shown" ||
    bad "l: no description ('$desc')"
# Esc closes, loading nothing.
$tm send-keys -t c Escape
wait_screen_gone "Enter loads" 30 c || bad "Esc: the picker is still open"
[ "$(field scenario)" = one ] && ok "Esc: closed, nothing loaded" ||
    bad "Esc: the scenario is now $(field scenario)"

# 3. Enter loads: the demo, by j/k from the first (down two, up again).
want=demo
i=3
j=$(grep -n "^$want$" "$tmp/names" | cut -d: -f1)
[ -n "$j" ] || bad "no $want in scenarios"
$tm send-keys -t c l
wait_screen "Enter loads" 30 c
$tm send-keys -t c j j
while [ "$i" -lt "$j" ]; do
	$tm send-keys -t c j
	i=$((i + 1))
done
while [ "$i" -gt "$j" ]; do
	$tm send-keys -t c k
	i=$((i - 1))
done
wait_screen "▶$want " 30 c && ok "j/k: on $want" || bad "j/k: not on $want"
$tm send-keys -t c Enter
wait_field scenario "$want" && ok "Enter: the daemon runs $want" ||
    bad "Enter: the daemon runs $(field scenario)"
cpus=$(field cpus)
tname=$(ask tasks | sed -n 's/^task id=1 name=\([^ ]*\).*/\1/p')
for s in c v; do
	if wait_screen " $want " 50 $s && wait_screen " $cpus CPU" 50 $s; then
		ok "$s: shows $want, $cpus CPU(s)"
	else
		bad "$s: not following the load: $(screen $s | head -1)"
	fi
	# Its table row ("$tname" alone would match one's hogA).
	wait_screen_re "^[ ▶]*[0-9][0-9]* $tname " 30 $s ||
	    bad "$s: task $tname not on screen"
	wait_screen "CPU1" 30 $s || bad "$s: no CPU1 (the demo has 2)"
	wait_screen_gone "hogA" 30 $s && wait_screen_gone "hogB" 30 $s ||
	    bad "$s: a task of one still drawn"
done
[ -s "$tmp/v.rc" ] && bad "viewer: exited ($(cat "$tmp/v.rc"))"
# The load opened it at tick 0, paused, though one was running (SPEC.md
# section 7, amended): space starts it.
[ "$(field paused)" = 1 ] && ok "Enter: $want opens paused" ||
    bad "Enter: $want not paused: $(ask status | sed -n 2p)"
wait_screen "PAUSED" 30 c || bad "Enter: PAUSED not shown"
$tm send-keys -t c Space
wait_field paused 0 && ok "space: $want runs" || bad "space: $want still paused"

# 4. R resets, once y answers its question: the tick goes back to 0,
# paused; space starts it.
wait_tick 1500 || bad "the tick did not reach 1500"
before=$(field tick)
$tm send-keys -t c R
wait_screen "y/N" 30 c || bad "R: no question"
$tm send-keys -t c y
n=0
while [ $n -lt 50 ]; do
	t=$(field tick)
	[ -n "$t" ] && [ "$t" -lt "$before" ] && break
	sleep 0.1
	n=$((n + 1))
done
[ -n "$t" ] && [ "$t" -lt "$before" ] && ok "R: tick $before -> $t" ||
    bad "R: tick $before -> $t"
[ "$(field scenario)" = "$want" ] || bad "R: scenario $(field scenario)"
wait_screen "reset $want" 30 c && ok "R: said so" || bad "R: not said"
[ "$(field paused)" = 1 ] && [ "$(field tick)" = 0 ] &&
    ok "R: tick 0, paused" || bad "R: $(ask status | sed -n 2p)"
wait_screen "PAUSED" 30 c || bad "R: PAUSED not shown"
$tm send-keys -t c Space
wait_field paused 0 || bad "space after R: still paused"

# 5. Rewind, paused: each key seeks; status and both screens show it.
wait_tick 2500 || bad "the tick did not reach 2500"
$tm send-keys -t c Space
wait_field paused 1 || bad "space: not paused"
now=$(field now)
[ -n "$now" ] || now=$(field tick)
# The keys seek from the tick the client shows: the paused one.
wait_screen "tick $now " 30 c || bad "space: the client shows $(screen c | head -1)"
rr=$(field rr)
expect=$now
# key, ticks it moves
for step in "Left -1" "Left -1" "{ -$rr" "b -1000" "Right 1" "} $rr" \
    "f 1000" "b -1000"; do
	key=${step% *}
	by=${step#* }
	expect=$((expect + by))
	case $key in
	[{}b]|f)	$tm send-keys -t c -l "$key" ;;	# { } literally
	*)		$tm send-keys -t c "$key" ;;
	esac
	if wait_field tick "$expect"; then
		ok "$key: status tick $expect"
	else
		bad "$key: status tick $(field tick), wanted $expect"
		expect=$(field tick)
	fi
done
[ "$(field live)" = 0 ] && ok "the past: live=0" ||
    bad "the past: live=$(field live)"
[ "$(field now)" = "$now" ] || bad "the present moved: $now -> $(field now)"
for s in c v; do
	wait_screen "tick $expect of $now" 30 $s &&
	    ok "$s: tick $expect of $now on screen" ||
	    bad "$s: no 'tick $expect of $now': $(screen $s | head -1)"
	screen $s | grep -q "PAST" || bad "$s: no PAST"
done
wait_screen "viewing the past — tick $expect of $now" 10 c &&
    ok "c: viewing the past, said" || bad "c: the past not said"
# Marks, when the scenario has some.
ask marks | sed -n 's/^mark tick=\([0-9]*\).*/\1/p' >"$tmp/marks"
first=$(head -1 "$tmp/marks")
if [ -n "$first" ] && [ "$first" -lt "$now" ]; then
	# To the present (f stops there, saying so), then the last mark
	# before it, then the next one (not run yet: said, not sought).
	$tm send-keys -t c f f
	wait_field tick "$now" || bad "f: tick $(field tick), not $now"
	wait_screen "tick $now" 30 c || bad "f: the client shows $(screen c | head -1)"
	$tm send-keys -t c f
	wait_screen "tick $now is the present" 30 c &&
	    ok "f: stops at the present, said" || bad "f: not said"
	[ "$(field tick)" = "$now" ] || bad "f: past the present"
	$tm send-keys -t c -l "("
	last=$(awk -v n="$now" '$1 < n' "$tmp/marks" | tail -1)
	wait_field tick "$last" && ok "(: to the mark at $last" ||
	    bad "(: tick $(field tick), wanted mark $last"
	next=$(awk -v n="$last" '$1 > n' "$tmp/marks" | head -1)
	if [ -n "$next" ] && [ "$next" -gt "$now" ]; then
		$tm send-keys -t c -l ")"
		wait_screen "is not run yet" 30 c &&
		    ok "): the mark at $next is not run yet, said" ||
		    bad "): not said"
		[ "$(field tick)" = "$last" ] || bad "): sought anyway"
	fi
else
	echo "note: $want has no mark before tick $now: ( ) not checked"
fi

# 6. space resumes, once y answers its question (the ticks after the
# one shown are dropped): live again, running.
$tm send-keys -t c Space
wait_screen "y/N" 30 c || bad "space in the past: no question"
$tm send-keys -t c y
wait_field paused 0 && ok "space: resumed" || bad "space: still paused"
wait_field live 1 && ok "space: live=1" || bad "space: live=$(field live)"
wait_screen "RUNNING" 30 c && ok "c: RUNNING" || bad "c: not RUNNING"
screen c | grep -q "viewing the past" && bad "c: still in the past"
wait_screen "RUNNING" 30 v && ok "v: RUNNING" || bad "v: not RUNNING"

# 7. A load of one by its path: the viewer is back to one CPU.  With
# the timeline on (w; the follower follows), none of the demo's runs is
# left: no CPU1 row, no legend letter of an old task ("c=?").
wait_tick 300 || bad "the tick did not reach 300"
$tm send-keys -t c w
wait_screen "who ran when" 30 c || bad "w: no timeline on c"
wait_screen "who ran when" 50 f || bad "f: the timeline not followed"
wait_screen "CPU1  " 30 f || bad "f: no CPU1 row on the demo's timeline"
# From the picker, o asks for a path: one relative to the client's
# directory ($tmp), which the daemon (in another) could not open as is.
$tm send-keys -t c l
wait_screen "o a file" 30 c || bad "l: the picker does not offer o"
$tm send-keys -t c o
wait_screen "load a scenario file" 30 c || bad "o: no path prompt"
$tm send-keys -t c -l "one.cfg"
$tm send-keys -t c Enter
wait_field scenario one && ok "o: one.cfg, relative to the client, loaded" ||
    bad "o: the daemon runs $(field scenario): $(screen c | tail -2)"
for s in v c f; do
	wait_screen "hogA" 50 $s && ok "$s: followed the load of one" ||
	    bad "$s: no hogA after load one"
done
sleep 1
for s in c f v; do
	screen $s | grep -q "CPU1" &&
	    bad "$s: CPU1 still drawn after load one: $(screen $s)"
done
for s in c f; do
	if screen $s | grep -q "who ran when"; then
		screen $s | grep -q "=?" &&
		    bad "$s: an old task in the legend: $(screen $s |
		    grep '=?')" || ok "$s: the timeline has one's tasks only"
	else
		bad "$s: no timeline after the load"
	fi
done
[ -s "$tmp/v.rc" ] && bad "viewer: exited ($(cat "$tmp/v.rc"))"

if [ $fails -eq 0 ]; then
	echo "$lib_name: all passed"
	exit 0
fi
echo "$lib_name: $fails failed"
exit 1
