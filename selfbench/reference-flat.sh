#!/bin/bash
# reference-flat.sh: do the calibration workloads stay put across a sweep's sizes (issue 43,
# item 5)? Reads a rarbench --manifest output directory's results.json and prints, for rarref
# (the "reference") and, when measured, each of rarkref's prices (reference.kernel), one line
# per point (its estimate) and then the verdict numbers:
#   - CV points: the CV of the per-point estimates across the sweep's sizes;
#   - noise: what that CV would be from the rounds' own scatter alone (the median over points
#     of the CV of a point's round estimates, divided by the square root of its rounds);
#   - first -> last: the change from the smallest size to the largest.
# A reference that stays put has CV points near its noise (ratio near 1) and no trend.
# Needs jq. Example: bash selfbench/reference-flat.sh results/kernel-costs
set -euo pipefail
[ "$#" -eq 1 ] || { echo "usage: selfbench/reference-flat.sh SWEEP_DIR" >&2; exit 2; }
command -v jq >/dev/null || { echo "reference-flat: jq is not installed" >&2; exit 2; }
r=$1/results.json
jq -e '.reference.results' "$r" >/dev/null || { echo "reference-flat: $r has no reference" >&2; exit 2; }
# rows: what size round value(ms or ns)
{
	jq -r '.reference.results[] | .parameters.nb_tasks as $p | .rarbench.round_estimates[]
		| select(.estimate != null) | ["rarref_ms", $p, .round, .estimate * 1000] | @tsv' "$r"
	jq -r '(.reference.kernel.unit_costs // [])[] | .nb_tasks as $p | .kind as $k
		| .rounds[] | [($k + "_ns"), $p, .round, .ns] | @tsv' "$r"
} | sort -t"$(printf '\t')" -k1,1 -k2,2n -k3,3n | awk -F'\t' '
	{ k = $1 SUBSEP $2; n[k]++; s[k] += $4; ss[k] += $4 * $4
	  if (!($1 in seen)) { seen[$1] = 1; order[++nw] = $1 }
	  if (!(k in sz)) { sz[k] = 1; sizes[$1, ++ns[$1]] = $2 } }
	function med(a, m,   i, j, t) {
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2 }
	END {
		printf "%-14s %s\n", "what", "per-point estimate (mean of its rounds), size:value"
		for (w = 1; w <= nw; w++) {
			x = order[w]; line = ""; sm = 0; sq = 0; m = ns[x]; delete cvs; nr = 0
			for (i = 1; i <= m; i++) {
				k = x SUBSEP sizes[x, i]; mean = s[k] / n[k]; v[i] = mean; sm += mean; sq += mean * mean
				line = line sprintf(" %s:%.4g", sizes[x, i], mean)
				if (n[k] > 1) { sd = sqrt((ss[k] - n[k] * mean * mean) / (n[k] - 1)); cvs[++nr] = sd / mean / sqrt(n[k]) }
			}
			avg = sm / m; cvp = m > 1 ? sqrt((sq - m * avg * avg) / (m - 1)) / avg : 0
			noise = nr > 0 ? med(cvs, nr) : 0
			printf "%-14s%s\n", x, line
			printf "%-14s CV points %.2f %%, noise %.2f %% (ratio %.2f), first -> last %+.1f %%\n", "",
				100 * cvp, 100 * noise, (noise > 0 ? cvp / noise : 0), 100 * (v[m] / v[1] - 1)
		}
	}'
