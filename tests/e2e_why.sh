#!/bin/sh
# e2e_why.sh -- every policy explains itself (SPEC.md section 10), through
# the real thing: stairsd --headless --explain prints why lines beside an
# unchanged trace; a daemon on a socket, driven with socat, says the
# picture of its policy (status, frames), sends each CPU's why line in
# frames (why, swhy), each policy's quantities on task and cpu lines,
# and with `compare o1,cfs,rr` three shadows (shadow=o1,cfs,rr, scpu and
# stask lines with policy=) and every policy's tally lines.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_why
daemon=""
cleanup() {
	[ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null
}

[ -x "$sd" ] || { echo "no $sd"; exit 1; }
command -v socat >/dev/null || { echo "skip: no socat"; exit 77; }

# expect FILE RE WHAT: a line of FILE matches RE.
expect() {
	if grep -q -e "$2" "$1"; then ok "$3"; else fail "$3 (no line: $2)"; fi
}

# --- Headless. ------------------------------------------------------
"$sd" --headless --scenario o1-vs-staircase --ticks 400 --policy eevdf \
    --explain --trace - >"$tmp/both" 2>"$tmp/err" || fail "--explain failed"
"$sd" --headless --scenario o1-vs-staircase --ticks 400 --policy eevdf \
    --trace - >"$tmp/trace" 2>>"$tmp/err"
grep -v '^why ' "$tmp/both" | cmp -s - "$tmp/trace" &&
    ok "--explain leaves the trace as it was" ||
    fail "--explain changed the trace"
expect "$tmp/both" '^why tick=3 cpu=0 task=2 text=hog1 used its request: new deadline [0-9.]* ms, lag -[0-9.]* ms; hog2: eligible (lag +[0-9.]* ms), earliest deadline [0-9.]* ms' \
    "eevdf: a request used up, the eligible earliest deadline"
for p in staircase o1 cfs rr; do
	"$sd" --headless --scenario o1-vs-staircase --ticks 1000 --policy $p \
	    --explain >"$tmp/$p" 2>>"$tmp/err"
done
expect "$tmp/staircase" '^why tick=10 cpu=0 task=2 text=hog1 used its 10 ms at rank 120, down to 121; hog2 at 120 is the best rank now; next hog3 at 120$' \
    "staircase: a stair used up"
expect "$tmp/o1" 'text=hog1 moved to the expired array: its timeslice ran out, not interactive (prio 125, bonus -5)' \
    "o1: an expiry into the expired array"
expect "$tmp/o1" 'text=editor preempts hog[0-9]: woke at prio 1[0-9]*, bonus [-+][0-9], above 125; next hog[0-9] at prio 125$' \
    "o1: a wake preemption by prio"
expect "$tmp/cfs" 'text=.*: smallest vruntime [0-9.]* ms (min_vruntime [0-9.]*; next hog[0-9] at [0-9.]*)' \
    "cfs: the smallest vruntime"
expect "$tmp/rr" 'text=hog1 used its 10 ms slice: to the tail; hog2, next in the FIFO' \
    "rr: the FIFO"
"$sd" --headless --scenario o1-vs-staircase --ticks 10 --compare o1 \
    --explain >/dev/null 2>&1 && fail "--explain with --compare taken" ||
    ok "--explain with --compare refused"

# --- Live. ----------------------------------------------------------
printf 'realtime = false;\n' >"$tmp/stairsd.cfg"
start o1-vs-staircase || { e2e_end; }
ask pause status 'policy eevdf' status 'compare o1,cfs,rr,eevdf' \
    'compare o1,nope' 'compare o1,cfs,rr' 'step 200' status >"$tmp/st"
expect "$tmp/st" '^status .* policy=staircase .* picture=stairs text=' \
    "status: picture=stairs for the staircase"
expect "$tmp/st" '^status .* policy=eevdf .* picture=lag text=' \
    "status: picture=lag for eevdf"
expect "$tmp/st" '^err at most 3 policies in a list$' "compare: four refused"
expect "$tmp/st" '^err unknown policy "nope"' "compare: an unknown one refused"
expect "$tmp/st" '^status .* compare=o1,cfs,rr ' "status: compare=o1,cfs,rr"

# A full frame, then a step of one tick and its delta frame.
{
	printf 'subscribe 5 delta\n'
	sleep 1
	printf 'step 1\n'
	sleep 1
	printf 'quit\n'
} | timeout 20 socat -t 5 - UNIX-CONNECT:"$sock" >"$tmp/fr" 2>/dev/null
awk '/^frame /{n++} n==1' "$tmp/fr" >"$tmp/f1"
awk '/^frame /{n++} n==2' "$tmp/fr" >"$tmp/f2"
expect "$tmp/f1" '^frame .* delta=0 shadow=o1,cfs,rr picture=lag$' \
    "frame: shadow=o1,cfs,rr picture=lag"
expect "$tmp/f1" '^cpu id=0 .* V_us=-*[0-9]* min_vruntime_us=-*[0-9]* next=[0-9]*$' \
    "cpu: eevdf's V, min_vruntime, next"
expect "$tmp/f1" '^task id=1 name=hog1 .* vruntime_us=-*[0-9]* lag_us=-*[0-9]* deadline_us=-*[0-9]* eligible=[01] weight=1024$' \
    "task: eevdf's vruntime, lag, deadline, eligible, weight"
expect "$tmp/f1" '^scpu id=0 .* expired_ms=[0-9]* starve_ms=[0-9]* best_expired=[0-9]* nr_active=[0-9]* nr_expired=[0-9]* policy=o1$' \
    "scpu: o1's arrays and starvation clock"
expect "$tmp/f1" '^scpu id=0 .* min_vruntime_us=[0-9]* next=[0-9]* period_us=[0-9]* policy=cfs$' \
    "scpu: cfs's min_vruntime"
expect "$tmp/f1" '^scpu id=0 .* order=[0-9,]* policy=rr$' "scpu: rr's order"
expect "$tmp/f1" '^stask id=4 name=editor .* array=[01] bonus=-*[0-9] sleep_avg=[0-9]* policy=o1$' \
    "stask: o1's array, bonus, sleep_avg"
expect "$tmp/f1" '^stask id=1 name=hog1 .* vruntime_us=-*[0-9]* slice_us=[0-9]* left_us=-*[0-9]* weight=1024 policy=cfs$' \
    "stask: cfs's vruntime"
expect "$tmp/f1" '^why cpu=0 tick=[0-9]* task=[0-9]* text=.*eligible (lag ' \
    "why: eevdf's line"
for p in o1 cfs rr; do
	expect "$tmp/f1" "^swhy cpu=0 tick=[0-9]* task=[0-9]* policy=$p text=." \
	    "swhy: the $p shadow's line"
done
for p in eevdf o1 cfs rr; do
	expect "$tmp/f1" "^tally policy=$p id=4 ticks=200 share=[0-9.]* ran=[0-9]* runs=[0-9]* lat_p50=[0-9-]* lat_p95=[0-9-]* lat_max=[0-9-]*$" \
	    "tally: the editor under $p"
done
[ "$(grep -c '^tally ' "$tmp/f1")" -eq 16 ] && ok "tally: 4 tasks x 4 policies" ||
    fail "tally: $(grep -c '^tally ' "$tmp/f1") lines, not 16"
# The step's delta frame: its why lines, if any, are of that tick.
t=$(sed -n 's/^frame tick=\([0-9]*\) .*/\1/p' "$tmp/f2")
[ -n "$t" ] && ok "a delta frame after step 1" || fail "no second frame"
if awk -v t=$((t - 1)) '/^s?why / { split($3, a, "="); if (a[2] != t) bad = 1 }
    END { exit bad }' "$tmp/f2"; then
	ok "delta: only the step's why lines"
else
	fail "delta: an old why line again"
fi
expect "$tmp/f2" '^frame .* delta=1 shadow=o1,cfs,rr picture=lag$' \
    "delta frame: shadow= and picture="

# The live tally is headless --compare's count: shadows from tick 0 (a
# scenario's compare key), 3000 ticks stepped, every number the same.
cat >"$tmp/mix.cfg" <<'CFG'
name = "mix";
cpus = 2;
compare = "o1,cfs,eevdf";
tasks = (
  { name = "hog1"; },
  { name = "hog2"; nice = 5; },
  { name = "hog3"; },
  { name = "editor"; pattern = [ 2, 40 ]; start = 5; },
  { name = "player"; pattern = [ 3, 13 ]; start = 9; }
);
CFG
"$sd" --headless --scenario "$tmp/mix.cfg" --ticks 3000 \
    --compare staircase,o1,cfs,eevdf >"$tmp/cmp" 2>>"$tmp/err"
ask pause "load $tmp/mix.cfg" 'step 3000' status >"$tmp/ld"
expect "$tmp/ld" '^status tick=3000 .* compare=o1,cfs,eevdf ' \
    "a scenario's compare key sets the shadows"
ask 'subscribe 5' quit >"$tmp/f4"
awk '/^policy / { p = $2; next }
    /^task,/ || /^$/ { next }
    { split($0, a, ","); n[p]++
      printf "%s %d %s %s %s %s %s %s\n", p, n[p], a[3], a[4], a[5], a[6], a[7], a[8] }' \
    "$tmp/cmp" >"$tmp/want"
sed -n 's/^tally policy=\([a-z0-9]*\) id=\([0-9]*\) ticks=3000 share=\([0-9.]*\) ran=\([0-9]*\) runs=\([0-9]*\) lat_p50=\([0-9-]*\) lat_p95=\([0-9-]*\) lat_max=\([0-9-]*\)$/\1 \2 \3 \4 \5 \6 \7 \8/p' \
    "$tmp/f4" >"$tmp/got"
if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
	ok "tally: live = headless --compare, 4 policies x 5 tasks"
else
	fail "tally: live differs from headless --compare"
	diff "$tmp/want" "$tmp/got" | head -10
fi

ask 'compare off' status >"$tmp/off"
expect "$tmp/off" '^status .* compare=off ' "compare off"
ask 'subscribe 5' quit >"$tmp/f3"
grep -q '^s\(cpu\|task\|why\) \|^tally ' "$tmp/f3" &&
    fail "shadow lines after compare off" || ok "no shadow lines after off"

e2e_end
