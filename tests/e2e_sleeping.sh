#!/bin/sh
# e2e_sleeping.sh -- the sleeping clock (docs/DAEMON.md): with real tasks
# whose blocks and wakes the kernel's events bring at once, stairsd wakes
# for the ticks that may change what runs, not for every tick, and still
# enforces every decision:
# - real-hogs: the daemon's thread sleeps (its context switches a second,
#   from /proc, well under the ticks a second) while the engine's clock
#   keeps wall time and each hog's time on a CPU or waiting for one
#   follows what the engine charged it (ran), through pauses and
#   resumes too (a resume enforces its first tick at once: every task
#   was held stopped); the same under o1 and cfs, whose classes say
#   how long what runs keeps its CPU too, and back under the staircase;
# - with `batch = false` it wakes for every tick (context switches near
#   the ticks), so the first check can tell the two apart;
# - real-mixed: the editor, whose every run ends in a real sleep, is seen
#   blocked and woken in time: its time on a CPU or waiting for one
#   follows what the engine charged it (ran), and what it ran unpicked
#   (stolen) stays a small part of that.
# - a task that wakes and blocks again within a tick (some µs every 10
#   ms) is charged about a tick a wake, not the quiet ticks after;
# - one engine CPU on a machine of three or more: while a real task is
#   alive the daemon's thread keeps off the CPU its children are mapped
#   to, and may run on any of its CPUs again once none is; on a machine
#   of two it keeps both.
# The kernel's own count (/proc/PID/schedstat: run time plus run delay)
# is the measure: a task the engine runs and the kernel lets wait, under
# another job's load, still counts; one blocked while the engine charges
# it does not (the engine had not seen the block).
# Skips when the events are not read here (observe=proc: not root, no
# tracefs, no sched_switch), saying so.  With STAIRS_SKIP_TIMING set (the
# SAN=1 run) the cputime checks are skipped, saying so.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_sleeping
daemon=""
cleanup() {
	[ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null
}

[ -x "$sd" ] || { echo "no $sd"; exit 1; }
command -v socat >/dev/null || { echo "skip: no socat"; exit 77; }
[ -d /proc/self ] || { echo "skip: no /proc"; exit 77; }

# config BATCH: the daemon's configuration, batch = BATCH.
config() {
	cat >"$tmp/stairsd.cfg" <<EOF
socket = "";
child_output = "$tmp";
realtime = true;
cgroups = true;
batch = $1;
EOF
}

# field NAME LINE: the value of NAME=... in LINE.
field() {
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1
}

# switches: the daemon's thread's context switches so far.
switches() {
	awk '/ctxt_switches/ { n += $2 } END { print n }' \
	    "/proc/$daemon/status"
}

# nreal N: are there N live real tasks?
nreal() {
	[ "$(ask tasks | grep -c 'kind=real pid=[1-9]')" -ge "$1" ]
}

# task NAME: its tasks line.
task() {
	ask tasks | grep "name=$1 "
}

# runnable PID: its ms on a CPU or waiting for one, from schedstat.
runnable() {
	awk '{ printf "%d\n", ($1 + $2) / 1000000 }' "/proc/$1/schedstat"
}

# oncpu PID: the ms the kernel has run PID on a CPU (not its waits).
oncpu() {
	awk '{ printf "%d\n", $1 / 1000000 }' "/proc/$1/schedstat"
}

# measure NAME SECS: over SECS seconds, the ticks and the daemon's
# context switches a second (ticks, cs), task NAME's tasks lines before
# and after (l0, l1) and its runnable ms between (run).
measure() {
	l0=$(task "$1")
	r0=$(runnable "$(field pid "$l0")")
	t0=$(field tick "$(ask status | grep '^status ')")
	c0=$(switches)
	sleep "$2"
	t1=$(field tick "$(ask status | grep '^status ')")
	c1=$(switches)
	l1=$(task "$1")
	r1=$(runnable "$(field pid "$l1")")
	ticks=$(((t1 - t0) / $2))
	cs=$(((c1 - c0) / $2))
	run=$((r1 - r0))
}

# follows NAME MIN PERCENT: NAME's ran over the measure (more than MIN
# ms) and its runnable ms within PERCENT of it.
follows() {
	ran=$(($(field ran "$l1") - $(field ran "$l0")))
	d=$((ran - run)); [ $d -lt 0 ] && d=$((-d))
	[ "$ran" -gt "$2" ] && [ $((d * 100)) -le $((ran * $3)) ] &&
	    ok "$1 was runnable as long as the engine ran it ($run ms for $ran)" ||
	    fail "$1: runnable $run ms for ran $ran"
}

# hogs_sum: the three hogs' ran and runnable ms, summed (sets ran, run).
hogs_sum() {
	ran=0 run=0 on=0
	for h in hog1 hog2 hog3; do
		l=$(task $h)
		ran=$((ran + $(field ran "$l")))
		run=$((run + $(runnable "$(field pid "$l")")))
		on=$((on + $(oncpu "$(field pid "$l")")))
	done
}

# cpus [PID]: the CPUs a process may run on (ours: awk's own, inherited).
cpus() {
	awk '/^Cpus_allowed_list/ { print $2 }' "/proc/${1:-self}/status"
}

# off_hogs WHAT: the loop keeps off CPU 0, where its hogs (one engine
# CPU) run (a machine of three or more CPUs).
off_hogs() {
	allowed=$(cpus "$daemon")
	case "$allowed" in
	0|0,*|0-*) fail "$1: the loop may run on CPU 0, its hogs' ($allowed)" ;;
	*) ok "$1: the loop keeps off its hogs' CPU 0 (on $allowed)" ;;
	esac
}

