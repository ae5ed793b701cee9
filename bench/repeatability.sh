#!/bin/bash
# repeatability.sh: runs the seed's sudo sweep REP_REPEATS times with rarbench --manifest and as
# many times with hyperfine (same sizes, --setup running bin/confgen), alternating the two, fits
# the slope of the mean time over nb_tasks by least squares for each run, and prints the
# coefficient of variation of the slope and the wall time of each tool.
# Must run as root on a provisioned prefix. Knobs (environment):
#   RARPERF_PREFIX  the prefix (default /opt/rarperf)
#   REP_TASKS_MAX   largest nb_tasks (default 10000, the seed's)
#   REP_POINTS      log-spaced points of the sweep (default 15 -> 14 sizes)
#   REP_WARMUP      warmup runs per point (default 100)
#   REP_RUNS        timing runs per point, exactly (default 100)
#   REP_REPEATS     sweeps per tool (default 3)
#   REP_ROUNDS      rarbench's rounds: passes over the shuffled sweep, each with 1/rounds of the
#                   warmup and runs (default 10; 1 measures each point once, in order, like hyperfine)
#   REP_KEEP        a directory to keep the raw results in (default: a temporary one, removed)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${RARPERF_PREFIX:-/opt/rarperf}
tasks_max=${REP_TASKS_MAX:-10000}
points=${REP_POINTS:-15}
warmup=${REP_WARMUP:-100}
runs=${REP_RUNS:-100}
repeats=${REP_REPEATS:-3}
rounds=${REP_ROUNDS:-10}
rarbench=$PWD/bin/rarbench
confgen=$PWD/bin/confgen

for tool in "$rarbench" "$confgen" "$prefix/bin/sudo"; do
	[ -x "$tool" ] || { echo "repeatability: $tool is missing (make; make provision)" >&2; exit 2; }
done
command -v hyperfine >/dev/null || { echo "repeatability: hyperfine is not installed" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "repeatability: run as root (policies are root's)" >&2; exit 2; }
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
uid=$(id -u "$user")
gid=$(id -g "$user")

if [ -n "${REP_KEEP:-}" ]; then
	work=$REP_KEEP
	mkdir -p "$work"
else
	work=$(mktemp -d /tmp/rarperf-repeatability-XXXXXX)
	trap 'rm -rf "$work"' EXIT
fi

cat >"$work/sweep.json" <<JSON
{"name": "repeatability", "description": "the seed's sudo sweep, for bench/repeatability.sh",
 "subjects": [{"id": "sudo", "format": "sudoers"}],
 "axes": {"nb_tasks": {"logspace": [1, $tasks_max, $points]}},
 "bench_user": "$user", "warmup": $warmup, "min_runs": $runs, "max_runs": $runs,
 "min_time_s": 0, "order": "interleaved", "rounds": $rounds}
JSON

# slope FILE JQ_FILTER: least-squares slope (s per task) of "nb_tasks mean" lines.
slope() {
	jq -r "$2" "$1" | awk '{n++; sx+=$1; sy+=$2; sxx+=$1*$1; sxy+=$1*$2}
		END {printf "%.6e\n", (n*sxy - sx*sy) / (n*sxx - sx*sx)}'
}
now() { date +%s.%N; }

rb_slopes=() hf_slopes=() rb_wall=0 hf_wall=0
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq 1 "$repeats"); do
	t0=$(now)
	"$rarbench" --manifest "$work/sweep.json" --prefix "$prefix" --out "$work/rarbench-$i" \
		--progress none 2>"$work/rarbench-$i.err" || { cat "$work/rarbench-$i.err" >&2; exit 1; }
	t1=$(now)
	rb_wall=$(awk -v a="$rb_wall" -v b="$t0" -v c="$t1" 'BEGIN {print a + c - b}')
	rb_slopes+=("$(slope "$work/rarbench-$i/results.json" \
		'.results[] | "\(.parameters.nb_tasks) \(.mean)"')")
	if [ "$i" -eq 1 ]; then
		sizes=$(jq -r '[.results[].parameters.nb_tasks] | join(",")' "$work/rarbench-1/results.json")
	fi
	# hyperfine runs as root so its --setup can write the root-owned sudoers; the measured
	# command drops to the bench user with setpriv (one extra exec per run, a constant offset).
	t0=$(now)
	hyperfine -N --style none --warmup "$warmup" --runs "$runs" -L nb_tasks "$sizes" \
		--setup "$confgen --uid $uid --tasks {nb_tasks} --sudoers $prefix/etc/sudoers" \
		--export-json "$work/hyperfine-$i.json" \
		"setpriv --reuid=$uid --regid=$gid --init-groups $prefix/bin/sudo -n /usr/bin/true" \
		>/dev/null 2>"$work/hyperfine-$i.err" || { cat "$work/hyperfine-$i.err" >&2; exit 1; }
	t1=$(now)
	hf_wall=$(awk -v a="$hf_wall" -v b="$t0" -v c="$t1" 'BEGIN {print a + c - b}')
	hf_slopes+=("$(slope "$work/hyperfine-$i.json" \
		'.results[] | "\(.parameters.nb_tasks) \(.mean)"')")
done

# cv SLOPE...: "mean stddev cv%" (sample standard deviation).
cv() {
	printf '%s\n' "$@" | awk '{x[NR]=$1; s+=$1} END {m=s/NR; for (i in x) v+=(x[i]-m)^2;
		sd = NR > 1 ? sqrt(v/(NR-1)) : 0; printf "%.4e %.4e %.2f\n", m, sd, 100*sd/(m<0?-m:m)}'
}
read -r rb_mean rb_sd rb_cv <<<"$(cv "${rb_slopes[@]}")"
read -r hf_mean hf_sd hf_cv <<<"$(cv "${hf_slopes[@]}")"
echo "sudo sweep: nb_tasks $sizes; warmup $warmup, $runs runs per point; $repeats sweeps per tool;"
echo "rarbench in $rounds rounds; load average before: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-10s %-44s %-12s %-8s %s\n' tool "slopes (s/task)" "mean" "CV" "wall"
printf '%-10s %-44s %-12s %-8s %.1fs\n' rarbench "${rb_slopes[*]}" "$rb_mean" "$rb_cv%" "$rb_wall"
printf '%-10s %-44s %-12s %-8s %.1fs\n' hyperfine "${hf_slopes[*]}" "$hf_mean" "$hf_cv%" "$hf_wall"
awk -v a="$rb_cv" -v b="$hf_cv" 'BEGIN {printf "rarbench CV / hyperfine CV = %.2f (goal <= 0.5)\n", (b > 0 ? a / b : 0)}'
