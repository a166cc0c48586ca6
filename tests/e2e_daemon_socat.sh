#!/bin/sh
# e2e_daemon_socat.sh -- the by-hand session of docs/PROTOCOL.md, with
# socat as a presenter would type it: stairsd -f on a temporary socket,
# then status, tasks, pause, step, cpus, sleep, nice, an error, an
# unknown command, subscribe (a frame with the events), quit; and a
# one-shot "echo status | socat" whose reply arrives before the close.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_daemon_socat
daemon=""
cleanup() {
	[ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null
}

[ -x "$sd" ] || { echo "no $sd"; exit 1; }
command -v socat >/dev/null || { echo "skip: no socat"; exit 77; }

sock="$tmp/socket"
printf 'realtime = false;\n' >"$tmp/stairsd.cfg"
"$sd" -f -c "$tmp/stairsd.cfg" -S "$sock" 2>"$tmp/log" &
daemon=$!
i=0
until socat -u OPEN:/dev/null UNIX-CONNECT:"$sock" 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 400 ] && { echo "FAIL: no socket"; cat "$tmp/log"; exit 1; }
	sleep 0.05
done
# The socket listens before the daemon has started its real-process layer
# and its event loop; the "serving" line comes once it has.
i=0
until grep -q "serving demo on $sock" "$tmp/log" || [ $i -gt 100 ]; do
	i=$((i + 1))
	sleep 0.05
done
grep -q "serving demo on $sock" "$tmp/log" || fail "no 'serving' line"

# framed: has a whole frame carrying the speed change arrived?
framed() {
	awk '/text=speed 1 -> 0.5$/ { s = 1 } s && /^end$/ { f = 1 }
	    END { exit !f }' "$tmp/out" 2>/dev/null
}

# The session: lines sent as typed; unsubscribe once a frame with the
# events has come (up to 10 s).
{
	printf 'status\ntasks\npause\nstep 5\ncpus\nsleep hog 300\n'
	printf 'nice hog 5\nsleep hog -5\nfrob\nresume\nspeed 0.5\n'
	printf 'subscribe 2\n'
	i=0
	until framed || [ $i -ge 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	framed || echo "timed out after 10 s waiting for a frame with" \
	    "the events" >&2
	printf 'unsubscribe\nquit\n'
} | socat -t 5 - UNIX-CONNECT:"$sock" >"$tmp/out"

expect() {
	grep -q -e "$1" "$tmp/out" || fail "no line matching: $1"
}
expect '^stairs 2 '
expect '^status tick=[0-9]* cpus=2 tasks=5 paused=0 speed=1 rr=10 '
expect '^task id=1 name=hog kind=sim pid=- nice=0 '
expect '^ok 5$'
expect '^cpu id=0 task=[0-9]* nr=[0-9]* '
expect '^ok 2$'
expect '^err bad ms "-5": expected a whole number of ms, 1 to 100000000$'
expect '^err unknown command "frob" (try help)$'
expect '^frame tick=[0-9]* cpus=2 tasks=5 paused=0 speed=0.5 rr=10 dropped=0'
expect '^caption tick=[0-9]* text='
expect '^event tick=[0-9]* text=stepped 5 ticks$'
expect '^event tick=[0-9]* text=hog sleeps 300 ms$'
expect '^event tick=[0-9]* text=hog nice 0 -> 5$'
expect '^event tick=[0-9]* text=speed 1 -> 0.5$'
expect '^end$'
expect '^ok bye$'

# One-shot: the reply comes before the daemon closes.
echo status | socat - UNIX-CONNECT:"$sock" >"$tmp/one"
grep -q '^status tick=' "$tmp/one" && grep -q '^ok$' "$tmp/one" ||
    fail "one-shot status: $(cat "$tmp/one")"

kill -TERM "$daemon"
i=0
while [ $i -lt 200 ]; do
	case $(awk '/^State:/ { print $2 }' "/proc/$daemon/status" 2>/dev/null) in
	""|Z|X) break ;;
	esac
	sleep 0.05
	i=$((i + 1))
done
[ $i -lt 200 ] || { fail "timed out after 10 s waiting for stairsd to exit"; kill -KILL "$daemon"; }
wait "$daemon"
rc=$?
daemon=""
[ $rc -eq 0 ] || fail "SIGTERM: exit $rc"
[ -e "$sock" ] && fail "socket left behind"

if [ $failed -ne 0 ]; then
	echo "--- session output"; cat "$tmp/out"; echo "--- log"; cat "$tmp/log"
fi
e2e_end