# back_on_all WHAT TASK...: with those real tasks killed, none alive,
# the loop may run on all of our CPUs again.
back_on_all() {
	what=$1
	shift
	for t in "$@"; do ask "kill $t" >/dev/null; done
	all=$(cpus)
	wait_for 10 "the loop back on CPUs $all" back &&
	    ok "$what, no real task alive: the loop may run on CPUs $all again" ||
	    fail "$what, no real task alive: the loop on $(cpus "$daemon")"
}
back() {
	[ "$(cpus "$daemon")" = "$all" ]
}

# begin BATCH SCENARIO [N]: a daemon with batch = BATCH on SCENARIO, its
# N (3) real tasks started, a second past their spawn.
begin() {
	config "$1"
	start "$2" || return 1
	wait_for 10 "${3:-3} live real tasks" nreal "${3:-3}" ||
	    fail "no ${3:-3} real tasks: $(ask tasks)"
	sleep 1
}

# stop: stop the daemon, waiting for it.
stop() {
	kill "$daemon" 2>/dev/null
	wait_for 20 "stairsd to exit" gone "$daemon" >/dev/null
	wait "$daemon" 2>/dev/null
	daemon=""
}

# 1. real-hogs, the clock sleeping.
begin true scenarios/real-hogs.cfg || exit 1
st=$(ask status | grep '^status ')
if [ "$(field observe "$st")" != events ]; then
	echo "skip: observe=$(field observe "$st") here: the clock sleeps only with the kernel's events (root, tracefs)"
	stop
	exit 77
fi
# One engine CPU on a machine of three or more: the loop keeps off the
# CPU its hogs are mapped to (each wake-up there would preempt one); on
# a machine of two it keeps both (confined to one it could be starved).
if [ "$(nproc)" -ge 3 ]; then
	off_hogs sleeping
else
	allowed=$(cpus "$daemon")
	[ "$allowed" = "$(cpus)" ] &&
	    ok "with $(nproc) CPUs here the loop keeps all of them ($allowed)" ||
	    fail "with $(nproc) CPUs the loop is confined to $allowed"
	echo "skipped: the loop off its children's CPU (needs 3 CPUs, $(nproc) here)"
fi
measure hog1 3
echo "real-hogs, sleeping: $ticks ticks a second, $cs context switches a second"
[ "$ticks" -ge 800 ] && ok "the engine's clock keeps wall time ($ticks ticks a second)" ||
    fail "only $ticks ticks a second"
[ $((cs * 3)) -lt "$ticks" ] && ok "the loop sleeps through quiet ticks ($cs wake-ups for $ticks ticks)" ||
    fail "$cs context switches a second for $ticks ticks"
case "${STAIRS_SKIP_TIMING:-0}" in
""|0)
	follows hog1 300 10 ;;
*)	echo "skipped: hog1's runnable time against its ran (timing; checked in the plain build)" ;;
esac
# Pauses and resumes: after each, the picked hog runs again at once.
hogs_sum
ran0=$ran run0=$run on0=$on
for i in 1 2 3 4 5 6 7 8 9 10; do
	ask pause >/dev/null
	sleep 0.05
	ask resume >/dev/null
	sleep 0.1
