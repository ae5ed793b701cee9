#!/bin/bash
# comparison.sh: how steady is a comparison (CBOR/sudo slope and intercept ratios) across sweeps,
# do its intervals hold the other sweeps' values, and what does a sweep cost?
# Runs CMP_REPEATS sweeps of seed-tasks' sudo and RootAsRole 3.3.4 CBOR (sr-cbor) with each of,
# alternating:
#   precision  rarbench --manifest, precision mode at its defaults ("precision": true);
#   fixed      rarbench --manifest, the fixed procedure (warmup 100, 100 runs in 10 rounds);
#   ratio      precision mode aimed at the comparison ("precision_baseline": "sudo": each point
#              until sr-cbor's paired ratio to sudo there is known to 1 %).
# Each sweep is compared with `rarplot --compare sudo:sr-cbor` (paired: bootstrap over rounds)
# and its unpaired figure (two independent fits, delta method). Prints, per tool and method, the
# ratios with their 95 % intervals, their CV across sweeps, how many (sweep, other sweep) pairs
# have the other's value inside the interval (coverage), the wall time per sweep and the load.
# Every sweep runs in a private mount namespace whose $prefix/etc is a private copy, and waits
# for the prefix's lock (--wait). Must run as root on a provisioned prefix. Knobs (environment):
#   RARPERF_PREFIX  the prefix (default /opt/rarperf)
#   CMP_REPEATS     sweeps per tool (default 3)
#   CMP_TOOLS       which tools, in order (default "precision fixed")
#   CMP_TASKS_MAX   largest nb_tasks (default 10000)
#   CMP_KEEP        keep the raw results in this directory (default: a temporary one, removed)
#   CMP_EXTRA       extra manifest keys for the precision sweeps, e.g. '"precision": 0.005' or
#                   '"reference": true' (the calibration workload, doc/precision.md)
#   CMP_FIXED_EXTRA extra manifest keys for the fixed procedure's sweeps
#   CMP_ANALYSE     1: measure nothing, analyse the sweeps already in CMP_KEEP
# Then the coverage of the intervals for the next sweep (rarplot --compare --between): for each
# ordered pair (sweep i, other sweep j) of one tool, the between-sweep variation is measured on
# every sweep (all tools) but i and j, sweep i's paired intervals are widened with it, and the
# pair counts as held when j's ratio lies inside ("leave two out": the variation never sees the
# two sweeps it is tested on).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib/keepdir.sh
prefix=${RARPERF_PREFIX:-/opt/rarperf}
repeats=${CMP_REPEATS:-3}
tools=${CMP_TOOLS:-precision fixed}
tasks_max=${CMP_TASKS_MAX:-10000}
rarbench=$PWD/bin/rarbench
rarplot=$PWD/bin/rarplot

for tool in "$rarbench" "$rarplot" "$prefix/bin/sudo" "$prefix/bin/dosr-cbor"; do
	[ -x "$tool" ] || { echo "comparison: $tool is missing (make; make provision)" >&2; exit 2; }
done
for cmd in jq unshare; do
	command -v "$cmd" >/dev/null || { echo "comparison: $cmd is not installed" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "comparison: run as root (policies are root's)" >&2; exit 2; }
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")

if [ -n "${CMP_KEEP:-}" ]; then
	# root writes there: made now, or root's along its whole path (R34)
	work=$(keepdir_make CMP_KEEP "$CMP_KEEP") || exit 2
elif [ "${CMP_ANALYSE:-0}" = 1 ]; then
	echo "comparison: CMP_ANALYSE=1 needs CMP_KEEP" >&2
	exit 2
else
	work=$(mktemp -d /tmp/rarperf-comparison-XXXXXX)
	trap 'rm -rf "$work"' EXIT
fi
if [ "${CMP_ANALYSE:-0}" != 1 ]; then
rm -rf "$work/etc"
cp -a "$prefix/etc" "$work/etc"

