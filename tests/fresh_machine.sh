#!/bin/sh
# fresh_machine.sh -- the README's two commands on a fresh machine.
#
# Builds a Debian minbase root with debootstrap (bookworm, from the mirror
# this machine's apt uses), adds only git and make, clones this checkout's
# current commit into /root/stairs, and inside a chroot (as root, with
# /proc, /sys, /sys/fs/cgroup, /dev and /dev/pts mounted) runs:
#   - `make run` in a tmux pane (120x40): it must install what it needs,
#     build, and draw the client (" CPU0 " on screen); then `q` detaches
#     and make must exit 0;
#   - `make test`: must exit 0.
# Fails if either fails; the pane or the log tail says why.  Skips (77)
# when not root, without debootstrap or tmux here, when debootstrap
# cannot reach the mirror, or when /proc, /sys and /dev cannot be mounted.  Takes minutes (packages are downloaded and
# the whole suite runs twice): run by .ci/run, not by `make test`.
#
# Everything runs in a private mount namespace where the system allows
# one, and a trap unmounts what was mounted in any case; the root is
# removed only when nothing is mounted under it.  FRESH_KEEP=1 keeps it.
# Environment: FRESH_SUITE (default bookworm), FRESH_MIRROR (default: from
# /etc/apt/sources.list*), FRESH_DIR (default /var/tmp), FRESH_COMMIT
# (default HEAD: what is committed, not the working tree).

set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
script=$repo/tests/fresh_machine.sh

skip() { echo "skip: $*"; exit 77; }
say() { echo "fresh: $*"; }

if [ "${1:-}" != "--in-ns" ]; then
	[ "$(id -u)" = 0 ] || skip "not root (debootstrap and chroot need root)"
	command -v debootstrap >/dev/null 2>&1 ||
	    skip "debootstrap not installed (apt-get install debootstrap)"
	command -v tmux >/dev/null 2>&1 || skip "tmux not installed"
	command -v git >/dev/null 2>&1 || skip "git not installed"
	# A private mount namespace: nothing mounted here can leak out.
	if unshare --mount --propagation private true 2>/dev/null; then
		exec unshare --mount --propagation private sh "$script" --in-ns
	fi
	say "no private mount namespace here; relying on the trap to unmount"
fi

# The mirror and suite: the first apt source (one-line or deb822) that
# lists the suite; bookworm if this machine's sources have it, else the
# machine's own release.
sources() {
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
		    awk '$1 == "deb" && NF >= 3 { print $2, $3 }'
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'function out() {
			if (types ~ /(^| )deb( |$)/ && enabled != "no")
				for (i = 1; i <= nu; i++)
					for (j = 1; j <= ns; j++)
						print u[i], s[j]
			types = ""; enabled = ""; nu = 0; ns = 0
		}
		/^[ \t]*$/ { out(); next }
		/^#/ { next }
		tolower($1) == "types:" { types = $0; sub(/^[^:]*:[ \t]*/, "", types) }
		tolower($1) == "enabled:" { enabled = tolower($2) }
		tolower($1) == "uris:" { for (i = 2; i <= NF; i++) u[++nu] = $i }
		tolower($1) == "suites:" { for (i = 2; i <= NF; i++) s[++ns] = $i }
		END { out() }' "$f"
	done
}
machine=$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}")
suite=${FRESH_SUITE:-}
mirror=${FRESH_MIRROR:-}
if [ -z "$suite" ]; then
	if sources | awk '$2 == "bookworm"' | grep -q .; then
		suite=bookworm
	else
		suite=${machine:-bookworm}
	fi
