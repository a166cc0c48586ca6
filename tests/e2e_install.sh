#!/bin/sh
# e2e_install.sh -- the installed layout works (issue 14): `make install
# PREFIX=/usr DESTDIR=TMP` puts the programs, the man pages, the scenarios
# and the example configuration there; from an unrelated directory, with
# a PATH that holds neither the build tree nor the installation:
#   - the installed stairsd reads $XDG_CONFIG_HOME/stairs/stairsd.cfg and
#     serves a built-in scenario by name (real-hogs: its real tasks'
#     stairs-load found beside the installed stairsd), detached;
#   - the installed client draws it (tmux), its tasks on screen;
#   - `spawn` runs the installed stairs-load (found beside stairsd: the
#     process's exe is the installed file);
#   - headless runs a scenario by name, and one installed in
#     share/stairs/scenarios that is not built in;
#   - bash completion completes options and installed scenario names;
#   - from /, with no daemon, the installed client starts the installed
#     stairsd on the demo;
# then `make uninstall` leaves no file and no stairs directory behind.
# Uses the binaries of $STAIRS_BIN as they are (make -o all: no build).
# Exits 0 pass, 77 skip (no tmux, socat or make), 1 fail.

lib_name=e2e-install
lib_skip=77
. "$(dirname "$0")/client_lib.sh"
src=$(pwd)
sess=i
dest=$tmp/dest
inst=$dest/usr
away=$tmp/elsewhere
sock=$tmp/run/socket

command -v make >/dev/null 2>&1 ||
    { echo "$lib_name: skipped: make not installed"; exit 77; }
[ -f "$src/Makefile" ] && [ -d "$src/man" ] ||
    { echo "$lib_name: run from the source tree"; exit 1; }

# Stop the installed daemon (by its socket, then by its path).
cleanup_more() {
	[ -S "$sock" ] && ask shutdown >/dev/null
	for p in /proc/[0-9]*; do
		if { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null |
		    grep -qF "$tmp/"; then
			kill "${p#/proc/}" 2>/dev/null
		fi
	done
}

# mk TARGET: make TARGET into $dest, with none of an outer make's flags.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$src" -o all \
	    "$1" BIN="$bin" PREFIX=/usr DESTDIR="$dest" >"$tmp/make.log" 2>&1
}

finish() {
	if [ $fails -gt 0 ]; then
		echo "$lib_name: $fails failed"
		exit 1
	fi
	echo "$lib_name: all passed"
	exit 0
}

# 1. Install.
if mk install; then
	ok "make install PREFIX=/usr DESTDIR=$dest"
else
	bad "make install: $(cat "$tmp/make.log")"
	finish
fi
for f in bin/stairsd bin/stairs bin/stairs-load bin/stairs-import \
    share/man/man1/stairs.1 share/man/man1/stairs-load.1 \
    share/man/man1/stairs-import.1 share/man/man5/stairs-scenario.5 \
    share/man/man7/stairs-protocol.7 share/man/man8/stairsd.8 \
    share/stairs/scenarios/article.cfg share/stairs/scenarios/README \
    share/stairs/config/stairsd.cfg; do
	[ -f "$inst/$f" ] || bad "not installed: $f"
