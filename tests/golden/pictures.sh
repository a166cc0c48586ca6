#!/bin/sh
# pictures.sh -- record the frames test_draw draws each policy's picture
# from (tests/golden/pictures_*.frame), from a real daemon: each
# scenario paused, reset to tick 0, switched to the policy (and its
# shadows), stepped, and one full frame taken.  Paused and stepped, the
# frames are the same at every recording.  Usage, from the top of the
# tree after `make`:  sh tests/golden/pictures.sh
. "$(dirname "$0")/daemon.sh"
# record NAME SCENARIO POLICY COMPARE STEPS
record() {
	golden_start "$1" "$2"
	printf 'pause\nreset\npause\npolicy %s\ncompare %s\nstep %s\n' \
	    "$3" "$4" "$5" | socat - "UNIX-CONNECT:$sock" >/dev/null
	(echo "subscribe 1"; sleep 1) | socat - "UNIX-CONNECT:$sock" |
	    sed -n '1p; /^frame /,/^end$/p' | sed '/^end$/q' \
	    >"tests/golden/pictures_$1.frame"
	golden_stop
}
record o1 o1-vs-staircase o1 off 640
record cfs o1-vs-staircase cfs off 640
record eevdf o1-vs-staircase eevdf off 640
record rr o1-vs-staircase rr off 640
record four o1-vs-staircase eevdf staircase,o1,cfs 640
record eight eight-cpus eevdf off 1500
record two two-cpus-balance cfs eevdf 800
record sixty4 tests/golden/pictures.cfg cfs o1,eevdf 300
record stacked article staircase o1 450
