#!/bin/bash
# calibration.sh: is the reference workload (rarbench's "reference": rarref) a good unit? Reads the
# results.json of sweeps measured with it (arguments: rarbench --manifest output directories, e.g.
# selfbench/comparison.sh's CMP_KEEP sweeps) and prints, per sweep:
#   - the reference's own steadiness: the CV of its per-point estimates across the sweep's points
#     (it does the same work at every point) and the median CV of a point's rounds;
#   - how well it tracks the subjects' drift: the correlation, over every (point, round), of the
#     deviation of ln(round estimate) from its point's mean, reference against each subject
#     (1: the host's speed moves both alike; 0: the reference sees none of the subjects' drift);
# then each subject's slope across the sweeps, raw (µs/task) and in reference units
# (thousandths of a reference run per task, rarplot's fits-normalised.tsv), with their CV.
# Needs jq and bin/rarplot. Example: bash selfbench/calibration.sh /tmp/cmp/precision-{1,2,3}
set -euo pipefail
cd "$(dirname "$0")/.."
rarplot=$PWD/bin/rarplot
[ "$#" -ge 1 ] || { echo "usage: selfbench/calibration.sh SWEEP_DIR..." >&2; exit 2; }
command -v jq >/dev/null || { echo "calibration: jq is not installed" >&2; exit 2; }
work=$(mktemp -d /tmp/rarperf-calibration-XXXXXX)
trap 'rm -rf "$work"' EXIT

printf '%-28s %-8s %-12s %-14s %s\n' sweep ref_ms "CV points" "CV rounds" "drift correlation with the reference"
n=0
for d in "$@"; do
	n=$((n + 1))
	r=$d/results.json
	jq -e '.reference' "$r" >/dev/null || { echo "calibration: $r has no reference" >&2; exit 2; }
	# rows: subject point round estimate
	jq -r '(.results[] | {s: .parameters.subject, p: .parameters.nb_tasks, e: .rarbench.round_estimates}),
		(.reference.results[] | {s: "@reference", p: .parameters.nb_tasks, e: .rarbench.round_estimates})
		| .s as $s | .p as $p | .e[] | select(.estimate != null) | [$s, $p, .round, .estimate] | @tsv' \
		"$r" >"$work/rows"
	stats=$(awk -F'\t' '
		{k = $1 SUBSEP $2; v = log($4); sum[k] += v; cnt[k]++; row[NR] = $0}
		END {
			for (i = 1; i <= NR; i++) {
				split(row[i], f, "\t"); k = f[1] SUBSEP f[2]
				dev[f[1], f[2], f[3]] = log(f[4]) - sum[k] / cnt[k]
				if (f[1] != "@reference") subj[f[1]] = 1
				else { rv[f[2], f[3]] = dev[f[1], f[2], f[3]]; ref_sq[f[2]] += (log(f[4]) - sum[k] / cnt[k]) ^ 2 }
			}
			# the reference across points: CV of exp(point means)
			m = 0; np = 0
			for (k in cnt) { split(k, g, SUBSEP); if (g[1] == "@reference") { pm[g[2]] = exp(sum[k] / cnt[k]); m += pm[g[2]]; np++ } }
			m /= np; v = 0
			for (p in pm) v += (pm[p] - m) ^ 2
			cvp = 100 * sqrt(v / (np - 1)) / m
			# median over points of the CV of the rounds (sd of the logs)
			nr = 0
			for (p in pm) { c = cnt["@reference" SUBSEP p]; if (c > 1) cvr[++nr] = 100 * sqrt(ref_sq[p] / (c - 1)) }
			for (i = 2; i <= nr; i++) { t = cvr[i]; for (j = i - 1; j >= 1 && cvr[j] > t; j--) cvr[j + 1] = cvr[j]; cvr[j + 1] = t }
			med = nr % 2 ? cvr[(nr + 1) / 2] : (cvr[nr / 2] + cvr[nr / 2 + 1]) / 2
			out = ""
			for (s in subj) {
				sxy = sxx = syy = 0
				for (key in dev) {
					split(key, g, SUBSEP)
					if (g[1] != s || !((g[2], g[3]) in rv)) continue
					x = rv[g[2], g[3]]; y = dev[key]; sxy += x * y; sxx += x * x; syy += y * y
				}
				out = out sprintf("%s %.2f  ", s, sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 0)
			}
			printf "%.4f|%.2f %%|%.2f %%|%s\n", 1000 * m, cvp, med, out
		}' "$work/rows")
	IFS='|' read -r refms cvp cvr corr <<<"$stats"
	printf '%-28s %-8s %-12s %-14s %s\n' "$(basename "$d")" "$refms" "$cvp" "$cvr" "$corr"
	"$rarplot" --format none -o "$work/plot-$n" "$r" >/dev/null 2>&1 ||
		{ echo "calibration: rarplot failed on $r" >&2; exit 1; }
done

echo
printf '%-10s %-11s %-60s %s\n' subject slope "per sweep" CV
for kind in raw normalised; do
	file=fits.tsv
	[ "$kind" = raw ] || file=fits-normalised.tsv
	for i in $(seq 1 "$n"); do
		awk -F'\t' -v i="$i" 'NR > 1 {print $1 "\t" i "\t" $8}' "$work/plot-$i/$file"
	done | awk -F'\t' -v kind="$kind" '
		{v[$1, $2] = $3; s[$1] += $3; c[$1]++; if (!($1 in seen)) {seen[$1] = 1; order[++no] = $1}}
		END {
			for (o = 1; o <= no; o++) {
				subj = order[o]; m = s[subj] / c[subj]; d = 0; list = ""
				for (i = 1; i <= c[subj]; i++) { d += (v[subj, i] - m) ^ 2; list = list sprintf("%.4f ", v[subj, i]) }
				printf "%-10s %-11s %-60s %.2f %%\n", subj, kind, list, (c[subj] > 1 ? 100 * sqrt(d / (c[subj] - 1)) / m : 0)
			}
		}'
done
echo "(raw: µs/task; normalised: thousandths of a reference run per task)"
