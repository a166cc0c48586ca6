#!/bin/sh
# e2e_sock_trust.sh -- neither end trusts a socket another user controls
# (src/sock.c, shared by stairsd and stairs).  Real processes: a fake
# daemon is a socat listener run as nobody (setpriv), recording every byte
# it receives; the client runs on a pty (script).
#   - a socket in a directory nobody owns: `stairs -S` refuses, naming the
#     directory, its owner and the way out, and sends nothing;
#   - a socket in a root-owned sticky directory (so the directory passes)
#     served by nobody: the client refuses by SO_PEERCRED, sends nothing;
#   - a socket in a directory writable by others (0777, not sticky): the
#     client refuses, naming the mode, and sends nothing;
#   - stairsd -S in nobody's directory refuses, exit 1, naming the fix;
#   - without XDG_RUNTIME_DIR, /tmp/stairs-0 made first by nobody (in a
#     private mount namespace with its own /tmp): stairsd refuses naming
#     the fix, and stairs refuses rather than talking to nobody's daemon.
# Needs root (to act as another uid).  Exits 0 pass, 77 skip, 1 fail.

bin=$(cd "${STAIRS_BIN:-.}" && pwd)

# The default-path case, run inside a private mount namespace: $1 is
# "--in-ns", $2 the scratch directory for the listener's record, $3 a
# copy of the programs outside /tmp (the build tree itself may be under
# the /tmp that the namespace hides, as in a CI clone).
if [ "${1:-}" = "--in-ns" ]; then
	bin=$3
	# Open the outputs before a fresh /tmp hides the scratch directory.
	exec 3>"$2/d-default.out" 4>"$2/c-default.out" 5>"$2/got-default"
	mount -t tmpfs -o mode=1777 tmpfs /tmp || exit 3
	mkdir /tmp/stairs-0 && chown nobody /tmp/stairs-0 &&
	    chmod 700 /tmp/stairs-0 || exit 3
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    socat UNIX-LISTEN:/tmp/stairs-0/socket \
	    SYSTEM:"echo stairs 2 0.1.0; exec cat >&5" 2>/dev/null &
	lpid=$!
	n=0
	while [ ! -S /tmp/stairs-0/socket ] && [ $n -lt 50 ]; do
		sleep 0.1; n=$((n + 1))
	done
	rc=0
	env -u XDG_RUNTIME_DIR "$bin/stairsd" -f >&3 2>&3 || rc=$?
	echo "daemon-rc=$rc"
	env -u XDG_RUNTIME_DIR TERM=xterm timeout 10 script -qec \
	    "$bin/stairs" /dev/null >&4 2>&4
	echo "client-rc=$?"
	kill $lpid 2>/dev/null
	wait $lpid 2>/dev/null
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "skip: not root (acting as another uid needs root)"
	exit 77
fi
for tool in socat setpriv script timeout; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "skip: $tool not installed"
		exit 77
	fi
done
if ! id nobody >/dev/null 2>&1 || ! getent group nogroup >/dev/null; then
	echo "skip: no user nobody / group nogroup"
	exit 77
fi
nobody=$(id -u nobody)

tmp=$(mktemp -d /tmp/stairs-e2e-trust.XXXXXX)
chmod 755 "$tmp"
nsbin=""
pids=""
fails=0

cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	for p in $pids; do
		wait "$p" 2>/dev/null
	done
	rm -rf "$tmp"
	[ -n "$nsbin" ] && rm -rf "$nsbin"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# A fake daemon as nobody on socket $1: it greets like stairsd and
# records in $2 what it gets.
fake() {
	: >"$2"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    socat UNIX-LISTEN:"$1" SYSTEM:"echo stairs 2 0.1.0; exec cat >&5" \
	    5>"$2" 2>/dev/null &
	pids="$pids $!"
	n=0
	while [ ! -S "$1" ] && [ $n -lt 50 ]; do
		sleep 0.1; n=$((n + 1))
	done
	[ -S "$1" ] || bad "the fake daemon did not listen on $1"
}

# Run the client on a pty against socket $1; its output in $2, status out.
client() {
	TERM=xterm timeout 10 script -qec "$bin/stairs -S $1" /dev/null \
	    >"$2" 2>&1
}