fi
if [ -z "$mirror" ]; then
	mirror=$(sources | awk -v s="$suite" '$2 == s { print $1; exit }')
	mirror=${mirror:-http://deb.debian.org/debian}
fi
commit=$(git -c safe.directory='*' -C "$repo" rev-parse "${FRESH_COMMIT:-HEAD}") ||
    { echo "FAIL: $repo: not a git checkout"; exit 1; }

work=$(mktemp -d "${FRESH_DIR:-/var/tmp}/stairs-fresh.XXXXXX") || exit 1
root=$work/root
tmsock=stairs-fresh-$$
tm="tmux -L $tmsock -f $work/tmux.conf"
mounts="proc sys sys/fs/cgroup dev dev/pts"
start=$(date +%s)

# Is anything mounted at or under the root?  (Read from the mount table.)
mounted_under() {
	awk -v r="$root" '$2 == r || index($2, r "/") == 1 { f = 1 }
	    END { exit !f }' /proc/self/mounts
}

# Stop what runs in the root: the demo daemon politely (its cgroups go
# with it), then whatever is left.
stop_root_procs() {
	[ -x "$root/usr/bin/socat" ] && [ -S "$root/tmp/stairs-0/socket" ] &&
	    echo shutdown | timeout 5 chroot "$root" socat -t2 - \
	    UNIX-CONNECT:/tmp/stairs-0/socket >/dev/null 2>&1
	for sig in TERM KILL; do
		found=0
		for p in /proc/[0-9]*; do
			[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] || continue
			kill -$sig "${p#/proc/}" 2>/dev/null && found=1
		done
		[ $found = 1 ] && sleep 1
	done
}

cleanup() {
	$tm kill-server 2>/dev/null
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$tmsock"
	stop_root_procs
	for m in dev/pts dev sys/fs/cgroup sys proc; do
		if mountpoint -q "$root/$m" 2>/dev/null; then
			umount "$root/$m" 2>/dev/null || umount -l "$root/$m"
		fi
	done
	if mounted_under; then
		echo "fresh: still mounted under $root, not removed:"
		awk -v r="$root" 'index($2, r) == 1 { print "  " $2 }' \
		    /proc/self/mounts
	elif [ "${FRESH_KEEP:-0}" = 1 ]; then
		say "kept $work"
	else
		rm -rf --one-file-system "$work"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

elapsed() { echo "$(( $(date +%s) - start )) s"; }

# 1. The fresh root: minbase plus git and make, nothing else.
say "debootstrap $suite from $mirror into $root (commit $commit)"
if ! debootstrap --variant=minbase --include=git,make "$suite" "$root" \
    "$mirror" >"$work/debootstrap.log" 2>&1; then
	if grep -qE "Failed getting release file|Couldn't download|\
Temporary failure resolving|Could not resolve|Connection refused|\
Network is unreachable|Connection timed out|No route to host" \
	    "$work/debootstrap.log"; then
		tail -5 "$work/debootstrap.log"
		skip "debootstrap cannot reach $mirror ($suite)"
	fi
	echo "FAIL: debootstrap failed:"
	tail -20 "$work/debootstrap.log"
	exit 1
fi
say "root ready after $(elapsed)"
cp /etc/resolv.conf "$root/etc/resolv.conf"

# 2. The repository, as a user would clone it, at this commit.
git -c safe.directory='*' clone -q --no-hardlinks "$repo" \
    "$root/root/stairs" &&
    git -C "$root/root/stairs" checkout -q --detach "$commit" ||
    { echo "FAIL: git clone $repo"; exit 1; }

# 3. The file systems a machine has.
mount -t proc proc "$root/proc" &&
    mount --bind /sys "$root/sys" &&
    { ! mountpoint -q /sys/fs/cgroup ||
    mount --bind /sys/fs/cgroup "$root/sys/fs/cgroup"; } &&
    mount --bind /dev "$root/dev" &&
    mount --bind /dev/pts "$root/dev/pts" ||
    skip "cannot mount /proc, /sys, /dev in the root here (no privilege)"

# A root login's environment, nothing of ours.
envi="env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/sh \
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

# 4. make run, in a terminal: wait for the client to draw, then q.
cat >"$root/root/fresh-run.sh" <<'EOF'
cd /root/stairs && make run
echo $? >/root/fresh-run.rc
EOF
printf 'set -g history-limit 100000\nset -g remain-on-exit on\n' \
    >"$work/tmux.conf"
$tm new-session -d -x 120 -y 40 \
    "chroot $root $envi TERM=\$TERM sh /root/fresh-run.sh" ||
    { echo "FAIL: tmux"; exit 1; }
pane() { $tm capture-pane -p -J -S -"${1:-0}" 2>/dev/null; }
deadline=$(( $(date +%s) + ${FRESH_RUN_WAIT:-1800} ))
drawn=0
while [ "$(date +%s)" -lt "$deadline" ]; do
	if pane | grep -q " CPU0 "; then
		drawn=1
		break
	fi
	[ -e "$root/root/fresh-run.rc" ] && break
	sleep 2
done
if [ $drawn != 1 ]; then
	echo "FAIL: make run: the client did not draw (rc:" \
	    "$(cat "$root/root/fresh-run.rc" 2>/dev/null || echo none));" \
	    "the pane:"
	pane 100000 | grep -v '^$' | tail -40
	exit 1
fi
say "make run drew the client after $(elapsed)"
$tm send-keys q
n=0
while [ ! -e "$root/root/fresh-run.rc" ] && [ $n -lt 30 ]; do
	sleep 1; n=$((n + 1))
done
rc=$(cat "$root/root/fresh-run.rc" 2>/dev/null || echo none)
if [ "$rc" != 0 ]; then
	echo "FAIL: make run: exit $rc after q; the pane:"
	pane 100000 | grep -v '^$' | tail -40
	exit 1
fi
say "make run: ok (q detached, exit 0)"
$tm kill-server 2>/dev/null
stop_root_procs

# 5. make test, as root.
timeout "${FRESH_TEST_WAIT:-2700}" chroot "$root" $envi TERM=xterm \
    sh -c 'cd /root/stairs && make test' >"$work/test.log" 2>&1
rc=$?
if [ $rc != 0 ]; then
	[ $rc = 124 ] && echo "FAIL: make test timed out" ||
	    echo "FAIL: make test: exit $rc"
	# What each failed program said (the end of its section), then
	# the end of the log.
	for t in $(sed -n 's/^FAILED://p' "$work/test.log" | tr ' ' '\n' |
	    sort -u); do
		echo "--- $t:"
		awk -v t="=== $t" '$0 == t || index($0, t " (") == 1 {
		    on = 1; next }
		    /^=== / { on = 0 } on' "$work/test.log" |
		    grep -E "FAIL|ERROR|LINE|error|skip" | tail -15
	done
	echo "--- the end of make test's output:"
	tail -15 "$work/test.log"
	exit 1
fi
grep -E "^[0-9]+ passed" "$work/test.log" | sed 's/^/fresh: make test: /'
say "make run and make test pass on a fresh $suite in $(elapsed)"
exit 0