done
hogs_sum
ran=$((ran - ran0)) run=$((run - run0)) on=$((on - on0))
echo "real-hogs, 10 pauses and resumes: the hogs ran $ran ms, runnable $run ms, on a CPU $on ms"
case "${STAIRS_SKIP_TIMING:-0}" in
""|0)
	# Each resume costs a tick or more either way (ticking every tick
	# too: 6.5-7 % here); the picked hog left stopped to the end of its
	# allotment cost 12-20 %: runnable less than ran.  A hog left
	# running through the pauses would be on a CPU a third longer than
	# the engine ran it; its waits for a busy machine's CPU are not
	# counted there, so a loaded machine does not fail this.
	[ "$ran" -gt 600 ] && [ $((run * 100)) -ge $((ran * 88)) ] &&
	    [ $((on * 100)) -le $((ran * 112)) ] &&
	    ok "through pauses and resumes the hogs were runnable as long as the engine ran them ($run ms for $ran, $on on a CPU)" ||
	    fail "after resumes: runnable $run ms, on a CPU $on, for ran $ran" ;;
*)	echo "skipped: the hogs' runnable time through resumes (timing; checked in the plain build)" ;;
esac
# o1 and cfs say how long what runs keeps its CPU too: the loop sleeps
# under them, and the hogs stay runnable as long as the engine ran them;
# then back under the staircase, asleep still.
for pol in o1 cfs staircase; do
	ask "policy $pol" >/dev/null
	sleep 0.2
	hogs_sum
	ran0=$ran run0=$run
	measure hog1 2
	hogs_sum
	ran=$((ran - ran0)) run=$((run - run0))
	echo "real-hogs under $pol: $ticks ticks a second, $cs context switches a second; the hogs ran $ran ms, runnable $run ms"
	[ $((cs * 3)) -lt "$ticks" ] && ok "under $pol the loop sleeps through quiet ticks ($cs for $ticks)" ||
	    fail "under $pol: $cs context switches a second for $ticks ticks"
	case "${STAIRS_SKIP_TIMING:-0}" in
	""|0)
		# Not less (a hog left stopped while charged); more is
		# the kernel making a picked hog wait: other jobs, or the
		# loop itself where it shares their CPU (cfs wakes it
		# most: 20 % more seen then).
		[ "$ran" -gt 1500 ] && [ $((run * 100)) -ge $((ran * 90)) ] &&
		    ok "under $pol the hogs were runnable as long as the engine ran them ($run ms for $ran)" ||
		    fail "under $pol: runnable $run ms for ran $ran" ;;
	*)	echo "skipped: the hogs' runnable time under $pol (timing; checked in the plain build)" ;;
	esac
done
stop

# 2. The same, every tick (batch = false): the count above can tell.
begin false scenarios/real-hogs.cfg || exit 1
measure hog1 3
echo "real-hogs, batch = false: $ticks ticks a second, $cs context switches a second"
[ $((cs * 10)) -ge $((ticks * 7)) ] && ok "with batch = false the loop wakes for every tick ($cs for $ticks)" ||
    fail "batch = false: $cs context switches a second for $ticks ticks"
# A ticking clock is not re-armed when the last real task goes: the loop
# leaves their CPU to itself, then may run on all of ours again (a
# machine of three or more; checked by hand on two with the rule at one
# CPU left: without the catch-up's ask it stayed on CPU 1).
if [ "$(nproc)" -ge 3 ]; then
	off_hogs "batch = false"
	back_on_all "batch = false" hog1 hog2 hog3
else
	echo "skipped: the ticking loop off its children's CPU and back (needs 3 CPUs, $(nproc) here)"
fi
stop

# 3. real-mixed, the clock sleeping: the editor's blocks and wakes.
begin true scenarios/real-mixed.cfg || exit 1
measure editor 4
echo "real-mixed, sleeping: $ticks ticks a second, $cs context switches a second"
echo "editor before: $l0"
echo "editor after:  $l1"
[ $((cs * 2)) -lt "$ticks" ] && ok "the loop sleeps between the editor's runs ($cs wake-ups for $ticks ticks)" ||
    fail "$cs context switches a second for $ticks ticks"
case "${STAIRS_SKIP_TIMING:-0}" in
""|0)
	# 2 ms runs every 42 ms: ~190 ms in 4 s.
	follows editor 100 20
	stolen=$(($(field stolen "$l1") - $(field stolen "$l0")))
	[ $((stolen * 10)) -le "$ran" ] &&
	    ok "the editor ran unpicked $stolen ms of $ran" ||
	    fail "editor: stolen $stolen ms of ran $ran" ;;
*)	echo "skipped: the editor's runnable time and stolen (timing; checked in the plain build)" ;;
esac
stop

