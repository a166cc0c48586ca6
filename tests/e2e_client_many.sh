#!/bin/sh
# e2e_client_many.sh -- the client with many CPUs and many tasks against
# a live daemon (stairsd -f on a scenario written here), in a private tmux
# server with LANG=C.UTF-8:
#   - 8 CPUs at 80x24: every CPU label on screen;
#   - 2 000 tasks: End selects the last task and it is on screen, Home
#     the first; a crowded stair says "+N";
#   - 64 CPUs at 120x40: every CPU label on screen, as the CPU list;
#     `v` shows panels, `v` again the list;
#   - 20 000 tasks on 64 CPUs at 200x60 (delta frames): End scrolls the
#     table to the last task, Home to the first, PgDn moves on a page,
#     and `/` finds a task by name and by id, scrolled into view.
# Exits 0 pass, 77 skip (no tmux/socat, or the live daemon not built
# yet), 1 fail.

lib_name=e2e-many
lib_skip=77
. "$(dirname "$0")/client_lib.sh"

# Write a scenario: $1 CPUs, $2 tasks (a third hogs, the rest sleepers).
scenario() {
	{
		echo "name = \"many\";"
		echo "cpus = $1;"
		echo "tasks = ("
		i=1
		while [ "$i" -le "$2" ]; do
			sep=","
			[ "$i" -eq "$2" ] && sep=""
			if [ $((i % 3)) -eq 0 ]; then
				echo "  { name = \"h$i\"; }$sep"
			else
				echo "  { name = \"s$i\";" \
				    "pattern = [ $((i % 5 + 1)), 30 ]; }$sep"
			fi
			i=$((i + 1))
		done
		echo ");"
	} >"$tmp/many.cfg"
}

# Run a daemon on scenario $1 CPUs x $2 tasks, and the client at $3 x $4.
run() {
	tm_stop
	[ -n "$dpid" ] && stop_daemon
	scenario "$1" "$2"
	if ! start_daemon "$tmp/many.cfg"; then
		bad "daemon: $(cat "$tmp/daemon.log")"
		return 1
	fi
	$tm new-session -d -s c -x "$3" -y "$4" \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock; \
	    sleep 600"
	wait_screen "CPU0 " 300 || { bad "$1 CPUs: nothing drawn"; return 1; }
	wait_screen "CPU$(($1 - 1)) " 50 ||
	    echo "timed out after 5 s waiting for CPU$(($1 - 1)) on screen"
}

# Every CPU label 0..$1-1 on screen.
every_cpu() {
	s=$(screen)
	i=0
	missing=""
	while [ $i -lt "$1" ]; do
		echo "$s" | grep -q "CPU$i " || missing="$missing CPU$i"
		i=$((i + 1))
	done
	[ -z "$missing" ] && ok "$1 CPUs at $2: every CPU on screen" ||
	    bad "$1 CPUs at $2: missing$missing"
}

# 8 CPUs at 80x24.
if run 8 24 80 24; then
	every_cpu 8 80x24
fi

# 2 000 tasks on 4 CPUs at 120x40: End, Home, +N.
if run 4 2000 120 40; then
	$tm send-keys -t c End
	if wait_screen "▶ 2000 " 50; then
		ok "2000 tasks: End selects the last, on screen"
	else
		bad "2000 tasks: the last task not selected on screen"
	fi
	$tm send-keys -t c Home
	wait_screen "▶    1 " 50 && ok "2000 tasks: Home back to the first" ||
	    bad "2000 tasks: Home"
	screen | grep -q ' +[0-9][0-9]*' &&
	    ok "2000 tasks: crowded stairs say +N" || bad "2000 tasks: no +N"
	every_cpu 4 120x40
fi

# 64 CPUs at 120x40: the list; v shows panels, v again the list.
if run 64 128 120 40; then
	every_cpu 64 120x40
	wait_screen "rank [running left]" 10 && ok "64 CPUs: the CPU list" ||
	    bad "64 CPUs: not the list"
	$tm send-keys -t c v
	if wait_screen "CPUs: panels" 50 &&
	    ! screen | grep -qF "rank [running left]" &&
	    screen | grep -q "┌ CPU63"; then
		ok "v: panels"
	else
		bad "v: no panels"
	fi
	$tm send-keys -t c v
	wait_screen "rank [running left]" 50 && ok "v v: the list again" ||
	    bad "v v: not the list"
fi

# 20 000 tasks on 64 CPUs at 200x60: the table scrolls, / finds.
if run 64 20000 200 60; then
	$tm send-keys -t c End
	wait_screen "▶ 20000 " 100 &&
	    ok "20000 tasks: End selects the last, on screen" ||
	    bad "20000 tasks: End: the last task not on screen"
	$tm send-keys -t c Home
	wait_screen "▶     1 s1 " 100 &&
	    ok "20000 tasks: Home, the first (ids 5 wide)" ||
	    bad "20000 tasks: Home"
	$tm send-keys -t c NPage
	n=0
	while [ $n -lt 100 ] && screen | grep -qF "▶     1 "; do
		sleep 0.1
		n=$((n + 1))
	done
	if ! screen | grep -qF "▶     1 " &&
	    screen | grep -q "▶ *[1-9][0-9]* [hs][0-9]"; then
		ok "20000 tasks: PgDn moves a page on"
	else
		bad "20000 tasks: PgDn"
	fi
	$tm send-keys -t c / h15000 Enter
	if wait_screen "found h15000 (id 15000)" 100 &&
	    wait_screen "▶ 15000 h15000" 50; then
		ok "20000 tasks: / finds h15000, on screen"
	else
		bad "20000 tasks: / h15000"
	fi
	$tm send-keys -t c / 19999 Enter
	wait_screen "▶ 19999 s19999" 100 &&
	    ok "20000 tasks: / finds id 19999, on screen" ||
	    bad "20000 tasks: / 19999"
fi

if [ $fails -gt 0 ]; then
	echo "e2e_client_many: $fails failed"
	exit 1
fi
echo "e2e_client_many: all passed"
exit 0
