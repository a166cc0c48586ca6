#!/bin/sh
# e2e_table.sh -- the article's table is one thing, headless or live:
# a live daemon (stairsd -f) paused at tick T, its `table` reply (socat)
# and the client's article view (tmux, 200x50) against
# `stairsd --headless --ticks T --table` for the same scenario:
#   - rr 3, a part-run stair: every cell on the client's screen is the
#     headless table's cell (2 ticks of 3 read 0.7 in both, not 0.6);
#   - a nice-17 hog, rr 1 (3 ticks a descent), run past the row bound:
#     both keep the newest 200 descents, the same ones, with the same
#     counts; `dropped` is the ticks of the descents no longer kept.
# Exits 0 pass, 77 skip (no tmux/socat, or the live daemon not built
# yet), 1 fail.

lib_name=e2e-table
lib_skip=77
. "$(dirname "$0")/client_lib.sh"
sd=$bin/stairsd
bound=200

# The field $2 of the first line of $1 that has it.
field() {
	printf '%s\n' "$1" | sed -n "s/.* $2=\\([^ ]*\\).*/\\1/p" | head -1
}

# Wait (up to 5 s) until the daemon has run T ticks: a step's ticks run
# after its ok.
wait_tick() {
	n=0
	while [ "$(field "$(ask status)" tick)" != "$T" ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

# Start the daemon on scenario $1, pause it, step 150 ticks (two rows
# and a half at rr 3), then one at a time until the headless table for
# the tick reached has a newest row matching $2 (at most 10 steps).
# Sets T, the ticks run.
run_to() {
	if ! start_daemon "$1"; then
		echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
		exit 1
	fi
	ask pause >/dev/null
	T=$(($(field "$(ask status)" tick) + 150))
	ask "step 150" >/dev/null
	wait_tick
	n=0
	while [ $n -lt 10 ]; do
		"$sd" --headless --scenario "$1" --ticks "$T" --table hog \
		    >"$tmp/headless" || bad "headless --ticks $T failed"
		tail -1 "$tmp/headless" | grep -Eq -- "$2" && return 0
		ask "step 1" >/dev/null
		T=$((T + 1))
		wait_tick
		n=$((n + 1))
	done
	bad "no row matching '$2' in 10 ticks from $T"
}


# The `table hog` reply as headless rows "D | c | c ..." with rr 1.
reply_rows() {
	sed -n 's/^row iter=\([0-9]*\) ticks=\(.*\)/\1,\2/p' "$tmp/reply" |
	    awk -F, '{ s = $1; for (i = 2; i <= NF; i++)
		s = s " | " ($i == 0 ? "" : $i); print s }'
}

# The client's article view at 200x50 as headless rows: "Desc|" lines,
# cells of 5 columns (20 stairs or fewer fit whole at 200 wide).
# Waits until its newest row is descent $1.  The row of a descent the
# hog has not run in yet (just fallen off: a marker, no counts; headless
# prints no such row) is left out.
screen_rows() {
	$tm new-session -d -s "$sess" -x 200 -y 50 \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock; sleep 600"
	n=0
	while [ $n -lt 100 ]; do
		screen | sed 's/│/|/g' | awk -v ncol="$2" '
		    /^Desc\|/ { on = 1; next }
		    on && /▶/ { next }
		    on && /^ *[0-9]+\|/ { s = substr($0, 1, 4) + 0
			for (c = 0; c < ncol; c++) {
				v = substr($0, 6 + c * 5, 5); gsub(/ /, "", v)
				s = s " | " v
			}
			print s; next }
		    { on = 0 }' >"$tmp/screen"
		tail -1 "$tmp/screen" | grep -q "^$1 |" && break
		sleep 0.1
		n=$((n + 1))
	done
	tm_stop
}

# 1. Cells: a nice-0 hog, rr 3 (60 ticks a first descent); stop where
# the newest cell is 2 ticks (0.7).
cat >"$tmp/rr3.cfg" <<'CFG'
name = "rr3";
cpus = 1;
rr_interval = 3;
tasks = ( { name = "hog"; } );
CFG
run_to "$tmp/rr3.cfg" '\| 0\.7( |$)'
last=$(tail -1 "$tmp/headless" | cut -d' ' -f1)
screen_rows "$last" 20
if ! tail -1 "$tmp/screen" | grep -Eq '\| 0\.7( |$)'; then
	bad "rr 3: the client's newest row is not 0.7: $(tail -1 "$tmp/screen")"
elif grep -Fxvf "$tmp/headless" "$tmp/screen" >"$tmp/diff"; then
	d=$(head -1 "$tmp/diff" | cut -d' ' -f1)
	bad "rr 3, tick $T: the client shows '$(head -1 "$tmp/diff")'," \
	    "headless '$(grep "^$d |" "$tmp/headless")'"
else
	ok "rr 3, tick $T: the client's $(wc -l <"$tmp/screen") rows" \
	    "are headless's (0.7)"
fi
stop_daemon

# 2. The row bound: a nice-17 hog (3 stairs), rr 1: 3 ticks a descent.
# Past 3 * 200 ticks both keep the newest 200 descents.
cat >"$tmp/bound.cfg" <<'CFG'
name = "bound";
cpus = 1;
rr_interval = 1;
tasks = ( { name = "hog"; nice = 17; } );
CFG
start_daemon "$tmp/bound.cfg" || { echo "FAIL: daemon"; exit 1; }
n=0
while [ $n -lt 100 ]; do
	[ "$(field "$(ask status)" tick)" -gt $((3 * bound + 30)) ] && break
	sleep 0.1
	n=$((n + 1))
done
ask pause >/dev/null
T=$(field "$(ask status)" tick)
ask "table hog" >"$tmp/reply"
"$sd" --headless --scenario "$tmp/bound.cfg" --ticks "$T" --table hog \
    >"$tmp/headless"
head=$(grep "^table " "$tmp/reply")
rows=$(field "$head" rows)
dropped=$(field "$head" dropped)
reply_rows >"$tmp/live"
sed 1d "$tmp/headless" >"$tmp/hrows"
kept=$(sed -n 's/^row iter=[0-9]* ticks=//p' "$tmp/reply" | tr , '\n' |
    awk '{ s += $1 } END { print s + 0 }')
first=$(head -1 "$tmp/live" | cut -d' ' -f1)
last=$(tail -1 "$tmp/live" | cut -d' ' -f1)
if [ "$rows" != "$bound" ] || [ "$(wc -l <"$tmp/live")" -ne $bound ]; then
	bad "bound, tick $T: live keeps $rows rows: $head"
elif [ "$(wc -l <"$tmp/hrows")" -ne $bound ]; then
	bad "bound, tick $T: headless prints $(wc -l <"$tmp/hrows") rows"
elif ! cmp -s "$tmp/live" "$tmp/hrows"; then
	bad "bound, tick $T: live and headless rows differ:" \
	    "$(diff "$tmp/live" "$tmp/hrows" | head -4)"
elif [ "$first" -ne $((last - bound + 1)) ]; then
	bad "bound, tick $T: not the newest $bound descents"
elif [ $((dropped + kept)) -ne "$T" ]; then
	bad "bound, tick $T: dropped=$dropped + kept $kept is not $T ticks"
else
	ok "bound, tick $T: both keep descents $first..$last, dropped=$dropped"
fi
last=$(tail -1 "$tmp/hrows" | cut -d' ' -f1)
screen_rows "$last" 3
if [ ! -s "$tmp/screen" ] || grep -Fxvf "$tmp/hrows" "$tmp/screen" \
    >"$tmp/diff"; then
	bad "bound: the client shows '$(head -2 "$tmp/diff" 2>/dev/null)'"
else
	ok "bound: the client's newest rows are headless's"
fi

[ $fails -eq 0 ] || exit 1
exit 0
