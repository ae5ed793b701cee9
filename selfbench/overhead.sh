#!/bin/sh
# overhead.sh: times /usr/bin/true RUNS times with rarbench -N, hyperfine -N and a bare
# posix_spawn+wait4 loop (selfbench/bare_spawn.c), ROUNDS times in alternation, and prints each
# tool's median run time (median of the per-round medians) and its ratio to the bare loop.
# All three run pinned to one CPU (the last one, or $RARPERF_BENCH_CPU; "none" disables pinning):
# with a vfork-style spawn the parent sleeps while the child runs, and pinning removes migration noise.
# RARBENCH_BASE=PATH adds another rarbench build (e.g. one from before rarlaunch) to the rounds, as
# "base". It also prints rarlaunch's own peak RSS (VmHWM, the floor of every run's maxrss_kib).
# Usage: selfbench/overhead.sh [RUNS (2000)] [ROUNDS (5)]. Needs bin/rarbench (make), hyperfine, jq.
set -eu
cd "$(dirname "$0")/.."
runs=${1:-2000}
rounds=${2:-5}
cpu=${RARPERF_BENCH_CPU:-$(($(nproc) - 1))}
nice=${RARPERF_BENCH_NICE:--15}
if [ "$cpu" != none ] && [ -z "${RARPERF_BENCH_PINNED:-}" ] && command -v taskset >/dev/null; then
	RARPERF_BENCH_PINNED=$cpu exec taskset -c "$cpu" sh "$0" "$runs" "$rounds"
fi
# As root, all three run at nice $nice (RARPERF_BENCH_NICE=0 disables): other load on a shared
# machine then preempts them less, and equally.
if [ "$nice" != 0 ] && [ -z "${RARPERF_BENCH_NICED:-}" ] && [ "$(id -u)" -eq 0 ]; then
	RARPERF_BENCH_NICED=$nice exec nice -n "$nice" sh "$0" "$runs" "$rounds"
fi
prog=/usr/bin/true
out=build/selfbench
mkdir -p "$out"
[ -x bin/rarbench ] || make -s bin/rarbench
cc -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -o "$out/bare_spawn" selfbench/bare_spawn.c
have_hf=1
command -v hyperfine >/dev/null 2>&1 || have_hf=0

median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

: >"$out/bare.txt"
: >"$out/rarbench.txt"
: >"$out/hyperfine.txt"
: >"$out/bare.min"
: >"$out/rarbench.min"
: >"$out/hyperfine.min"
: >"$out/base.txt"
: >"$out/base.min"
i=1
while [ "$i" -le "$rounds" ]; do
	"$out/bare_spawn" "$runs" "$prog" >"$out/bare.now"
	cut -d' ' -f1 "$out/bare.now" >>"$out/bare.txt"
	cut -d' ' -f2 "$out/bare.now" >>"$out/bare.min"
	bin/rarbench -N --style none --runs "$runs" --export-json "$out/rarbench.json" "$prog" 2>/dev/null
	jq -r '.results[0].median' "$out/rarbench.json" >>"$out/rarbench.txt"
	jq -r '.results[0].min' "$out/rarbench.json" >>"$out/rarbench.min"
	if [ -n "${RARBENCH_BASE:-}" ]; then
		"$RARBENCH_BASE" -N --style none --runs "$runs" --export-json "$out/base.json" "$prog" 2>/dev/null
		jq -r '.results[0].median' "$out/base.json" >>"$out/base.txt"
		jq -r '.results[0].min' "$out/base.json" >>"$out/base.min"
	fi
	if [ "$have_hf" = 1 ]; then
		hyperfine -N --style none --runs "$runs" --export-json "$out/hyperfine.json" "$prog" 2>/dev/null \
			>/dev/null
		jq -r '.results[0].median' "$out/hyperfine.json" >>"$out/hyperfine.txt"
		jq -r '.results[0].min' "$out/hyperfine.json" >>"$out/hyperfine.min"
	fi
	i=$((i + 1))
done

bare=$(median <"$out/bare.txt")
rb=$(median <"$out/rarbench.txt")
echo "overhead.sh: $prog, $runs runs x $rounds rounds, pinned to cpu ${RARPERF_BENCH_PINNED:-none}, nice ${RARPERF_BENCH_NICED:-0}, $(date -u +%FT%TZ)"
printf '%-10s median %10.1f us   ratio %s\n' bare "$(echo "$bare" | awk '{print $1*1e6}')" 1.000
printf '%-10s median %10.1f us   ratio %s\n' rarbench "$(echo "$rb" | awk '{print $1*1e6}')" \
	"$(awk -v a="$rb" -v b="$bare" 'BEGIN {printf "%.3f", a/b}')"
if [ "$have_hf" = 1 ]; then
	hf=$(median <"$out/hyperfine.txt")
	printf '%-10s median %10.1f us   ratio %s\n' hyperfine "$(echo "$hf" | awk '{print $1*1e6}')" \
		"$(awk -v a="$hf" -v b="$bare" 'BEGIN {printf "%.3f", a/b}')"
else
	echo "hyperfine  not installed"
fi
if [ -n "${RARBENCH_BASE:-}" ]; then
	base=$(median <"$out/base.txt")
	printf '%-10s median %10.1f us   ratio %s   (%s)\n' base "$(echo "$base" | awk '{print $1*1e6}')" \
		"$(awk -v a="$base" -v b="$bare" 'BEGIN {printf "%.3f", a/b}')" "$RARBENCH_BASE"
fi
# The fastest run of all rounds: the least disturbed estimate of each tool's floor.
lo() { sort -g "$1" | head -1 | awk '{printf "%.1f", $1*1e6}'; }
printf 'fastest run: bare %s us, rarbench %s us' "$(lo "$out/bare.min")" "$(lo "$out/rarbench.min")"
[ "$have_hf" = 1 ] && printf ', hyperfine %s us' "$(lo "$out/hyperfine.min")"
echo
# Load from other processes drifts between rounds; the ratio within a round (tools run back to
# back) is steadier than the ratio of overall medians.
ratios() { paste "$out/bare.txt" "$1" | awk '{print $2/$1}' | median; }
printf 'median of per-round ratios: rarbench %.3f' "$(ratios "$out/rarbench.txt")"
[ -n "${RARBENCH_BASE:-}" ] && printf ', base %.3f' "$(ratios "$out/base.txt")"
[ "$have_hf" = 1 ] && printf ', hyperfine %.3f' "$(ratios "$out/hyperfine.txt")"
echo
echo "per-round medians (s): bare $(tr '\n' ' ' <"$out/bare.txt")| rarbench $(tr '\n' ' ' <"$out/rarbench.txt")| hyperfine $(tr '\n' ' ' <"$out/hyperfine.txt")"
# rarlaunch's own peak resident size: every run's maxrss starts from it.
bin/rarbench -N --style none --runs 1 'sleep 1' >/dev/null 2>&1 &
rbp=$!
sleep 0.5
for p in $(pgrep -P "$rbp" rarlaunch); do
	echo "rarlaunch VmHWM: $(awk '/VmHWM/ {print $2, $3}' "/proc/$p/status")"
done
wait "$rbp"
