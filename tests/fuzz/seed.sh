#!/bin/sh
# seed.sh DIR -- write the fuzzers' seed corpora under DIR/<target>/ from
# the files the project ships: protocol lines from docs/PROTOCOL.md (the
# command table and the example session), scenarios/*.cfg and the bad
# scenarios of the tests, config/*.cfg, the golden frames of test_draw and
# the PROTOCOL.md session as a client sees it, and journals (JOURNAL.md's
# example and two that replay).  Run from the top of the
# tree (make fuzz does).  The regressions in tests/fuzz/corpus/<target>/
# are kept in git; these are regenerated each time.
set -eu
out=$1
doc=docs/PROTOCOL.md
for t in protocol scenario config model journal import; do
	rm -rf "$out/$t"
	mkdir -p "$out/$t"
done

# Protocol: each command of the table, with its synopsis' words filled
# in, and each "> command" of the session; then the session in one file.
n=0
{
	sed -n 's/^| \(`[a-z][^|]*\) |.*/\1/p' "$doc" | tr -d '`' |
	    sed 's| / |\n|g'
	sed -n 's/^    > //p' "$doc"
} | sed -e 's/<task>/hog/; s/<name>/new1/; s/<n>/5/; s/<cpulist>/0-1/' \
    -e 's/<argv…>/sleep 1/; s/<x>/0.5/; s/\[ms\]/300/; s/\[N\]/5/' \
    -e 's/\[fps\]/10/; s/\[nice=N\]/nice=3/; s/\[cpus=LIST\]/cpus=1/' \
    -e 's/\[pattern=R,S,…\]/pattern=2,40/; s/\[runtime=MS\]/runtime=500/' |
while IFS= read -r line; do
	n=$((n + 1))
	printf '%s\n' "$line" > "$out/protocol/doc-$n"
done
sed -n 's/^    > //p' "$doc" > "$out/protocol/session"

# Scenarios and configs as shipped, and the tests' bad scenarios.
for f in scenarios/*.cfg tests/scenarios-bad/*.cfg; do
	cp "$f" "$out/scenario/$(echo "$f" | tr / -)"
done
for f in config/*.cfg; do
	cp "$f" "$out/config/$(basename "$f")"
done

# The client: the golden frames, and the session as the client sees it.
for f in tests/golden/*.frame; do
	cp "$f" "$out/model/$(basename "$f")"
done
awk '/^    stairs 2 /{on=1} !/^    /{on=0} \
    on {sub(/^    /, ""); print}' "$doc" > "$out/model/session"

# The journal: the example of docs/JOURNAL.md.
sed -n '/^```$/,/^```$/p' docs/JOURNAL.md | sed '1d;$d' > "$out/journal/doc"
# Two journals whose scenarios make their tasks, so fuzz_journal
# replays them from the start: real tasks blocking, waking and exiting,
# and scripted ones with branches back.
cat > "$out/journal/real" <<'EOF'
stairs-journal 1
scenario name="seed-real" tasks=3 lines=6
text "name = \"seed-real\";"
text "cpus = 2;"
text "tasks = ( { name = \"hog\"; }, { name = \"inter\"; pattern = [ 3, 30 ]; },"
text "  { name = \"real\"; command = [ \"stairs-load\" ]; } );"
text "events = ( { at = 20; action = \"nice\"; task = \"hog\"; value = 5; } );"
text ""
params cpus=2 rr_interval=10 sleep_min=1 balance_interval=100
policy name=staircase
10 sleep task=2 ms=30
15 nice task=1 nice=3
20 affinity task=1 cpus=1
25 add name=extra nice=2 pattern=4,8 runtime=0 cpus=- real=0
26 add name=spawned nice=0 pattern=- runtime=0 cpus=0 real=1
30 block task=3
40 wake task=3
45 block task=5
50 policy name=cfs
55 kill task=4
70 policy name=o1
80 exit task=3
90 wake task=5
100 exit task=5
end 120
EOF
cat > "$out/journal/branch" <<'EOF'
stairs-journal 1
scenario name="seed-branch" tasks=2 lines=4
text "name = \"seed-branch\";"
text "cpus = 2;"
text "tasks = ( { name = \"hog\"; }, { name = \"inter\"; pattern = [ 3, 30 ]; } );"
text ""
params cpus=2 rr_interval=10 sleep_min=1 balance_interval=100
policy name=staircase
10 sleep task=2 ms=30
20 add name=extra nice=2 pattern=4,8 runtime=0 cpus=- real=0
40 nice task=3 nice=-5
60 branch tick=30
35 kill task=3
50 policy name=rr
80 branch tick=5
7 affinity task=1 cpus=0
end 100
EOF

# stairs-import: the real traces of tests/import, the test's sample of
# each form, and each cut short.
rm -rf "$out/import"
mkdir -p "$out/import"
for f in tests/import/*.txt; do
	b=$(basename "$f" .txt)
	cp "$f" "$out/import/$b"
	head -c 700 "$f" > "$out/import/$b-cut"
done
