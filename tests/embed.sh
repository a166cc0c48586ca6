#!/bin/sh
# embed.sh FILE SYMBOL -- print a C file defining SYMBOL as FILE's text.
set -e
printf '/* Generated from %s by tests/embed.sh; do not edit. */\n' "$1"
printf 'const char %s[] =\n' "$2"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' "$1"
printf ';\n'
