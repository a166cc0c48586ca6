#!/bin/sh
# history.sh -- record tests/golden/history.frame (test_draw's history
# panes) from a real daemon: history.cfg run live at speed 1, a
# subscriber taking `subscribe 10 delta runs` from its first tick until
# the scenario stops the clock at 1910.  The frames land where the wall
# clock puts them, so a new recording differs in the frames' ticks (and
# the goldens drawn from it may with them); the events and the final
# state do not.  Usage, from the top of the tree after `make`:
#   sh tests/golden/history.sh > tests/golden/history.frame
. "$(dirname "$0")/daemon.sh"
golden_start history tests/golden/history.cfg
(echo "subscribe 10 delta runs"; sleep 4) |
    socat - "UNIX-CONNECT:$sock" > "$dir/raw" &
sub=$!
sleep 0.5
echo resume | socat - "UNIX-CONNECT:$sock" > /dev/null
wait $sub
golden_stop
# The reply to subscribe is not a frame: the test feeds frames only.
grep -v '^ok$' "$dir/raw"
