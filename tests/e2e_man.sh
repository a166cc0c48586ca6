#!/bin/sh
# e2e_man.sh -- the manual pages in man/ are clean under mandoc -Tlint and
# say what the programs do: each page's option list is the program's own
# --help's, the scenario page's keys and actions are those stairsd's
# errors list, and the protocol page's commands are a live daemon's
# `help'.  (The client's keys: tests/test_man_keys.c.)  A mismatch names
# the options only in the page and only in the program.  Without mandoc
# the lint is skipped, saying so; everything else still runs.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_man

man=${STAIRS_MAN:-man}
pages="stairs.1 stairsd.8 stairs-load.1 stairs-import.1 stairs-scenario.5
stairs-protocol.7"
nomandoc=0

cleanup() {
	[ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon"
}
daemon=

for p in $pages; do
	[ -f "$man/$p" ] || fail "no page $man/$p"
done

# mandoc -Tlint: no warning or error (style hints such as an .Xr to a
# page not installed on this machine are not failures).
if command -v mandoc >/dev/null 2>&1; then
	for p in $pages; do
		if mandoc -Tlint -W warning "$man/$p" >"$tmp/lint" 2>&1; then
			ok "$p: mandoc -Tlint clean"
		else
			fail "$p: mandoc -Tlint: $(cat "$tmp/lint")"
		fi
	done
else
	echo "skipped: mandoc -Tlint (mandoc is not installed:" \
	    "apt-get install mandoc)"
	nomandoc=1
fi

# page_items PAGE MACRO SECTION [SUBSECTION]: the first argument of
# MACRO on each .It line of SECTION (and SUBSECTION), one a line,
# sorted; for Fl every flag on the line, with its dash.
page_items() {
	awk -v mac="$2" -v sec="$3" -v sub_="${4:-}" '
	/^\.Sh / { sh = substr($0, 5); ss = ""; next }
	/^\.Ss / { ss = substr($0, 5); next }
	sh != sec || (sub_ != "" && ss != sub_) || $1 != ".It" { next }
	{
		for (i = 2; i < NF; i++) {
			if ($i != mac)
				continue;
			if (mac == "Fl")
				print "-" $(i + 1);
			else {
				print $(i + 1);
				break;
			}
		}
	}' "$man/$1" | sed 's/\\&//g' | sort -u
}

# help_opts: the options a --help text on stdin names, sorted.
help_opts() {
	grep -oE '(^|[][ ,|(])--?[A-Za-z][A-Za-z0-9-]*' |
	    sed 's/^[][ ,|(]//' | sort -u
}

# same WHAT PAGEFILE PROGFILE: the two sorted lists are equal, else a
# failure naming what only one of them has.
same() {
	if cmp -s "$2" "$3"; then
		ok "$1: $(tr '\n' ' ' <"$2")"
		return
	fi
	fail "$1: only in the page: $(comm -23 "$2" "$3" | tr '\n' ' ')" \
	    "only in the program: $(comm -13 "$2" "$3" | tr '\n' ' ')"
}

# Options: each page's OPTIONS against the program's --help.
page_items stairs.1 Fl OPTIONS >"$tmp/page"
"$bin/stairs" --help | help_opts >"$tmp/prog"
same "stairs(1) options vs stairs --help" "$tmp/page" "$tmp/prog"

page_items stairs-load.1 Fl OPTIONS >"$tmp/page"
"$bin/stairs-load" --help | help_opts >"$tmp/prog"
same "stairs-load(1) options vs stairs-load --help" "$tmp/page" "$tmp/prog"

page_items stairs-import.1 Fl OPTIONS >"$tmp/page"
"$bin/stairs-import" --help | help_opts >"$tmp/prog"
same "stairs-import(1) options vs stairs-import --help" "$tmp/page" \
    "$tmp/prog"

# The live daemon's help, less its line pointing to --headless.
page_items stairsd.8 Fl OPTIONS Live >"$tmp/page"
"$sd" --help | grep -v -- '--headless' | help_opts >"$tmp/prog"
same "stairsd(8) live options vs stairsd --help" "$tmp/page" "$tmp/prog"

page_items stairsd.8 Fl OPTIONS Headless >"$tmp/page"
"$sd" --headless --help | help_opts >"$tmp/prog"
same "stairsd(8) headless options vs stairsd --headless --help" \
    "$tmp/page" "$tmp/prog"

# Scenario keys and actions: what stairsd's errors say it knows.
# known WHAT CFG: the list in the error of loading CFG, one a line.
known() {
	printf '%s\n' "$2" >"$tmp/bad.cfg"
	"$sd" --headless --scenario "$tmp/bad.cfg" --ticks 1 2>&1 |
	    sed -n 's/.*(\(known: \)\{0,1\}\([^)]*\)).*/\2/p' |
	    sed 's/ or /, /; s/, /\n/g' | sort -u
}
known keys 'frob = 1;' >"$tmp/prog"
page_items stairs-scenario.5 Cm "TOP-LEVEL KEYS" >"$tmp/page"
same "stairs-scenario(5) top-level keys" "$tmp/page" "$tmp/prog"
known keys 'groups = ({ name = "g"; cpus = "0"; frob = 1; });' >"$tmp/prog"
page_items stairs-scenario.5 Cm "GROUP KEYS" >"$tmp/page"
same "stairs-scenario(5) group keys" "$tmp/page" "$tmp/prog"
known keys 'tasks = ({ name = "a"; frob = 1; });' >"$tmp/prog"
page_items stairs-scenario.5 Cm "TASK KEYS" >"$tmp/page"
same "stairs-scenario(5) task keys" "$tmp/page" "$tmp/prog"
known keys 'tasks = ({ name = "a"; });
events = ({ at = 1; action = "sleep"; frob = 1; });' >"$tmp/prog"
page_items stairs-scenario.5 Cm "EVENT KEYS" >"$tmp/page"
same "stairs-scenario(5) event keys" "$tmp/page" "$tmp/prog"
known actions 'events = ({ at = 1; action = "frob"; });' >"$tmp/prog"
page_items stairs-scenario.5 Cm "EVENT ACTIONS" >"$tmp/page"
same "stairs-scenario(5) event actions" "$tmp/page" "$tmp/prog"
[ -s "$tmp/prog" ] || fail "no action list in stairsd's error"

# Protocol commands: a live daemon's own `help'.
sock="$tmp/sock"
"$sd" -f -S "$sock" >"$tmp/log" 2>&1 &
daemon=$!
if wait_for 10 "the socket $sock" test -S "$sock"; then
	ask help | sed -n 's/^help //p' | sed 's/  .*//; s/ | /\n/g' |
	    awk '{ print $1 }' | sort -u >"$tmp/prog"
	page_items stairs-protocol.7 Ic COMMANDS >"$tmp/page"
	[ -s "$tmp/prog" ] || fail "no help lines from the daemon"
	same "stairs-protocol(7) commands vs the daemon's help" \
	    "$tmp/page" "$tmp/prog"
else
	fail "daemon did not start: $(cat "$tmp/log")"
fi

[ "$failed" -eq 0 ] && [ "$nomandoc" -eq 1 ] && exit 77
e2e_end
