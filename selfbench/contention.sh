#!/bin/bash
# contention.sh: is rarbench's contention classifier, and the correction built on it, neutral
# between the tools? Measures every subject (sudo, doas, sudo-rs, RootAsRole 3.3.4 JSON and CBOR,
# 4.0.3 JSON and CBOR when the prefix has them) at CONT_TASKS tasks, interleaved, CONT_RUNS runs in
# 10 rounds, twice: as the host is ("quiet"), then with one CPU hog per core (busy loops pinned with
# taskset, started here and stopped here, bounded by `timeout`). From the journals' raw runs
# (wall, user and system time, ru_nivcsw, the CPU stall) it prints per subject and condition:
#   flagged   the share of runs contention.h calls contended: with the CPU stall (PSI, the
#             journal's "stall_ns": the time the run shared the CPUs with other work, psi.h)
#             more than max(200 us, 1 % of the wall time); without it (a host without PSI, an older journal) an
#             off-CPU time more than max(50 us, 1 %) above the subject's best run;
#   preempted the share that lost at least 50 us (stall >= 50 us), or without the stall the share with
#             ru_nivcsw > 0 that also lost the slack (contention_preempted);
#   raw       the median wall time and its 95 % interval (estimate.h's order statistics);
#   corrected the median with contended runs counted as wall - stall (without the stall: CPU
#             time + baseline) (contended: correct);
#   CPU time  the median user + system time (wait4's rusage of the run and what it reaped),
#             a candidate that no wait moves;
#   delayed   (loaded) the share of runs off the CPU by more than the stall rule's limit, whatever
#             held them, and of those the share flagged (the classifier's recall), and the runs
#             flagged that were not delayed (none should be);
# and per estimator the shift loaded/quiet - 1 of every subject: a neutral estimator moves every
# subject alike (doc/precision.md, "Is the estimator neutral?").
#   selfbench/contention.sh                  # both sweeps (as root), then the table
#   selfbench/contention.sh QUIET LOADED     # two earlier rarbench --manifest output directories
# Knobs: RARPERF_PREFIX (default /opt/rarperf), CONT_TASKS (default 1), CONT_RUNS (default 200),
# CONT_HOG_S (the hogs' bound, default 600 s; they are stopped as soon as the sweep ends),
# CONT_KEEP (a directory to keep the sweeps in; default a temporary one), CONT_SUBJECTS (ids to
# keep of: sudo doas sudo-rs sr-json sr-cbor sr-json-4.0.3 sr-cbor-4.0.3; default all).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib/keepdir.sh
prefix=${RARPERF_PREFIX:-/opt/rarperf}
tasks=${CONT_TASKS:-1}
runs=${CONT_RUNS:-200}
hog_s=${CONT_HOG_S:-600}
hogs=()

stop_hogs() {
	for p in "${hogs[@]}"; do
		kill "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	hogs=()
}

