#!/bin/sh
# e2e_runner.sh -- tests/run.sh itself, on a directory of made-up tests:
# - a test that hangs (and has a child) is killed at its time limit with
#   its process group, named on a TIMEOUT line, and counted as failed;
# - a process a test leaves behind in another session is killed and
#   named on a STRAY line;
# - two tests that need each other run at the same time (parallel);
# - two serial tests (named test_proc and test_cgroup) never do;
# - each test's output comes whole under its "=== NAME" line;
# - the last line is "5 passed, 1 failed, 1 skipped", status 1.
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/tests/lib.sh"
e2e_begin e2e_runner
cleanup() {
	for f in "$tmp"/*.pid; do
		[ -e "$f" ] && kill -KILL "$(cat "$f")" 2>/dev/null
	done
}

# dead PID: gone, or a zombie nobody reaped yet (waits up to 5 s: a
# killed process needs a CPU to die on).
dead() {
	i=0
	while [ $i -lt 50 ]; do
		case $(awk '/^State:/ { print $2 }' "/proc/$1/status" \
		    2>/dev/null) in
		""|Z|X) return 0 ;;
		esac
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

command -v timeout >/dev/null || { echo "skip: no timeout(1)"; exit 77; }

mkdir "$tmp/t" "$tmp/cwd"
# A hang, with a child in its process group.
cat >"$tmp/t/test_hang" <<EOF
#!/bin/sh
sleep 1000 &
echo \$! >"$tmp/hangchild.pid"
echo hanging
wait
EOF
# A process left behind, in a session of its own.
cat >"$tmp/t/test_stray" <<EOF
#!/bin/sh
setsid sleep 1000 &
echo \$! >"$tmp/stray.pid"
echo left one
EOF
# Two that pass only if they run at the same time (up to 10 s).
for p in a:b b:a; do
	me=${p%:*} other=${p#*:}
	cat >"$tmp/t/test_pair_$me" <<EOF
#!/bin/sh
touch "$tmp/pair_$me"
i=0
while [ ! -e "$tmp/pair_$other" ]; do
	i=\$((i + 1))
	[ \$i -gt 100 ] && { echo "no test_pair_$other alongside"; exit 1; }
	sleep 0.1
done
echo "$me line 1"
sleep 0.2
echo "$me line 2"
EOF
done
# Two serial ones that fail if they overlap.
for n in test_proc test_cgroup; do
	cat >"$tmp/t/$n" <<EOF
#!/bin/sh
mkdir "$tmp/serial.lock" 2>/dev/null || { echo "overlap"; exit 1; }
sleep 0.5
rmdir "$tmp/serial.lock"
echo "$n alone"
EOF
done
printf '#!/bin/sh\necho skipping\nexit 77\n' >"$tmp/t/test_skip"
chmod +x "$tmp/t"/*

# From an empty directory, so run.sh finds no tests/e2e_*.sh (this one).
(cd "$tmp/cwd" && STAIRS_JOBS=4 STAIRS_TEST_TIMEOUT=30 \
    STAIRS_TEST_TIMEOUTS="test_other=1 test_hang=2" timeout -k 5 100 \
    sh "$here/tests/run.sh" . "$tmp/t") >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out" | sed 's/^/| /'

[ $rc -eq 1 ] && ok "run.sh exits 1 when a test failed" ||
    fail "run.sh exit status $rc (124: it hung)"
grep -q '^TIMEOUT: test_hang after [0-9]* s (limit 2 s)' "$tmp/out" &&
    ok "the hang is named on a TIMEOUT line" || fail "no TIMEOUT line"
grep -q '^FAILED: test_hang$' "$tmp/out" && ok "the hang counts as failed" ||
    fail "FAILED line: $(grep '^FAILED' "$tmp/out")"
p=$(cat "$tmp/hangchild.pid" 2>/dev/null)
[ -n "$p" ] && dead "$p" &&
    ok "the hang's child was killed with its process group" ||
    fail "the hang's child $p survives"
p=$(cat "$tmp/stray.pid" 2>/dev/null)
grep -q "^STRAY: test_stray left pid $p " "$tmp/out" &&
    ok "the stray is named on a STRAY line" || fail "no STRAY line for $p"
[ -n "$p" ] && dead "$p" && ok "the stray was killed" ||
    fail "the stray $p survives"
grep -q '^=== test_pair_a' "$tmp/out" && grep -q '^=== test_pair_b' "$tmp/out" &&
    ! grep -q 'alongside' "$tmp/out" && ok "tests run in parallel" ||
    fail "test_pair_a and test_pair_b did not run together"
grep -q overlap "$tmp/out" && fail "serial tests overlapped" ||
    ok "serial tests ran one at a time"
whole=0
for me in a b; do
	awk -v h="=== test_pair_$me " -v me="$me" '
	    index($0, h) == 1 { getline l1; getline l2
		ok = (l1 == me " line 1" && l2 == me " line 2") }
	    END { exit !ok }' "$tmp/out" && whole=$((whole + 1))
done
[ $whole -eq 2 ] && ok "each test's output is whole under its header" ||
    fail "test_pair_a's or test_pair_b's output is not whole under its header"
[ "$(tail -1 "$tmp/out")" = "5 passed, 1 failed, 1 skipped" ] &&
    ok "closing line: $(tail -1 "$tmp/out")" ||
    fail "closing line: $(tail -1 "$tmp/out")"

e2e_end
