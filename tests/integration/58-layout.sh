#!/bin/sh
# 58-layout: the code's layout holds what src/README.md says of it (issue 55, item 6): the
# statistics (src/fit) do no I/O, by their source (tools/lint-no-io.sh) and by their objects (no
# call to a stream or file function); no import circle is left in the tree (tools/lint-cycles.sh),
# and each lint fails on a planted breach, naming it; rarplot's main.c stays at most 300 lines;
# the run directory's file names are spelled in src/common/runfiles.h alone. No root, no prefix:
# run by make check-fast (after make all: the lints read the objects).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/tap.sh
need nm tsort perl cc
[ -f build/libfit.a ] || { notok "build/libfit.a is built (make all)"; exit 1; }
T=$(mktemp -d /tmp/rp-it58.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM

# --- the statistics do no I/O ---------------------------------------------------------------
check "tools/lint-no-io.sh passes on src/fit" sh tools/lint-no-io.sh
mkdir "$T/fit"
cp src/fit/*.c src/fit/*.h "$T/fit/"
cat >>"$T/fit/paired.c" <<'C'
static void planted(void)
{
	FILE *f = fopen("x", "r"); /* a comment naming fclose( is no call */

	fclose(f);
}
C
printf '#include "atomicfile.h"\n' >>"$T/fit/verdict.h"
sh tools/lint-no-io.sh "$T/fit" >"$T/noio.out" 2>&1
check "lint-no-io fails on a planted fopen" [ $? -eq 1 ]
check "... naming the file, the line and the call" grep -q "/fit/paired.c:[0-9]*: fopen()" "$T/noio.out"
check "... and the stream type" grep -q "/fit/paired.c:[0-9]*: FILE:" "$T/noio.out"
check "... and the included writer" grep -q "/fit/verdict.h:[0-9]*: includes atomicfile.h" "$T/noio.out"
check "... but not the call named in a comment (one fclose, not two)" \
	[ "$(grep -c 'fclose()' "$T/noio.out")" -eq 1 ]
# The objects too: whatever a header hides, libfit.a calls no stream, file or descriptor function.
nm -u build/libfit.a | awk '{ print $NF }' | sort -u >"$T/fit-undef"
grep -E '^(fopen|fdopen|freopen|fclose|fflush|fprintf|vfprintf|printf|vprintf|fputs|puts|fputc|putc|putchar|fwrite|fread|fgets|fgetc|getc|open|open64|openat|openat64|creat|close|read|write|pread|pwrite|opendir|readdir|mkdir|unlink|rename|remove|stat|lstat|fstat|access|readlink|popen|system|fileio_.*|atomicfile_.*|sanitize_fputs|__fprintf_chk|__printf_chk|__vfprintf_chk|__read_chk|__open_2|__openat_2)$' \
	"$T/fit-undef" >"$T/fit-io"
check "libfit.a refers to no I/O function ($(tr '\n' ' ' <"$T/fit-io"))" [ ! -s "$T/fit-io" ]
check "... and it does refer to others (the check reads its symbols: $(wc -l <"$T/fit-undef"))" \
	grep -qx "sqrt" "$T/fit-undef"
check "src/fit/fit.h, the folder's header, says NO I/O" grep -q "NO I/O" src/fit/fit.h

# --- no import circle -----------------------------------------------------------------------
check "tools/lint-cycles.sh passes on the tree" sh -c 'sh tools/lint-cycles.sh >/dev/null'
# A planted circle of three files: a uses b, b uses c, c uses a; d uses a and is in none.
mkdir -p "$T/tree/src/x" "$T/tree/confgen" "$T/tree/build/src/x"
printf 'int b(int);\nint a(int v) { return v ? b(v - 1) : 0; }\n' >"$T/tree/src/x/a.c"
printf 'int c(int);\nint b(int v) { return c(v); }\n' >"$T/tree/src/x/b.c"
printf 'int a(int);\nint c(int v) { return a(v); }\n' >"$T/tree/src/x/c.c"
printf 'int a(int);\nint d(int v) { return a(v); }\n' >"$T/tree/src/x/d.c"
for f in a b c d; do cc -c -o "$T/tree/build/src/x/$f.o" "$T/tree/src/x/$f.c"; done
sh tools/lint-cycles.sh "$T/tree" >"$T/cyc.out" 2>&1
check "lint-cycles fails on a planted circle" [ $? -eq 1 ]
check "... naming its three files" sh -c 'grep -q "src/x/a.c" "$1" && grep -q "src/x/b.c" "$1" &&
	grep -q "src/x/c.c" "$1"' sh "$T/cyc.out"
