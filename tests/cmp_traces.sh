#!/bin/sh
# cmp_traces.sh OLD NEW -- the engine's output unchanged by a change that
# should not change it: headless traces (20 000 ticks) of every scripted
# scenario in scenarios/ under every policy, and --compare of all four,
# from stairsd OLD against stairsd NEW, compared by sha256.  An old
# stairsd is built from a revision with
#   mkdir /tmp/old && git archive REV | tar -x -C /tmp/old &&
#   make -C /tmp/old BUILD=build/obj BIN=. SAN= stairsd
# Prints what differs and "N equal, N differ"; exits 1 if any differ.
old=$1 new=$2 same=0 diff=0
for f in scenarios/*.cfg; do
	grep -q 'command' "$f" && continue	# real tasks: headless refuses
	for p in staircase o1 cfs rr; do
		a=$("$old" --headless --scenario "$f" --ticks 20000 --policy $p --trace - 2>&1 | sha256sum)
		b=$("$new" --headless --scenario "$f" --ticks 20000 --policy $p --trace - 2>&1 | sha256sum)
		if [ "$a" = "$b" ]; then same=$((same + 1)); else diff=$((diff + 1)); echo "differs: $f $p"; fi
	done
	a=$("$old" --headless --scenario "$f" --ticks 20000 --compare staircase,o1,cfs,rr 2>&1 | sha256sum)
	b=$("$new" --headless --scenario "$f" --ticks 20000 --compare staircase,o1,cfs,rr 2>&1 | sha256sum)
	if [ "$a" = "$b" ]; then same=$((same + 1)); else diff=$((diff + 1)); echo "differs: $f --compare"; fi
done
echo "$same equal, $diff differ"
[ "$diff" -eq 0 ]
