#!/bin/sh
# run.sh BIN TBIN -- run every test: the cmocka units in TBIN and the
# end-to-end scripts tests/e2e_*.sh (with STAIRS_BIN=BIN).  Each program
# or script is one test; its own output says what it checked.
# Ends with "N passed, N failed, N skipped".
bin=${1:-.}
tbin=${2:-build/obj/t}
pass=0; fail=0; skip=0; failed=""
for t in "$tbin"/test_* tests/e2e_*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *.o|*.d) continue;; esac
	echo "=== $t"
	if [ "${t%.sh}" != "$t" ]; then
		STAIRS_BIN=$bin sh "$t"
	else
		"$t"
	fi
	rc=$?
	if [ $rc -eq 0 ]; then pass=$((pass + 1))
	elif [ $rc -eq 77 ]; then skip=$((skip + 1))
	else fail=$((fail + 1)); failed="$failed $t"
	fi
done
[ -n "$failed" ] && echo "FAILED:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
