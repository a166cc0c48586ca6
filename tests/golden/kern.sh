#!/bin/sh
# kern.sh -- record tests/golden/kern.frame (test_draw's kern strips)
# from a real daemon, as root (the kernel's sched_switch events): the
# real-mixed scenario (two real hogs and a real editor on one engine
# CPU) live for 2.5 s, a subscriber taking `subscribe 10 delta runs
# kruns` from the start, then paused.  The kernel's runs depend on what
# else the machine runs, so a new recording differs (and the goldens
# drawn from it with it).  Usage, from the top of the tree after `make`:
#   sh tests/golden/kern.sh > tests/golden/kern.frame
. "$(dirname "$0")/daemon.sh"
golden_start kern real-mixed
(echo "subscribe 10 delta runs kruns"; sleep 2.5; echo pause; sleep 0.5) |
    socat - "UNIX-CONNECT:$sock" > "$dir/raw"
golden_stop
grep -q '^kruns ' "$dir/raw" || { echo "no kruns lines:" >&2;
    cat "$dir/err" >&2; exit 1; }
# The replies (subscribe, pause) are not frames: the test feeds frames.
grep -v '^ok$' "$dir/raw"
