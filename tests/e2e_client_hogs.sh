#!/bin/sh
# e2e_client_hogs.sh -- every task on its stair, through the real thing:
# a live daemon (stairsd -f) on 8 CPUs x 3 hogs, then on the shipped
# 8-CPU lesson (scenarios/eight-cpus.cfg, stopped at its first question,
# tick 3995: builds, editors and players, three to a CPU), the client in
# a private tmux server (LANG=C.UTF-8) at 200x60, 120x40 and 80x24.  With the
# daemon paused, every runnable or running task of `tasks` (socat) must
# be in the CPU area of `capture-pane` (the lines between the status line
# and the task table's heading) by its name, its "#id", or a prefix of
# its name with "…", as a word; and never a bare "[]".
# Exits 0 pass, 77 skip (no tmux/socat, or the live daemon not built
# yet), 1 fail.

lib_name=e2e-hogs
lib_skip=77
. "$(dirname "$0")/client_lib.sh"

# 8 CPUs, 24 hogs (tasks with no pattern run all the time).
{
	echo 'name = "hogs";'
	echo 'cpus = 8;'
	echo 'tasks = ('
	i=1
	while [ $i -le 24 ]; do
		sep=","
		[ $i -eq 24 ] && sep=""
		echo "  { name = \"hog$i\"; }$sep"
		i=$((i + 1))
	done
	echo ');'
} >"$tmp/hogs.cfg"

# Every runnable or running task of `tasks` ($tmp/tasks) on screen at
# each size; $1 names the case.
screens() {
	label=$1

	for size in 200x60 120x40 80x24; do
		w=${size%x*}
		h=${size#*x}
		# The new session before the old one goes: killing the server's
		# last session makes it exit, and a new-session racing that exit
		# fails with "server exited unexpectedly".  "=" matches the name
		# exactly (a bare "c" would match "c200" by prefix).
		old=$sess
		sess=c$w
		$tm new-session -d -s "$sess" -x "$w" -y "$h" \
		    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock; \
		    sleep 600"
		$tm kill-session -t "=$old" 2>/dev/null
		if ! wait_screen "PAUSED" 100; then
			bad "$label $size: nothing drawn"
			continue
		fi
		# The status line is drawn first: the rest for up to 3 s (a
		# capture can catch the client mid-repaint).
		wait_for 3 "every runnable task on screen at $size" all_shown &&
		    ok "$label $size: every runnable task on screen" ||
		    { bad "$label $size: missing$missing"; cat "$tmp/area"; }
		grep -qF '[]' "$tmp/area" && bad "$label $size: a running task drawn as []"
		i=0
		while [ $i -lt 8 ]; do
			grep -q "CPU$i " "$tmp/area" || bad "$label $size: no CPU$i"
			i=$((i + 1))
		done
	done
}

# all_shown: the CPU area ($tmp/area, from a new capture) names every
# runnable or running task of $tmp/tasks; else $missing says which.
all_shown() {
	screen >"$tmp/screen"
	# The CPU area: after the status line, before the task heading.
	awk 'NR > 1 && /^ +ID NAME/ { exit } NR > 1 { print }' \
	    "$tmp/screen" >"$tmp/area"
	missing=""
	while read -r line; do
		id=$(echo "$line" | sed 's/.* id=\([0-9]*\) .*/\1/')
		name=$(echo "$line" | sed 's/.* name=\([^ ]*\) .*/\1/')
		state=$(echo "$line" | sed 's/.* state=\([a-z]*\).*/\1/')
		case "$state" in running|runnable) ;; *) continue;; esac
		# Its name, #id, or a prefix of its name with an ellipsis.
		grep -qE "(^|[^A-Za-z0-9_#.-])($name|#$id)([^A-Za-z0-9_.-]|$)" \
		    "$tmp/area" && continue
		p=$name
		found=0
		while [ ${#p} -gt 1 ]; do
			p=${p%?}
			if grep -qE "(^|[^A-Za-z0-9_#.-])$p…" "$tmp/area"; then
				found=1
				break
			fi
		done
		[ $found = 1 ] || missing="$missing $name"
	done <"$tmp/tasks"
	[ -z "$missing" ]
}

if ! start_daemon "$tmp/hogs.cfg"; then
	echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
	exit 1
fi
# Let the hogs sink to the bottom stairs (20 stairs of 10 ms at speed
# 10), then hold still so the screen and `tasks` agree.
ask "speed 10" >/dev/null
sleep 1
ask pause >/dev/null
ask tasks | grep '^task ' >"$tmp/tasks"
grep -q "rank=13[89]" "$tmp/tasks" || bad "no hog on stair 138 or 139 yet"
screens "8x3 hogs"
stop_daemon

# The shipped lesson: it stops itself at its first question (tick 3995).
if ! start_daemon eight-cpus; then
	echo "FAIL: daemon eight-cpus: $(cat "$tmp/daemon.log")"
	exit 1
fi
ask "speed 10" >/dev/null
n=0
while [ $n -lt 300 ] && ! ask status | grep -q " paused=1 "; do
	sleep 0.1
	n=$((n + 1))
done
# The clock stops once tick 3995 has run: status says the next, 3996.
ask status | grep -q "tick=3996 .* paused=1 " ||
    bad "eight-cpus: not stopped at 3995: $(ask status | grep ^status)"
ask tasks | grep '^task ' >"$tmp/tasks"
[ "$(grep -c 'state=run' "$tmp/tasks")" -ge 16 ] ||
    bad "eight-cpus: fewer than 16 runnable tasks at 3995"
screens eight-cpus

if [ $fails -gt 0 ]; then
	echo "e2e_client_hogs: $fails failed"
	exit 1
fi
echo "e2e_client_hogs: all passed"
exit 0
