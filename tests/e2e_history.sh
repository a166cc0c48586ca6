#!/bin/sh
# e2e_history.sh -- history as long as the seek (SPEC.md section 12;
# issue 25, item 3), end to end over socat: a live daemon (history 600 s,
# the default) runs 40 000 ticks more of scripted tasks on 2 CPUs, then
# seeks 20 s back, further than the 10 s the daemon used to keep
# runs for.  A subscriber's first frame there carries the 10 s of runs
# before the tick shown, and put back together tick by tick
# they equal `stairsd --headless --trace` of the same scenario, task and
# rank, row for row.  Back at the present a new subscriber gets the 10 s
# before it, not the whole history.  With compare on, the past shows
# the shadow too.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_history
e2e_daemon
cat >"$tmp/mix.cfg" <<CFG
name = "mix";
cpus = 2;
tasks = (
  { name = "hog1"; },
  { name = "hog2"; },
  { name = "inter"; pattern = [ 3, 30 ]; },
  { name = "low"; nice = 10; }
);
CFG

start "$tmp/mix.cfg" || e2e_end
ask pause >/dev/null
now=$(($(status_tick) + 40000))
r=$(ask "step 40000" | sed 1d)
[ "$r" = ok ] && [ "$(status_tick)" = $now ] &&
    ok "ran to tick $now" || fail "step 40000: '$r' $(ask status)"
past=$((now - 20000))
r=$(ask "seek $past" | sed 1d)
[ "$r" = ok ] && ok "seek $past (20 s back)" || fail "seek $past: '$r'"

# The first frame of a subscriber: its runs lines as tick,cpu,name,rank.
first_frame() {
	{ printf 'subscribe 1 runs\n'; sleep 1; } |
	    timeout 10 socat -t 1 - UNIX-CONNECT:"$sock" 2>/dev/null |
	    awk '/^end$/ { exit } { print }'
}
rows() {
	awk '
	$1 == "task" {
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "id") id = kv[2]
			if (kv[1] == "name") nm = kv[2]
		}
		name[id] = nm
	}
	$1 == "runs" {
		split($2, a, "="); cpu = a[2]
		split($3, a, "="); t = a[2]
		if (!(cpu in at)) print "from " cpu " " t > "/dev/stderr"
		else if (at[cpu] != t) print "gap " cpu " " at[cpu] " " t > "/dev/stderr"
		n = split($4, items, ",")
		for (i = 1; i <= n; i++) {
			split(items[i], p, "*")
			split(p[1], q, ":")
			for (j = 0; j < p[2]; j++) {
				line[++k] = t "," cpu "," q[1] "," (q[1] == 0 ? "-" : q[2])
				t++
			}
		}
		at[cpu] = t
	}
	END {
		for (i = 1; i <= k; i++) {
			split(line[i], r, ",")
			printf "%s,%s,%s,%s\n", r[1], r[2], r[3] == 0 ? "-" : name[r[3]], r[4]
		}
	}' "$1" | sort -t, -k1,1n -k2,2n
}

first_frame >"$tmp/past.out"
rows "$tmp/past.out" >"$tmp/past.rows" 2>"$tmp/past.err"
if [ "$(grep -c "^from [01] $((past - 10000))\$" "$tmp/past.err")" = 2 ] &&
    ! grep -q '^gap' "$tmp/past.err"; then
	ok "the past's first frame: runs from $((past - 10000)) on both CPUs"
else
	fail "the past's runs: $(cat "$tmp/past.err") $(grep '^runs' "$tmp/past.out" | cut -c1-80)"
fi
"$sd" --headless --scenario "$tmp/mix.cfg" --ticks $past \
    --trace "$tmp/trace.csv" 2>"$tmp/headless.err" ||
    fail "headless: $(cat "$tmp/headless.err")"
awk -F, -v f=$((past - 10000)) 'NR > 1 && $1 >= f { print $1 "," $2 "," $3 "," $4 }' \
    "$tmp/trace.csv" | sort -t, -k1,1n -k2,2n >"$tmp/want.rows"
n=$(wc -l <"$tmp/past.rows")
if [ "$n" = 20000 ] && cmp -s "$tmp/past.rows" "$tmp/want.rows"; then
	ok "ticks $((past - 10000))..$((past - 1)) on both CPUs equal the headless trace"
else
	fail "the past's runs: $n rows; $(diff "$tmp/want.rows" "$tmp/past.rows" | head -4)"
fi

# The present: the 10 s before it, not the 40 s kept.
ask "seek $now" >/dev/null
first_frame >"$tmp/now.out"
rows "$tmp/now.out" >"$tmp/now.rows" 2>"$tmp/now.err"
[ "$(grep -c "^from [01] $((now - 10000))\$" "$tmp/now.err")" = 2 ] &&
    ok "the present's first frame: the 10 s before it" ||
    fail "the present's runs: $(cat "$tmp/now.err")"

# Shadows in the past: with compare o1 on, a seek back shows the shadow's
# lines too (frame shadow=o1, scpu/stask lines), o1's state at that tick:
# the enforced engine's keyframe switched to o1 and run on, the changes
# made to it too.
r=$(ask "compare o1" "seek $past" | sed 1d | tr '\n' ' ')
[ "$r" = "ok ok " ] && ok "compare o1, seek $past" || fail "compare, seek: '$r'"
first_frame >"$tmp/shadow.out"
if grep -q "^frame tick=$past .* live=0 .*shadow=o1" "$tmp/shadow.out" &&
    [ "$(grep -c '^scpu ' "$tmp/shadow.out")" = 2 ] &&
    [ "$(grep -c '^stask ' "$tmp/shadow.out")" = 4 ]; then
	ok "the past shows the shadow: shadow=o1, its cpu and task lines"
else
	fail "no shadow in the past: $(grep '^frame' "$tmp/shadow.out")"
fi
# Stepping on in the past moves the shadow too.
s1=$(grep '^stask id=1 ' "$tmp/shadow.out" | sed 's/.* ran=\([0-9]*\) .*/\1/')
ask "seek $((past + 500))" >/dev/null
first_frame >"$tmp/shadow2.out"
s2=$(grep '^stask id=1 ' "$tmp/shadow2.out" | sed 's/.* ran=\([0-9]*\) .*/\1/')
[ -n "$s1" ] && [ -n "$s2" ] && [ "$s2" -gt "$s1" ] &&
    ok "500 ticks on, the shadow's hog1 ran more: $s1 -> $s2" ||
    fail "the shadow in the past did not move: '$s1' -> '$s2'"

# A shadow kept with the keyframes is the one the present had: its
# lines at a tick seen live equal those shown when sought back to it.
ask "seek $now" >/dev/null
ask "step 25000" >/dev/null
t1=$(status_tick)
first_frame | grep -E '^s(cpu|task) ' >"$tmp/live.shadow"
ask "step 5000" "seek $t1" >/dev/null
first_frame | grep -E '^s(cpu|task) ' >"$tmp/past.shadow"
if [ -s "$tmp/live.shadow" ] && cmp -s "$tmp/live.shadow" "$tmp/past.shadow"; then
	ok "tick $t1's shadow sought back equals the live one"
else
	fail "tick $t1's shadow differs: $(diff "$tmp/live.shadow" "$tmp/past.shadow" | head -4)"
fi

e2e_end
