#!/bin/sh
# seed.sh DIR -- write the fuzzers' seed corpora under DIR/<target>/ from
# the files the project ships: protocol lines from docs/PROTOCOL.md (the
# command table and the example session), scenarios/*.cfg and the bad
# scenarios of the tests, config/*.cfg, the golden frames of test_draw and
# the PROTOCOL.md session as a client sees it.  Run from the top of the
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

# stairs-import: the real traces of tests/import, the test's sample of
# each form, and each cut short.
rm -rf "$out/import"
mkdir -p "$out/import"
for f in tests/import/*.txt; do
	b=$(basename "$f" .txt)
	cp "$f" "$out/import/$b"
	head -c 700 "$f" > "$out/import/$b-cut"
done
