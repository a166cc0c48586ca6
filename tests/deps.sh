#!/bin/sh
# deps.sh -- make sure the Debian packages stairs needs are installed.
# As root it installs what is missing; otherwise it prints the command.
# `deps.sh deb` (make deb) adds what dpkg-buildpackage and debian/rules
# need: debhelper (compat 13) and dpkg-dev.  `deps.sh bench` (make bench)
# adds rt-tests, for cyclictest in tests/bench_proc.c; only the bench
# needs it, so it is optional: where it cannot be installed, deps.sh says
# so and the bench skips those rows.
pkgs="build-essential pkg-config libncurses-dev libevent-dev libconfig-dev
libcmocka-dev tmux socat procps mandoc"
optional=""
[ "${1:-}" = deb ] && pkgs="$pkgs debhelper dpkg-dev"
[ "${1:-}" = bench ] && optional="rt-tests"

# The packages of "$@" not installed.
missing_of() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		    grep -q "ok installed" || printf ' %s' "$p"
	done
}

missing=$(missing_of $pkgs)
optmissing=$(missing_of $optional)
[ -z "$missing$optmissing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null ||
	    echo "deps: apt-get update failed" >&2
	if [ -n "$missing" ]; then
		echo "deps: installing:$missing"
		apt-get install -y -q $missing >/dev/null ||
		    { echo "deps: apt-get install$missing failed" >&2; exit 1; }
	fi
	if [ -n "$optmissing" ]; then
		echo "deps: installing:$optmissing (for make bench)"
		apt-get install -y -q $optmissing >/dev/null ||
		    echo "deps: apt-get install$optmissing failed; the" \
		    "benches that need it skip those rows" >&2
	fi
else
	if [ -n "$missing" ]; then
		echo "deps: missing packages:$missing" >&2
		echo "deps: run as root: apt-get install -y$missing" >&2
		exit 1
	fi
	echo "deps: missing:$optmissing (for make bench; as root: apt-get" \
	    "install -y$optmissing); the benches that need it skip those" \
	    "rows" >&2
fi
exit 0