# Check a refusal: status $1, output file $2 has every pattern $4..., the
# record $3 is empty.  $name names the case.
refused() {
	rc=$1; out=$2; rec=$3; shift 3
	if [ "$rc" -eq 1 ]; then ok "$name: exit 1"
	else bad "$name: exit $rc, wanted 1"; fi
	for pat in "$@"; do
		if grep -qF -- "$pat" "$out"; then ok "$name: says '$pat'"
		else bad "$name: no '$pat' in: $(head -c 300 "$out")"; fi
	done
	if [ ! -s "$rec" ]; then ok "$name: sent nothing"
	else bad "$name: sent $(wc -c <"$rec") bytes: $(head -c 80 "$rec")"
	fi
}

# 1. nobody's directory.
name="nobody's directory"
mkdir "$tmp/other" && chown nobody "$tmp/other" && chmod 700 "$tmp/other"
fake "$tmp/other/socket" "$tmp/got-other"
client "$tmp/other/socket" "$tmp/c-other.out"
refused $? "$tmp/c-other.out" "$tmp/got-other" \
    "the socket directory $tmp/other belongs to uid $nobody" "remove it" "-S"

# 2. a sticky root directory, nobody's daemon: the peer check.
name="nobody's daemon"
mkdir "$tmp/shared" && chmod 1777 "$tmp/shared"
fake "$tmp/shared/socket" "$tmp/got-shared"
client "$tmp/shared/socket" "$tmp/c-shared.out"
refused $? "$tmp/c-shared.out" "$tmp/got-shared" \
    "the daemon there runs as uid $nobody" "not talking to it"

# 3. a directory others can write to.
name="open directory"
mkdir "$tmp/open" && chmod 777 "$tmp/open"
fake "$tmp/open/socket" "$tmp/got-open"
client "$tmp/open/socket" "$tmp/c-open.out"
refused $? "$tmp/c-open.out" "$tmp/got-open" \
    "the socket directory $tmp/open is writable by others (mode 777)" \
    "remove it"

# 4. the daemon in nobody's directory.
name="stairsd in nobody's directory"
"$bin/stairsd" -f -S "$tmp/other/socket2" >"$tmp/d-other.out" 2>&1
rc=$?
: >"$tmp/none"
refused $rc "$tmp/d-other.out" "$tmp/none" \
    "belongs to uid $nobody" "remove it, or choose another socket with -S"
[ ! -e "$tmp/other/socket2" ] && ok "$name: made no socket" ||
    bad "$name: made $tmp/other/socket2"

# 5. the default path without XDG_RUNTIME_DIR, /tmp/stairs-0 nobody's.
name="default path"
if ! command -v unshare >/dev/null 2>&1 ||
    ! unshare -m true 2>/dev/null; then
	echo "note: $name: no mount namespaces here (unshare -m), not checked"
else
	nsbin=$(mktemp -d /var/tmp/stairs-e2e-trust.XXXXXX) &&
	    cp "$bin/stairsd" "$bin/stairs" "$nsbin/" ||
	    bad "$name: cannot copy the programs to /var/tmp"
	unshare -m sh "$0" --in-ns "$tmp" "$nsbin" >"$tmp/ns.out" 2>&1
	if ! grep -q "client-rc=" "$tmp/ns.out"; then
		bad "$name: the namespace run failed: $(cat "$tmp/ns.out")"
	else
		drc=$(sed -n 's/^daemon-rc=//p' "$tmp/ns.out")
		crc=$(sed -n 's/^client-rc=//p' "$tmp/ns.out")
		name="stairsd, default path"
		refused "$drc" "$tmp/d-default.out" "$tmp/none" \
		    "/tmp/stairs-0 belongs to uid $nobody" "remove it" \
		    "XDG_RUNTIME_DIR"
		name="stairs, default path"
		refused "$crc" "$tmp/c-default.out" "$tmp/got-default" \
		    "/tmp/stairs-0 belongs to uid $nobody" "remove it"
	fi
fi

if [ $fails -ne 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "all socket trust checks passed"
exit 0
