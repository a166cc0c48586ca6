#!/bin/sh
# timeline.sh -- record tests/golden/timeline.frame (test_draw's
# timeline with eight CPUs): the eight-cpus lesson paused, reset,
# stepped to tick 3990 (three to a CPU: two builds and an editor or a
# player), then one full frame with the runs of every tick before it,
# and build1's article table.
# Stepped, the frame is the same at every recording.  Usage, from the
# top of the tree after `make`:
#   sh tests/golden/timeline.sh > tests/golden/timeline.frame
. "$(dirname "$0")/daemon.sh"
golden_start timeline eight-cpus
printf 'pause\nreset\npause\nstep 3990\n' |
    socat - "UNIX-CONNECT:$sock" >/dev/null
(echo "subscribe 1 runs"; sleep 1) | socat - "UNIX-CONNECT:$sock" |
    sed -n '1p; /^frame /,/^end$/p' | sed '/^end$/q'
# build1's article table, as the client asks for the selected task.
echo "table 1" | socat - "UNIX-CONNECT:$sock" | sed 1d
golden_stop
