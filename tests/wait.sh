# wait.sh -- sourced by tests/lib.sh and tests/client_lib.sh: the wait
# for a condition the end-to-end scripts share, and the daemon's tick
# and status fields (through the caller's ask).

# wait_for SECS WHAT CMD...: run CMD every 50 ms until it succeeds, for
# up to SECS seconds of the wall clock (on a loaded machine CMD itself
# may take long: the deadline is the clock's, not a count of tries);
# past that say what was awaited and return 1.
wait_for() {
	wf_end=$(($(date +%s) + $1)); wf_what=$2; shift 2
	while ! "$@"; do
		if [ "$(date +%s)" -ge "$wf_end" ]; then
			echo "timed out waiting for $wf_what"
			return 1
		fi
		sleep 0.05
	done
	return 0
}

# status_tick: the daemon's tick now, from `status`.
status_tick() {
	ask status | sed -n 's/^status tick=\([0-9]*\) .*/\1/p'
}

# tick_past N: is the daemon past tick N?  (A condition for wait_for.)
tick_past() {
	tp_t=$(status_tick)
	[ -n "$tp_t" ] && [ "$tp_t" -gt "$1" ]
}

# A field of the daemon's `status` ($1: tick, now, live, paused, ...).
field() {
	ask status | sed -n "s/^status .* $1=\([^ ]*\).*/\1/p;
	    s/^status $1=\([^ ]*\).*/\1/p" | head -1
}

# Wait (up to $3 tenths of a second, default 100) until `status` field
# $1 is $2.
wait_field() {
	wf_n=0
	while [ $wf_n -lt "${3:-100}" ]; do
		[ "$(field "$1")" = "$2" ] && return 0
		sleep 0.1
		wf_n=$((wf_n + 1))
	done
	return 1
}
