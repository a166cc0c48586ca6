#!/bin/sh
# e2e_writes.sh -- the files stairsd writes (SPEC.md section 12), against
# a real daemon as root runs it on a workshop machine:
# - `record` to a FIFO is refused at once, and the daemon keeps serving
#   (it used to block in fopen for ever); `--trace` to a FIFO is refused
#   at start-up, and `--headless --trace` too;
# - `record` to a symbolic link is refused and the link's target is left
#   as it was; so is a path through a linked directory; `--headless
#   --trace` to a link the same;
# - a journal and a trace are created 0600 whatever the umask;
# - a recording whose directory is removed says so in `status`
#   (record=failed) and in the event log, and a `load` does not write on
#   into the deleted file;
# - a recording that fills its disk (a small tmpfs; root only) says
#   record=failed, and the file ends on a whole line;
# - a recording of a scenario that @includes another replays the same
#   from another directory after the included file changed: the journal
#   keeps every file's text.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_writes
daemon=""
mnt=""
cleanup() {
	[ -n "$daemon" ] && kill -KILL "$daemon" 2>/dev/null
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
}

[ -x "$sd" ] || { echo "no $sd"; exit 1; }
command -v socat >/dev/null || { echo "skip: no socat"; exit 77; }
sdabs=$(cd "$(dirname "$sd")" && pwd)/stairsd

cat >"$tmp/stairsd.cfg" <<EOF
socket = "";
EOF
mkdir "$tmp/inc"
cat >"$tmp/inc/tasks.inc" <<EOF
tasks = ( { name = "hog"; }, { name = "inter"; pattern = [ 3, 30 ]; },
  { name = "low"; nice = 10; } );
EOF
cat >"$tmp/inc/top.cfg" <<EOF
name = "top";
cpus = 2;
@include "tasks.inc"
EOF

# stop: SIGTERM the daemon; it must be gone within 5 s (else KILL, and
# that fails).
stop() {
	kill "$daemon" 2>/dev/null
	if wait_for 5 "the daemon to exit" gone "$daemon" >/dev/null; then
		wait "$daemon" 2>/dev/null
	else
		fail "the daemon did not exit on SIGTERM"
		kill -KILL "$daemon" 2>/dev/null
		wait "$daemon" 2>/dev/null
	fi
	daemon=""
}

# reply LINES: the daemon's replies to LINES, without its greeting.
reply() {
	ask "$@" | sed 1d
}

# record_state: the record= of status, empty if none.
record_state() {
	ask status | sed -n 's/.* record=\([a-z]*\).*/\1/p'
}

start "$tmp/inc/top.cfg" || e2e_end

# A FIFO: refused at once, the daemon still answers.
mkfifo "$tmp/fifo"
r=$(reply "record $tmp/fifo")
case "$r" in
err*FIFO*) ok "record to a FIFO refused: $r" ;;
*) fail "record to a FIFO: \"$r\"" ;;
esac
r=$(reply status)
case "$r" in
status*) ok "the daemon serves on after the FIFO" ;;
*) fail "after record to a FIFO, status gave \"$r\"" ;;
esac

# A symlink to another file, and a path through a linked directory.
echo "victim's" >"$tmp/victim"
chmod 600 "$tmp/victim"
ln -s "$tmp/victim" "$tmp/link"
mkdir "$tmp/real"
ln -s "$tmp/real" "$tmp/dirlink"
r=$(reply "record $tmp/link")
case "$r" in
err*symbolic\ link*) ok "record to a symlink refused: $r" ;;
*) fail "record to a symlink: \"$r\"" ;;
esac
[ "$(cat "$tmp/victim")" = "victim's" ] &&
    ok "the link's target is as it was" ||
    fail "the link's target now holds: $(head -c 200 "$tmp/victim")"
r=$(reply "record $tmp/dirlink/j")
case "$r" in
err*symbolic\ link*) ok "record through a linked directory refused: $r" ;;
*) fail "record through a linked directory: \"$r\"" ;;
esac
[ ! -e "$tmp/real/j" ] && ok "nothing written through the linked directory" ||
    fail "a journal was written through the linked directory"

# 0600 whatever the umask.
r=$(reply "record $tmp/j")
case "$r" in
ok*) ok "record to a new file: $r" ;;
*) fail "record to a new file: \"$r\"" ;;
esac
m=$(stat -c %a "$tmp/j" 2>/dev/null)
[ "$m" = 600 ] && ok "the journal is created 0600" ||
    fail "the journal's mode is $m"
[ "$(record_state)" = on ] && ok "status says record=on" ||
    fail "status while recording: $(ask status)"

# The directory removed under the recording: said, and a load does not
# write on into the deleted file.
mkdir "$tmp/gone"
sh -c 'echo $$ >"$1"; printf "subscribe 10\n"; exec sleep 30' sh "$tmp/sub.pid" |
    socat - UNIX-CONNECT:"$sock" >"$tmp/sub.out" 2>/dev/null &
sub=$!
# Subscribed before the recording starts: its events are then its own.
wait_for 10 "the subscriber's first frame" grep -q '^frame ' "$tmp/sub.out" >/dev/null
ask "record $tmp/gone/j" >/dev/null
wait_for 5 "the journal in gone/" test -s "$tmp/gone/j" >/dev/null
rm -rf "$tmp/gone"
ask "sleep inter 50" "nice low 5" >/dev/null
wait_for 5 "record=failed" sh -c "[ \"\$(printf 'status\n' | timeout 5 socat -t 2 - UNIX-CONNECT:$sock 2>/dev/null | sed -n 's/.* record=\([a-z]*\).*/\1/p')\" = failed ]" >/dev/null &&
    ok "a recording whose directory went says record=failed" ||
    fail "directory removed: status says record=$(record_state)"
