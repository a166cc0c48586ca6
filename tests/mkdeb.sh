#!/bin/sh
# mkdeb.sh ROOT VERSION ARCH OUT -- make the binary Debian package OUT
# from ROOT, a `make install PREFIX=/usr DESTDIR=ROOT` tree (make deb):
# programs stripped, man pages compressed, /usr/share/doc/stairs with the
# copyright file and a changelog, DEBIAN/control with Depends from
# dpkg-shlibdeps, built with dpkg-deb (no debhelper), files owned by root.
set -eu
root=$1
version=$2
arch=$3
out=$4
here=$(pwd)
# The maintainer: $DEBFULLNAME <$DEBEMAIL>, as dch takes them.
maint="${DEBFULLNAME:-stairs maintainers} <${DEBEMAIL:-stairs@example.org}>"
case $root in /*) ;; *) root=$here/$root ;; esac

# Programs stripped of debugging data (kept in the build tree).
for p in "$root"/usr/bin/*; do
	strip --strip-unneeded --remove-section=.comment \
	    --remove-section=.note "$p"
done

# Man pages compressed, as Debian policy asks.
find "$root/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9n {} +

# The documentation directory.
doc=$root/usr/share/doc/stairs
mkdir -p "$doc"
cat >"$doc/copyright" <<'COPY'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: stairs
Comment: The source states no license; the authors of the stairs
 project hold the copyright.

Files: *
Copyright: 2026 the stairs project authors
License: none-stated
 The source of stairs states no license.
COPY
{
	echo "stairs ($version-1) unstable; urgency=medium"
	echo
	echo "  * Built from the source tree by make deb."
	echo
	echo " -- $maint  $(date -R -d @"${SOURCE_DATE_EPOCH:-$(date +%s)}")"
} | gzip -9n >"$doc/changelog.Debian.gz"

# Depends: what the programs link, as dpkg-shlibdeps reads it (it wants
# a debian/control where it runs).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/debian"
printf 'Source: stairs\n\nPackage: stairs\nArchitecture: any\n' \
    >"$tmp/debian/control"
deps=$(cd "$tmp" && dpkg-shlibdeps -O $(for p in "$root"/usr/bin/*; do
    printf -- '-e%s ' "$p"; done) 2>/dev/null |
    sed -n 's/^shlibs:Depends=//p')
[ -n "$deps" ] || { echo "mkdeb: dpkg-shlibdeps found no Depends" >&2; exit 1; }

chmod -R u+rwX,go+rX,go-w "$root"
mkdir -p "$root/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<CTRL
Package: stairs
Version: $version-1
Architecture: $arch
Maintainer: $maint
Installed-Size: $size
Depends: $deps
Recommends: socat
Section: utils
Priority: optional
Description: watch the staircase scheduler run, live
 stairsd runs Con Kolivas's 2004 staircase scheduler as a live,
 multi-CPU engine over scripted tasks and real child processes, and
 serves clients on a unix socket; stairs is its ncurses client, drawing
 every CPU's staircase and the article's table as they fill in;
 stairs-load is a small real workload. Every scenario of the workshop
 is built in; headless runs print traces and tables.
CTRL
dpkg-deb --root-owner-group -Zxz --build "$root" "$out" >/dev/null
echo "$out"