if [ $# -eq 2 ]; then
	quiet=$1
	loaded=$2
elif [ $# -eq 0 ]; then
	[ "$(id -u)" -eq 0 ] || { echo "contention: run as root (policies are root's)" >&2; exit 2; }
	[ -x bin/rarbench ] || { echo "contention: bin/rarbench is missing (make)" >&2; exit 2; }
	[ -f "$prefix/facts.json" ] || { echo "contention: $prefix is not provisioned" >&2; exit 2; }
	for cmd in jq taskset timeout unshare; do
		command -v "$cmd" >/dev/null || { echo "contention: $cmd is not installed" >&2; exit 2; }
	done
	if [ -n "${CONT_KEEP:-}" ]; then
		# root writes there: made now, or root's along its whole path (R34)
		work=$(keepdir_make CONT_KEEP "$CONT_KEEP") || exit 2
		trap 'stop_hogs' EXIT
	else
		work=$(mktemp -d /tmp/rarperf-contention-XXXXXX)
		trap 'stop_hogs; rm -rf "$work"' EXIT
	fi
	trap 'exit 130' INT TERM
	user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
	keep=${CONT_SUBJECTS:-sudo doas sudo-rs sr-json sr-cbor sr-json-4.0.3 sr-cbor-4.0.3}
	# The subjects as experiments/quick.json defines them; the 4.0.3 builds when installed.
	jq --argjson t "$tasks" --argjson n "$runs" --arg u "$user" --arg keep "$keep" '
	  ($keep | split(" ")) as $k
	  | {name: "contention", description: "selfbench/contention.sh",
	     subjects: ([.subjects[] | select(.id as $i | $k | index($i))]
	                + (if ($k | index("sr-json-4.0.3")) then
	                     [{id: "sr-json-4.0.3", format: "rar-json", rar_version: "4.0.3",
	                       optional: true}] else [] end)
	                ),
	     axes: {nb_roles: [1], nb_users: [1], nb_tasks: [$t], nb_commands: [1]},
	     command: "/usr/bin/true", bench_user: $u, warmup: 20, min_runs: $n, max_runs: $n,
	     min_time_s: 0, order: "interleaved", rounds: 10, seed: 1, contended: "keep",
	     contention_limit: 1, remeasure: 0, profile: false}' \
		experiments/quick.json >"$work/sweep.json"
	rm -rf "$work/etc"
	cp -a "$prefix/etc" "$work/etc"
	sweep() { # $1: output directory
		# A private $prefix/etc: another user of the prefix cannot rewrite a policy mid-point.
		unshare -m --propagation private sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' \
			_ "$work/etc" "$prefix/etc" bin/rarbench --manifest "$work/sweep.json" \
			--prefix "$prefix" --out "$1" --progress none --wait >"$1.log" 2>&1 ||
			{ echo "contention: the sweep into $1 failed:" >&2; tail -5 "$1.log" >&2; exit 1; }
	}
	rm -rf "$work/quiet" "$work/loaded"
	echo "contention: quiet sweep, load $(cut -d' ' -f1 /proc/loadavg)" >&2
	sweep "$work/quiet"
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		timeout "$hog_s" taskset -c "$cpu" sh -c 'while :; do :; done' &
		hogs+=($!)
	done
	sleep 2
	echo "contention: loaded sweep, ${#hogs[@]} hogs, load $(cut -d' ' -f1 /proc/loadavg)" >&2
	sweep "$work/loaded"
	stop_hogs
	quiet=$work/quiet
	loaded=$work/loaded
else
	echo "usage: selfbench/contention.sh [QUIET_DIR LOADED_DIR]" >&2
	exit 2
fi

/usr/bin/python3 - "$quiet" "$loaded" <<'PYEOF'
import json, math, sys

SLACK_NS, SLACK_REL = 50e3, 0.01  # contention.h, the off-CPU rule
STALL_MIN_NS, STALL_REL = 200e3, 0.01  # contention.h, the stall rule
PREEMPT_MIN_NS = 50e3  # contention.h: a stall that lost measurable time


def load(d):
    subj = {}
    for i, line in enumerate(open(d + "/journal.jsonl")):
        if i == 0 or not line.strip():
            continue
        o = json.loads(line)
        for s in o.get("subjects", []):
            p = subj.setdefault(s["subject"], {"w": [], "u": [], "s": [], "c": [], "t": []})
            # None: this step's stall unknown (no PSI): the off-CPU rule judges its runs.
            p["t"] += s.get("stall_ns", [None] * len(s["wall_ns"]))
            p["w"] += s["wall_ns"]
            p["u"] += s["user_ns"]
            p["s"] += s["system_ns"]
            p["c"] += s.get("nivcsw", [0] * len(s["wall_ns"]))
    return subj


def rank95(n):  # student_median_rank95: largest k with P(X < k) <= 0.025, X ~ Bin(n, 1/2)
    k, cum = 0, 0.0
    for j in range(n + 1):
        cum += math.comb(n, j) / 2.0**n
        if cum > 0.025:
            break
        k = j + 1
    return k


def median_ci(x):
    x = sorted(x)
    n = len(x)
    m = x[n // 2] if n % 2 else (x[n // 2 - 1] + x[n // 2]) / 2
    k = rank95(n)
    return (m, x[k - 1], x[n - k]) if k > 0 else (m, float("nan"), float("nan"))


def judge(p):
    off = [w - u - s for w, u, s in zip(p["w"], p["u"], p["s"])]
    base = min(off)
    flag, corr, pre = [], [], 0
    for w, u, s, o, c, t in zip(p["w"], p["u"], p["s"], off, p["c"], p["t"]):
        if t is not None:
            f = t > max(STALL_MIN_NS, STALL_REL * w)
            corr.append(w - t if f else w)
            pre += t >= PREEMPT_MIN_NS
        else:
            f = o - base > max(SLACK_NS, SLACK_REL * w)
            corr.append(u + s + base if f else w)
            pre += f and c > 0
        flag.append(f)
    n = len(p["w"])
    known = [t for t in p["t"] if t is not None]
    # Delayed: off the CPU (wall - user - system) by more than the stall rule's limit, whatever
    # held it (a wait for a CPU of the run's own, of its children, of the launcher's wake-up).
    # The classifier's recall is the share of those it flagged: a run the kernel ran at once
    # (wake-up preemption) is neither delayed nor flagged (doc/precision.md, issue 51).
    delayed = [o > max(STALL_MIN_NS, STALL_REL * w) for o, w in zip(off, p["w"])]
    both = sum(1 for f, d in zip(flag, delayed) if f and d)
    return {"n": n, "flag": sum(flag) / n, "pre": pre / n, "raw": median_ci(p["w"]),
            "delayed": sum(delayed) / n, "recall": both / max(1, sum(delayed)),
            "false": sum(flag) - both,
            "cpu": median_ci([u + s for u, s in zip(p["u"], p["s"])]),
            "corr": median_ci(corr), "offmed": sorted(off)[n // 2] - base,
            "stallmed": sorted(known)[len(known) // 2] if known else None,
            "src": "schedstat" if len(known) == n else "off-cpu" if not known else "mixed"}


q, l = load(sys.argv[1]), load(sys.argv[2])
print("quiet: %s  loaded: %s" % (sys.argv[1], sys.argv[2]))
print("| subject | runs | judged by | flagged quiet | flagged loaded | preempted quiet"
      " | preempted loaded | median stall quiet / loaded (µs) | off-CPU spread quiet (µs)"
      " | raw median quiet (ms) | loaded | shift | corrected quiet (ms) | loaded | shift"
      " | CPU time quiet (ms) | loaded | shift | delayed loaded | flagged of delayed loaded"
      " | flagged not delayed loaded |")
print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
      "|---:|---:|---:|")
shifts = {"raw": [], "corr": [], "cpu": []}
for name in q:
    if name not in l:
        continue
    a, b = judge(q[name]), judge(l[name])
    row = []
    for k in ("raw", "corr", "cpu"):
        (ma, la, ha), (mb, lb, hb) = a[k], b[k]
        sh = 100 * (mb / ma - 1)
        # The shift's interval from the two medians' intervals (conservative: the ends).
        shifts[k].append((name, sh, 100 * (lb / ha - 1), 100 * (hb / la - 1)))
        row.append("%.4f [%.4f, %.4f] | %.4f [%.4f, %.4f] | %+.1f %% [%+.1f, %+.1f]" % (
            ma / 1e6, la / 1e6, ha / 1e6, mb / 1e6, lb / 1e6, hb / 1e6, sh,
            100 * (lb / ha - 1), 100 * (hb / la - 1)))
    st = " / ".join("-" if x["stallmed"] is None else "%.0f" % (x["stallmed"] / 1e3)
                    for x in (a, b))
    print("| %s | %d/%d | %s | %.0f %% | %.0f %% | %.0f %% | %.0f %% | %s | %.0f | %s | %s | %s"
          " | %.0f %% | %.0f %% | %d |" % (
        name, a["n"], b["n"], a["src"] if a["src"] == b["src"] else a["src"] + "/" + b["src"],
        100 * a["flag"], 100 * b["flag"], 100 * a["pre"], 100 * b["pre"], st,
        a["offmed"] / 1e3, row[0], row[1], row[2], 100 * b["delayed"], 100 * b["recall"],
        b["false"]))
for k, label in (("raw", "raw median (contended: keep, the default)"),
                 ("corr", "corrected median (contended: correct)"),
                 ("cpu", "median CPU time (user + system of the run and what it reaped)")):
    s = shifts[k]
    if not s:
        continue
    vals = [v for _, v, _, _ in s]
    lo_max = max(lo for _, _, lo, _ in s)
    hi_min = min(hi for _, _, _, hi in s)
    print("%s: shift loaded/quiet from %+.1f %% to %+.1f %% (spread %.1f points); the subjects'"
          " shift intervals %s" % (label, min(vals), max(vals), max(vals) - min(vals),
                                   "overlap: alike within their intervals" if lo_max <= hi_min
                                   else "do not all overlap: not alike"))
PYEOF
