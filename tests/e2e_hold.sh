#!/bin/sh
# e2e_hold.sh -- stairsd keeps control of its real children (SPEC.md
# section 8, docs/REAL.md "Holding control"), through the real daemon:
# - a hog continued from another shell (kill -CONT) while it should be
#   stopped is stopped again, and subscribers get an event saying which
#   task, which pid and at what tick;
# - a killed watchdog is replaced, with an event;
# - the daemon stopped (kill -STOP): the watchdog stops every hog, and
#   once the daemon goes on what the engine runs runs again;
# - processes that left their task's process group (setsid, setpgid) die
#   on SIGTERM and on SIGKILL of the daemon (cgroups; needs root and a
#   writable cgroup hierarchy, else that part is skipped, saying why).
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_hold
daemon=""
sub=""
cleanup() {
	[ -n "$sub" ] && kill "$sub" 2>/dev/null
	[ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null
	for p in $(cat "$tmp"/pid.[12] 2>/dev/null); do
		kill -KILL "$p" 2>/dev/null
	done
}

[ -x "$sd" ] || { echo "no $sd"; exit 1; }
command -v socat >/dev/null || { echo "skip: no socat"; exit 77; }
command -v perl >/dev/null || { echo "skip: no perl"; exit 77; }
command -v setsid >/dev/null || { echo "skip: no setsid"; exit 77; }

cat >"$tmp/stairsd.cfg" <<EOF
socket = "";
realtime = true;
cgroups = true;
EOF
# A task whose process tree leaves its process group twice, then hogs.
load=$(cd "$bin" && pwd)/stairs-load
cat >"$tmp/esc.sh" <<EOF
setsid sleep 1000 & echo \$! > $tmp/pid.1
perl -e 'setpgrp(0, 0); sleep 1000' & echo \$! > $tmp/pid.2
exec $load --run 1000000 --sleep 0
EOF

# escapees: spawn the escaping task, print the two escapees' pids.
escapees() {
	rm -f "$tmp/pid.1" "$tmp/pid.2"
	ask "spawn esc -- sh $tmp/esc.sh" >/dev/null
	i=0
	while { [ ! -s "$tmp/pid.1" ] || [ ! -s "$tmp/pid.2" ]; } && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	echo "$(cat "$tmp/pid.1" 2>/dev/null) $(cat "$tmp/pid.2" 2>/dev/null)"
}

# 1. kill -CONT from outside, and a killed watchdog.
start scenarios/real-hogs.cfg || exit 1
(printf 'subscribe 10\n'; sleep 25) | socat -t 26 - UNIX-CONNECT:"$tmp/sock" >"$tmp/events" 2>&1 &
sub=$!
sleep 0.5
hogs=$(ask tasks | sed -n 's/.* kind=real pid=\([0-9][0-9]*\) .*/\1/p')
# A stopped hog may be the engine's next pick, continued by the daemon
# itself in the moment between our look and our kill -CONT: then it was
# not continued "from outside".  So up to 5 tries, each a stopped hog
# and up to 3 s for the event (it comes with a frame, 10 fps; ASan on a
# busy machine is slow).  A daemon that never notices fails all five.
# stopped_hog: a hog of $hogs in state T, in $victim (empty if none
# within 100 looks, 10 ms apart).
stopped_hog() {
	victim=""
	sh_i=0
	while [ -z "$victim" ] && [ $sh_i -lt 100 ]; do
		for p in $hogs; do
			[ "$(proc_state "$p")" = T ] && victim=$p && return
		done
		sh_i=$((sh_i + 1))
		sleep 0.01
	done
}
victim=""
tries=0
while [ $tries -lt 5 ]; do
	tries=$((tries + 1))
	stopped_hog
	[ -z "$victim" ] && break
	kill -CONT "$victim"
	i=0
	until grep -q "(pid $victim) continued from outside" "$tmp/events" ||
	    [ $i -ge 60 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	grep -q "(pid $victim) continued from outside" "$tmp/events" && break
done
if [ -z "$victim" ]; then
	fail "no stopped hog among $hogs"
else
	grep -q "event tick=[0-9]* text=task hog[0-9] (pid $victim) continued from outside at tick [0-9]*; stopped again" "$tmp/events" &&
	    ok "kill -CONT $victim (try $tries): event $(grep -o 'text=task hog[0-9] (pid [0-9]*) continued[^;]*' "$tmp/events" | head -1)" ||
	    fail "kill -CONT, $tries tries: no event; events: $(grep event "$tmp/events" | tail -3)"
fi
wd=$(ps -o pid=,comm= --ppid "$daemon" | awk '$2 == "stairsd" { print $1 }' | head -1)
if [ -z "$wd" ]; then
	fail "no watchdog among the daemon's children"
else
	kill -KILL "$wd"
	# The event reaches subscribers with a frame: up to 3 s under ASan
	# on a busy machine (above).
	wait_for 10 "watchdog $wd's replacement said" grep -q \
	    "text=watchdog $wd ended (KILL); replaced by" "$tmp/events"
	wd2=$(ps -o pid=,comm= --ppid "$daemon" | awk '$2 == "stairsd" { print $1 }' | head -1)
	[ -n "$wd2" ] && [ "$wd2" != "$wd" ] &&
	    grep -q "text=watchdog $wd ended (KILL); replaced by $wd2" "$tmp/events" &&
	    ok "watchdog $wd killed: replaced by $wd2, said so" ||
	    fail "watchdog $wd killed: now '$wd2'; events: $(grep watchdog "$tmp/events")"
fi
# Paused, no tick runs: a child continued from outside is stopped again
# all the same, woken by the kernel's event (with /proc polling nothing
# wakes a paused daemon: docs/REAL.md).
conts() {
	grep -c "continued from outside" "$tmp/events"
}
if ask status | grep -q 'observe=events'; then
	ask pause >/dev/null
	stopped_hog
	n=$(conts)
	[ -n "$victim" ] && kill -CONT "$victim"
	i=0
	while [ -n "$victim" ] && [ "$(conts)" -le "$n" ] && [ $i -lt 60 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	i=0
	while [ -n "$victim" ] && [ "$(proc_state "$victim")" != T ] &&
	    [ $i -lt 60 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -n "$victim" ] && [ "$(conts)" -gt "$n" ] &&
	    [ "$(proc_state "$victim")" = T ] &&
	    ok "paused, kill -CONT $victim: stopped again, said so" ||
	    fail "paused, kill -CONT '$victim': state $(proc_state "$victim"), events: $(grep 'from outside' "$tmp/events" | tail -2)"
	ask resume >/dev/null
else
	echo "skip: paused kill -CONT: observe=proc (no kernel events here)"
fi
wait "$sub" 2>/dev/null
sub=""

# The daemon stopped (kill -STOP, ^Z at its terminal): the watchdog
# stops every hog within a few looks and none runs on unchecked; on
# SIGCONT the daemon continues what the engine runs.
hogs=$(ask tasks | sed -n 's/.* kind=real pid=\([0-9][0-9]*\) .*/\1/p')
all_stopped() {
	for p in $hogs; do
		[ "$(proc_state "$p")" = T ] || return 1
	done
	return 0
}
any_running() {
	for p in $hogs; do
		[ "$(proc_state "$p")" = R ] && return 0
	done
	return 1
}
cputicks() {
	c=0
	for p in $hogs; do
		c=$((c + $(awk '{ print $14 + $15 }' "/proc/$p/stat")))
	done
	echo $c
}
kill -STOP "$daemon"
if wait_for 2 "every hog stopped" all_stopped >/dev/null; then
	c0=$(cputicks)
	sleep 1
	c1=$(cputicks)
	hz=$(getconf CLK_TCK)
	[ $(((c1 - c0) * 1000 / hz)) -le 50 ] &&
	    ok "daemon stopped: the watchdog stopped every hog ($(echo $hogs)), $(((c1 - c0) * 1000 / hz)) ms run in 1 s" ||
	    fail "daemon stopped: the hogs ran $(((c1 - c0) * 1000 / hz)) ms in 1 s"
else
	fail "daemon stopped: hogs not all stopped: $(for p in $hogs; do printf '%s=%s ' $p "$(proc_state $p)"; done)"
fi
kill -CONT "$daemon"
wait_for 3 "a hog running again" any_running >/dev/null &&
    ask status | grep -q '^status ' &&
    ok "daemon continued: a hog runs again, the daemon answers" ||
    fail "daemon continued: $(for p in $hogs; do printf '%s=%s ' $p "$(proc_state $p)"; done)"

# 2. Escapees die with the daemon: SIGTERM, then SIGKILL.
if [ "$(id -u)" != 0 ]; then
	echo "skip: not root, no cgroups for escapees"
elif ! ask status | grep -q 'cgroups=v[12]'; then
	echo "skip: no writable cgroup hierarchy ($(ask status | grep -o 'cgroups=[a-z0-9]*'))"
else
	esc=$(escapees)
	set -- $esc
	[ $# -eq 2 ] && ! gone "$1" && ! gone "$2" ||
	    fail "escapees not started: '$esc'"
	kill -TERM "$daemon"
	wait "$daemon"
	daemon=""
	wait_gone $esc && ok "SIGTERM: setsid and setpgid escapees ($esc) gone" ||
	    fail "SIGTERM: escapees left: $esc"

	start scenarios/real-hogs.cfg || exit 1
	esc=$(escapees)
	set -- $esc
	[ $# -eq 2 ] && ! gone "$1" && ! gone "$2" ||
	    fail "escapees not started: '$esc'"
	kill -KILL "$daemon"
	wait "$daemon" 2>/dev/null
	daemon=""
	wait_gone $esc && ok "SIGKILL: setsid and setpgid escapees ($esc) gone" ||
	    fail "SIGKILL: escapees left: $esc"
fi
[ -n "$daemon" ] && kill -TERM "$daemon" && wait "$daemon"
daemon=""

e2e_end
