#!/bin/bash
# repeatability.sh: how steady is the slope of the seed's sudo sweep, and what does it cost?
# Runs the sweep REP_REPEATS times with each of, alternating:
#   precision  rarbench --manifest in precision mode with its default settings ("precision": true:
#              1 % target, the median of every run as measured, contended: keep;
#              doc/precision.md);
#   fixed      rarbench --manifest with the fixed procedure (warmup REP_WARMUP, REP_RUNS runs per
#              point in REP_ROUNDS rounds), its mean-based slope as before;
#   hyperfine  hyperfine -N with the same warmup and runs (--setup running bin/confgen).
# Fits every sweep with bin/rarplot (slope and its 95 % interval: rarbench's estimate for the
# precision mode, the mean for the other two) and prints the slopes, their CV, whether each
# precision sweep's interval holds the other sweeps' slopes, the wall time per sweep, and the
# host's load. Each tool runs in a private mount namespace whose $prefix/etc is a private copy,
# so another user of the prefix (a test rewriting its sudoers) cannot change the policy mid-point.
# Must run as root on a provisioned prefix. Knobs (environment):
#   RARPERF_PREFIX  the prefix (default /opt/rarperf)
#   REP_TASKS_MAX   largest nb_tasks (default 10000, the seed's)
#   REP_POINTS      log-spaced points of the sweep (default 15 -> 14 sizes)
#   REP_WARMUP      the fixed procedure's warmup runs per point (default 100)
#   REP_RUNS        the fixed procedure's timing runs per point, exactly (default 100)
#   REP_ROUNDS      the fixed procedure's rounds (default 10)
#   REP_REPEATS     sweeps per tool (default 3)
#   REP_TOOLS       which tools, in order (default "precision fixed hyperfine")
#   REP_KEEP        a directory to keep the raw results in (default: a temporary one, removed)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib/keepdir.sh
prefix=${RARPERF_PREFIX:-/opt/rarperf}
tasks_max=${REP_TASKS_MAX:-10000}
points=${REP_POINTS:-15}
warmup=${REP_WARMUP:-100}
runs=${REP_RUNS:-100}
rounds=${REP_ROUNDS:-10}
repeats=${REP_REPEATS:-3}
tools=${REP_TOOLS:-precision fixed hyperfine}
rarbench=$PWD/bin/rarbench
rarplot=$PWD/bin/rarplot
confgen=$PWD/bin/confgen

for tool in "$rarbench" "$rarplot" "$confgen" "$prefix/bin/sudo"; do
	[ -x "$tool" ] || { echo "repeatability: $tool is missing (make; make provision)" >&2; exit 2; }
done
for cmd in hyperfine jq unshare; do
	command -v "$cmd" >/dev/null || { echo "repeatability: $cmd is not installed" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "repeatability: run as root (policies are root's)" >&2; exit 2; }
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
uid=$(id -u "$user")
gid=$(id -g "$user")

if [ -n "${REP_KEEP:-}" ]; then
	# root writes there: made now, or root's along its whole path (R34)
	work=$(keepdir_make REP_KEEP "$REP_KEEP") || exit 2
else
	work=$(mktemp -d /tmp/rarperf-repeatability-XXXXXX)
	trap 'rm -rf "$work"' EXIT
fi
rm -rf "$work/etc"
cp -a "$prefix/etc" "$work/etc"

axes="\"axes\": {\"nb_tasks\": {\"logspace\": [1, $tasks_max, $points]}}"
cat >"$work/precision.json" <<JSON
{"name": "repeatability-precision", "description": "the seed's sudo sweep in precision mode, its defaults",
 "subjects": [{"id": "sudo", "format": "sudoers"}], $axes, "bench_user": "$user", "precision": true}
JSON
cat >"$work/fixed.json" <<JSON
{"name": "repeatability-fixed", "description": "the seed's sudo sweep, the fixed procedure",
 "subjects": [{"id": "sudo", "format": "sudoers"}], $axes, "bench_user": "$user",
 "warmup": $warmup, "min_runs": $runs, "max_runs": $runs, "min_time_s": 0,
 "order": "interleaved", "rounds": $rounds}
JSON

# private CMD...: CMD in a mount namespace where $prefix/etc is $work/etc.
private() {
	unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
		_ "$work/etc" "$prefix/etc" "$@"
}
now() { date +%s.%N; }
# fit NAME RESULTS STAT: rarplot's one fit (sudo; setpriv for hyperfine's command line) "slope lo hi" (us/task) into $work/NAME.fit.
fit() {
	"$rarplot" --format none --stat "$3" -o "$work/$1.plot" "$2" >/dev/null 2>"$work/$1.plot.err" ||
		{ cat "$work/$1.plot.err" >&2; exit 1; }
	awk -F'\t' 'NR == 2 {print $8, $13, $14}' "$work/$1.plot/fits.tsv" >"$work/$1.fit"
}

