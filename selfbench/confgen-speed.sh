#!/bin/bash
# selfbench/confgen-speed.sh OTHER [RUNS]: confgen of another tree against this tree's, side by
# side: all four formats at R=1 U=1 T=10000 C=1 (issue 38's shape), RUNS rounds (default 7), each
# round one run of each binary in alternating order, so that a load that comes and goes meets
# both alike. Prints the best and the median wall time of each and the ratio of the bests.
# OTHER: a tree with a built bin/confgen, or a confgen binary. A tree of a commit is made with
#   mkdir /tmp/old && git archive REV | tar -x -C /tmp/old && make -C /tmp/old bin/confgen
# A benchmark, not a test: every file is fsync'ed, so the disk is part of the number.
# Environment: CONFGEN (default this tree's bin/confgen), TASKS (default 10000), BENCH_DIR
# (default a fresh directory under ${TMPDIR:-/tmp}).
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: selfbench/confgen-speed.sh OTHER_TREE_OR_CONFGEN [RUNS]" >&2; exit 2; }
other=$1
[ -d "$other" ] && other=$other/bin/confgen
runs=${2:-7}
this=${CONFGEN:-$PWD/bin/confgen}
tasks=${TASKS:-10000}
for b in "$other" "$this"; do
	[ -x "$b" ] || { echo "selfbench/confgen-speed.sh: $b is missing: build it (make bin/confgen)" >&2; exit 2; }
done
case $runs in '' | *[!0-9]*) echo "selfbench/confgen-speed.sh: RUNS: \"$runs\" is not a number" >&2; exit 2 ;; esac
. tools/lib/keepdir.sh
# made now, or root's along its whole path (R34): it is emptied at the end
if [ -n "${BENCH_DIR:-}" ]; then
	dir=$(keepdir_make BENCH_DIR "$BENCH_DIR") || exit 2
else
	dir=$(mktemp -d /tmp/rarperf-confgen-speed.XXXXXX)
fi
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/a" "$dir/b"

# one BIN DIR: one run over DIR's files (rewritten each round, as rarbench regenerates them);
# prints the wall time in microseconds ($EPOCHREALTIME: no process started to read the clock).
one() {
	local t0 t1
	t0=${EPOCHREALTIME/./}
	"$1" --uid 1234 --roles 1 --users 1 --tasks "$tasks" --commands 1 --sudoers "$2/sudoers" \
		--doas "$2/doas.conf" --rar-json "$2/rar.json" --rar-cbor "$2/rar-cbor.json" >/dev/null
	t1=${EPOCHREALTIME/./}
	echo $((t1 - t0))
}

ta=() tb=()
one "$other" "$dir/a" >/dev/null # the first run of each creates the files: not timed
one "$this" "$dir/b" >/dev/null
for ((i = 0; i < runs; i++)); do
	if ((i % 2 == 0)); then
		ta+=("$(one "$other" "$dir/a")")
		tb+=("$(one "$this" "$dir/b")")
	else
		tb+=("$(one "$this" "$dir/b")")
		ta+=("$(one "$other" "$dir/a")")
	fi
done

# stat LABEL BIN TIMES...: prints best and median in ms; sets best_us.
stat() {
	local label=$1 bin=$2
	shift 2
	local sorted
	mapfile -t sorted < <(printf '%s\n' "$@" | sort -n)
	best_us=${sorted[0]}
	printf '%-6s best %8.3f ms  median %8.3f ms  (%s)\n' "$label" \
		"$(awk -v u="$best_us" 'BEGIN { print u / 1000 }')" \
		"$(awk -v u="${sorted[$(($# / 2))]}" 'BEGIN { print u / 1000 }')" "$bin"
}
echo "confgen, R=1 U=1 T=$tasks C=1, four formats, best of $runs (alternating), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
stat other "$other" "${ta[@]}"
other_us=$best_us
stat this "$this" "${tb[@]}"
awk -v a="$other_us" -v b="$best_us" 'BEGIN { printf "this/other (best): %.3f\n", b / a }'
