#!/bin/sh
# e2e_headless.sh -- stairsd --headless end to end: every scenario runs,
# the article's table comes out exactly, traces are deterministic and
# well-formed, bad scenarios and bad usage exit 2 with FILE:LINE, other
# failures exit 1, --help and --version work.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_headless

# expect_status WANT CMD... -- run CMD, stdout/stderr to $tmp/out, $tmp/err
expect_status() {
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$* exited $got, want $want; stderr: $(head -3 "$tmp/err")"
		return 1
	fi
	return 0
}

[ -x "$sd" ] || { echo "no $sd"; exit 1; }

# --help and --version.
if expect_status 0 "$sd" --headless --help; then
	grep -q '^usage: stairsd --headless --scenario FILE --ticks N' \
	    "$tmp/out" && ok "--help" || fail "--help: no usage on stdout"
fi
if expect_status 0 "$sd" --headless --version; then
	[ "$(cat "$tmp/out")" = "stairsd 0.1.0" ] && ok "--version" ||
	    fail "--version printed '$(cat "$tmp/out")'"
fi

# Every scenario without real processes runs; the trace has one row per
# CPU per tick after its header.
ticks=3000
for f in scenarios/*.cfg; do
	if grep -q '^[^#]*command *=' "$f"; then
		# Valid, but refused headless: that must be the only complaint.
		msg="real processes are not run headless"
		expect_status 2 "$sd" --headless --scenario "$f" --ticks 1 &&
			{ grep -q "^$f:[0-9]*: .*$msg" "$tmp/err" &&
			    ok "$f: loads; refused headless" ||
			    fail "$f: $(head -1 "$tmp/err")"; }
		continue
	fi
	cpus=$(sed -n 's/^cpus *= *\([0-9]*\);.*/\1/p' "$f")
	cpus=${cpus:-1}
	# The staircase's columns, whatever the scenario's policy (eevdf's).
	expect_status 0 "$sd" --headless --scenario "$f" --ticks $ticks \
	    --policy staircase --trace "$tmp/trace" || continue
	rows=$(wc -l <"$tmp/trace")
	if [ "$rows" -ne $((ticks * cpus + 1)) ]; then
		fail "$f: $rows trace lines, want $((ticks * cpus + 1))"
		continue
	fi
	# Every row: tick,cpu,name,rank,iter,left or tick,cpu,-,-,-,-.
	bad=$(sed 1d "$tmp/trace" | grep -Ecv \
	    '^[0-9]+,[0-9]+,([A-Za-z0-9_.-]+,[0-9]+,[0-9]+,[0-9]+|-,-,-,-)$')
	[ "$bad" -eq 0 ] && ok "$f: $ticks ticks, $cpus cpus" ||
	    fail "$f: $bad malformed trace rows"
done

# The article's table: the hook's check, then the rows in full.
got=$("$sd" --headless --scenario scenarios/article.cfg --ticks 600 \
    --table hog | sed -n '2,4p' | cut -d'|' -f1-4 | tr -s ' ' |
    sed 's/ *$//')
want='1 | 1 | 1 | 1
2 | | 2 | 1
3 | | | 3'
[ "$got" = "$want" ] && ok "article table (hook)" ||
    fail "article table: got '$got'"
"$sd" --headless --scenario scenarios/article.cfg --ticks 600 \
    --table hog >"$tmp/table"
cat >"$tmp/want" <<'TABLE'
Iteration | Base | -1 | -2 | -3 | -4 | -5 | -6 | -7 | -8 | -9 | -10 | -11 | -12 | -13 | -14 | -15 | -16 | -17 | -18 | -19
1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1
2 |  | 2 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1
3 |  |  | 3 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1 | 1
TABLE
cmp -s "$tmp/table" "$tmp/want" && ok "article table (full)" ||
    fail "article table differs: $(diff "$tmp/want" "$tmp/table" | head -5)"
# A run that stops mid-descent shows the part run, in tenths: 205 ticks
# are descent 1 (200) and 5 ticks of descent 2, at rank 121.
"$sd" --headless --scenario scenarios/article.cfg --ticks 205 \
    --table hog | sed -n 3p | tr -d ' ' >"$tmp/row"
want="2||0.5$(printf '%18s' '' | tr ' ' '|')"
[ "$(cat "$tmp/row")" = "$want" ] &&
    ok "partial row" || fail "partial row: '$(cat "$tmp/row")' want '$want'"

