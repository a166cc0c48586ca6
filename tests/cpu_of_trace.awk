# cpu_of_trace.awk -- each pid's CPU time in a scheduler trace as text
# (perf script, tracefs trace, trace-cmd report), from its sched_switch
# lines alone, written apart from stairs-import so that the tests check
# one against the other (tests/e2e_import.sh).  Prints "PID US" lines.
# A task running when its CPU's first switch comes ran since the trace's
# first event; one running at the end is cut at the trace's last event.
function ts_of(   i) {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/)
			return substr($i, 1, length($i) - 1) + 0
	return -1
}
function cpu_of(   i) {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^\[[0-9]+\]$/)
			return substr($i, 2, length($i) - 2) + 0
	return -1
}
/sched_switch:/ || /sched_wakeup/ || /sched_waking/ || /sched_process/ {
	t = ts_of()
	if (t < 0)
		next
	if (first == "")
		first = t
	last = t
}
/sched_switch:/ {
	c = cpu_of()
	if (index($0, "prev_pid=")) {
		match($0, /prev_pid=[0-9]+/)
		prev = substr($0, RSTART + 9, RLENGTH - 9)
		match($0, /next_pid=[0-9]+/)
		next_ = substr($0, RSTART + 9, RLENGTH - 9)
	} else {
		s = $0
		sub(/.*sched_switch: */, "", s)
		split(s, lr, " ==> ")
		l = lr[1]; sub(/ \[[-0-9]+\] .*$/, "", l); sub(/.*:/, "", l)
		r = lr[2]; sub(/ \[[-0-9]+\]$/, "", r); sub(/.*:/, "", r)
		prev = l; next_ = r
	}
	if (prev != 0) {
		from = (c in since) ? since[c] : first
		cpu[prev] += t - from
	}
	since[c] = t
	run[c] = next_
}
END {
	for (c in run)
		if (run[c] != 0)
			cpu[run[c]] += last - since[c]
	for (p in cpu)
		printf "%s %.0f\n", p, cpu[p] * 1e6
}
