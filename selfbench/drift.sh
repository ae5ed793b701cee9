#!/bin/bash
# drift.sh: do paired ratios drift from sweep to sweep? Runs DRIFT_SWEEPS back-to-back sweeps of
# experiments/seed-tasks.json restricted to sudo and RootAsRole 3.3.4 CBOR (sr-cbor), smaller
# (DRIFT_POINTS log-spaced sizes up to DRIFT_TASKS_MAX, DRIFT_RUNS runs in 10 rounds, no profile,
# no reference; the estimate is rarbench's default), or reads earlier output directories; then
# `rarplot --compare sudo:sr-cbor` on each sweep and prints every sweep's paired slope and
# intercept ratios, their CV (and the CV their own intervals predict when nothing drifts), and
# their trend (least-squares change per sweep, and whether the ratios fall or rise
# monotonically), with the host's load at each sweep's start and the hypervisor's steal during it.
#   selfbench/drift.sh                 # fresh sweeps (as root)
#   selfbench/drift.sh DIR...          # rarbench --manifest output directories
# Knobs: RARPERF_PREFIX (default /opt/rarperf), DRIFT_SWEEPS (4), DRIFT_TASKS_MAX (10000),
# DRIFT_POINTS (8), DRIFT_RUNS (300: about 47 s a sweep), DRIFT_CONTENDED (the manifest's
# "contended": keep, the default, or correct), DRIFT_ESTIMATOR (the manifest's "estimator": median,
# the default, or cpu-median), DRIFT_KEEP (a directory to keep the sweeps in).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib/keepdir.sh
prefix=${RARPERF_PREFIX:-/opt/rarperf}
dirs=("$@")
loads=()
if [ ${#dirs[@]} -eq 0 ]; then
	[ "$(id -u)" -eq 0 ] || { echo "drift: run as root (policies are root's)" >&2; exit 2; }
	[ -x bin/rarbench ] && [ -x bin/rarplot ] || { echo "drift: make first" >&2; exit 2; }
	if [ -n "${DRIFT_KEEP:-}" ]; then
		# root writes there: made now, or root's along its whole path (R34)
		work=$(keepdir_make DRIFT_KEEP "$DRIFT_KEEP") || exit 2
	else
		work=$(mktemp -d /tmp/rarperf-drift-XXXXXX)
		trap 'rm -rf "$work"' EXIT
	fi
	user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
	jq --argjson max "${DRIFT_TASKS_MAX:-10000}" --argjson p "${DRIFT_POINTS:-8}" \
		--argjson n "${DRIFT_RUNS:-300}" --arg u "$user" --arg c "${DRIFT_CONTENDED:-keep}" \
		--arg e "${DRIFT_ESTIMATOR:-median}" '
	  .name = "drift" | .description = "selfbench/drift.sh: seed-tasks, sudo and sr-cbor"
	  | .subjects = [.subjects[] | select(.id == "sudo" or .id == "sr-cbor")]
	  | .axes.nb_tasks = {logspace: [1, $max, $p]} | .bench_user = $u
	  | .warmup = 20 | .min_runs = $n | .max_runs = $n | .min_time_s = 0
	  | .profile = false | .reference = false | .contended = $c | .estimator = $e' \
		experiments/seed-tasks.json >"$work/sweep.json"
	rm -rf "$work/etc"
	cp -a "$prefix/etc" "$work/etc"
	for i in $(seq 1 "${DRIFT_SWEEPS:-4}"); do
		load=$(cut -d' ' -f1 /proc/loadavg)
		loads+=("$load")
		echo "drift: sweep $i, load $load" >&2
		rm -rf "$work/sweep-$i"
		# A private $prefix/etc: another user of the prefix cannot rewrite a policy mid-point.
		unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
			_ "$work/etc" "$prefix/etc" bin/rarbench --manifest "$work/sweep.json" \
			--prefix "$prefix" --out "$work/sweep-$i" --progress none --wait \
			>"$work/sweep-$i.log" 2>&1 ||
			{ echo "drift: sweep $i failed:" >&2; tail -5 "$work/sweep-$i.log" >&2; exit 1; }
		dirs+=("$work/sweep-$i")
	done
fi
for d in "${dirs[@]}"; do
	# Exit 1 is "something regressed", 3 "inconclusive": verdicts, not failures.
	rc=0
	bin/rarplot --compare sudo:sr-cbor -o "$d/compare" "$d/results.json" >/dev/null 2>"$d/compare.err" || rc=$?
	[ "$rc" -le 1 ] || [ "$rc" -eq 3 ] || { echo "drift: rarplot --compare on $d failed:" >&2; cat "$d/compare.err" >&2; exit 1; }
done
/usr/bin/python3 - "${loads[*]:-}" "${dirs[@]}" <<'PYEOF'
import json, statistics, sys

loads = sys.argv[1].split()
rows = []
steals = []
for d in sys.argv[2:]:
    # The hypervisor's steal while the sweep ran: the mean of its points' shares (each point's
    # rarbench.steal: the CPU time /proc/stat says the host gave to others).
    pts = [r.get("rarbench", {}).get("steal") for r in json.load(open(d + "/results.json"))["results"]]
    pts = [x for x in pts if isinstance(x, (int, float))]
    steals.append(100 * statistics.mean(pts) if pts else float("nan"))
    q = {}
    for line in open(d + "/compare/comparison.tsv"):
        f = line.rstrip("\n").split("\t")
        if f[1] in ("paired", "unpaired") and f[0] in ("intercept", "slope") and f[0] not in q:
            q[f[0]] = (float(f[2]), float(f[3]), float(f[4]), f[1])
    rows.append((d, q))
print("| sweep | load at start | steal | intercept ratio [95 %] | slope ratio [95 %] |")
print("|---|---:|---:|---|---|")
for i, (d, q) in enumerate(rows):
    cell = lambda k: "%.4f [%.4f, %.4f]%s" % (q[k][0], q[k][1], q[k][2],
                                             "" if q[k][3] == "paired" else " unpaired")
    print("| %d %s | %s | %.2f %% | %s | %s |" % (i + 1, d, loads[i] if i < len(loads) else "-",
                                                  steals[i], cell("intercept"), cell("slope")))
for k in ("intercept", "slope"):
    v = [q[k][0] for _, q in rows]
    if len(v) < 2:
        continue
    m = statistics.mean(v)
    cv = 100 * statistics.stdev(v) / m
    xs = list(range(len(v)))
    xm = statistics.mean(xs)
    b = sum((x - xm) * (y - m) for x, y in zip(xs, v)) / sum((x - xm) ** 2 for x in xs)
    d = [v[i + 1] - v[i] for i in range(len(v) - 1)]
    mono = "falling monotonically" if all(x < 0 for x in d) else \
        "rising monotonically" if all(x > 0 for x in d) else "not monotonic"
    held = sum(1 for _, q in rows for _, r in rows if r is not q and q[k][1] <= r[k][0] <= q[k][2])
    # The CV the sweeps' own intervals predict if nothing drifted: each interval's half-width
    # over 1.96, relative to its ratio, averaged. An observed CV near it is sampling noise.
    noise = statistics.mean((q[k][2] - q[k][1]) / (2 * 1.96) / q[k][0] for _, q in rows)
    print("%s ratio over %d sweeps: mean %.4f, CV %.2f %% (the intervals alone predict %.2f %%), "
          "trend %+.2f %% per sweep (%s); %d of %d other sweeps' ratios inside a sweep's own interval"
          % (k, len(v), m, cv, 100 * noise, 100 * b / m, mono, held, len(v) * (len(v) - 1)))
PYEOF
