#!/bin/sh
# embed.sh DIR -- print a C file holding every DIR/*.cfg as text, for
# src/scenario/catalog.c: catalog_table[] in DIR/README's order (its numbered
# lines, "1. demo ..."), then any file the README does not list, by name.
# The demo's text is also stairs_demo_scenario (catalog.h).  A scenario
# that uses @include cannot be compiled in (its includes would be read
# from wherever the daemon runs): refused, as is a README that names a
# scenario with no file.
set -e
dir=$1
order=$(sed -n 's/^ *[0-9][0-9]*\. *\([A-Za-z0-9_.-][A-Za-z0-9_.-]*\).*/\1/p' \
    "$dir/README")
for n in $order; do
	[ -f "$dir/$n.cfg" ] || {
		echo "embed.sh: $dir/README lists $n, but there is no $dir/$n.cfg" >&2
		exit 1
	}
done
rest=
for f in "$dir"/*.cfg; do
	n=$(basename "$f" .cfg)
	case " $(echo $order) " in *" $n "*) ;; *) rest="$rest $n";; esac
done
printf '/* Generated from %s/NAME.cfg by tests/embed.sh; do not edit. */\n' "$dir"
printf '#include <stddef.h>\n\n#include "catalog.h"\n\n'
i=0
for n in $order $rest; do
	f=$dir/$n.cfg
	if grep -q '^[[:space:]]*@include' "$f"; then
		echo "embed.sh: $f uses @include: it cannot be built in" >&2
		exit 1
	fi
	if [ "$n" = demo ]; then
		sym=stairs_demo_scenario
		printf 'extern const char %s[];\n' "$sym"
		printf 'const char %s[] =\n' "$sym"
	else
		sym=catalog_text_$i
		printf 'static const char %s[] =\n' "$sym"
	fi
	# Escape \ and ", and ? (no trigraphs); one string per line.
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' \
	    -e 's/$/\\n"/' "$f"
	printf ';\n\n'
	eval "sym_$i=$sym"
	i=$((i + 1))
done
printf 'const struct catalog_builtin catalog_table[] = {\n'
j=0
for n in $order $rest; do
	eval "sym=\$sym_$j"
	printf '\t{ "%s", %s },\n' "$n" "$sym"
	j=$((j + 1))
done
printf '};\nconst size_t catalog_count = %d;\n' "$i"
