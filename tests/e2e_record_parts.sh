#!/bin/sh
# e2e_record_parts.sh -- a whole workshop in one recording (SPEC.md
# section 12; issue 25, item 2), end to end over socat:
# - `stairsd -f --record J --perfetto P --trace T`, then `load`, `reset`
#   and changes in each session: J keeps every session as a part of its
#   own (three here), never truncated; P keeps them all too, one after
#   the other on its time line, each track's switches in time order;
# - `--headless --replay J` (the last part) and `--part N` (each part)
#   replay: the last part's trace equals, byte for byte, the live --trace
#   (which a load starts again); part 1's runs to the tick it ended at;
# - `--replay J` with nothing to write prints a summary (the parts, the
#   shares), exit 0; `--part 4` of three is refused, exit 2; after a
#   branch the shares are of the timeline kept.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_record_parts
e2e_daemon

start demo --record "$tmp/j" --perfetto "$tmp/p" --trace "$tmp/live.csv" ||
    e2e_end

# Part 1: demo (running from the start), a change, 400 ticks more.
ask pause >/dev/null
end1=$(($(status_tick) + 400))
ask "nice 1 5" "step 400" >/dev/null
size1=$(wc -c <"$tmp/p")
# Part 2: article, a change.
ask "load article" "nice hog 2" "step 300" >/dev/null
# Part 3: article again (reset), a change.
ask reset "nice hog -3" "step 250" >/dev/null
kill "$daemon"
wait "$daemon"
st=$?
daemon=""
[ "$st" -eq 0 ] && ok "live daemon: SIGTERM exit 0" ||
    fail "live daemon exit $st: $(cat "$tmp/log")"

n=$(grep -c '^stairs-journal 1$' "$tmp/j")
e=$(grep '^end ' "$tmp/j" | tr '\n' ' ')
if [ "$n" = 3 ] && [ "$e" = "end $end1 end 300 end 250 " ]; then
	ok "the journal keeps three parts: $e"
else
	fail "journal: $n parts, ends '$e': $(grep -v '^text' "$tmp/j")"
fi
size=$(wc -c <"$tmp/p")
n=$(grep -c '^# stairs: part ' "$tmp/p")
if [ "$size" -gt "$size1" ] && [ "$n" = 2 ] &&
    [ "$(grep -c '^# tracer: nop' "$tmp/p")" = 1 ]; then
	ok "the Perfetto trace keeps every part ($size bytes, $n more parts)"
else
	fail "Perfetto: $size bytes (after part 1: $size1), $n parts"
fi
# Every track in time order, from the task it showed (idle at first).
bad=$(awk '/sched_switch:/ {
	cpu = $2; gsub(/[][]/, "", cpu); t = $4; sub(/:$/, "", t)
	if ((cpu in last) && t + 0 < last[cpu] + 0) { print "cpu " cpu " back to " t; exit }
	last[cpu] = t
	split($0, a, "prev_pid="); split(a[2], b, " "); prev = b[1]
	split($0, a, "next_pid="); split(a[2], b, " "); nx = b[1]
	if (((cpu in show) ? show[cpu] : 0) != prev) { print "cpu " cpu " at " t ": from " prev ", showed " show[cpu]; exit }
	show[cpu] = nx
}' "$tmp/p")
[ -z "$bad" ] && ok "Perfetto: every track in time order, well formed" ||
    fail "Perfetto: $bad"

# The last part by default: the live trace (started again by the reset).
"$sd" --headless --replay "$tmp/j" --trace "$tmp/re.csv" 2>"$tmp/err"
st=$?
if [ "$st" -eq 0 ] && cmp -s "$tmp/live.csv" "$tmp/re.csv"; then
	ok "--replay J: the last part's trace equals the live one"
else
	fail "--replay J: exit $st $(cat "$tmp/err"); $(cmp "$tmp/live.csv" "$tmp/re.csv" 2>&1)"
fi
"$sd" --headless --replay "$tmp/j" --part 3 --trace "$tmp/re3.csv" &&
    cmp -s "$tmp/re.csv" "$tmp/re3.csv" && ok "--part 3 is the last" ||
    fail "--part 3 differs from the last part"
"$sd" --headless --replay "$tmp/j" --part 1 --trace "$tmp/re1.csv" 2>"$tmp/err"
last=$(tail -1 "$tmp/re1.csv" | cut -d, -f1)
if [ "$last" = $((end1 - 1)) ] && [ "$(head -1 "$tmp/re1.csv")" = \
    "$(head -1 "$tmp/live.csv")" ]; then
	ok "--part 1: demo's ticks 0..$((end1 - 1))"
else
	fail "--part 1: last tick '$last' $(cat "$tmp/err")"
fi

# Nothing to write: a summary, exit 0.
out=$("$sd" --headless --replay "$tmp/j" 2>&1)
st=$?
if [ "$st" -eq 0 ] && echo "$out" | grep -q "^journal $tmp/j: 3 parts$" &&
    echo "$out" | grep -q '^part 1: scenario=demo .* changes=1 end='"$end1"'$' &&
    echo "$out" | grep -q '^part 2: scenario=article .* changes=1 end=300$' &&
    echo "$out" | grep -q '^part 3 (replayed): scenario=article ' &&
    echo "$out" | grep -q '^hog,-3,100.0,250$'; then
	ok "--replay J alone: a summary"
else
	fail "--replay J alone: exit $st: $out"
fi
out=$("$sd" --headless --replay "$tmp/j" --part 4 2>&1)
st=$?
[ "$st" -eq 2 ] && [ "$out" = "$tmp/j: no part 4 (the journal has 3 parts)" ] &&
    ok "--part 4 refused: $out" || fail "--part 4: exit $st: $out"

# A branch: 500 ticks, back to 200, 100 more.  The summary's shares are
# of the 300 ticks kept, not of the 600 run.
start article --record "$tmp/jb" || e2e_end
ask pause "step 500" "seek 200" "step 100" >/dev/null
kill "$daemon"
wait "$daemon"
daemon=""
out=$("$sd" --headless --replay "$tmp/jb" 2>&1)
echo "$out" | grep -q '^part 1: [0-9]* ticks run (to tick 300)' &&
    echo "$out" | grep -q '^hog,0,100.0,300$' &&
    ok "after a branch, the shares of the 300 ticks kept" ||
    fail "the summary after a branch: $out"

e2e_end
