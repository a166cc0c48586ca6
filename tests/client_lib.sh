# client_lib.sh -- what the client's tmux scripts share (e2e_client.sh,
# e2e_client_hogs.sh, e2e_client_many.sh, bench_client.sh): sourced by
# them, not run.  Before sourcing, a script sets
#   lib_name	its name: in the temp directory's and tmux socket's names,
#		and in the skip message;
#   lib_skip	the status to exit with when tmux or socat is missing or
#		the live daemon is not built yet (77; bench_client.sh 0, so
#		that `make bench` goes on).
# Then it has bin (where the binaries are), tmp (a private temp
# directory), sock ($tmp/socket unless the script sets another), tm
# (tmux on a private server), sess (the tmux session looked at: c unless
# the script sets another), fails and dpid (the daemon start_daemon
# started).  On exit the tmux server and that daemon are stopped, the
# script's own cleanup_more is run if it defines one, and tmp removed.

. "$(dirname "$0")/wait.sh"

bin=$(cd "${STAIRS_BIN:-.}" && pwd)
for tool in tmux socat; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "$lib_name: skipped: $tool not installed"
		exit "$lib_skip"
	fi
done
if "$bin/stairsd" -f --help 2>&1 | grep -q "not built yet"; then
	echo "$lib_name: skipped: stairsd live daemon not available"
	exit "$lib_skip"
fi

tmp=$(mktemp -d "/tmp/stairs-$lib_name.XXXXXX")
sock=$tmp/socket
tmsock=stairs-$lib_name-$$
tm="tmux -L $tmsock -f /dev/null"
sess=c
fails=0
dpid=

# Stop what the script started: the tmux server, the daemon, what its
# cleanup_more stops; remove the temp directory.
cleanup() {
	tm_stop
	[ -n "$dpid" ] && stop_daemon
	command -v cleanup_more >/dev/null 2>&1 && cleanup_more
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Stop the tmux server and wait until it is gone: a new-session sent
# while it is still exiting fails with "server exited unexpectedly".
tm_stop() {
	$tm kill-server 2>/dev/null
	n=0
	while $tm has-session 2>/dev/null && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$tmsock"
}

ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# One command to the daemon on $sock, its reply on stdout.
ask() {
	printf '%s\n' "$1" | socat -t2 - UNIX-CONNECT:"$sock" 2>/dev/null
}

# The screen of tmux session $1 (default $sess).
screen() {
	$tm capture-pane -p -t "${1:-$sess}" 2>/dev/null
}

# Wait (up to $2 tenths of a second, default 100) until the screen of
# session $3 (default $sess) shows $1.
wait_screen() {
	wait_grep -F "$@"
}

# The same with $1 a grep regular expression (a line's start, a
# selected row: "^▶ *[0-9]* name ").
wait_screen_re() {
	wait_grep -G "$@"
}

# Wait the same way until the screen no longer shows the fixed string $1
# (a screen, not a capture that failed: that shows nothing).
wait_screen_gone() {
	wait_grep -v "$@"
}

# wait_grep -F|-G|-v TEXT [TRIES [SESSION]]: the three above (-v: the
# fixed string gone).
wait_grep() {
	wg_opt=$1; shift
	n=0
	while [ $n -lt "${2:-100}" ]; do
		wg_s=$(screen "$3")
		case $wg_opt in
		-v)	[ -n "$wg_s" ] && ! printf '%s\n' "$wg_s" |
			    grep -qF -e "$1" && return 0 ;;
		*)	printf '%s\n' "$wg_s" | grep -q "$wg_opt" -e "$1" &&
			    return 0 ;;
		esac
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# Start stairsd -f on $sock with scenario file $1 (and the arguments
# after it), its output in $tmp/daemon.log; wait up to 30 s for its
# socket (a 20 000-task
# scenario takes 2.5 s under ASan at a load of 7, more on a busy CI
# machine; a quick start returns at once).  Returns 1 if it does not come.
start_daemon() {
	sd_scenario=$1
	shift
	rm -f "$sock"
	"$bin/stairsd" -f -S "$sock" --scenario "$sd_scenario" "$@" \
	    >"$tmp/daemon.log" 2>&1 &
	dpid=$!
	n=0
	while [ $n -lt 300 ] && [ ! -S "$sock" ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -S "$sock" ]
}

# Stop the daemon (SIGTERM, SIGKILL after 10 s) and reap it.
stop_daemon() {
	kill "$dpid" 2>/dev/null
	n=0
	while [ $n -lt 100 ]; do
		case $(awk '/^State:/ { print $2 }' "/proc/$dpid/status" \
		    2>/dev/null) in
		""|Z|X) break ;;
		esac
		sleep 0.1
		n=$((n + 1))
	done
	if [ $n -ge 100 ]; then
		echo "timed out after 10 s waiting for stairsd $dpid to exit"
		kill -KILL "$dpid" 2>/dev/null
	fi
	wait "$dpid" 2>/dev/null
	dpid=
}

# For the client benches: utime + stime of a process, in clock ticks.
cputicks() {
	sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# Voluntary context switches of a process: its wake-ups.
wakes() {
	awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status"
}

# usage_over SECONDS CPID DPID: sleep SECONDS and print what they took,
# "SECONDS CLIENT% WAKEUPS/S DAEMON%" (CPU in % of a core, wake-ups of
# the client a second).
usage_over() {
	c0=$(cputicks "$2")
	w0=$(wakes "$2")
	d0=$(cputicks "$3")
	t0=$(date +%s.%N)
	sleep "$1"
	c1=$(cputicks "$2")
	w1=$(wakes "$2")
	d1=$(cputicks "$3")
	t1=$(date +%s.%N)
	awk -v c0="$c0" -v c1="$c1" -v w0="$w0" -v w1="$w1" -v d0="$d0" \
	    -v d1="$d1" -v t0="$t0" -v t1="$t1" -v hz="$(getconf CLK_TCK)" \
	    'BEGIN {
		s = t1 - t0
		printf "%.1f %.2f %.0f %.2f\n", s, (c1 - c0) / hz / s * 100,
		    (w1 - w0) / s, (d1 - d0) / hz / s * 100
	}'
}