# The scenarios show what their comments say.
trace() {
	"$sd" --headless --scenario "scenarios/$1.cfg" --ticks "$2" \
	    --trace "$tmp/trace" || fail "$1: did not run"
}
trace nice-levels 20000
sed 1d "$tmp/trace" | cut -d, -f3 | sort | uniq -c |
    awk '{ n[$2] = $1 } END { exit !(n["important"] > n["normal"] &&
    n["normal"] > n["background"] && n["background"] > 0) }' &&
	ok "nice-levels: shares follow nice, nobody starves" ||
	fail "nice-levels: shares $(sed 1d "$tmp/trace" | cut -d, -f3 |
	    sort | uniq -c | tr '\n' ' ')"
trace interactive-vs-hogs 5000
[ "$(grep ',editor,' "$tmp/trace" | cut -d, -f4 | sort -u)" = 120 ] &&
	ok "interactive-vs-hogs: the editor stays at rank 120" ||
	fail "interactive-vs-hogs: editor ranks $(grep ',editor,' \
	    "$tmp/trace" | cut -d, -f4 | sort -u | tr '\n' ' ')"
trace two-cpus-balance 1500
awk -F, '$2 == 1 && $1 < 1000 && $3 != "-" { bad = 1 }
    $2 == 1 && $1 == 1000 && $3 == "-" { bad = 1 }
    $1 >= 1100 && $3 == "-" { bad = 1 } END { exit bad }' "$tmp/trace" &&
	ok "two-cpus-balance: CPU 1 idle until 1000, both busy from 1100" ||
	fail "two-cpus-balance: balancing does not show as described"
trace pinned 3000
awk -F, '$2 == 1 && $1 < 2000 && $3 != "-" && $3 != "editor" { bad = 1 }
    $2 == 0 && $3 == "editor" { bad = 1 }
    $1 == 2000 && $2 == 1 && $3 != "beta" { bad = 1 }
    $1 >= 2000 && $2 == 0 && $3 == "beta" { bad = 1 }
    END { exit bad }' "$tmp/trace" &&
	ok "pinned: affinity holds; beta moves to CPU 1 at 2000" ||
	fail "pinned: affinity does not show as described"
trace groups 3000
awk -F, '$2 == 0 && $3 ~ /^build/ { bad = 1 }
    $2 == 1 && $3 !~ /^build/ { bad = 1 } END { exit bad }' \
    "$tmp/trace" && ok "groups: each group stays on its CPU" ||
	fail "groups: a task ran outside its group's CPU"

# A nice change during a --table run starts a second table.
cat >"$tmp/renice.cfg" <<'CFG'
tasks = ( { name = "hog"; } );
events = ( { at = 450; action = "nice"; task = "hog"; value = 15; } );
CFG
"$sd" --headless --scenario "$tmp/renice.cfg" --ticks 700 --table hog \
    >"$tmp/table"
[ "$(grep -c '^Iteration' "$tmp/table")" -eq 2 ] &&
    grep -qx 'Iteration | Base | -1 | -2 | -3 | -4' "$tmp/table" &&
    grep -qx '4 |  |  |  | 4 | 1' "$tmp/table" &&
	ok "--table across a nice change" ||
	fail "--table across a nice change: $(cat "$tmp/table")"

# A task that sleeps: every tick it ran is counted, the last of each burst
# too.  [2, 40] runs ticks 0-1, 43-44, 86-87, 129-130, 172-173: 10 ticks at
# rank 120 (it climbs back each time), so Base = 10 / rr = 1; the trace
# says the same.
cat >"$tmp/sleeper.cfg" <<'CFG'
tasks = ( { name = "ed"; pattern = [ 2, 40 ]; } );
CFG
"$sd" --headless --scenario "$tmp/sleeper.cfg" --ticks 200 --table ed \
    >"$tmp/table"
runs=$("$sd" --headless --scenario "$tmp/sleeper.cfg" --ticks 200 \
    --trace - | grep -c ',ed,120,')
[ "$runs" -eq 10 ] && grep -q '^1 | 1 |' "$tmp/table" &&
	ok "--table counts the last tick of each burst" ||
	fail "--table of a sleeper: ran $runs ticks, table: $(cat "$tmp/table")"

