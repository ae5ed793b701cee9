#!/bin/bash
# profile.sh: what the profile pass costs, and whether its counts repeat (doc/profile.md).
# Runs MANIFEST (default experiments/quick.json) PROF_SWEEPS times (default 2) with "profile": true
# and no profile budget (every point traced), and prints, per sweep, the wall time of the timed
# steps and of the profile pass (rarbench's own "profile pass X s after Y s of timed steps" line:
# the lock wait is not counted) and the overhead in %; then compares the profiles of every sweep
# with the first's, point by point and subject by subject, counter by counter (system calls,
# failures, bytes, files, programs; the rusage counters follow the host and are left out), and
# names every counter that differs. Last, rarplot's fitted read(2) slope of every subject against
# its policy bytes per unit.
# Must run as root on a provisioned prefix (it queues for the prefix's lock). Knobs (environment):
#   RARPERF_PREFIX  the prefix (default /opt/rarperf)
#   PROF_SWEEPS     sweeps (default 2)
#   PROF_KEEP       a directory to keep the results in (default: a temporary one, removed)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/lib/keepdir.sh
prefix=${RARPERF_PREFIX:-/opt/rarperf}
manifest=${1:-experiments/quick.json}
sweeps=${PROF_SWEEPS:-2}
rarbench=$PWD/bin/rarbench
rarplot=$PWD/bin/rarplot
for tool in "$rarbench" "$rarplot" jq strace; do
	command -v "$tool" >/dev/null || { echo "profile: $tool is missing (make; apt-get install jq strace)" >&2; exit 2; }
done
if [ -n "${PROF_KEEP:-}" ]; then
	# root writes there: made now, or root's along its whole path (R34)
	work=$(keepdir_make PROF_KEEP "$PROF_KEEP") || exit 2
else
	work=$(mktemp -d /tmp/rarperf-bench-profile-XXXXXX)
	trap 'rm -rf "$work"' EXIT
fi
# Every point traced (profile_budget 0), so that the sweeps trace the same points and their
# counts compare point by point: a budget's choice follows the host's speed at that moment.
jq '.profile = true | .profile_budget = 0' "$manifest" >"$work/manifest.json"
echo "manifest: $manifest (profile on, every point traced); host: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %10s %10s %9s\n' sweep timed_s profile_s overhead
for i in $(seq 1 "$sweeps"); do
	"$rarbench" --manifest "$work/manifest.json" --prefix "$prefix" --wait --out "$work/s$i" \
		--progress none 2>"$work/s$i.err" || { cat "$work/s$i.err" >&2; exit 1; }
	line=$(grep -E '^rarbench: profile pass [0-9.]+ s after [0-9.]+ s of timed steps$' "$work/s$i.err")
	p=$(echo "$line" | awk '{ print $4 }')
	t=$(echo "$line" | awk '{ print $7 }')
	printf '%-6s %10s %10s %8.1f%%\n' "$i" "$t" "$p" "$(echo "$p $t" | awk '{ print 100 * $1 / $2 }')"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# Counters of every sweep against the first's.
counts() { # DIR: one line per point, subject and counter (rusage left out)
	for f in "$1"/profile/point-*.json; do
		jq -r --arg p "$(basename "$f" .json)" '.subjects | to_entries[] | .key as $s | .value
			| del(.rusage, .traced_exit_code, .message, .profile_ns, .rss_floor_kib)
			| ([paths(scalars)] | map(map(tostring) | join("."))) as $k
			| [leaf_paths] as $lp | range(0; $lp | length) as $i
			| "\($p)\t\($s)\t\($lp[$i] | map(tostring) | join("."))\t\(getpath($lp[$i]))"' "$f"
	done | sort
}
counts "$work/s1" >"$work/c1"
echo "counters compared per point and subject: $(wc -l <"$work/c1")"
for i in $(seq 2 "$sweeps"); do
	counts "$work/s$i" >"$work/c$i"
	if cmp -s "$work/c1" "$work/c$i"; then
		echo "sweep $i: every counter identical to sweep 1's"
	else
		echo "sweep $i: counters that differ from sweep 1's (point, subject, counter, sweep 1, sweep $i):"
		join -t "$(printf '\t')" -j 1 \
			<(awk -F'\t' '{ print $1 "/" $2 "/" $3 "\t" $4 }' "$work/c1" | sort) \
			<(awk -F'\t' '{ print $1 "/" $2 "/" $3 "\t" $4 }' "$work/c$i" | sort) -a 1 -a 2 -e - -o 0,1.2,2.2 |
			awk -F'\t' '$2 != $3' | sed 's/^/  /'
	fi
done

# The fitted read(2) slope against policy bytes per unit.
"$rarplot" --format none -o "$work/plot" "$work/s1/results.json" >/dev/null 2>&1 || true
if [ -f "$work/plot/profile-fits.tsv" ]; then
	echo "fitted per unit (rarplot, sweep 1): subject, read(2), policy bytes, read(2) per policy byte"
	awk -F'\t' '$2 == "sys.read" { r[$1] = $4 } $2 == "policy_bytes" { b[$1] = $4 }
		END { for (s in r) printf "  %-16s %10.2f %10.2f %8.4f\n", s, r[s], b[s], (b[s] > 0 ? r[s] / b[s] : 0) }' \
		"$work/plot/profile-fits.tsv" | sort
fi
