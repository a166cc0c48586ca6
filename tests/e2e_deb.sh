#!/bin/sh
# e2e_deb.sh -- debian/, which make deb builds with dpkg-buildpackage
# (debhelper), holds together: debian/changelog parses and its version is
# the Makefile's (native, no revision); debian/control names the package,
# debhelper-compat (= 13) and every -dev package tests/deps.sh installs;
# debian/source/format is 3.0 (native); debian/rules is executable, dh
# reads it and lists the package, it installs with PREFIX=/usr and the
# units it runs at build time exist and need no daemon, socket, real
# process or tmux; debian/rules clean removes what a build leaves (in a
# copy of the tree) and git ignores it meanwhile.
# The real build takes over a minute on a loaded machine: .ci/run builds
# the package, runs lintian on it, installs it with apt-get, runs it and
# purges it.
# Exits 0 pass, 77 skip (no dpkg-parsechangelog: dpkg-dev), 1 fail.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_deb
src=$(pwd)
# make's own flags (make test runs this) are not for the makes below.
unset MAKEFLAGS MFLAGS MAKELEVEL

command -v dpkg-parsechangelog >/dev/null 2>&1 ||
    { echo "e2e_deb: skipped: dpkg-parsechangelog (dpkg-dev) not installed"; exit 77; }

# debian/changelog: stairs, the Makefile's VERSION, a native version.
ver=$(sed -n 's/^VERSION[ 	]*= *//p' Makefile)
dver=$(dpkg-parsechangelog -S Version 2>"$tmp/err") ||
    fail "dpkg-parsechangelog: $(cat "$tmp/err")"
[ "$(dpkg-parsechangelog -S Source)" = stairs ] ||
    fail "debian/changelog: Source is not stairs"
[ "$dver" = "$ver" ] && ok "debian/changelog: stairs $dver, the Makefile's VERSION" ||
    fail "debian/changelog's version $dver, the Makefile's $ver"
[ "$(cat debian/source/format)" = "3.0 (native)" ] &&
    ok "debian/source/format: 3.0 (native)" ||
    fail "debian/source/format: $(cat debian/source/format)"

# debian/control: the build dependencies, one stanza per field.
tr '\n' ' ' <debian/control | sed 's/  */ /g' >"$tmp/control"
bdeps=$(sed -n 's/.*Build-Depends: \([^:]*\) [A-Z][A-Za-z-]*:.*/\1/p' "$tmp/control")
echo "$bdeps" | grep -q 'debhelper-compat (= 13)' &&
    ok "Build-Depends: debhelper-compat (= 13)" ||
    fail "no debhelper-compat (= 13) in Build-Depends: $bdeps"
[ ! -e debian/compat ] || fail "debian/compat beside debhelper-compat"
need=$(tr ' ' '\n' <tests/deps.sh | grep -E '^(pkg-config|lib.*-dev)$')
for p in $need; do
	echo "$bdeps" | grep -Eq "(^| )$p( |,|$)" ||
	    fail "tests/deps.sh needs $p, debian/control does not build-depend on it"
done
ok "Build-Depends has what tests/deps.sh installs:" $need
grep -q '^Package: stairs$' debian/control || fail "no Package: stairs"
grep -q '^Depends:.*\${shlibs:Depends}' debian/control ||
    fail "Depends lacks \${shlibs:Depends}"
grep -q '^Rules-Requires-Root: no$' debian/control ||
    fail "debian/control: Rules-Requires-Root is not no"
grep -q '^License: none-stated' debian/copyright ||
    fail "debian/copyright does not say the source states no license"

# debian/rules: executable, dh, make install PREFIX=/usr into
# debian/stairs; the units it runs exist and are self-contained.
[ -x debian/rules ] && ok "debian/rules is executable" ||
    fail "debian/rules is not executable"
grep -q '^	dh \$@' debian/rules || fail "debian/rules does not run dh \$@"
inst=$(make -s -n -f debian/rules override_dh_auto_install 2>&1)
case $inst in
*" install PREFIX=/usr DESTDIR=$src/debian/stairs"*)
	ok "override_dh_auto_install: make install PREFIX=/usr into debian/stairs" ;;
*)	fail "override_dh_auto_install: $inst" ;;
esac
units=$(printf 'include debian/rules\ne2e-units:\n\t@echo $(DEB_TESTS)\n' |
    make -s -f - e2e-units)
[ -n "$units" ] || fail "debian/rules names no units (DEB_TESTS)"
for u in $units; do
	[ -f "tests/$u.c" ] || { fail "debian/rules runs $u: no tests/$u.c"; continue; }
	! grep -Eq 'daemon_harness|proc_harness|tmux|fork\(|socket\(|cgroup' \
	    "tests/$u.c" || fail "debian/rules runs $u, which needs more than the tree"
done
ok "dh_auto_test's units exist and need no daemon:" $(echo $units | wc -w)
DEB_BUILD_OPTIONS=nocheck make -s -n -f debian/rules override_dh_auto_test \
    >"$tmp/nocheck" 2>&1
grep -q 'build/debian/t/\|^dh ' "$tmp/nocheck" &&
    fail "DEB_BUILD_OPTIONS=nocheck still runs: $(head -2 "$tmp/nocheck")" ||
    ok "DEB_BUILD_OPTIONS=nocheck: no units"

# dh reads debian/: the package and the sequence (debhelper installed).
if command -v dh >/dev/null 2>&1; then
	[ "$(dh_listpackages 2>&1)" = stairs ] && ok "dh_listpackages: stairs" ||
	    fail "dh_listpackages: $(dh_listpackages 2>&1)"
	dh binary --no-act >"$tmp/seq" 2>&1 || fail "dh binary --no-act: $(head -3 "$tmp/seq")"
	for s in override_dh_auto_build override_dh_auto_test \
	    override_dh_auto_install dh_installdocs dh_compress dh_builddeb; do
		grep -q "$s" "$tmp/seq" || fail "dh binary lacks $s"
	done
	ok "dh binary: our overrides, then installdocs, compress, builddeb"

	# debian/rules clean, in a copy: what a build leaves goes.
	mkdir "$tmp/tree" && cp -r Makefile debian "$tmp/tree/" || fail "copy"
	(cd "$tmp/tree" && mkdir -p build/debian/src/core debian/stairs/usr/bin \
	    debian/.debhelper/stairs debian/tmp &&
	    touch build/debian/src/core/engine.o debian/files \
	    debian/stairs.substvars debian/debhelper-build-stamp &&
	    debian/rules clean) >"$tmp/clean" 2>&1 || fail "debian/rules clean: $(tail -3 "$tmp/clean")"
	left=$(cd "$tmp/tree" && ls -d build/debian debian/stairs debian/.debhelper \
	    debian/tmp debian/files debian/stairs.substvars \
	    debian/debhelper-build-stamp 2>/dev/null)
	[ -z "$left" ] && ok "debian/rules clean removes the build's output" ||
	    fail "debian/rules clean left: $left"
else
	echo "e2e_deb: no dh (debhelper): dh_listpackages, the sequence and clean not checked"
fi

# While a build's output is there, git does not see it.
if command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1; then
	for f in debian/files debian/stairs/usr/bin/stairsd debian/.debhelper/x \
	    debian/stairs.substvars debian/debhelper-build-stamp \
	    debian/tmp/x build/debian/stairsd build/deb/stairs_${ver}_amd64.deb; do
		git check-ignore -q "$f" || fail "git does not ignore $f"
	done
	ok "git ignores what dpkg-buildpackage leaves in debian/ and build/"
fi

e2e_end
