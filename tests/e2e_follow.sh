#!/bin/sh
# e2e_follow.sh -- audience mode, through a real daemon and clients in a
# private tmux server: a presenter (`stairs`), a follower (`stairs -r
# --follow`) and a second presenter, 80x24 each.  The follower's
# selection (the ▶ row) and panes follow the presenter's: j j selects
# the third task and w opens the timeline on the presenter, and both
# show on the follower; the follower's own keys move it only until the
# presenter acts again; a second presenter that acts leads (the last to
# act leads); the first acting again takes the lead back.  The daemon
# refuses `view` from a read-only connection.
lib_name=e2e-follow
lib_skip=77
. "$(dirname "$0")/client_lib.sh"

cat >"$tmp/four.cfg" <<EOF
name = "four";
cpus = 2;
tasks = (
  { name = "hogA"; }, { name = "hogB"; }, { name = "hogC"; },
  { name = "edit"; pattern = [ 2, 40 ]; }
);
EOF
if ! start_daemon "$tmp/four.cfg"; then
	echo "FAIL: daemon: $(cat "$tmp/daemon.log")"
	exit 1
fi
case $(printf 'view task=1\n' | socat -t2 - UNIX-CONNECT:"$sock" |
    tail -1) in
ok) ;;
*)	echo "$lib_name: skipped: the daemon does not know \`view\`"
	exit 77 ;;
esac

client() {
	$tm new-session -d -s "$1" -x 80 -y 24 \
	    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 $bin/stairs -S $sock $2 \
	    2>$tmp/$1.err; echo \$? >$tmp/$1.rc; sleep 600"
}

# The selected task's name on session $1's screen (the ▶ row).
selected() {
	screen "$1" | sed -n 's/^▶ *[0-9]* \([^ ]*\) .*/\1/p' | head -1
}

# Wait up to 5 s until session $1 selects task $2.
wait_selected() {
	n=0
	while [ $n -lt 50 ]; do
		[ "$(selected "$1")" = "$2" ] && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

client p ""
client f "-r --follow"
wait_screen "hogA" 50 p && wait_screen "hogA" 50 f ||
    bad "clients did not start: $(cat "$tmp/p.err" "$tmp/f.err")"
wait_selected f hogA && ok "the follower starts on the first task" ||
    bad "follower selects $(selected f)"

$tm send-keys -t p j j
wait_selected p hogC || bad "presenter: j j selects $(selected p)"
wait_selected f hogC && ok "follower follows j j to hogC" ||
    bad "follower selects $(selected f), not hogC"
$tm send-keys -t p w
wait_screen "who ran when" 50 f && ok "follower shows the timeline too" ||
    bad "no timeline on the follower: $(screen f)"

# The follower's own keys move it until the presenter acts again.
$tm send-keys -t f k
wait_selected f hogB && ok "the follower's own k moves it" ||
    bad "follower k: $(selected f)"
$tm send-keys -t p j
wait_selected f edit && ok "the presenter's next key brings it back" ||
    bad "follower selects $(selected f), not edit"

# A second presenter acts: it leads.
client q ""
wait_screen "hogA" 50 q || bad "second presenter did not start"
$tm send-keys -t q j
wait_selected q hogB || bad "second presenter: $(selected q)"
wait_selected f hogB && ok "the second presenter, acting last, leads" ||
    bad "follower selects $(selected f), not hogB"
if screen f | grep -q "who ran when"; then
	bad "follower kept the first presenter's timeline"
else
	ok "and its panes (no timeline) too"
fi
$tm send-keys -t p k
wait_selected f hogC && ok "the first presenter acting again leads" ||
    bad "follower selects $(selected f), not hogC"

r=$(printf 'readonly\nview task=2\n' | socat -t2 - UNIX-CONNECT:"$sock" |
    tail -1)
[ "$r" = "err read-only" ] && ok "a read-only connection cannot lead" ||
    bad "read-only view: $r"

if [ $fails -ne 0 ]; then
	echo "$lib_name: $fails failed"
	exit 1
fi
echo "$lib_name: all passed"
