#!/bin/sh
# e2e_exit_tick.sh -- a real task that ends while the daemon's clock
# sleeps (issue 27 item 9: nothing to decide, so no tick runs) is
# recorded at the tick it ended, not at the last tick run before it:
# a child that blocks at once and ends after 2 s, beside a scripted task
# that sleeps 100 s, and a lone hog killed by timeout(1) after 2 s, each
# with the kernel's events and with /proc sampling.  The journal's exit
# line must say a tick within 1800..2800.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_exit_tick
daemon=""
cleanup() {
	[ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null
}

[ -x "$sd" ] || { echo "no $sd"; exit 1; }
command -v socat >/dev/null || { echo "skip: no socat"; exit 77; }
PATH=$(cd "$bin" && pwd):$PATH
export PATH

cat >"$tmp/nap.cfg" <<EOF
name = "nap";
cpus = 1;
tasks = ( { name = "nap"; command = [ "sleep", "2" ]; },
  { name = "idle"; pattern = [ 1, 100000 ]; } );
EOF
cat >"$tmp/hog.cfg" <<EOF
name = "hog";
cpus = 1;
tasks = ( { name = "hog"; command = [ "timeout", "2", "stairs-load",
  "--run", "1000000", "--sleep", "0" ]; } );
EOF

for obs in events proc; do
	for sc in nap hog; do
		printf 'socket = "";\nobserve = "%s";\n' "$obs" >"$tmp/stairsd.cfg"
		rm -f "$tmp/j" "$tmp/sock"
		"$sd" -f -c "$tmp/stairsd.cfg" -S "$tmp/sock" \
		    --scenario "$tmp/$sc.cfg" --record "$tmp/j" \
		    >"$tmp/log" 2>&1 &
		daemon=$!
		sock="$tmp/sock"
		wait_for 10 "the socket" test -S "$sock" >/dev/null ||
		    { fail "no daemon: $(cat "$tmp/log")"; continue; }
		wait_for 10 "the exit" grep -q ' exit task=1$' "$tmp/j" \
		    >/dev/null
		kill "$daemon"
		wait "$daemon"
		daemon=""
		at=$(awk '$2 == "exit" && $3 == "task=1" { print $1 }' "$tmp/j")
		if [ -n "$at" ] && [ "$at" -ge 1800 ] && [ "$at" -le 2800 ]; then
			ok "$sc ($obs): the exit 2 s in is recorded at tick $at"
		else
			fail "$sc ($obs): the exit is recorded at tick \"$at\""
		fi
	done
done

e2e_end