# --table takes an id as well as a name, as <task> does everywhere.
"$sd" --headless --scenario scenarios/article.cfg --ticks 600 --table 1 \
    >"$tmp/byid" 2>&1 && "$sd" --headless --scenario scenarios/article.cfg \
    --ticks 600 --table hog >"$tmp/byname" && cmp -s "$tmp/byid" "$tmp/byname" &&
	ok "--table by id" || fail "--table 1: $(head -3 "$tmp/byid")"

# --trace - and --table would both write stdout, breaking the CSV: refused.
"$sd" --headless --scenario scenarios/article.cfg --ticks 5 --trace - \
    --table hog >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'stdout' "$tmp/err" && [ ! -s "$tmp/out" ] &&
	ok "--trace - with --table refused" ||
	fail "--trace - --table: rc $rc, err '$(cat "$tmp/err")'"

# The same scenario gives the same trace, byte for byte.
"$sd" --headless --scenario scenarios/demo.cfg --ticks 20000 \
    --trace "$tmp/t1" &&
"$sd" --headless --scenario scenarios/demo.cfg --ticks 20000 \
    --trace "$tmp/t2" &&
cmp -s "$tmp/t1" "$tmp/t2" && ok "deterministic trace" ||
    fail "demo traces differ between two runs"

# Trace header and an idle row (all tasks pinned to CPU 0 of 2).
"$sd" --headless --scenario scenarios/two-cpus-balance.cfg --ticks 2 \
    --trace - >"$tmp/trace"
cat >"$tmp/want" <<'TRACE'
tick,cpu,task,rank,iter,left
0,0,hog1,120,1,10
0,1,-,-,-,-
1,0,hog1,120,1,9
1,1,-,-,-,-
TRACE
cmp -s "$tmp/trace" "$tmp/want" && ok "trace header and idle rows" ||
    fail "trace: $(diff "$tmp/want" "$tmp/trace" | head -5)"

# Command-line overrides: --cpus adds an idle CPU, --rr-interval the slice.
"$sd" --headless --scenario scenarios/article.cfg --ticks 1 --cpus 2 \
    --rr-interval 5 --trace - >"$tmp/trace"
printf 'tick,cpu,task,rank,iter,left\n0,0,hog,120,1,5\n0,1,-,-,-,-\n' \
    >"$tmp/want"
cmp -s "$tmp/trace" "$tmp/want" && ok "--cpus and --rr-interval" ||
    fail "overrides: $(cat "$tmp/trace")"