common="\"subjects\": [{\"id\": \"sudo\", \"format\": \"sudoers\"},
  {\"id\": \"sr-cbor\", \"format\": \"rar-cbor\", \"program\": \"{prefix}/bin/dosr-cbor\"}],
 \"axes\": {\"nb_tasks\": {\"logspace\": [1, $tasks_max, 15]}}, \"bench_user\": \"$user\""
cat >"$work/precision.json" <<JSON
{"name": "comparison-precision", "description": "seed-tasks, sudo and CBOR, precision mode",
 $common, "precision": true${CMP_EXTRA:+, $CMP_EXTRA}}
JSON
cat >"$work/ratio.json" <<JSON
{"name": "comparison-ratio", "description": "seed-tasks, sudo and CBOR, precision on the ratio",
 $common, "precision": true, "precision_baseline": "sudo"${CMP_EXTRA:+, $CMP_EXTRA}}
JSON
cat >"$work/fixed.json" <<JSON
{"name": "comparison-fixed", "description": "seed-tasks, sudo and CBOR, the fixed procedure",
 $common, "warmup": 100, "min_runs": 100, "max_runs": 100, "min_time_s": 0,
 "order": "interleaved", "rounds": 10${CMP_FIXED_EXTRA:+, $CMP_FIXED_EXTRA}}
JSON

private() {
	unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
		_ "$work/etc" "$prefix/etc" "$@"
}
now() { date +%s.%N; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "$load_before" >"$work/load_before"
for i in $(seq 1 "$repeats"); do
	for tool in $tools; do
		name=$tool-$i
		t0=$(now)
		private "$rarbench" --manifest "$work/$tool.json" --prefix "$prefix" --wait \
			--out "$work/$name" --progress none 2>"$work/$name.err" ||
			{ cat "$work/$name.err" >&2; exit 1; }
		t1=$(now)
		# The sweep's own time: from its journal's creation (after the prefix's lock was taken)
		# to its results; the time waiting for the lock behind other users is not the sweep's.
		awk -v a="$(stat -c %.3W "$work/$name/journal.jsonl")" \
			-v b="$(stat -c %.3Y "$work/$name/results.json")" -v c="$t0" -v d="$t1" \
			'BEGIN {printf "%.1f %.1f\n", (a > 0 ? b - a : d - c), d - c}' >"$work/$name.wall"
		rc=0
		"$rarplot" --compare sudo:sr-cbor -o "$work/$name.cmp" "$work/$name/results.json" \
			>"$work/$name.cmp.md" 2>"$work/$name.cmp.err" || rc=$?
		[ "$rc" -le 1 ] || [ "$rc" -eq 3 ] || { cat "$work/$name.cmp.err" >&2; exit 1; }
		echo "$(cut -d' ' -f1 /proc/loadavg)" >"$work/$name.load"
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "$load_after" >"$work/load_after"
fi
load_before=$(cat "$work/load_before")
load_after=$(cat "$work/load_after")

# row TOOL METHOD QUANTITY: "v lo hi" per sweep, one line each.
rows() {
	for i in $(seq 1 "$repeats"); do
		awk -F'\t' -v q="$3" -v m="$2" '$1 == q && $2 == m {print $3, $4, $5}' \
			"$work/$1-$i.cmp/comparison.tsv"
	done
}
# summary: "list mean cv% held/pairs" from rows on stdin.
summary() {
	awk '{v[NR] = $1; lo[NR] = $2; hi[NR] = $3; s += $1
		list = list sprintf("%.4f [%.4f, %.4f] ", $1, $2, $3)}
	END {m = s / NR; for (i = 1; i <= NR; i++) d += (v[i] - m) ^ 2
		sd = NR > 1 ? sqrt(d / (NR - 1)) : 0; held = 0; pairs = 0
		for (i = 1; i <= NR; i++) for (j = 1; j <= NR; j++) if (i != j) {
			pairs++; if (v[j] >= lo[i] && v[j] <= hi[i]) held++ }
		printf "%s|%.4f|%.2f|%d/%d\n", list, m, 100 * sd / m, held, pairs}'
}

echo "sudo vs RootAsRole 3.3.4 CBOR (sr-cbor), nb_tasks 1..$tasks_max (14 sizes); $repeats sweeps per tool, alternating ($tools)"
echo "load average before: $load_before, after: $load_after ($(nproc) CPUs)"
printf '%-10s %-9s %-10s %-80s %-8s %-7s %s\n' tool method ratio "values [95 % interval]" mean CV "others held"
for tool in $tools; do
	for method in paired unpaired; do
		for q in slope intercept; do
			IFS='|' read -r list m cv held <<<"$(rows "$tool" "$method" "$q" | summary)"
			printf '%-10s %-9s %-10s %-80s %-8s %-7s %s\n' "$tool" "$method" "$q" "$list" "$m" "$cv%" "$held"
		done
	done
	walls=$(for i in $(seq 1 "$repeats"); do cut -d' ' -f1 "$work/$tool-$i.wall"; done | tr '\n' ' ')
	loads=$(for i in $(seq 1 "$repeats"); do cat "$work/$tool-$i.load"; done | tr '\n' ' ')
	echo "$tool: wall per sweep (s, from the lock taken to the results): $walls; load at the end of each: $loads"
done
for i in $(seq 1 "$repeats"); do
	for tool in precision ratio; do
	[ -f "$work/$tool-$i/results.json" ] || continue
	jq -r --arg i "$i" --arg t "$tool" '[.results[].rarbench] | "\($t) sweep \($i): \(map(.rounds) | add) steps; \(map(select(.precision_met)) | length)/\(length) results met the target; \(map(.contended_runs) | add) of \(map(.runs_used + .contended_runs) | add) runs contended; highest load \(map(.load1) | max)"' \
		"$work/$tool-$i/results.json"
	done
done

# Coverage of the next-sweep intervals (leave two out, above).
all=()
for tool in $tools; do
	for i in $(seq 1 "$repeats"); do all+=("$tool-$i"); done
done
echo
echo "intervals for the next sweep (--between, leave two out over ${#all[@]} sweeps): sweep i's widened interval holds sweep j's ratio"
printf '%-10s %-10s %-70s %s\n' tool ratio "values [95 % interval for the next sweep], one per (i, j)" held
for tool in $tools; do
	for q in slope intercept; do
		held=0 pairs=0 list=""
		for i in $(seq 1 "$repeats"); do
			for j in $(seq 1 "$repeats"); do
				[ "$i" != "$j" ] || continue
				rest=()
				for s in "${all[@]}"; do
					[ "$s" = "$tool-$i" ] || [ "$s" = "$tool-$j" ] || rest+=("$work/$s/results.json")
				done
				bdir=$work/between-$tool-$i-$j
				if [ ! -f "$bdir/between.tsv" ]; then
					"$rarplot" --compare sudo:sr-cbor -o "$bdir" "${rest[@]}" >/dev/null 2>&1 ||
						[ -f "$bdir/between.tsv" ] || { echo "comparison: between for $tool $i $j failed" >&2; exit 1; }
				fi
				wdir=$work/$tool-$i-w$j.cmp
				rc=0
				"$rarplot" --compare sudo:sr-cbor --between "$bdir/between.tsv" -o "$wdir" \
					"$work/$tool-$i/results.json" >/dev/null 2>&1 || rc=$?
				[ "$rc" -le 1 ] || [ "$rc" -eq 3 ] || { echo "comparison: --between on $tool-$i failed" >&2; exit 1; }
				read -r lo hi < <(awk -F'\t' -v q="$q" '$1 == q && $2 == "paired" {print $4, $5}' "$wdir/comparison.tsv")
				v=$(awk -F'\t' -v q="$q" '$1 == q && $2 == "paired" {print $3}' "$work/$tool-$j.cmp/comparison.tsv")
				pairs=$((pairs + 1))
				if awk -v v="$v" -v lo="$lo" -v hi="$hi" 'BEGIN {exit !(v >= lo && v <= hi)}'; then
					held=$((held + 1))
				fi
				list="$list$(printf '[%.4f, %.4f] ' "$lo" "$hi")"
			done
		done
		printf '%-10s %-10s %-70s %s\n' "$tool" "$q" "$list" "$held/$pairs"
	done
done
