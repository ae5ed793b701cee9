#!/bin/bash
# selfbench/confgen.sh: times confgen on the issue's two shapes and prints wall time and peak RSS
# against the targets (all four formats, R=1 U=1 T=10000 C=1: < 50 ms together; R=10 U=10
# T=10000 C=10, 1 M commands: < 3 s together, peak RSS < 1 GiB). A benchmark, not a test:
# numbers depend on the machine and its disk (every file is fsync'ed).
# Environment: CONFGEN (default bin/confgen), RUNS (default 5 small, 3 large), BENCH_DIR
# (default a fresh directory under ${TMPDIR:-/tmp}; the large doas.conf alone is ~640 MB).
# Needs /usr/bin/time (Debian package "time").
set -eu
cd "$(dirname "$0")/.."
confgen=${CONFGEN:-$PWD/bin/confgen}
[ -x "$confgen" ] || { echo "selfbench/confgen.sh: $confgen is missing: run make" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "selfbench/confgen.sh: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
dir=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/rarperf-bench-confgen.XXXXXX")}
trap 'rm -rf "$dir"' EXIT

# measure LABEL RUNS ARGS...: runs confgen RUNS times over the same files (as rarbench
# regenerates them); sets best_ms, median_ms, rss_kb (the largest of the runs).
measure() {
	local label=$1 runs=$2
	shift 2
	local i start end times=() rss
	rss_kb=0
	for ((i = 0; i < runs; i++)); do
		start=$(date +%s%N)
		/usr/bin/time -f %M -o "$dir/rss" "$confgen" "$@"
		end=$(date +%s%N)
		times+=($(((end - start) / 1000)))
		rss=$(tail -1 "$dir/rss")
		[ "$rss" -gt "$rss_kb" ] && rss_kb=$rss
	done
	mapfile -t sorted < <(printf '%s\n' "${times[@]}" | sort -n)
	best_ms=$(printf '%d.%03d' $((sorted[0] / 1000)) $((sorted[0] % 1000)))
	local mid=${sorted[$((runs / 2))]}
	median_ms=$(printf '%d.%03d' $((mid / 1000)) $((mid % 1000)))
	printf '%-34s best %10s ms  median %10s ms  peak RSS %7d KiB\n' "$label" "$best_ms" "$median_ms" "$rss_kb"
}

verdict() { # verdict VALUE_MS LIMIT_MS [RSS_KB LIMIT_KB]
	local ok=1
	awk -v v="$1" -v l="$2" 'BEGIN { exit !(v < l) }' || ok=0
	if [ $# -ge 4 ] && [ "$3" -ge "$4" ]; then ok=0; fi
	[ "$ok" -eq 1 ] && echo "meets the target" || echo "MISSES the target"
}

shape() { echo --roles "$1" --users "$2" --tasks "$3" --commands "$4" --uid 4242; }
all_outputs() { echo --sudoers "$dir/sudoers" --doas "$dir/doas.conf" --rar-json "$dir/rar.json" --rar-cbor "$dir/rar-cbor.json"; }

echo "confgen benchmark: $(nproc) cores, files in $dir ($(df -hT "$dir" | awk 'NR == 2 { print $2 }'))"
echo
echo "Shape R=1 U=1 T=10000 C=1 (10 000 commands); target: all four formats < 50 ms together"
runs=${RUNS:-5}
# shellcheck disable=SC2046
measure "  sudoers" "$runs" $(shape 1 1 10000 1) --sudoers "$dir/sudoers"
measure "  doas" "$runs" $(shape 1 1 10000 1) --doas "$dir/doas.conf"
measure "  rar-json" "$runs" $(shape 1 1 10000 1) --rar-json "$dir/rar.json"
measure "  rar-cbor" "$runs" $(shape 1 1 10000 1) --rar-cbor "$dir/rar-cbor.json"
measure "  all four, one run" "$runs" $(shape 1 1 10000 1) $(all_outputs)
echo "  => median $median_ms ms for all four: $(verdict "$median_ms" 50)"
echo

echo "Shape R=10 U=10 T=10000 C=10 (1 000 000 commands, 10 000 000 doas rules);"
echo "target: < 3 s, peak RSS < 1 GiB"
runs=${RUNS:-3}
measure "  sudoers" "$runs" $(shape 10 10 10000 10) --sudoers "$dir/sudoers"
measure "  doas" "$runs" $(shape 10 10 10000 10) --doas "$dir/doas.conf"
measure "  rar-json" "$runs" $(shape 10 10 10000 10) --rar-json "$dir/rar.json"
measure "  rar-cbor" "$runs" $(shape 10 10 10000 10) --rar-cbor "$dir/rar-cbor.json"
measure "  sudoers+rar-json+rar-cbor" "$runs" $(shape 10 10 10000 10) --sudoers "$dir/sudoers" \
	--rar-json "$dir/rar.json" --rar-cbor "$dir/rar-cbor.json"
echo "  => median $median_ms ms, peak RSS $rss_kb KiB without doas: $(verdict "$median_ms" 3000 "$rss_kb" 1048576)"
measure "  all four, one run" "$runs" $(shape 10 10 10000 10) $(all_outputs)
echo "  => median $median_ms ms, peak RSS $rss_kb KiB for all four: $(verdict "$median_ms" 3000 "$rss_kb" 1048576)"
ls -l "$dir" | awk 'NR > 1 { printf "  %-16s %12d bytes\n", $9, $5 }'
