#!/bin/sh
# deps.sh -- make sure the Debian packages stairs needs are installed.
# As root it installs what is missing; otherwise it prints the command.
# `deps.sh deb` (make deb) adds what dpkg-buildpackage and debian/rules
# need: debhelper (compat 13) and dpkg-dev.
pkgs="build-essential pkg-config libncurses-dev libevent-dev libconfig-dev
libcmocka-dev tmux socat procps mandoc"
[ "${1:-}" = deb ] && pkgs="$pkgs debhelper dpkg-dev"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
	    missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null && apt-get install -y -q $missing >/dev/null ||
	    { echo "deps: apt-get install$missing failed" >&2; exit 1; }
else
	echo "deps: missing packages:$missing" >&2
	echo "deps: run as root: apt-get install -y$missing" >&2
	exit 1
fi
