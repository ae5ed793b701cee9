#!/bin/bash
# selfbench/check-time.sh [--run] [TREE]: where the time of a `make check` goes, and whether it
# holds the 45-minute target (CI stops at 90). Without --run: TREE's last make check (default this
# tree), read from build/test-logs/ (each log is written as its stage ends) and timed from the
# checkout's first file (a fresh clone's Makefile). --run: clones TREE's HEAD into a fresh
# directory under ${TMPDIR:-/tmp}, runs `bash .ci/run` there (as CI does) and then reads it.
# Prints one line per stage and per integration script longer than 30 s, the total, and exits 1
# past the target (TARGET_S, default 2700). A benchmark, not a test: the machine must be quiet.
set -eu
cd "$(dirname "$0")/.."
run=false
[ "${1:-}" = --run ] && { run=true; shift; }
[ $# -le 1 ] || { echo "usage: selfbench/check-time.sh [--run] [TREE]" >&2; exit 2; }
tree=${1:-$PWD}
target=${TARGET_S:-2700}
case $target in '' | *[!0-9]*) echo "selfbench/check-time.sh: TARGET_S: \"$target\" is not a number" >&2; exit 2 ;; esac
if $run; then
	clone=$(mktemp -d "${TMPDIR:-/tmp}/rarperf-check-time.XXXXXX")
	git clone -q "$tree" "$clone/tree"
	start=$(date +%s)
	rc=0
	(cd "$clone/tree" && bash .ci/run) >"$clone/check.log" 2>&1 || rc=$?
	end=$(date +%s)
	echo "make check: exit $rc, its output in $clone/check.log"
	tree=$clone/tree
else
	[ -f "$tree/Makefile" ] || { echo "selfbench/check-time.sh: $tree has no Makefile" >&2; exit 2; }
	start=$(stat -c %Y "$tree/Makefile")
	end=
fi
logs=$tree/build/test-logs
[ -f "$logs/system.before" ] || { echo "selfbench/check-time.sh: $logs holds no make check run" >&2; exit 2; }
last() { # GLOB: the newest mtime of the logs it names, or nothing
	# shellcheck disable=SC2086
	ls -1 $logs/$1 2>/dev/null | xargs -r stat -c %Y | sort -n | tail -1
}
t_tests=$(stat -c %Y "$logs/system.before")
prev=$t_tests
{
	echo "before the tests (packages, build, provision) $((t_tests - start))"
	for stage in unit asan valgrind fuzz; do
		t=$(last "$stage-*.log")
		[ -n "$t" ] || continue
		echo "$stage $((t - prev))"
		prev=$t
	done
	for f in $(ls -1 "$logs"/it-*.log 2>/dev/null | xargs -r stat -c '%Y %n' | sort -n | cut -d' ' -f2); do
		t=$(stat -c %Y "$f")
		name=$(basename "$f" .log)
		echo "${name#it-} $((t - prev))"
		prev=$t
	done
} >"${TMPDIR:-/tmp}/check-time.$$"
[ -n "$end" ] || end=$prev
awk -v total=$((end - start)) -v target="$target" '
	{ s = $NF; $NF = ""; sub(/ $/, ""); if (s >= 30 || NR <= 5) printf "%6d s  %s\n", s, $0; else small += s }
	END {
		if (small > 0) printf "%6d s  the other integration scripts (under 30 s each)\n", small
		printf "%6d s  in all (%d min %02d s; target %d s)\n", total, total / 60, total % 60, target
	}' "${TMPDIR:-/tmp}/check-time.$$"
rm -f "${TMPDIR:-/tmp}/check-time.$$"
[ $((end - start)) -le "$target" ]