# 4. A task that wakes and blocks again before the engine sees the wake
# (it runs some µs every 10 ms): the engine runs it at the tick that
# sees the wake, and the next tick sees the block, as a ticking clock's
# would; it is not charged the ticks the clock slept through.
cat >"$tmp/blip.cfg" <<EOF
name = "blip";
cpus = 1;
tasks = (
  { name = "hog1"; command = [ "stairs-load", "--run", "1000000", "--sleep", "0" ]; },
  { name = "hog2"; command = [ "stairs-load", "--run", "1000000", "--sleep", "0" ]; },
  { name = "blip"; command = [ "stairs-load", "--run", "0", "--sleep", "10" ]; }
);
EOF
begin true "$tmp/blip.cfg" || exit 1
measure blip 3
ran=$(($(field ran "$l1") - $(field ran "$l0")))
echo "blip, sleeping: $ticks ticks a second, $cs context switches a second, ran $ran ms in 3 s"
# About a tick for each of its ~300 wakes; charged to the end of the
# quiet ticks (the block unseen), nearly all of the 3000.
[ "$ran" -gt 0 ] && [ "$ran" -le 1200 ] &&
    ok "the blip, woken and blocked within a tick, was charged $ran ms of 3 s" ||
    fail "blip: ran $ran ms in 3 s (its blocks unseen by the sleeping clock?)"
# No real task left alive: the loop may run anywhere again.
if [ "$(nproc)" -ge 3 ]; then
	back_on_all sleeping hog1 hog2 blip
else
	echo "skipped: the loop back on all CPUs (needs 3 CPUs, $(nproc) here)"
fi
stop

# 5. A task the engine runs blocks in the middle of a tick: the clock
# runs that tick at once, and the hog it picks runs from then, not from
# the tick's end (procs_early).  The sleeper runs 1 ms and sleeps 4, ~200
# blocks a second, beside a hog on engine CPU 0; two scripted tasks that
# run and sleep a tick each on CPU 1 keep every tick from being quiet, so
# the clock wakes for each and the blocks land between ticks (else the
# clock sleeps through the sleeper's run, and its block finds the quiet
# ticks due).  Waiting for each tick's end left CPU 0's physical CPU idle
# ~0.5 ms a block, a tenth of the time.  The kernel's count: that CPU's
# idle time in /proc/stat (other jobs there can only hide a gap).  The
# sleeper's wakes run the tick in progress at once too, so the engine
# hears of them then, and the clock need not wake again at that tick's
# end: the loop wakes about once a tick (~1 000 a second here), where
# waiting for the tick's end after each wake made it ~1 170.
cat >"$tmp/gap.cfg" <<EOF
name = "gap";
cpus = 2;
tasks = (
  { name = "hog1"; cpus = "0"; command = [ "stairs-load", "--run", "1000000", "--sleep", "0" ]; },
  { name = "sleeper"; cpus = "0"; command = [ "stairs-load", "--run", "1", "--sleep", "4" ]; },
  { name = "tick1"; cpus = "1"; pattern = [ 1, 1 ]; },
  { name = "tick2"; cpus = "1"; pattern = [ 1, 1 ]; }
);
EOF
begin true "$tmp/gap.cfg" 2 || exit 1
sp=$(field pid "$(task sleeper)")
phys=$(cpus "$(field pid "$(task hog1)")")
case "$phys" in
""|*[!0-9]*) fail "hog1 not pinned to one CPU: $phys"; stop; e2e_end ;;
esac
# idle: CPU $phys's idle and iowait time so far, in USER_HZ units.
idle() {
	awk -v c="cpu$phys" '$1 == c { print $5 + $6 }' /proc/stat
}
i0=$(idle) n0=$(awk '{ print $3 }' "/proc/$sp/schedstat")
measure sleeper 3
i1=$(idle) n1=$(awk '{ print $3 }' "/proc/$sp/schedstat")
hz=$(getconf CLK_TCK)
idle=$(((i1 - i0) * 1000 / hz)) blocks=$(((n1 - n0) / 3))
echo "gap: CPU $phys (the hog's and the sleeper's) idle $idle ms in 3 s; the sleeper switched in $blocks times a second"
[ "$blocks" -ge 100 ] && ok "the sleeper blocked often ($blocks runs a second)" ||
    fail "the sleeper ran only $blocks times a second"
case "${STAIRS_SKIP_TIMING:-0}" in
""|0)
	# 0-70 ms here; waiting for each tick's end, ~290.
	[ "$idle" -le 150 ] &&
	    ok "after each block the hog ran at once: CPU $phys idle $idle ms of 3000" ||
	    fail "CPU $phys idled after blocks: $idle ms of 3000"
	[ $((cs * 100)) -le $((ticks * 110)) ] &&
	    ok "the wakes' ticks ran at once: the loop woke $cs times a second for $ticks ticks" ||
	    fail "the loop woke $cs times a second for $ticks ticks (a wake's tick at the tick's end?)" ;;
*)	echo "skipped: the CPU's idle gaps after blocks and the loop's wake-ups (timing; checked in the plain build)" ;;
esac
stop

e2e_end