sizes=
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq 1 "$repeats"); do
	for tool in $tools; do
		name=$tool-$i
		t0=$(now)
		case $tool in
		precision | fixed)
			private "$rarbench" --manifest "$work/$tool.json" --prefix "$prefix" \
				--out "$work/$name" --progress none 2>"$work/$name.err" ||
				{ cat "$work/$name.err" >&2; exit 1; }
			[ -n "$sizes" ] || sizes=$(jq -r '[.results[].parameters.nb_tasks] | join(",")' \
				"$work/$name/results.json")
			;;
		hyperfine)
			[ -n "$sizes" ] || { echo "repeatability: hyperfine takes its sizes from a rarbench sweep: put precision or fixed first in REP_TOOLS" >&2; exit 2; }
			# hyperfine runs as root so its --setup can write the root-owned sudoers; the
			# measured command drops to the bench user with setpriv (one extra exec per run).
			private hyperfine -N --style none --warmup "$warmup" --runs "$runs" -L nb_tasks "$sizes" \
				--setup "$confgen --uid $uid --tasks {nb_tasks} --sudoers $prefix/etc/sudoers" \
				--export-json "$work/$name.json" \
				"setpriv --reuid=$uid --regid=$gid --init-groups $prefix/bin/sudo -n /usr/bin/true" \
				>/dev/null 2>"$work/$name.err" || { cat "$work/$name.err" >&2; exit 1; }
			;;
		*)
			echo "repeatability: unknown tool $tool in REP_TOOLS" >&2
			exit 2
			;;
		esac
		t1=$(now)
		awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f\n", b - a}' >"$work/$name.wall"
		case $tool in
		precision) fit "$name" "$work/$name/results.json" estimate ;;
		fixed) fit "$name" "$work/$name/results.json" mean ;;
		hyperfine) fit "$name" "$work/$name.json" mean ;;
		esac
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# stats TOOL: "mean sd cv% wall_mean contained" over the tool's sweeps.
stats() {
	for i in $(seq 1 "$repeats"); do echo "$(cat "$work/$1-$i.fit") $(cat "$work/$1-$i.wall")"; done |
		awk '{b[NR] = $1; lo[NR] = $2; hi[NR] = $3; w += $4; s += $1}
		END {m = s / NR; for (i = 1; i <= NR; i++) v += (b[i] - m) ^ 2
			sd = NR > 1 ? sqrt(v / (NR - 1)) : 0; ok = 1
			for (i = 1; i <= NR; i++) for (j = 1; j <= NR; j++) if (b[j] < lo[i] || b[j] > hi[i]) ok = 0
			printf "%.4f %.4f %.2f %.1f %s\n", m, sd, 100 * sd / (m < 0 ? -m : m), w / NR, ok ? "yes" : "no"}'
}

echo "sudo sweep: nb_tasks $sizes; $repeats sweeps per tool, alternating ($tools)"
echo "precision: rarbench's precision mode, default settings ($(jq -c '.results[0].rarbench | {estimator, precision}' "$work/precision-1/results.json" 2>/dev/null || echo '?'), slope of its estimate"
echo "fixed: rarbench, warmup $warmup, $runs runs per point in $rounds rounds; hyperfine: warmup $warmup, $runs runs; both mean-based"
echo "load average before: $load_before, after: $load_after ($(nproc) CPUs)"
printf '%-10s %-58s %-9s %-7s %-9s %s\n' tool "slopes µs/task [95 % interval]" mean CV "wall/sweep" "each CI holds the others"
declare -A cv wall held
for tool in $tools; do
	list=
	for i in $(seq 1 "$repeats"); do
		list="$list$(awk '{printf "%.3f [%.3f, %.3f] ", $1, $2, $3}' "$work/$tool-$i.fit")"
	done
	read -r m _ c w ok <<<"$(stats "$tool")"
	cv[$tool]=$c wall[$tool]=$w held[$tool]=$ok
	printf '%-10s %-58s %-9s %-7s %-9s %s\n' "$tool" "$list" "$m" "$c%" "${w}s" "$ok"
done
if [ -f "$work/precision-1/results.json" ]; then
	for i in $(seq 1 "$repeats"); do
		jq -r --arg i "$i" '[.results[].rarbench] | "precision sweep \($i): \(map(select(.precision_met)) | length)/\(length) points met the target; \(map(.contended_runs) | add) of \(map(.runs_used + .contended_runs) | add) runs contended (\(.[0].contended_treatment)), \(map(.remeasured) | add) steps measured again (\(map(.discarded_runs) | add) runs thrown away); highest load \(map(.load1) | max)"' \
			"$work/precision-$i/results.json"
	done
fi
if [ -n "${cv[precision]:-}" ]; then
	awk -v c="${cv[precision]}" 'BEGIN {printf "goal: precision slope CV <= 1 %%: %s (%.2f %%)\n", c <= 1 ? "met" : "NOT met", c}'
	echo "goal: each precision sweep's 95 % interval holds the other sweeps' slopes: ${held[precision]}"
	if [ -n "${wall[fixed]:-}" ]; then
		awk -v a="${wall[precision]}" -v b="${wall[fixed]}" 'BEGIN {printf "goal: precision wall per sweep <= the fixed procedure'"'"'s: %s (%.1f s vs %.1f s)\n", a <= b ? "met" : "NOT met", a, b}'
	fi
	if [ -n "${cv[hyperfine]:-}" ]; then
		awk -v a="${cv[precision]}" -v b="${cv[hyperfine]}" 'BEGIN {printf "hyperfine CV %.2f %% in the same run (precision / hyperfine = %.2f)\n", b, (b > 0 ? a / b : 0)}'
	fi
fi
