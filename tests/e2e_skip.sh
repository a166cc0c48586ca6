#!/bin/sh
# e2e_skip.sh -- `--headless --compare` runs the ticks in which nothing
# is decided at once (engine_advance); `--every-tick` runs each one by
# one.  Both must print the same, byte for byte, under every policy: on
# the engine benchmark's mixes (tests/mix.sh), on hogs alone (where most
# ticks are quiet), on every shipped scenario and on an imported trace
# (its tasks end when their recorded bursts do).
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_skip
pols=staircase,o1,cfs,eevdf,rr
same() {	# LABEL SCENARIO TICKS
	"$sd" --headless --scenario "$2" --ticks "$3" --compare "$pols" \
	    >"$tmp/skip.out" 2>&1
	"$sd" --headless --scenario "$2" --ticks "$3" --compare "$pols" \
	    --every-tick >"$tmp/every.out" 2>&1
	if [ -s "$tmp/skip.out" ] && cmp -s "$tmp/skip.out" "$tmp/every.out"
	then
		ok "$1: the same with and without skipping"
	else
		fail "$1: differs: $(diff "$tmp/skip.out" "$tmp/every.out" | head -4 | tr '\n' '|')"
	fi
}
for m in "1 10" "4 10" "4 1000" "8 60"; do
	set -- $m
	sh "$(dirname "$0")/mix.sh" "$1" "$2" 7 >"$tmp/mix.cfg"
	same "mix $1 CPUs $2 tasks" "$tmp/mix.cfg" 20000
done
printf 'cpus = 3;\ntasks = ( { name = "a"; }, { name = "b"; nice = 5; },\n  { name = "c"; nice = -3; }, { name = "d"; pattern = [ 40, 200 ]; } );\n' \
    >"$tmp/hogs.cfg"
same "three hogs and a long sleeper" "$tmp/hogs.cfg" 50000
for f in scenarios/*.cfg; do
	same "$(basename "$f")" "$f" 20000
done
imp="$bin/stairs-import"
if [ -x "$imp" ]; then
	"$imp" tests/import/tracefs.txt -o "$tmp/imp.cfg" >/dev/null 2>&1 &&
	    same "an imported trace" "$tmp/imp.cfg" 20000 ||
	    fail "stairs-import tests/import/tracefs.txt failed"
fi
e2e_end
