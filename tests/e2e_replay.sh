#!/bin/sh
# e2e_replay.sh -- record a live session, replay it headless, end to end:
# - `stairsd -f --record J --trace live.csv` on a scenario of scripted
#   tasks and one real sleeper (stairs-load: 3 ms run, 20 ms sleep),
#   poked over socat with sleep, nice, affinity, add, kill, policy and
#   spawn (a second real sleeper),
#   then SIGTERM; `stairsd --headless --replay J --trace re.csv` gives a
#   trace cmp finds equal, real blocks and wakes replayed from J;
# - `record PATH` mid-run writes the journal so far and keeps on: its
#   replay gives the same trace too; the journal recorded until then is
#   ended at that tick, and its replay gives the trace up to there;
# - `--replay J --policy o1` runs (the O(1) answer) with o1's columns;
# - truncated, reordered and garbled journals exit 2 with FILE:LINE and
#   write no trace; so do numbers past their bounds, at once: an end
#   tick of 2^63 - 1 (ticks are at most 2^40) and tasks=2147483647.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_replay
e2e_daemon
cat >"$tmp/mix.cfg" <<EOF
name = "mix";
cpus = 2;
tasks = (
  { name = "hog"; },
  { name = "inter"; pattern = [ 3, 30 ]; },
  { name = "low"; nice = 10; },
  { name = "sleeper"; command = [ "stairs-load", "--run", "3", "--sleep", "20" ]; }
);
events = (
  { at = 200; action = "nice"; task = "hog"; value = 5; }
);
EOF

# past N: wait until the daemon is past tick N.
past() {
	wait_for 20 "tick $1" tick_past "$1"
}

sock="$tmp/sock"
"$sd" -f -c "$tmp/stairsd.cfg" -S "$sock" --scenario "$tmp/mix.cfg" \
    --record "$tmp/j" --trace "$tmp/live.csv" >"$tmp/log" 2>&1 &
daemon=$!
wait_for 10 "the socket" test -S "$sock" || { fail "no daemon: $(cat "$tmp/log")"; e2e_end; }

past 300
ask "sleep inter 50" "nice low -5" >/dev/null
past 600
ask "affinity hog 1" "add extra nice=3 pattern=4,8" >/dev/null
past 900
ask "record $tmp/j2" "kill low" "policy cfs" >/dev/null
past 1200
ask "nice sleeper 4" "add hog2" "policy staircase" \
    "spawn sp2 nice=2 -- stairs-load --run 2 --sleep 10" >/dev/null
past 1500
ask "kill extra" "sleep sleeper 30" >/dev/null
past 2000
kill "$daemon"
wait "$daemon"
st=$?
daemon=""
[ "$st" -eq 0 ] && ok "live daemon: SIGTERM exit 0" ||
    fail "live daemon exit $st: $(cat "$tmp/log")"

n=$(grep -c ' block task=' "$tmp/j")
w=$(grep -c ' wake task=' "$tmp/j")
if [ "$n" -gt 5 ] && [ "$w" -gt 5 ]; then
	ok "journal has the sleeper's $n blocks and $w wakes"
else
	fail "journal: $n blocks, $w wakes: $(head -20 "$tmp/j")"
fi
grep -q '^[0-9]* add name=sp2 .*real=1' "$tmp/j2" ||
    fail "journal has no add of the spawned sp2"
for k in sleep nice affinity add kill policy; do
	grep -q "^[0-9]* $k " "$tmp/j2" || fail "journal has no $k line"
done
tail -1 "$tmp/j2" | grep -q '^end [0-9][0-9]*$' &&
    ok "journal ends with end" ||
    fail "journal's last line: $(tail -1 "$tmp/j2")"

"$sd" --headless --replay "$tmp/j2" --trace "$tmp/re.csv" 2>"$tmp/err"
st=$?
if [ "$st" -eq 0 ] && cmp "$tmp/live.csv" "$tmp/re.csv"; then
	ok "replay: trace equal to the live one ($(wc -l <"$tmp/re.csv") lines)"
else
	fail "replay exit $st: $(head -3 "$tmp/err")"
fi
# The journal --record wrote ends where `record` took over.
end=$(sed -n 's/^end \([0-9]*\)$/\1/p' "$tmp/j")
"$sd" --headless --replay "$tmp/j" --trace "$tmp/re1.csv" 2>"$tmp/err"
if [ -n "$end" ] && [ "$end" -gt 900 ] &&
    head -n $((end * 2 + 1)) "$tmp/live.csv" | cmp - "$tmp/re1.csv"; then
	ok "--record's journal, ended by record PATH at $end, replays to there"
else
	fail "--record's journal (end '$end') replay differs: $(head -3 "$tmp/err")"
fi
mv "$tmp/j2" "$tmp/j"
"$sd" --headless --replay "$tmp/j" --ticks 500 --trace "$tmp/re500.csv"
head -n $((500 * 2 + 1)) "$tmp/live.csv" | cmp - "$tmp/re500.csv" &&
    ok "replay --ticks 500: the first 500 ticks" ||
    fail "replay --ticks 500 differs"
if "$sd" --headless --replay "$tmp/j" --policy o1 --trace "$tmp/o1.csv" \
    2>"$tmp/err" && head -1 "$tmp/o1.csv" | grep -q '^tick,cpu,task,rank,' &&
    ! cmp -s "$tmp/o1.csv" "$tmp/live.csv" &&
    [ "$(wc -l <"$tmp/o1.csv")" = "$(wc -l <"$tmp/live.csv")" ]; then
	ok "replay --policy o1 ran: $(head -1 "$tmp/o1.csv")"