check "... and not the file outside it" sh -c '! grep -q "src/x/d.c" "$1"' sh "$T/cyc.out"
rm "$T/tree/src/x/c.c" "$T/tree/build/src/x/c.o"
printf 'int c(int v) { return v; }\n' >"$T/tree/src/x/c.c"
cc -c -o "$T/tree/build/src/x/c.o" "$T/tree/src/x/c.c"
check "lint-cycles passes once the circle is cut (c no longer uses a)" sh -c 'sh tools/lint-cycles.sh "$1" >/dev/null' sh "$T/tree"
# Two folders that use each other, with no circle between files: x/f uses y/e, y/e uses x/d.
mkdir -p "$T/tree/src/y" "$T/tree/build/src/y"
printf 'int d(int);\nint e(int v) { return d(v); }\n' >"$T/tree/src/y/e.c"
printf 'int e(int);\nint f(int v) { return e(v); }\n' >"$T/tree/src/x/f.c"
cc -c -o "$T/tree/build/src/y/e.o" "$T/tree/src/y/e.c"
cc -c -o "$T/tree/build/src/x/f.o" "$T/tree/src/x/f.c"
sh tools/lint-cycles.sh "$T/tree" >"$T/fold.out" 2>&1
check "lint-cycles fails on two folders that use each other (no circle between their files)" [ $? -eq 1 ]
check "... naming the folders" sh -c 'grep -q "between folders" "$1" && grep -qx " *src/x" "$1" &&
	grep -qx " *src/y" "$1" && ! grep -q "between files" "$1"' sh "$T/fold.out"
# Two headers that include each other.
mkdir -p "$T/hdr/src/z" "$T/hdr/confgen"
printf '#include "q.h"\n' >"$T/hdr/src/z/p.h"
printf '#include "p.h"\n' >"$T/hdr/src/z/q.h"
sh tools/lint-cycles.sh "$T/hdr" >"$T/hdr.out" 2>&1
check "lint-cycles fails on two headers that include each other, naming them" sh -c '[ "$2" -eq 1 ] &&
	grep -q "between headers" "$1" && grep -qx " *p.h" "$1" && grep -qx " *q.h" "$1"' sh "$T/hdr.out" $?
touch -d '2000-01-01' "$T/tree/build/src/x/d.o"
sh tools/lint-cycles.sh "$T/tree" >"$T/stale.out" 2>&1
check "lint-cycles refuses an object older than its source (exit 2)" [ $? -eq 2 ]

# --- rarplot's main.c and the run directory's names -----------------------------------------
n=$(wc -l <src/rarplot/main.c)
check "rarplot's main.c: parsing, dispatch and the exit status, at most 300 lines ($n)" [ "$n" -le 300 ]
# A name as a literal of its own (an argument, an element, a "%s/NAME" format) outside
# runfiles.h: help texts and messages may say the name within their words.
names='results\.json|results\.tsv|journal\.jsonl|profile\.tsv|profile-costs\.tsv|fits\.tsv|report\.md|claims\.tsv|across-hosts(-values)?\.tsv|profile-fits\.tsv|predicted\.(tsv|md)|fits-normalised\.tsv|normalised\.md|comparison(-ratio)?\.(md|tsv)|between\.tsv|history(-steps|-diary)?\.tsv'
grep -rnE "([({,?:]|^)[[:space:]]*\"(%s/)*($names)\"[[:space:]]*([,)};:]|$)" src confgen \
	--include='*.c' --include='*.h' | grep -v '^src/common/runfiles.h:' >"$T/names"
check "the run directory's file names are spelled in src/common/runfiles.h alone" [ ! -s "$T/names" ] ||
	sed 's/^/# /' "$T/names"
check "runfiles.h names the results file" grep -q '^#define RUNFILES_RESULTS "results.json"' \
	src/common/runfiles.h
tap_status