# Broken scenarios: exit 2, FILE:LINE: first on stderr, nothing on stdout.
for spec in unknown-key:6 cpu-outside:5 syntax:4 unknown-task:7 \
    wide-nice:4 wide-at:7 wide-cpus:3 include-dir:3 reserved-name:5 \
    command:6 unknown-policy:6; do
	f=tests/scenarios-bad/${spec%:*}.cfg
	line=${spec#*:}
	expect_status 2 "$sd" --headless --scenario "$f" --ticks 10 \
	    --trace - || continue
	if ! head -1 "$tmp/err" | grep -q "^$f:$line: "; then
		fail "$f: stderr '$(head -1 "$tmp/err")', want $f:$line:"
	elif [ -s "$tmp/out" ]; then
		fail "$f: something ran: $(head -2 "$tmp/out")"
	else
		ok "$f: $(head -1 "$tmp/err")"
	fi
done
"$sd" --headless --scenario tests/scenarios-bad/unknown-policy.cfg \
    --ticks 1 >/dev/null 2>"$tmp/err"
grep -q 'unknown policy "bfs" (known: staircase, o1, cfs, eevdf, rr)' "$tmp/err" ||
    fail "unknown policy: unclear message '$(cat "$tmp/err")'"
"$sd" --headless --scenario tests/scenarios-bad/command.cfg --ticks 1 \
    >/dev/null 2>"$tmp/err"
grep -q 'real processes are not run headless' "$tmp/err" ||
    fail "command scenario: unclear message '$(cat "$tmp/err")'"
expect_status 2 "$sd" --headless --scenario "$tmp/nope.cfg" --ticks 1 &&
	{ [ "$(cat "$tmp/err")" = "$tmp/nope.cfg: No such file or directory" ] &&
	    ok "missing file" || fail "missing file: '$(cat "$tmp/err")'"; }
# --cpus from the command line can make a scenario's cpu list invalid.
expect_status 2 "$sd" --headless --scenario scenarios/pinned.cfg \
    --ticks 1 --cpus 1 &&
	{ grep -q '^scenarios/pinned.cfg:[0-9]*: .*cpu 1 is outside 0..0' \
	    "$tmp/err" && ok "--cpus 1 on a 2-cpu scenario" ||
	    fail "--cpus 1: '$(cat "$tmp/err")'"; }

# Bad usage: exit 2.
expect_status 2 "$sd" --headless --scenario scenarios/article.cfg &&
	ok "no --ticks"
expect_status 2 "$sd" --headless --ticks 5 && ok "no --scenario"
expect_status 2 "$sd" --headless --scenario scenarios/article.cfg \
    --ticks 5 --cpus 0 && ok "--cpus 0"
expect_status 2 "$sd" --headless --scenario scenarios/article.cfg \
    --ticks x && ok "--ticks x"
expect_status 2 "$sd" --headless --scenario scenarios/article.cfg \
    --ticks 5 --bogus && ok "unknown option"
expect_status 2 "$sd" --headless --scenario scenarios/article.cfg \
    --ticks 5 --table nobody &&
	{ grep -q 'nobody' "$tmp/err" && ok "--table unknown task" ||
	    fail "--table nobody: '$(cat "$tmp/err")'"; }

# Policies (SPEC.md 6): --compare prints, per policy, "policy NAME", the
# header, one row per task in id order and an empty line; a task that
# never became runnable has "-" latencies.
cat >"$tmp/two.cfg" <<'CFG'
name = "two"; cpus = 1;
tasks = ( { name = "A"; }, { name = "B"; }, { name = "C"; start = 1000; } );
CFG
rows='task,nice,share,ran,runs,lat_p50,lat_p95,lat_max
A,0,50.0,50,5,0,0,0
B,0,50.0,50,5,10,10,10
C,0,0.0,0,0,-,-,-
'
printf 'policy staircase\n%s\npolicy rr\n%s\n' "$rows" "$rows" >"$tmp/want"
if expect_status 0 "$sd" --headless --scenario "$tmp/two.cfg" --ticks 100 \
    --compare staircase,rr; then
	cmp -s "$tmp/out" "$tmp/want" && ok "--compare format" ||
	    fail "--compare: $(diff "$tmp/want" "$tmp/out" | head -5)"
fi
# Asked for no output (no --trace, --table or --perfetto), a run prints
# its summary: the --compare block of its own policy, not nothing.
printf 'policy rr\n%s\n' "$rows" >"$tmp/want"
if expect_status 0 "$sd" --headless --scenario "$tmp/two.cfg" --ticks 100 \
    --policy rr; then
	cmp -s "$tmp/out" "$tmp/want" && ok "a run with no output asked: summary" ||
	    fail "no output asked: $(diff "$tmp/want" "$tmp/out" | head -5)"
fi
# --compare of all five policies on o1-vs-staircase.cfg: a block each,
# each with the editor's row.
if expect_status 0 "$sd" --headless --scenario scenarios/o1-vs-staircase.cfg \
    --ticks 2000 --compare staircase,o1,cfs,eevdf,rr; then
	[ "$(grep -c '^policy ' "$tmp/out")" -eq 5 ] &&
	    [ "$(grep -c '^editor,0,' "$tmp/out")" -eq 5 ] &&
	    ok "--compare of five policies" ||
	    fail "--compare five: $(head -3 "$tmp/out")"
fi
# The trace header names the policy's columns; idle rows dash each.
if expect_status 0 "$sd" --headless --scenario "$tmp/two.cfg" --ticks 1 \
    --cpus 3 --policy o1 --trace -; then
	printf '%s\n' 'tick,cpu,task,rank,array,left,bonus,sleep_avg' \
	    '0,0,A,125,A,102,0,0' '0,1,B,125,A,102,0,0' \
	    '0,2,-,-,-,-,-,-' >"$tmp/want"
	cmp -s "$tmp/out" "$tmp/want" && ok "--policy o1 trace" ||
	    fail "o1 trace: $(cat "$tmp/out")"
fi
if expect_status 0 "$sd" --headless --scenario "$tmp/two.cfg" --ticks 1 \
    --policy cfs --trace -; then
	printf '%s\n' 'tick,cpu,task,rank,vruntime_us,slice_us,left_us' \
	    '0,0,B,120,10000,10000,10000' >"$tmp/want"
	cmp -s "$tmp/out" "$tmp/want" && ok "--policy cfs trace" ||
	    fail "cfs trace: $(cat "$tmp/out")"
fi
# eevdf: A's 3 ms request, then B, owed 1.5 ms; a base_slice of 2: 2 ms.
if expect_status 0 "$sd" --headless --scenario "$tmp/two.cfg" --ticks 4 \
    --policy eevdf --trace -; then
	printf '%s\n' 'tick,cpu,task,rank,vruntime_us,lag_us,deadline_us,eligible' \
	    '0,0,A,120,0,0,3000,1' '1,0,A,120,500,-500,2500,0' \
	    '2,0,A,120,1000,-1000,2000,0' '3,0,B,120,-1500,1500,1500,1' \
	    >"$tmp/want"
	cmp -s "$tmp/out" "$tmp/want" && ok "--policy eevdf trace" ||
	    fail "eevdf trace: $(cat "$tmp/out")"
fi
sed 's/^name = "two";/name = "two"; base_slice = 2;/' "$tmp/two.cfg" \
    >"$tmp/slice.cfg"
if expect_status 0 "$sd" --headless --scenario "$tmp/slice.cfg" --ticks 3 \
    --policy eevdf --trace -; then
	[ "$(sed -n 4p "$tmp/out")" = "2,0,B,120,-1000,1000,1000,1" ] &&
	    ok "scenario base_slice key" ||
	    fail "base_slice: $(cat "$tmp/out")"
fi
sed 's/^name = "two";/name = "two"; base_slice = 101;/' "$tmp/two.cfg" \
    >"$tmp/slice.cfg"
expect_status 2 "$sd" --headless --scenario "$tmp/slice.cfg" --ticks 1 &&
	{ grep -q 'base_slice 101 is outside 1..100' "$tmp/err" &&
	    ok "base_slice out of range" ||
	    fail "base_slice 101: '$(cat "$tmp/err")'"; }
# The scenario's policy key, and --policy over it.
sed 's/^name = "two";/name = "two"; policy = "rr";/' "$tmp/two.cfg" \
    >"$tmp/rr.cfg"
if expect_status 0 "$sd" --headless --scenario "$tmp/rr.cfg" --ticks 1 \
    --trace -; then
	[ "$(head -1 "$tmp/out")" = "tick,cpu,task,rank,left" ] &&
	    ok "scenario policy key" || fail "policy key: $(cat "$tmp/out")"
fi
if expect_status 0 "$sd" --headless --scenario "$tmp/rr.cfg" --ticks 1 \
    --policy staircase --trace -; then
	[ "$(head -1 "$tmp/out")" = "tick,cpu,task,rank,iter,left" ] &&
	    ok "--policy over the scenario's" ||
	    fail "--policy override: $(cat "$tmp/out")"
fi
expect_status 2 "$sd" --headless --scenario "$tmp/two.cfg" --ticks 5 \
    --policy bfs &&
	{ grep -q 'unknown policy (known: staircase, o1, cfs, eevdf, rr)' \
	    "$tmp/err" && ok "--policy unknown" ||
	    fail "--policy bfs: '$(cat "$tmp/err")'"; }
expect_status 2 "$sd" --headless --scenario "$tmp/two.cfg" --ticks 5 \
    --compare staircase,bfs &&
	{ grep -q 'unknown policy "bfs"' "$tmp/err" &&
	    ok "--compare unknown" || fail "--compare bfs: '$(cat "$tmp/err")'"; }
expect_status 2 "$sd" --headless --scenario "$tmp/two.cfg" --ticks 5 \
    --compare staircase --trace - &&
	{ grep -q 'no --policy, --trace, --perfetto, --table or --explain with it' \
	    "$tmp/err" && ok "--compare with --trace refused" ||
	    fail "--compare --trace: '$(cat "$tmp/err")'"; }
expect_status 2 "$sd" --headless --scenario "$tmp/two.cfg" --ticks 5 \
    --policy o1 --table A &&
	{ grep -q "staircase's descents" "$tmp/err" &&
	    ok "--table under o1 refused" || fail "--table o1: $(cat "$tmp/err")"; }

# A trace that cannot be written: exit 1, naming it.
expect_status 1 "$sd" --headless --scenario scenarios/article.cfg \
    --ticks 5 --trace "$tmp/no/such/dir/trace" &&
	{ grep -q "$tmp/no/such/dir/trace" "$tmp/err" &&
	    ok "unwritable trace" || fail "unwritable trace: '$(cat "$tmp/err")'"; }

e2e_end
