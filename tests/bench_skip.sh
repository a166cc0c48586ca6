#!/bin/sh
# bench_skip.sh -- headless --compare over the five policies with the
# quiet ticks skipped (engine_advance) against every tick run one by one
# (--every-tick, the path before), in one run: the engine benchmark's
# mixes (tests/mix.sh: half hogs, half short sleepers), hogs alone, and
# the article.  Best of three CPU seconds (user + system) each,
# alternated so a slow spell falls on both; the output is the same
# (tests/e2e_skip.sh).
bin=${STAIRS_BIN:-.}
sd=$bin/stairsd
[ -x "$sd" ] || { echo "bench_skip: no $sd"; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pols=staircase,o1,cfs,eevdf,rr
ticks=${BENCH_SKIP_TICKS:-1000000}

# cpu SCENARIO [ARGS]: CPU seconds of one run.
cpu() {
	f=$1; shift
	/usr/bin/time -f '%U %S' "$sd" --headless --scenario "$f" \
	    --ticks "$ticks" --compare "$pols" "$@" 2>&1 >/dev/null |
	    tail -1 | awk '{ printf "%.2f", $1 + $2 }'
}
best() {	# the smallest of the arguments
	printf '%s\n' "$@" | sort -n | head -1
}

printf 'cpus = 4;\ntasks = ( { name = "a"; }, { name = "b"; nice = 5; },\n  { name = "c"; nice = -3; }, { name = "d"; }, { name = "e"; nice = 10; } );\n' \
    >"$tmp/hogs.cfg"
echo "headless --compare $pols, $ticks ticks: CPU seconds, best of 3"
echo
echo "| scenario | every tick (before) | quiet ticks skipped | ratio |"
echo "|---|---:|---:|---:|"
for m in "1 10" "4 10" "4 1000" "64 1000" hogs article; do
	case "$m" in
	hogs) f=$tmp/hogs.cfg; label="5 hogs, 4 CPUs" ;;
	article) f=article; label="article" ;;
	*) set -- $m
	   sh "$(dirname "$0")/mix.sh" "$1" "$2" 7 >"$tmp/mix.cfg"
	   f=$tmp/mix.cfg; label="mix: $1 CPUs, $2 tasks" ;;
	esac
	a1=$(cpu "$f" --every-tick); b1=$(cpu "$f")
	a2=$(cpu "$f" --every-tick); b2=$(cpu "$f")
	a3=$(cpu "$f" --every-tick); b3=$(cpu "$f")
	a=$(best "$a1" "$a2" "$a3"); b=$(best "$b1" "$b2" "$b3")
	r=$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
	echo "| $label | $a | $b | $r |"
done
