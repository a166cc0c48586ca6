#!/bin/sh
# e2e_load_big.sh -- a big scenario is parsed while the daemon goes on:
# a 60 MB description took the loop 2 s (and a scenario near the 64 MiB
# limit longer), while two hogs ran unchecked and no client was
# answered.  Now, while client A's `load` of it parses:
# - client B's `status` is answered, A's reply still to come;
# - another `load` is refused ("a load is under way");
# - then A gets "ok", and its next line (queued behind the load) sees
#   the new scenario.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_load_big
daemon=""
cleanup() {
	[ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null
	[ -n "$apid" ] && kill "$apid" 2>/dev/null
}
command -v socat >/dev/null || { echo "skip: no socat"; exit 77; }
echo 'socket = "";' >"$tmp/stairsd.cfg"
{
	printf 'name = "big";\ncpus = 2;\ndescription = "'
	head -c 60000000 /dev/zero | tr '\0' 'x'
	printf '";\ntasks = ( { name = "hog"; } );\n'
} >"$tmp/big.cfg"

start article || e2e_end
(printf 'load %s\nstatus\n' "$tmp/big.cfg"; sleep 60) |
    timeout 90 socat - UNIX-CONNECT:"$sock" >"$tmp/a.out" 2>/dev/null &
apid=$!
# A's load is read once its greeting is out.
wait_for 10 "A's greeting" grep -q '^stairs ' "$tmp/a.out" >/dev/null
sleep 0.1
b=$(ask status | sed -n 's/^status \(tick=[0-9]*\).*scenario=\([^ ]*\).*/\1 \2/p')
a=$(grep -c '^ok' "$tmp/a.out")
case "$b" in
*article*)
	[ "$a" -eq 0 ] &&
	    ok "B answered while A's load parses: $b" ||
	    fail "B answered only after A's load ($b; A: $(cut -c1-60 "$tmp/a.out" | tr '\n' '|'))" ;;
*)	fail "B's status: \"$b\"" ;;
esac
r=$(ask "load article" | sed 1d)
case "$r" in
err*under\ way*) ok "a second load meanwhile refused: $r" ;;
*) [ "$(grep -c '^ok' "$tmp/a.out")" -gt 0 ] &&
       fail "the parse ended before the second load could be tried" ||
       fail "a second load meanwhile: \"$r\"" ;;
esac
wait_for 60 "A's reply" grep -q '^ok' "$tmp/a.out" >/dev/null &&
    ok "A's load replied ok" || fail "A's load: $(cut -c1-60 "$tmp/a.out")"
wait_for 10 "A's status" grep -q '^status ' "$tmp/a.out" >/dev/null
grep -q '^status .* scenario=big ' "$tmp/a.out" &&
    ok "A's next line sees the new scenario" ||
    fail "A's status after its load: $(grep '^status' "$tmp/a.out" | cut -c1-160)"
r=$(ask status | sed -n 's/^status .*\(scenario=[^ ]*\).*/\1/p')
[ "$r" = scenario=big ] && ok "the daemon runs the big one now" ||
    fail "status after: $r"
e2e_end
