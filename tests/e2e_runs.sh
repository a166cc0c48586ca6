#!/bin/sh
# e2e_runs.sh -- the frames' `runs` lines (docs/PROTOCOL.md, "Runs"),
# end to end: a live daemon on a scenario of scripted tasks on 2 CPUs
# runs a second and a half with two subscribers (`subscribe 30 delta
# runs` from the start; `subscribe 4 runs`, full frames at 4 a second,
# joining later), then pauses.  Each subscriber's runs, put back together tick by
# tick (a line whose from= is not where the CPU's runs ended starts that
# CPU again, as a client does), must be every tick from the first it got
# to the pause with no gap, and equal `stairsd --headless --trace` of
# the same scenario, task and rank, row for row.  The events narrated:
# a fall-off, and a migration (the balance moves hog3 at tick 100, which
# a subscriber that connects late on a busy machine misses, so hog3 is
# also pinned back to CPU 0 at tick 600).
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_runs
e2e_daemon
cat >"$tmp/mix.cfg" <<CFG
name = "mix";
cpus = 2;
tasks = (
  { name = "hog1"; },
  { name = "hog2"; },
  { name = "hog3"; },
  { name = "inter"; pattern = [ 3, 30 ]; },
  { name = "low"; nice = 10; }
);
events = (
  { at = 600; action = "affinity"; task = "hog3"; cpus = "0"; },
  { at = 700; action = "sleep"; task = "hog1"; ms = 50; }
);
CFG

start "$tmp/mix.cfg" || e2e_end
{ printf 'subscribe 30 delta runs\n'; sleep 1.5; printf 'pause\n'; sleep 0.5; } |
    timeout 10 socat -t 1 - UNIX-CONNECT:"$sock" >"$tmp/a.out" 2>/dev/null &
apid=$!
sleep 0.6
{ printf 'subscribe 4 runs\n'; sleep 1.4; } |
    timeout 10 socat -t 1 - UNIX-CONNECT:"$sock" >"$tmp/b.out" 2>/dev/null
wait $apid
end=$(status_tick)
[ -n "$end" ] && [ "$end" -gt 500 ] && ok "paused at tick $end" ||
    fail "no pause tick: $(ask status)"
"$sd" --headless --scenario "$tmp/mix.cfg" \
    --ticks "$end" --trace "$tmp/trace.csv" 2>"$tmp/headless.err" ||
    fail "headless: $(cat "$tmp/headless.err")"

# Put a subscriber's runs back together: "tick,cpu,name,rank" rows, and
# "restart" lines; stderr says a gap.
reassemble() {
	awk -v endtick="$end" '
	$1 == "task" {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "id") id = kv[2]
			if (kv[1] == "name") nm = kv[2]
		}
		name[id] = nm
	}
	$1 == "runs" {
		split($2, a, "="); cpu = a[2]
		split($3, a, "="); from = a[2]
		if (!(cpu in at) || at[cpu] != from) {
			restarts++
			for (k in row) if (k + 0 >= from && k ~ "," cpu "$")
				delete row[k]
			if (!(cpu in first) || from < first[cpu])
				first[cpu] = from
		}
		t = from
		if (NF >= 4) {
			n = split($4, items, ",")
			for (i = 1; i <= n; i++) {
				split(items[i], p, "*")
				split(p[1], q, ":")
				for (j = 0; j < p[2]; j++) {
					row[t "," cpu] = q[1] "," (q[1] == 0 ? "-" : q[2])
					t++
				}
			}
		}
		at[cpu] = t
	}
	END {
		for (c in at) {
			if (at[c] != endtick)
				printf "cpu %s ends at %s, not %s\n", c, at[c],
				    endtick > "/dev/stderr"
			for (t = first[c]; t < at[c]; t++) {
				if (!((t "," c) in row)) {
					printf "cpu %s: no tick %s\n", c, t > "/dev/stderr"
					continue
				}
				split(row[t "," c], r, ",")
				printf "%s,%s,%s,%s\n", t, c, r[1] == 0 ? "-" : name[r[1]], r[2]
			}
		}
		print "restarts " restarts > "/dev/stderr"
	}' "$1" | sort -t, -k1,1n -k2,2n
}

for who in a b; do
	reassemble "$tmp/$who.out" >"$tmp/$who.rows" 2>"$tmp/$who.err"
	first=$(head -1 "$tmp/$who.rows" | cut -d, -f1)
	last=$(tail -1 "$tmp/$who.rows" | cut -d, -f1)
	nrows=$(wc -l <"$tmp/$who.rows")
	awk -F, -v f="$first" 'NR > 1 && $1 >= f { print $1 "," $2 "," $3 "," $4 }' \
	    "$tmp/trace.csv" | sort -t, -k1,1n -k2,2n >"$tmp/$who.want"
	if grep -v '^restarts' "$tmp/$who.err" | grep -q .; then
		fail "$who: $(head -3 "$tmp/$who.err")"
	fi
	grep -q "^restarts 2$" "$tmp/$who.err" &&
	    ok "$who: one start per CPU, then each frame went on from the last" ||
	    fail "$who: $(grep restarts "$tmp/$who.err") (expected 2: one per CPU)"
	if [ "$nrows" -gt 400 ] && cmp -s "$tmp/$who.rows" "$tmp/$who.want"; then
		ok "$who: ticks $first..$last ($nrows rows) equal the trace"
	else
		fail "$who: $nrows rows, ticks $first..$last differ from the trace:"
		diff "$tmp/$who.rows" "$tmp/$who.want" | head -5
	fi
done
# Without the word, no runs lines (older clients do not know them).
n=$({ printf 'subscribe 30 delta\n'; sleep 0.3; } |
    timeout 10 socat -t 1 - UNIX-CONNECT:"$sock" 2>/dev/null |
    grep -c '^runs ')
[ "$n" -eq 0 ] && ok "subscribe without runs: no runs lines" ||
    fail "subscribe without runs: $n runs lines"
# The late subscriber's first frame had what was kept before it came.
first_b=$(head -1 "$tmp/b.rows" | cut -d, -f1)
[ "${first_b:-1}" -eq 0 ] && ok "b: its first frame went back to tick 0" ||
    fail "b: first tick $first_b"
grep -q 'fell off the bottom: descent 2 (k=2) starts at 121 with 20 ms' \
    "$tmp/a.out" && ok "a fall-off is narrated" ||
    fail "no fall-off event: $(grep '^event' "$tmp/a.out" | head -3)"
grep -q 'moved from cpu' "$tmp/a.out" && ok "a migration is narrated" ||
    fail "no migration event"
grep -q 'woke and climbed' "$tmp/a.out" && ok "a climb is narrated" ||
    fail "no climb event"

kill "$daemon" 2>/dev/null
wait "$daemon" 2>/dev/null
daemon=""
e2e_end
