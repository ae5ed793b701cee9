#!/bin/bash
# estimators.sh: which per-point statistic gives the steadiest slope? Runs the seed's sudo sweep
# EST_SWEEPS times with rarbench's fixed procedure (every run kept in the journal), or reads the
# journals of earlier runs given as arguments, then fits, for each sweep, the slope (µs/task, least
# squares over the 14 points) of each statistic -- mean, median, 20 % trimmed mean, minimum --
# with the contended runs (contention.h: off-CPU time more than max(50 us, 1 % of the wall time)
# above the baseline) kept as measured, dropped, or corrected to their CPU time plus the baseline
# off-CPU time, and prints per statistic and treatment the slopes, their mean and their CV.
# doc/precision.md shows a run of it and what was chosen from it.
#   selfbench/estimators.sh                       # EST_SWEEPS fresh sweeps (as root)
#   selfbench/estimators.sh DIR...                # rarbench --manifest output directories
# Knobs: RARPERF_PREFIX (default /opt/rarperf), EST_SWEEPS (default 6), EST_KEEP (a directory to
# keep the sweeps in; default a temporary one).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib/keepdir.sh
prefix=${RARPERF_PREFIX:-/opt/rarperf}
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
	[ "$(id -u)" -eq 0 ] || { echo "estimators: run as root (policies are root's)" >&2; exit 2; }
	[ -x bin/rarbench ] || { echo "estimators: bin/rarbench is missing (make)" >&2; exit 2; }
	if [ -n "${EST_KEEP:-}" ]; then
		# root writes there: made now, or root's along its whole path (R34)
		work=$(keepdir_make EST_KEEP "$EST_KEEP") || exit 2
	else
		work=$(mktemp -d /tmp/rarperf-estimators-XXXXXX)
		trap 'rm -rf "$work"' EXIT
	fi
	user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
	cat >"$work/sweep.json" <<JSON
{"name": "estimators", "subjects": [{"id": "sudo", "format": "sudoers"}],
 "axes": {"nb_tasks": {"logspace": [1, 10000, 15]}}, "bench_user": "$user",
 "warmup": 100, "min_runs": 100, "max_runs": 100, "min_time_s": 0, "rounds": 10}
JSON
	rm -rf "$work/etc"
	cp -a "$prefix/etc" "$work/etc"
	for i in $(seq 1 "${EST_SWEEPS:-6}"); do
		echo "estimators: sweep $i, load $(cut -d' ' -f1 /proc/loadavg)" >&2
		# A private $prefix/etc: another user of the prefix cannot rewrite the policy mid-point.
		unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
			_ "$work/etc" "$prefix/etc" bin/rarbench --manifest "$work/sweep.json" \
			--prefix "$prefix" --out "$work/sweep-$i" --progress none
		dirs+=("$work/sweep-$i")
	done
fi
/usr/bin/python3 - "${dirs[@]}" <<'PYEOF'
import json, sys
import numpy as np

SLACK_NS, SLACK_REL = 50e3, 0.01  # contention.h


def load(d):
    pts = {}
    for i, line in enumerate(open(d + "/journal.jsonl")):
        if i == 0 or not line.strip():
            continue
        o = json.loads(line)
        s = o["subjects"][0]
        t = int(o["point"].split("nb_tasks=")[1].split(",")[0])
        p = pts.setdefault(t, {"w": [], "c": []})
        p["w"] += s["wall_ns"]
        p["c"] += [a + b for a, b in zip(s["user_ns"], s["system_ns"])]
    return {t: {k: np.array(v, float) for k, v in p.items()} for t, p in pts.items()}


def trimmed(x, g=0.2):
    x = np.sort(x)
    k = int(g * len(x))
    return x[k:len(x) - k].mean()


stats = [("mean", np.mean), ("median", np.median), ("trimmed", trimmed), ("min", np.min)]
slopes = {}
for d in sys.argv[1:]:
    pts = load(d)
    xs = sorted(pts)
    off = {t: pts[t]["w"] - pts[t]["c"] for t in xs}
    ref = np.median([off[t].min() for t in xs])  # contention_reference_ns
    for name, fn in stats:
        for treat in ("keep", "drop", "correct"):
            y = []
            for t in xs:
                w, c = pts[t]["w"], pts[t]["c"]
                base = min(off[t].min(), ref)
                contended = off[t] - base > np.maximum(SLACK_NS, SLACK_REL * w)
                if treat == "drop":
                    w = w[~contended] if (~contended).sum() >= 6 else w
                elif treat == "correct":
                    w = np.where(contended, c + base, w)
                y.append(fn(w) / 1e6)
            slopes.setdefault((name, treat), []).append(np.polyfit(xs, y, 1)[0] * 1e3)
print("%d sweeps: %s" % (len(sys.argv) - 1, " ".join(sys.argv[1:])))
print("| statistic | contended runs | slopes (µs/task) | mean | CV |")
print("|---|---|---|---:|---:|")
for (name, treat), s in slopes.items():
    s = np.array(s)
    cv = 100 * s.std(ddof=1) / s.mean() if len(s) > 1 else 0.0
    print("| %s | %s | %s | %.3f | %.1f %% |" % (name, treat, " ".join("%.2f" % v for v in s), s.mean(), cv))
PYEOF
