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

# The script's own cleanup, unless it defines one after this: the
# daemon it started (e2e_daemon, start), if any.
cleanup() {
	[ -n "${daemon:-}" ] && kill -KILL "$daemon" 2>/dev/null
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

# For the scripts that run a daemon of their own.  They set $sock (the
# socket; start sets it to $tmp/sock) and keep the daemon's pid in
# $daemon for their cleanup.

. "$(dirname "$0")/wait.sh"

# e2e_daemon [LINE...]: a script that runs daemons of its own needs
# stairsd (exit 1 without) and socat (skip, 77); $tmp/stairsd.cfg holds
# no default socket, the children's output in $tmp, then the LINEs.
e2e_daemon() {
	daemon=""
	[ -x "$sd" ] || { echo "no $sd"; exit 1; }
	command -v socat >/dev/null || { echo "skip: no socat"; exit 77; }
	{
		echo 'socket = "";'
		echo "child_output = \"$tmp\";"
		for l in "$@"; do
			echo "$l"
		done
	} >"$tmp/stairsd.cfg"
}

# start SCENARIO [ARG...]: stairsd -f --scenario SCENARIO ARG... with
# $tmp/stairsd.cfg on $tmp/sock, logging to $tmp/log, its pid in
# $daemon; waits up to 10 s for the socket.
start() {
	st_scenario=$1
	shift
	start_args --scenario "$st_scenario" "$@"
}

# start_args ARG...: the same with the arguments given (--replay J).
start_args() {
	sock="$tmp/sock"
	rm -f "$sock"
	"$sd" -f -c "$tmp/stairsd.cfg" -S "$sock" "$@" >"$tmp/log" 2>&1 &
	daemon=$!
	wait_for 10 "the socket $sock" test -S "$sock" ||
	    { fail "daemon did not start: $(cat "$tmp/log")"; return 1; }
	return 0
}

# ask LINES: send command lines to $sock, print the replies.
ask() {
	printf '%s\n' "$@" | timeout 10 socat -t 5 - UNIX-CONNECT:"$sock" \
	    2>/dev/null
}

# proc_state PID: its state letter from /proc, empty once it is gone.
proc_state() {
	awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

# gone PID...: true if none of them is alive (zombies count as gone).
gone() {
	for p in "$@"; do
		case "$(proc_state "$p")" in
		""|Z|X) ;;
		*) return 1 ;;
		esac
	done
	return 0
}

# wait_gone PID...: wait up to 10 s for them to be gone.
wait_gone() {
	wait_for 10 "pids $* to be gone" gone "$@" >/dev/null
}
