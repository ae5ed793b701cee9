#!/bin/bash
# selfbench/policy_size.sh: times policy_size (confgen/policy_size.h), the exact size of each policy
# file computed without writing it, on the issue's two shapes: R=1 U=1 T=10000 C=1 (10 000
# commands) and R=1 U=1 T=1000000 C=100 (10^8 commands, confgen's limit); target: well under
# 100 ms for the large one, all four formats. Prints ns per call in-process (selfbench/policy_size.c,
# 15 rounds of BATCH calls) and the wall time of `confgen --size` (process start, checks, all four
# formats). A benchmark, not a test. Environment: RUNS (default 11) confgen runs per shape.
# Needs `make` first (build/libconfgen.a, bin/confgen).
set -eu
cd "$(dirname "$0")/.."
confgen=$PWD/bin/confgen
for f in "$confgen" build/libconfgen.a build/libcommon.a; do
	[ -e "$f" ] || { echo "selfbench/policy_size.sh: $f is missing: run make" >&2; exit 2; }
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/rarperf-bench-policy-size.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cc -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -Isrc/common -Iconfgen \
	-o "$dir/policy_size" selfbench/policy_size.c build/libconfgen.a build/libcommon.a \
	$(pkg-config --libs libcjson libcbor 2>/dev/null || echo -lcjson -lcbor)

# confgen_ms R U T C: median wall time of RUNS `confgen --size` runs, all four formats, in ms.
confgen_ms() {
	local i start end times=()
	for ((i = 0; i < ${RUNS:-11}; i++)); do
		start=$(date +%s%N)
		"$confgen" --size --roles "$1" --users "$2" --tasks "$3" --commands "$4" --uid 4242 \
			--sudoers "$dir/sudoers" --doas "$dir/doas.conf" --rar-json "$dir/rar.json" \
			--rar-cbor "$dir/rar-cbor.json" >"$dir/size"
		end=$(date +%s%N)
		times+=($(((end - start) / 1000)))
	done
	mapfile -t sorted < <(printf '%s\n' "${times[@]}" | sort -n)
	local mid=${sorted[$((${#sorted[@]} / 2))]}
	printf '%d.%03d' $((mid / 1000)) $((mid % 1000))
}

echo "policy_size benchmark: $(nproc) cores, $(uname -r)"
for shape in "1 1 10000 1 10000 commands" "1 1 1000000 100 100000000 commands (10^8)"; do
	set -- $shape
	echo
	echo "Shape R=$1 U=$2 T=$3 C=$4: ${*:5}"
	"$dir/policy_size" "$1" "$2" "$3" "$4" 20000
	ms=$(confgen_ms "$1" "$2" "$3" "$4")
	echo "  confgen --size, all four formats, process included: median $ms ms"
	sed 's/^/    /' "$dir/size"
	awk -v v="$ms" 'BEGIN { exit !(v < 100) }' && echo "  => under 100 ms: meets the target" ||
		echo "  => MISSES the 100 ms target"
done
[ -z "$(ls -A "$dir" | grep -v -e '^policy_size$' -e '^size$')" ] && echo && echo "(nothing but the bench's own files was written in $dir)"
