# wait.sh -- sourced by tests/lib.sh and tests/client_lib.sh: the one
# wait for a condition the end-to-end scripts share.

# wait_for SECS WHAT CMD...: run CMD every 50 ms until it succeeds, for
# up to SECS seconds; past that say what was awaited and return 1.
wait_for() {
	wf_n=$(($1 * 20)); wf_what=$2; shift 2
	while ! "$@"; do
		wf_n=$((wf_n - 1))
		if [ $wf_n -le 0 ]; then
			echo "timed out waiting for $wf_what"
			return 1
		fi
		sleep 0.05
	done
	return 0
}
