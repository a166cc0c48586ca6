#!/bin/sh
# e2e_client_timeline.sh -- the client's timeline against the daemon's
# trace, end to end: a live daemon (2 CPUs, three hogs and an editor)
# runs a second, then is paused; the client in tmux at 200x60 shows the
# timeline (w) at one tick a cell (z four times); every cell of each
# CPU's strip, by the legend's letter, must be the task that
# `stairsd --headless --trace` ran on that CPU at that tick ('.' idle).
lib_name=e2e-timeline
lib_skip=77
. "$(dirname "$0")/client_lib.sh"

cat >"$tmp/mix.cfg" <<EOF
name = "mix";
cpus = 2;
tasks = (
  { name = "hogA"; }, { name = "hogB"; }, { name = "hogC"; },
  { name = "edit"; pattern = [ 2, 40 ]; }
);
EOF
if ! start_daemon "$tmp/mix.cfg"; then
	echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
	exit 1
fi
sleep 1
ask pause >/dev/null
end=$(status_tick)
[ -n "$end" ] && [ "$end" -gt 300 ] || { bad "no tick: $(ask status)"; exit 1; }
"$bin/stairsd" --headless --scenario "$tmp/mix.cfg" --ticks "$end" \
    --trace "$tmp/trace.csv" 2>"$tmp/headless.err" ||
    bad "headless: $(cat "$tmp/headless.err")"

$tm new-session -d -s c -x 200 -y 60 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock; sleep 600"
wait_screen "hogA" 50 || bad "the client did not start"
$tm send-keys -t c w z z z z
wait_screen "a cell is 1 tick," 50 || bad "no timeline at zoom 1: $(screen)"
screen >"$tmp/screen.txt"
grep -q "ticks $((end - 194))..$end " "$tmp/screen.txt" &&
    ok "the timeline ends at the paused tick $end" ||
    bad "window: $(grep 'who ran when' "$tmp/screen.txt")"

# tick,cpu,name rows from the screen, through the legend.
awk -v end="$end" '
/^ [a-zA-Z0-9]=/ {
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		name[kv[1]] = kv[2]
	}
}
/^CPU[0-9]+ / { strip[substr($1, 4)] = substr($0, 7) }
END {
	for (c in strip) {
		s = strip[c]
		for (x = 1; x <= 194; x++) {
			ch = substr(s, x, 1)
			if (ch == "" || ch == " ")
				continue
			printf "%d,%d,%s\n", end - 195 + x, c,
			    ch == "." ? "-" : (ch in name ? name[ch] : "?" ch)
		}
	}
}' "$tmp/screen.txt" | sort -t, -k1,1n -k2,2n >"$tmp/seen.csv"
first=$(head -1 "$tmp/seen.csv" | cut -d, -f1)
awk -F, -v f="$first" 'NR > 1 && $1 >= f { print $1 "," $2 "," $3 }' \
    "$tmp/trace.csv" | sort -t, -k1,1n -k2,2n >"$tmp/want.csv"
n=$(wc -l <"$tmp/seen.csv")
if [ "$n" -ge 380 ] && cmp -s "$tmp/seen.csv" "$tmp/want.csv"; then
	ok "$n cells (2 CPUs x ticks $first..$((end - 1))) equal the trace"
else
	bad "$n cells differ from the trace:"
	diff "$tmp/seen.csv" "$tmp/want.csv" | head -5
fi

if [ $fails -ne 0 ]; then
	echo "$lib_name: $fails failed"
	exit 1
fi
echo "$lib_name: all passed"
