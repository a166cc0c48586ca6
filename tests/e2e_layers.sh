#!/bin/sh
# e2e_layers.sh -- the build proves the layers (Makefile, "make layers";
# tests/layers.sh): in a copy of the tree, each planted violation fails
# `make layers` with a message that names it, and the tree as it is
# passes.  Planted: a call from the engine up into the session, an
# #include of a daemon header from the wire, a call from the client into
# the engine, a clock read in the engine, and a writable global in it.
. "$(dirname "$0")/lib.sh"
e2e_begin e2e_layers

src=$(cd "$(dirname "$0")/.." && pwd)
tree=$tmp/tree
mkdir "$tree"
# The tree as it stands, with the plain build's objects if there are
# (tar keeps the times: make then only builds what a plant changes).
(cd "$src" && tar -cf - Makefile src ui scenarios tests/layers.sh \
    tests/embed.sh $(ls -d build/obj/src build/obj/ui build/obj/gen \
    build/obj/lib*.a 2>/dev/null)) | (cd "$tree" && tar -xf -) ||
    { fail "copy the tree"; e2e_end; }

run() {
	(cd "$tree" && nice make -j2 SAN= BUILD=build/obj BIN=. layers) \
	    >"$tmp/out" 2>&1
}

if ! run; then
	tail -20 "$tmp/out"
	fail "make layers fails on the tree as it is"
	e2e_end
fi
ok "the tree as it is passes make layers"

# plant FILE TEXT WHAT EXPECT: append TEXT to FILE; make layers must
# fail, saying EXPECT; then FILE is put back.
plant() {
	cp "$tree/$1" "$tmp/saved"
	printf '%s\n' "$2" >> "$tree/$1"
	if run; then
		fail "$3: make layers passed"
	elif grep -q "$4" "$tmp/out"; then
		ok "$3: make layers fails ($4)"
	else
		tail -15 "$tmp/out"
		fail "$3: make layers failed without saying \"$4\""
	fi
	cp "$tmp/saved" "$tree/$1"
}

plant src/core/engine-tick.c \
'uint64_t session_now(const void *);
uint64_t engine_planted(const void *);
uint64_t engine_planted(const void *s) { return (session_now(s)); }' \
    "the engine calls up into the session" "layer core reaches outside"

plant src/wire/protocol.c '#include "server.h"' \
    "the wire includes a daemon header" "server.h"

plant ui/grid.c \
'struct engine;
int engine_ntasks(const struct engine *);
int grid_planted(const struct engine *);
int grid_planted(const struct engine *e) { return (engine_ntasks(e)); }' \
    "the client calls the engine" "layer ui reaches outside"

plant src/core/prio_array.c \
'#include <time.h>
long prio_array_planted(void);
long prio_array_planted(void) { return ((long)time(NULL)); }' \
    "the engine reads the clock" "the engine calls time"

plant src/core/cpumask.c \
'int cpumask_planted;' \
    "a writable global in the engine" "a writable global cpumask_planted"

# The tree is whole again.
if run; then
	ok "put back, the tree passes again"
else
	tail -20 "$tmp/out"
	fail "the tree, put back, fails make layers"
fi
e2e_end
