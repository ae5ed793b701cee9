#!/bin/sh
# lint-cycles.sh [ROOT]: no import circle in the tree, at three levels:
#   files: no two source files that use each other's functions, directly or around a longer
#     loop. A file uses another when its object refers to a symbol the other's object defines
#     (nm): what a call or a shared variable really ties, whatever header declares it;
#   folders: no two folders (layers, programs) whose files use each other's, the same way: a
#     folder's files may use only the folders below it (src/README.md; the Makefile's *_USES
#     give the include paths, this the calls);
#   headers: no header that includes itself around a loop of #include "..." lines.
# A circle (results.c calling its part readers, which called back into it; fitreport.c and
# fitreport_pair.c; proc_launch.c and proc_reap.c) is broken by moving the shared piece down, so
# that every part depends on the one below and never back.
# Reads build/**/*.o of the .c files under src/ and confgen/ (make all first: make check-fast
# does); fails (exit 1) naming each loop's files or folders, or when an object is missing or
# older than its source (exit 2). ROOT: the tree to check (default this one); runs from any
# directory.
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
# The folders' uses, from the files' (a folder using itself is no loop).
awk '$1 != $2 { a = $1; b = $2; sub(/\/[^\/]*$/, "", a); sub(/\/[^\/]*$/, "", b); print a, b }' \
	"$t/edges" | LC_ALL=C sort -u >"$t/folders"
awk '{ f = $2; sub(/\/[^\/]*$/, "", f); print f, f }' "$t/defs" | LC_ALL=C sort -u >>"$t/folders"
# The headers' #include "..." lines, by the header's name (the include paths are flat).
for h in $(find src confgen -name '*.h' | LC_ALL=C sort); do
	b=${h##*/}
	echo "$b $b"
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$h" |
		while read -r i; do echo "$b ${i##*/}"; done
done >"$t/headers"
status=0
for level in edges:files folders:folders headers:headers; do
	if ! tsort "$t/${level%%:*}" >/dev/null 2>"$t/loops"; then
		echo "lint-cycles: import circles between ${level#*:} (each uses the next, the last the first):" >&2
		sed -n 's/^tsort: .*input contains a loop:$/  a loop:/p; s/^tsort: /    /p' "$t/loops" >&2
		status=1
	fi
done
[ "$status" -eq 0 ] && echo "lint-cycles: $n files, $(awk '$1 != $2' "$t/edges" | wc -l) uses between them," \
	"$(awk '$1 != $2' "$t/folders" | wc -l) between folders, $(awk '$1 != $2' "$t/headers" | wc -l)" \
	"includes between headers: no circle"
exit "$status"