# The event comes with the subscriber's next frame (10 a second).
wait_for 5 "the event" grep -q '^event .*record.*failed' "$tmp/sub.out" >/dev/null
ev=$(grep '^event .*record.*failed' "$tmp/sub.out" | head -1)
case "$ev" in
*deleted*|*removed*) ok "the event log says why: $ev" ;;
*) fail "no event about the recording: \"$ev\"" ;;
esac
kill "$sub" "$(cat "$tmp/sub.pid")" 2>/dev/null
ask "load article" >/dev/null
[ "$(record_state)" = failed ] && ok "after a load, still record=failed" ||
    fail "after a load: record=$(record_state)"
stop

# --trace to a FIFO, live and headless: refused, no hang.
timeout -k 2 10 "$sd" -f -c "$tmp/stairsd.cfg" -S "$tmp/sock2" \
    --scenario article --trace "$tmp/fifo" >"$tmp/log2" 2>&1
st=$?
[ "$st" -ne 124 ] && [ "$st" -ne 0 ] && grep -q FIFO "$tmp/log2" &&
    ok "--trace to a FIFO refused at start-up (exit $st)" ||
    fail "--trace to a FIFO: exit $st: $(cat "$tmp/log2")"
timeout -k 2 10 "$sd" --headless --scenario article --ticks 100 \
    --trace "$tmp/fifo" >/dev/null 2>"$tmp/log3"
st=$?
[ "$st" -ne 0 ] && [ "$st" -ne 124 ] && grep -q FIFO "$tmp/log3" &&
    ok "--headless --trace to a FIFO refused (exit $st)" ||
    fail "--headless --trace to a FIFO: exit $st: $(cat "$tmp/log3")"
timeout -k 2 10 "$sd" --headless --scenario article --ticks 100 \
    --trace "$tmp/link" >/dev/null 2>"$tmp/log3"
st=$?
[ "$st" -ne 0 ] && [ "$st" -ne 124 ] && [ "$(cat "$tmp/victim")" = "victim's" ] &&
    ok "--headless --trace to a symlink refused (exit $st), target kept" ||
    fail "--headless --trace to a symlink: exit $st: $(cat "$tmp/log3")"
(umask 0; "$sd" --headless --scenario article --ticks 100 \
    --trace "$tmp/t.csv" >/dev/null 2>&1)
m=$(stat -c %a "$tmp/t.csv" 2>/dev/null)
[ "$m" = 600 ] && ok "a headless trace is created 0600 under umask 0" ||
    fail "a headless trace's mode under umask 0: $m"

# A disk that fills: a 64 KiB tmpfs (root only).
mkdir "$tmp/full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=64k tmpfs "$tmp/full" 2>/dev/null; then
	mnt="$tmp/full"
	start "$tmp/inc/top.cfg" || e2e_end
	ask "record $tmp/full/j" >/dev/null
	# Batches of 300 changes (about 8 KiB of journal each).
	awk 'BEGIN { for (i = 0; i < 300; i++)
	    printf "nice low %d\nsleep inter 1\nnice hog %d\n", i % 20, i % 7 }' \
	    >"$tmp/batch"
	i=0
	while [ $i -lt 30 ] && [ "$(record_state)" != failed ]; do
		timeout 20 socat -t 5 - UNIX-CONNECT:"$sock" <"$tmp/batch" \
		    >/dev/null 2>&1
		sleep 0.3
		i=$((i + 1))
	done
	[ "$(record_state)" = failed ] &&
	    ok "a full disk says record=failed (after $i batches)" ||
	    fail "a full disk: record=$(record_state) after $i batches"
	last=$(tail -c 1 "$tmp/full/j" | od -An -c | tr -d ' ')
	[ "$last" = '\n' ] && ok "the full disk's journal ends on a whole line" ||
	    fail "the full disk's journal ends in \"$(tail -c 40 "$tmp/full/j")\""
	r=$(reply status)
	case "$r" in
	status*) ok "the daemon serves on after a full disk" ;;
	*) fail "after a full disk, status gave \"$r\"" ;;
	esac
	stop
	umount "$mnt" && mnt=""
else
	echo "skipped: a disk that fills (needs root to mount a tmpfs)"
fi

# The includes recorded: replayed from elsewhere after the include
# changed, the trace is the live one.
start "$tmp/inc/top.cfg" || e2e_end
ask "record $tmp/rec" >/dev/null
wait_for 20 "tick 300" tick_past 300 >/dev/null
ask "sleep inter 40" "nice low -3" >/dev/null
wait_for 20 "tick 600" tick_past 600 >/dev/null
stop
grep -q '@include' "$tmp/rec" && fail "the journal still says @include" ||
    ok "the journal holds the included text, not the @include"
(cd "$tmp/inc" && "$sdabs" --headless --replay "$tmp/rec" \
    --trace "$tmp/before.csv" >/dev/null 2>&1)
cat >"$tmp/inc/tasks.inc" <<EOF
tasks = ( { name = "other"; } );
EOF
mkdir "$tmp/elsewhere"
(cd "$tmp/elsewhere" && "$sdabs" --headless --replay "$tmp/rec" \
    --trace "$tmp/after.csv" >/dev/null 2>"$tmp/replay.err")
st=$?
[ "$st" -eq 0 ] && [ -s "$tmp/before.csv" ] &&
    cmp -s "$tmp/before.csv" "$tmp/after.csv" &&
    ok "replayed from elsewhere after the include changed: the same trace" ||
    fail "replay after the include changed: exit $st, $(cat "$tmp/replay.err")"

e2e_end
