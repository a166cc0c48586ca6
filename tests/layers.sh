#!/bin/sh
# layers.sh [BUILD] -- what the linker cannot see of the layers (make
# layers runs it after linking each layer alone):
#
# 1. The #include graph: a file of src/LAYER/ includes only headers of
#    its own layer and the layers below (base core wire scenario session
#    real daemon, lowest first); ui/ only its own, base/'s and wire/'s;
#    src/import/ only its own, base/'s and scenario/'s; src/load/
#    nothing of src/.  So no circle between files of different
#    layers can close.
# 2. The engine is pure (src/core/): its objects in BUILD (default
#    build/obj) call no I/O, clock, environment or randomness of the C
#    library, and keep no writable globals (.data, .bss; a sanitizer's
#    own, named __*, aside): every engine is its own.
#
# Prints each violation as FILE: what, and exits 1 if there was one.
cd "$(dirname "$0")/.." || exit 2
build=${1:-build/obj}
order="base core wire scenario session real daemon"

# One awk over every file: the layer of each header (from its path),
# then each quoted #include checked against the includer's layer.
ls src/*/*.h ui/*.h 2>/dev/null > "$build/.layers.h"
awk -v order="$order" -v list="$build/.layers.h" '
BEGIN {
	n = split(order, o, " ")
	for (i = 1; i <= n; i++)
		rank[o[i]] = i
	rank["ui"] = rank["wire"] + 0.5		# on wire and base only
	while ((getline f < list) > 0) {
		m = split(f, p, "/")
		layer[p[m]] = p[m - 1]
	}
}
/^#include "/ {
	h = $2
	gsub(/"/, "", h)
	if (!(h in layer))
		next				# generated or system
	m = split(FILENAME, p, "/")
	from = p[m - 1]
	to = layer[h]
	if (to == from)
		next
	if (from == "ui" && (to == "base" || to == "wire"))
		next
	if (from == "import" && (to == "base" || to == "scenario"))
		next
	if (from != "ui" && from != "load" && from != "import" &&
	    (from in rank) &&
	    rank[to] < rank[from])
		next
	printf "%s: includes %s of %s/, above or beside %s/\n", FILENAME, h,
	    to, from
	bad = 1
}
END { exit bad }' src/*/*.c src/*/*.h ui/*.c ui/*.h ||
	echo x >> "$build/.layers.bad"
rm -f "$build/.layers.h"

# The engine's purity, from its objects.
forbidden='^(f?open|fdopen|freopen|fclose|fread|fwrite|fputs|fputc|fprintf|printf|vfprintf|vprintf|puts|putchar|perror|fflush|read|write|pread|pwrite|open|openat|close|stat|fstat|lstat|access|unlink|mkdir|socket|connect|ioctl|mmap|syslog|vsyslog|clock_gettime|clock_nanosleep|gettimeofday|time|times|nanosleep|usleep|sleep|getenv|setenv|rand|random|srand|srandom|getrandom|getpid|kill|signal|sigaction|fork|exec[a-z]*|system|stdin|stdout|stderr|exit|_exit|abort)$'
for o in "$build"/src/core/*.o; do
	[ -f "$o" ] || continue
	for s in $(nm -u "$o" | awk '{ print $2 }' | sed 's/@.*//' |
	    grep -E "$forbidden"); do
		echo "$o: the engine calls $s (no I/O, clock or randomness in src/core/)"
		echo x >> "$build/.layers.bad"
	done
	for s in $(objdump -t "$o" | awk '$4 == ".data" || $4 == ".bss" ||
	    $4 ~ /^\.(data|bss)\./ && $4 !~ /^\.data\.rel\.ro/ { print $NF }' |
	    grep -v '^\.' | grep -v '^__'); do
		echo "$o: a writable global $s (engines share nothing)"
		echo x >> "$build/.layers.bad"
	done
done

if [ -f "$build/.layers.bad" ]; then
	rm -f "$build/.layers.bad"
	echo "layers: the layers are broken (above)" >&2
	exit 1
fi
echo "layers: includes go down only; the engine calls no I/O and keeps no globals"