done
n=$(ls "$src"/scenarios/*.cfg | wc -l)
[ "$(ls "$inst"/share/stairs/scenarios/*.cfg | wc -l)" -eq "$n" ] &&
    ok "$n scenarios installed" || bad "not every scenario installed"

# From an unrelated directory, PATH without the build tree or $inst/bin.
mkdir -p "$away" "$tmp/xdg/stairs" "$tmp/run"
chmod 700 "$tmp/run"
printf 'default_sleep = 777;\n' >"$tmp/xdg/stairs/stairsd.cfg"
cd "$away" || exit 1
export PATH=/usr/bin:/bin XDG_CONFIG_HOME=$tmp/xdg XDG_RUNTIME_DIR=$tmp/run

# 2. Headless: a built-in by name; an installed one that is not built in.
"$inst/bin/stairsd" --headless --scenario article --ticks 600 \
    --table hog >"$tmp/table" 2>&1 &&
    grep -q '^1 | 1 | 1 |' "$tmp/table" &&
    ok "headless --scenario article from $away" ||
    bad "headless article: $(head -3 "$tmp/table")"
sed 's/^name = .*/name = "mine";/' "$src/scenarios/nice-levels.cfg" \
    >"$inst/share/stairs/scenarios/mine.cfg"
"$inst/bin/stairsd" --headless --scenario mine --ticks 100 >"$tmp/out" 2>&1 &&
    grep -q '^policy staircase' "$tmp/out" &&
    ok "headless --scenario mine: found in share/stairs/scenarios" ||
    bad "headless mine: $(head -3 "$tmp/out")"
rm -f "$inst/share/stairs/scenarios/mine.cfg"
"$inst/bin/stairsd" --headless --scenario mine --ticks 100 >"$tmp/out" 2>&1
[ $? -eq 2 ] && ok "an unknown name: exit 2" || bad "unknown name: $(cat "$tmp/out")"

# Bash completion, installed where bash-completion looks: options from
# the programs' --help (the live daemon's --perfetto too), scenario names
# from share/stairs/scenarios.
comp=$inst/share/bash-completion/completions
if command -v bash >/dev/null 2>&1; then
	for p in stairsd stairs stairs-load stairs-import; do
		[ -f "$comp/$p" ] || bad "no completion $comp/$p"
	done
	bash -c '. "$1/stairsd"
	t() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _stairs_complete
	    echo "${COMPREPLY[*]}"; }
	t "$2/stairsd" --scenario two-
	t "$2/stairsd" --headless --ti
	t "$2/stairsd" --fore
	t "$2/stairsd" --perf
	t "$2/stairs" -
	t "$2/stairs" --theme p
	t "$2/stairs-load" --ru
	t "$2/stairs-import" --cap' sh "$comp" "$inst/bin" >"$tmp/comp" 2>&1
	[ "$(cat "$tmp/comp")" = "two-cpus-balance
--ticks
--foreground
--perfetto
--follow --help --replay --theme --version -S -V -h -r
projector
--run
--capture" ] && ok "bash completion: scenario names, options" ||
	    bad "bash completion: $(cat "$tmp/comp")"
fi

# 3. The installed daemon, detached, a built-in scenario by name.
if "$inst/bin/stairsd" -S "$sock" --scenario real-hogs \
    >"$tmp/daemon.log" 2>&1; then
	ok "installed stairsd started with --scenario real-hogs"
else
	bad "installed stairsd: $(cat "$tmp/daemon.log")"
	finish
fi
st=$(ask status)
echo "$st" | grep -q 'scenario=real-hogs' &&
    ok "status: scenario=real-hogs" || bad "status: $st"
echo "$st" | grep -q 'sleep=777' &&
    ok "config from \$XDG_CONFIG_HOME/stairs/stairsd.cfg" ||
    bad "config not read: $st"

# 4. The installed client, in tmux, from the unrelated directory.
$tm new-session -d -s "$sess" -x 120 -y 40 -c "$away" \
    "env PATH=/usr/bin:/bin LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    $inst/bin/stairs -S $sock 2>$tmp/c.err; echo \$? >$tmp/c.rc; sleep 600"
for w in CPU0 hog1 hog2 hog3; do
	wait_screen "$w" 100 || bad "the installed client shows no $w"
done
ok "the installed client draws the scenario"

# 5. A real stairs-load, found beside the installed stairsd.
# exe_of TASK: wait (up to 10 s) until TASK's process has exec'd (it is
# stopped before exec until the engine first picks it); its pid in $pid,
# its program in $exe.
exe_of() {
	pid=$(ask tasks | sed -n "s/^task .*name=$1 .*pid=\([0-9]*\).*/\1/p")
	n=0
	while [ -n "$pid" ] && [ $n -lt 100 ]; do
		exe=$(readlink "/proc/$pid/exe" 2>/dev/null)
		[ "$exe" = "$inst/bin/stairs-load" ] && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
# The scenario's own real tasks, found at load beside the installed
# stairsd; and one more through the protocol.
exe_of hog1 && ok "the scenario's hog1 is pid $pid, $exe" ||
    bad "hog1: pid '$pid' exe '$exe'"
r=$(ask "spawn burn -- stairs-load --run 5 --sleep 5" | tail -1)
echo "$r" | grep -q '^ok' && ok "spawn burn -- stairs-load: $r" ||
    bad "spawn: $r"
exe_of burn && ok "burn is pid $pid, $exe" || bad "burn: pid '$pid' exe '$exe'"
wait_screen burn 50 && ok "the client shows burn" || bad "no burn on screen"

# 6. Detach, stop the daemon.
$tm send-keys -t "$sess" q
n=0
while [ $n -lt 50 ] && [ ! -s "$tmp/c.rc" ]; do
	sleep 0.1
	n=$((n + 1))
done
[ "$(cat "$tmp/c.rc" 2>/dev/null)" = 0 ] && ok "q: the client exits 0" ||
    bad "client exit '$(cat "$tmp/c.rc" 2>/dev/null)': $(cat "$tmp/c.err")"
ask shutdown >/dev/null
n=0
while [ $n -lt 50 ] && [ -S "$sock" ]; do
	sleep 0.1
	n=$((n + 1))
done
[ -S "$sock" ] && bad "the daemon did not shut down"
[ -n "$pid" ] && [ -d "/proc/$pid" ] &&
    [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$exe" ] &&
    bad "stairs-load $pid outlived the daemon"
# 7. From /, with no daemon, the installed client starts the installed
# stairsd (beside itself) on the demo.
sock=$tmp/run2/socket
mkdir -m 700 "$tmp/run2"
$tm new-session -d -s d -x 120 -y 40 -c / \
    "env PATH=/usr/bin:/bin LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    $inst/bin/stairs -S $sock 2>$tmp/d.err; echo \$? >$tmp/d.rc; sleep 600"
wait_screen CPU0 100 d && ask status | grep -q 'scenario=demo' &&
    ok "the installed client started the demo from /" ||
    bad "no demo from /: $(cat "$tmp/d.err")"
dexe=
for p in /proc/[0-9]*; do
	{ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null |
	    grep -qxF -- "stairsd -S $sock " &&
	    dexe=$(readlink "$p/exe") && break
done
[ "$dexe" = "$inst/bin/stairsd" ] && ok "its daemon is $dexe" ||
    bad "the daemon started is '$dexe'"
$tm send-keys -t d q
ask shutdown >/dev/null
n=0
while [ $n -lt 50 ] && [ -S "$sock" ]; do
	sleep 0.1
	n=$((n + 1))
done

cd "$src" || exit 1
# 8. Uninstall: nothing left.
if mk uninstall; then
	ok "make uninstall"
else
	bad "make uninstall: $(cat "$tmp/make.log")"
fi
left=$(find "$dest" ! -type d; find "$dest" -type d -name 'stairs*')
[ -z "$left" ] && ok "nothing left in $dest" || bad "left behind: $left"
finish
