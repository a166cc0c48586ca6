# lib.sh -- sourced by the end-to-end scripts tests/e2e_*.sh: the lines
# each of them began and ended with.
#
#	. "$(dirname "$0")/lib.sh"
#	e2e_begin NAME
#	cleanup() { ...kill what the script started...; }	(optional)
#	... ok "what held" || fail "what did not" ...
#	e2e_end
#
# e2e_begin sets bin ($STAIRS_BIN, default .), sd ($bin/stairsd), tmp (a
# new directory) and failed=0.  At exit the script's cleanup runs, then
# tmp is removed; a signal (HUP, INT, PIPE, TERM) exits with status 1,
# through the same path.

# The script's own cleanup: none unless it defines one after this.
cleanup() {
	:
}

# e2e_begin NAME: the variables above; exits 1 if no temporary directory.
e2e_begin() {
	e2e_name=$1
	bin=${STAIRS_BIN:-.}
	sd="$bin/stairsd"
	failed=0
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
	trap 'cleanup; rm -rf "$tmp"' EXIT
	trap 'exit 1' HUP INT PIPE TERM
}

# ok TEXT: a check that held.
ok() {
	echo "ok: $*"
}

# fail TEXT: a check that did not; counted in $failed.
fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}

# e2e_end: say how it went; exit 0 if nothing failed, else 1.
e2e_end() {
	if [ "$failed" -eq 0 ]; then
		echo "$e2e_name: all passed"
		exit 0
	fi
	echo "$e2e_name: $failed failed"
	exit 1
}
