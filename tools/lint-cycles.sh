#!/bin/sh
# lint-cycles.sh [ROOT]: no import circle in the tree: no two source files that use each other's
# functions, directly or around a longer loop. A file uses another when its object refers to a
# symbol the other's object defines (nm): what a call or a shared variable really ties, whatever
# header declares it. A circle (results.c calling its part readers, which called back into it;
# fitreport.c and fitreport_pair.c; proc_launch.c and proc_reap.c) is broken by moving the shared
# piece down, so that every part depends on the one below and never back (src/README.md).
# Reads build/**/*.o of the .c files under src/ and confgen/ (make all first: make check-fast
# does); fails (exit 1) naming each loop's files, or when an object is missing or older than its
# source (exit 2). ROOT: the tree to check (default this one); runs from any directory.
set -u
cd "${1:-$(dirname "$0")/..}" || exit 2
command -v nm >/dev/null && command -v tsort >/dev/null ||
	{ echo "lint-cycles: needs nm and tsort (binutils, coreutils)" >&2; exit 2; }
t=$(mktemp -d /tmp/lint-cycles.XXXXXX) || exit 2
trap 'rm -rf "$t"' EXIT INT TERM
: >"$t/defs"
: >"$t/uses"
n=0
for c in $(find src confgen -name '*.c' | LC_ALL=C sort); do
	o=build/${c%.c}.o
	case $c in src/rarref/* | src/rarlaunch/*) continue ;; esac # static, no object of their own
	if [ ! -f "$o" ] || [ "$c" -nt "$o" ]; then
		echo "lint-cycles: $o is missing or older than $c: run make all first" >&2
		exit 2
	fi
	nm -g --defined-only "$o" | awk -v f="$c" 'NF == 3 { print $3, f }' >>"$t/defs"
	nm -u "$o" | awk -v f="$c" '{ print $NF, f }' >>"$t/uses"
	n=$((n + 1))
done
# "user definer" for each symbol defined in another file; each file also depends on itself so
# that tsort knows every file.
awk 'NR == FNR { def[$1] = $2; next } ($1 in def) && def[$1] != $2 { print $2, def[$1] }' \
	"$t/defs" "$t/uses" | LC_ALL=C sort -u >"$t/edges"
awk '{ print $2, $2 }' "$t/defs" | LC_ALL=C sort -u >>"$t/edges"
if tsort "$t/edges" >/dev/null 2>"$t/loops"; then
	echo "lint-cycles: $n files, $(awk '$1 != $2' "$t/edges" | wc -l) uses between them, no circle"
	exit 0
fi
echo "lint-cycles: import circles (each file below uses the next, the last the first):" >&2
sed -n 's/^tsort: //p' "$t/loops" | grep -v 'input contains a loop' >&2
exit 1