else
	fail "replay --policy o1: $(head -3 "$tmp/err")"
fi

# A journal that cannot be written: the daemon does not start (exit 1).
if [ -w /dev/full ]; then
	"$sd" -f -c "$tmp/stairsd.cfg" -S "$tmp/sock2" --record /dev/full \
	    >"$tmp/out" 2>&1
	st=$?
	if [ "$st" -eq 1 ] && grep -q 'journal: No space left on device' \
	    "$tmp/out" && [ ! -e "$tmp/sock2" ]; then
		ok "--record /dev/full: exit 1, said why"
	else
		fail "--record /dev/full: exit $st: $(cat "$tmp/out")"
	fi
fi

# Broken journals: exit 2, FILE:LINE, no trace written.
lines=$(wc -l <"$tmp/j")
head -n $((lines - 1)) "$tmp/j" >"$tmp/trunc"		# no end line
head -c $(($(wc -c <"$tmp/j") - 1)) "$tmp/j" >"$tmp/nonl"	# no last \n
# The first and the last change (lines that start with their tick)
# swapped: ticks go back.  (The last two swapped went back only when
# their ticks differed: under load they were often the same tick.)
awk '/^[0-9]/ { if (!f) f = NR; l = NR } { line[NR] = $0 }
    END { t = line[f]; line[f] = line[l]; line[l] = t
	for (i = 1; i <= NR; i++) print line[i] }' "$tmp/j" >"$tmp/reorder"
[ "$(grep -m1 '^[0-9]' "$tmp/j" | cut -d' ' -f1)" -lt \
    "$(grep '^[0-9]' "$tmp/j" | tail -1 | cut -d' ' -f1)" ] ||
    fail "reorder: the journal's changes all have one tick"
sed '0,/ sleep task=/s/ sleep task=/ slept task=/' "$tmp/j" >"$tmp/garble"
sed '0,/ nice task=\([0-9]*\) nice=/s// nice task=\1 nice=x/' "$tmp/j" \
    >"$tmp/badfield"
for b in trunc nonl reorder garble badfield; do
	if cmp -s "$tmp/$b" "$tmp/j"; then
		fail "$b: not broken (the test's sed did nothing)"
		continue
	fi
	rm -f "$tmp/b.csv"
	"$sd" --headless --replay "$tmp/$b" --trace "$tmp/b.csv" \
	    >/dev/null 2>"$tmp/err"
	st=$?
	if [ "$st" -eq 2 ] && grep -q "^$tmp/$b:[0-9][0-9]*: " "$tmp/err" &&
	    [ ! -e "$tmp/b.csv" ]; then
		ok "$b journal refused: $(head -1 "$tmp/err")"
	else
		fail "$b journal: exit $st: $(head -2 "$tmp/err")"
	fi
done

# Numbers past their bounds: refused at their line, exit 2.  The
# replays run under a time and a file size limit: the end tick's ran
# for ever, writing gigabytes of trace.
sed 's/^end [0-9]*$/end 9223372036854775807/' "$tmp/j" >"$tmp/hugeend"
sed '2s/ tasks=[0-9]* / tasks=2147483647 /' "$tmp/j" >"$tmp/hugetasks"
endline=$(wc -l <"$tmp/j")
for b in "hugeend:$endline: bad end tick" \
    "hugetasks:2: scenario: bad tasks=\"2147483647\""; do
	n=${b%%:*}
	rm -f "$tmp/b.csv"
	(ulimit -f 20480; exec timeout 20 "$sd" --headless --replay \
	    "$tmp/$n" --trace "$tmp/b.csv") >/dev/null 2>"$tmp/err"
	st=$?
	if [ "$st" -eq 2 ] && grep -q "^$tmp/$b" "$tmp/err" &&
	    [ ! -e "$tmp/b.csv" ]; then
		ok "$n journal refused: $(head -1 "$tmp/err")"
	else
		fail "$n journal: exit $st: $(head -2 "$tmp/err")"
	fi
done
# A change that cannot be made again (a task blocked after it exited: no
# recording has that): said at its line, and the replay exits 2: its
# trace is not the recording's.  Under another --policy a divergence is
# expected: said at its line, exit 0.
cat >"$tmp/diverge" <<EOF
stairs-journal 1
scenario name="two" tasks=2 lines=1
text "cpus = 1; tasks = ( { name = \"a\"; }, { name = \"b\"; pattern = [ 3, 30 ]; } );"
params cpus=1 rr_interval=10 sleep_min=1 balance_interval=100
policy name=staircase
120 block task=1
130 wake task=1
140 exit task=2
150 block task=2
end 300
EOF
"$sd" --headless --replay "$tmp/diverge" --trace "$tmp/b.csv" \
    >/dev/null 2>"$tmp/err"
st=$?
[ "$st" -eq 2 ] && grep -q "^$tmp/diverge:9: .*task b has exited" "$tmp/err" &&
    ok "a change that cannot be made again: exit 2, $(head -1 "$tmp/err")" ||
    fail "a change that cannot be made again: exit $st: $(head -2 "$tmp/err")"
"$sd" --headless --replay "$tmp/diverge" --policy cfs --trace "$tmp/b.csv" \
    >/dev/null 2>"$tmp/err"
st=$?
[ "$st" -eq 0 ] && grep -q "^$tmp/diverge:9: " "$tmp/err" &&
    ok "the same under --policy cfs: said at its line, exit 0" ||
    fail "under --policy cfs: exit $st: $(head -2 "$tmp/err")"
e2e_end
