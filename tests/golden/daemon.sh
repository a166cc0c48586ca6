# daemon.sh -- sourced by the golden recorders (history.sh, kern.sh,
# pictures.sh, timeline.sh), from the top of the tree after `make`: a
# temporary directory ($dir) and daemons of their own.
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# golden_start NAME SCENARIO: stairsd -f --scenario SCENARIO on
# $dir/sock.NAME ($sock), its pid in $pid, its stderr in $dir/err;
# waits up to 10 s for the socket, and fails (its stderr shown) without.
golden_start() {
	sock=$dir/sock.$1
	./stairsd -f -S "$sock" --scenario "$2" 2>"$dir/err" &
	pid=$!
	n=0
	while [ ! -S "$sock" ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -S "$sock" ] || { cat "$dir/err" >&2; exit 1; }
}

# golden_stop: shut the daemon down and reap it.
golden_stop() {
	echo shutdown | socat - "UNIX-CONNECT:$sock" >/dev/null
	wait $pid
}
