#!/bin/sh
# e2e_deb.sh -- `make deb` (tests/mkdeb.sh, dpkg-deb) makes a package of
# these binaries that holds what an install holds: the programs, the five
# man pages (compressed), every scenario, the example configuration, the
# copyright file; owned by root; with the Depends of the libraries the
# programs link.  Its stairsd, unpacked (not installed: .ci/run installs
# the package with apt-get), runs a built-in scenario by name from /.
# (lintian takes 20 s: .ci/run runs it on the package it installs.)
# Exits 0 pass, 77 skip (no dpkg-deb or make), 1 fail.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_deb
src=$(pwd)
bin=$(cd "$bin" && pwd)

for t in make dpkg-deb dpkg-shlibdeps; do
	command -v $t >/dev/null 2>&1 ||
	    { echo "e2e_deb: skipped: $t not installed"; exit 77; }
done

env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$src" -o all \
    deb-build BIN="$bin" DEB_DIR="$tmp/deb" >"$tmp/make.log" 2>&1 ||
    { fail "make deb-build: $(tail -5 "$tmp/make.log")"; e2e_end; }
deb=$(ls "$tmp"/deb/stairs_*.deb 2>/dev/null)
[ -f "$deb" ] && ok "make deb: $(basename "$deb")" ||
    { fail "no package in $tmp/deb"; e2e_end; }

dpkg-deb -c "$deb" >"$tmp/list" || fail "dpkg-deb -c"
for f in usr/bin/stairsd usr/bin/stairs usr/bin/stairs-load \
    usr/share/man/man1/stairs.1.gz usr/share/man/man1/stairs-load.1.gz \
    usr/share/man/man5/stairs-scenario.5.gz \
    usr/share/man/man7/stairs-protocol.7.gz \
    usr/share/man/man8/stairsd.8.gz usr/share/stairs/config/stairsd.cfg \
    usr/share/stairs/scenarios/README usr/share/doc/stairs/copyright \
    usr/share/bash-completion/completions/stairsd; do
	grep -q " \./$f\$" "$tmp/list" || fail "not in the package: $f"
done
n=$(ls "$src"/scenarios/*.cfg | wc -l)
[ "$(grep -c ' \./usr/share/stairs/scenarios/.*\.cfg$' "$tmp/list")" -eq "$n" ] &&
    ok "the programs, 5 man pages, $n scenarios, the config" ||
    fail "not every scenario in the package"
awk '$2 != "root/root"' "$tmp/list" >"$tmp/owners"
[ -s "$tmp/owners" ] && fail "not owned by root: $(head -3 "$tmp/owners")" ||
    ok "every file owned by root"

[ "$(dpkg-deb -f "$deb" Package)" = stairs ] || fail "Package is not stairs"
ver=$(sed -n 's/^VERSION[ 	]*= *//p' "$src/Makefile")
[ "$(dpkg-deb -f "$deb" Version)" = "$ver-1" ] && ok "Version $ver-1" ||
    fail "Version $(dpkg-deb -f "$deb" Version), want $ver-1"
dep=$(dpkg-deb -f "$deb" Depends)
for l in libc6 libevent libconfig libncursesw; do
	echo "$dep" | grep -q "$l" || fail "Depends lacks $l: $dep"
done
ok "Depends: $dep"

# Unpacked, its stairsd runs a built-in by name from /.
dpkg-deb -x "$deb" "$tmp/x" || fail "dpkg-deb -x"
(cd / && "$tmp/x/usr/bin/stairsd" --headless --scenario article \
    --ticks 600 --table hog) >"$tmp/table" 2>&1 &&
    grep -q '^1 | 1 | 1 |' "$tmp/table" &&
    ok "the packaged stairsd runs --scenario article from /" ||
    fail "packaged stairsd: $(head -3 "$tmp/table")"

e2e_end
