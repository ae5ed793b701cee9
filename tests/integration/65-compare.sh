#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# 65-compare: rarplot --compare on real sweeps of the provisioned prefix (sudo and doas, small):
# rarbench exports each run's round and each round's estimate; a candidate with a far steeper
# slope (doas against sudo) costs more (exit 1), in the words of two tools ("higher", never
# "regressed": the results' facts say they are different tools); the exit status always agrees
# with the verdicts printed; bad input exits 2 in one line naming it (a missing subject, different
# points, two sweeps without --allow-unpaired); two sweeps of both are compared across sweeps;
# --allow-unpaired says so in the verdict; the
# synthetic fixtures (tests/fixtures/compare) give their known verdicts. Calibration: a sweep
# with "reference": true exports rarref's runs as the top-level "reference" (not a result, not
# in results.tsv), rarplot writes its fits in reference units; two sweeps with -o write
# between.tsv, and --between widens one sweep's paired intervals around the within-sweep ones.
# Verdicts (issue 46): "no change" only when the interval lies within the threshold; one that
# spans it is "inconclusive" (exit 3) and names the detectable change (the interval's
# half-width); a gate with too few sweeps says so and how many it needs; -o over several sweeps
# writes comparison.md, over one sweep comparison-ratio.tsv and its figure.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
rarplot=$PWD/bin/rarplot
fx=tests/fixtures/compare
. tests/lib/tap.sh
need jq
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-compare-XXXXXX)
trap 'rm -rf "$work"' EXIT

# compare ARGS...: runs rarplot --compare, its stdout in $work/out, stderr in $work/err, status in rc.
compare() {
	rc=0
	"$rarplot" --compare "$@" >"$work/out" 2>"$work/err" || rc=$?
}

# --- synthetic fixtures: known verdicts and exit statuses ---
compare base:cand "$fx/paired.json"
check "fixture: intercept regressed, slope improved, exit 1" \
	[ "$rc" -eq 1 ] && grep -q '^intercept +20 % \[.*\] (regressed), slope −25 % \[.*\] (improved)' "$work/out"
compare base:cand --at 10,3000 "$fx/same.json"
check "fixture: the same line is no change on every quantity, exit 0" \
	[ "$rc" -eq 0 ] && [ "$(grep -o '(no change)' "$work/out" | wc -l)" -eq 4 ]
compare base:cand -o "$work/cmp-wide" --format svg "$fx/wide.json"
# The intercept's interval as printed: "−3.1 % [−22, +19]" etc.; both ends beyond 20 %.
ends=$(grep -o '^intercept [^]]*\]' "$work/out" | sed 's/−/-/g; s/.*\[\([-+0-9.]*\), \([-+0-9.]*\)\]$/\1 \2/')
check "fixture: an interval spanning ±20 % ($ends) says inconclusive and names the detectable change, exit 3" \
	[ "$rc" -eq 3 ] && awk -v e="$ends" 'BEGIN { n = split(e, a, " "); exit !(n == 2 && a[1] + 0 < -20 && a[2] + 0 > 20) }' &&
	grep -q '^intercept [^,]*\] (inconclusive)' "$work/out" &&
	grep -Eq '^Detectable \(the smallest change each could have detected: its 95 % interval.s half-width\): intercept ±[0-9]{2} %' "$work/out" &&
	grep -q '^Inconclusive: the intervals of intercept (detectable ±[0-9]* %), .* reach across ±2 %: one wider than the threshold' "$work/out" &&
	grep -q '^Verdict: inconclusive (nothing regressed' "$work/out" && ! grep -q '(no change)' "$work/out"
check "one sweep with -o: comparison.md, comparison.tsv with its detectable column, the ratio against size (TSV, SVG)" \
	[ -s "$work/cmp-wide/comparison.md" ] && [ "$(head -1 "$work/cmp-wide/comparison.tsv" | cut -f7)" = detectable ] &&
	[ "$(grep -vc '^#' "$work/cmp-wide/comparison-ratio.tsv")" -eq 9 ] &&
	grep -q 'cand / base against nb_tasks, with the 95 % interval' "$work/cmp-wide/comparison-ratio.svg"
compare base:cand "$fx/points.json"
check "fixture: different points exit 2 naming the size" \
	[ "$rc" -eq 2 ] && grep -q 'different points: base has nb_tasks=3000, cand has not' "$work/err"
compare base:cand "$fx/norounds.json"
check "fixture: no per-round estimates is refused (exit 2)" \
	[ "$rc" -eq 2 ] && grep -q 'not paired: .*no per-round estimates' "$work/err"
compare base:cand --noise 2x "$fx/paired.json"
check "a bad --noise is a usage error (exit 2)" [ "$rc" -eq 2 ]

# --- two tiny real sweeps ---
# sweep NAME TASKS [EXTRA]: sudo and doas, 3 rounds of 10 runs per point (EXTRA: manifest keys).
sweep() {
	cat >"$work/$1.json" <<JSON
{"name": "$1", "subjects": [{"id": "sudo", "format": "sudoers"}, {"id": "doas", "format": "doas"}],
 "axes": {"nb_tasks": $2}, "bench_user": "$user", "rounds": 3,
 "warmup": 3, "min_runs": 30, "max_runs": 30, "min_time_s": 0${3:+, $3}}
JSON
	"$rarbench" --manifest "$work/$1.json" --prefix "$prefix" --wait --out "$work/$1" \
		--progress none 2>"$work/$1.err"
}
sweep a '[1, 1000, 3000, 6000]'
check "sweep a exits 0" [ "$?" -eq 0 ] || sed 's/^/    /' "$work/a.err"
sweep b '[1, 1000, 6000]'
check "sweep b exits 0" [ "$?" -eq 0 ] || sed 's/^/    /' "$work/b.err"
res=$work/a/results.json
check "each result has run_rounds, one per run, rounds 1..3" \
	[ "$(jq '[.results[] | (.run_rounds | length) == (.times | length) and (.run_rounds | unique) == [1,2,3]] | all' "$res")" = true ]
check "each result has 3 round_estimates, each 10 runs" \
	[ "$(jq '[.results[].rarbench.round_estimates | length == 3 and all(.runs == 10)] | all' "$res")" = true ]

compare sudo:doas --at 6000 "$res"
check "doas against sudo (slope about twice sudo's): higher, not regressed (two tools), exit 1" \
	[ "$rc" -eq 1 ] && grep -q '^intercept .*, slope +[0-9.]* % \[.*\] (higher)' "$work/out" &&
	grep -q '^Verdict: higher (the candidate, another tool, costs more' "$work/out" &&
	! grep -q 'regressed)\|improved)' "$work/out" &&
	grep -q 'Paired: ' "$work/out"
compare doas:sudo "$res"
# want: the exit status the verdicts printed call for (1 regressed or, between two tools,
# higher; 3 inconclusive; else 0).
want_of() {
	if grep -q "$1regressed\|$1higher" "$work/out"; then want=1
	elif grep -q "$1inconclusive" "$work/out"; then want=3
	else want=0; fi
}
want_of '('
check "sudo against doas: the exit status ($rc) agrees with the verdicts printed" [ "$rc" -eq "$want" ]
compare sudo:sr-cbor "$res"
check "a candidate missing from the results: exit 2 naming it and the subjects there are" \
	[ "$rc" -eq 2 ] && grep -q 'candidate sr-cbor: not in the results (subjects: sudo, doas)' "$work/err"
compare sudo:doas "$work/a/results.json" "$work/b/results.json"
# Two sweeps give t(1) = 12.7: the verdict across them depends on how far they differ, so the
# check is that the exit status agrees with the table, not what the verdict is.
want_of '| '
check "two sweeps of both: each compared, then across sweeps (CV, next sweep, held); exit $rc agrees" \
	[ "$rc" -eq "$want" ] && grep -q '^## doas against sudo over 2 sweeps$' "$work/out" &&
	[ "$(grep -c '^- sweep [12]: intercept ' "$work/out")" -eq 2 ] &&
	grep -Eq '^\| slope \| [0-9.]+ \[[-0-9.]+, [0-9.]+\] \| [0-9.]+ % \| .* \| [0-2]/2 \| ±[0-9.]+ % \| (higher|no difference|lower|inconclusive) \|$' "$work/out"
jq '{results: [.results[] | select(.parameters.subject == "sudo")]}' "$work/b/results.json" >"$work/sudo-only.json"
compare sudo:doas "$work/a/results.json" "$work/sudo-only.json"
check "a subject in two files, the other in one: exit 2 (compare one sweep)" \
	[ "$rc" -eq 2 ] && grep -q 'in several files' "$work/err"
jq '{results: [.results[] | select(.parameters.subject == "sudo")]}' "$work/a/results.json" >"$work/sudo-a.json"
jq '{results: [.results[] | select(.parameters.subject == "doas")]}' "$work/b/results.json" >"$work/doas-b.json"
compare sudo:doas "$work/sudo-a.json" "$work/doas-b.json"
check "baseline and candidate measured at different points: exit 2 naming the first" \
	[ "$rc" -eq 2 ] && grep -q 'different points: nb_tasks=3000 for sudo, nb_tasks=6000 for doas' "$work/err"
jq '{results: [.results[] | select(.parameters.subject == "doas" and .parameters.nb_tasks != "3000")]}' \
	"$work/a/results.json" >"$work/doas-a.json"
jq '{results: [.results[] | select(.parameters.subject == "sudo")]}' "$work/b/results.json" >"$work/sudo-b.json"
compare sudo:doas "$work/sudo-b.json" "$work/doas-a.json"
check "different sweeps: refused without --allow-unpaired (exit 2)" \
	[ "$rc" -eq 2 ] && grep -q 'not paired: baseline and candidate come from different files' "$work/err"
compare sudo:doas --allow-unpaired -o "$work/cmp" "$work/sudo-b.json" "$work/doas-a.json"
check "--allow-unpaired: compared, the verdict says unpaired, comparison.tsv written" \
	[ "$rc" -ne 2 ] && grep -q '^Verdict: .* (unpaired)\.$' "$work/out" &&
	[ "$(head -1 "$work/cmp/comparison.tsv")" = "$(printf 'quantity\tmethod\tratio\tlo\thi\tverdict\tdetectable')" ]

# --- calibration and intervals for the next sweep ---
sweep c '[1, 1000, 3000, 6000]' '"reference": true'
check "sweep c (with the reference) exits 0" [ "$?" -eq 0 ] || sed 's/^/    /' "$work/c.err"
res=$work/c/results.json
check "the reference: its own key, one result per point, every run of every round, no subject" \
	[ "$(jq '.reference.units == 10 and (.reference.command | endswith("/rarref 10")) and
		(.reference.results | length) == 4 and
		([.reference.results[] | (.times | length) == 30 and (.rarbench.round_estimates | length) == 3
		  and (.parameters | has("subject") | not)] | all)' "$res")" = true ]
check "the results hold the subjects only, hyperfine's keys unchanged; results.tsv has no reference" \
	[ "$(jq '([.results[].parameters.subject] | unique) == ["doas", "sudo"] and (.results | length) == 8' "$res")" = true ] &&
	! grep -q 'reference' "$work/c/results.tsv" && [ "$(wc -l <"$work/c/results.tsv")" -eq 9 ]
"$rarplot" --format none -o "$work/plot-c" "$res" >"$work/out" 2>"$work/err"
check "rarplot: fits in reference units beside fits.tsv (same columns, one row per subject)" \
	[ "$?" -eq 0 ] && [ "$(head -1 "$work/plot-c/fits-normalised.tsv")" = "$(head -1 "$work/plot-c/fits.tsv")" ] &&
	[ "$(awk -F'\t' 'NR > 1 && $6 > 0 && $8 > 0' "$work/plot-c/fits-normalised.tsv" | wc -l)" -eq 2 ] &&
	grep -q '^4 reference points; 0 results without one left out' "$work/plot-c/normalised.md"
"$rarplot" --format none -o "$work/plot-a" "$work/a/results.json" >/dev/null 2>&1
check "results without a reference: no normalised fits" [ ! -e "$work/plot-a/fits-normalised.tsv" ]
compare sudo:doas -o "$work/cmp-ac" "$work/a/results.json" "$res"
check "two sweeps with -o: between.tsv with the header and one row per quantity" \
	[ "$rc" -ne 2 ] && [ "$(sed -n 2p "$work/cmp-ac/between.tsv")" = "$(printf 'quantity\tsweeps\tbetween_log_sd\twithin_log_sd')" ] &&
	[ "$(awk -F'\t' 'NR > 2 && $2 == 2' "$work/cmp-ac/between.tsv" | wc -l)" -eq 3 ]
check "two sweeps with -o: comparison.md, the section printed (the guide's and the man page's promise)" \
	cmp -s "$work/out" "$work/cmp-ac/comparison.md"
check "two sweeps with -o: the mean ratio against size with its interval (comparison-ratio.tsv, .png)" \
	grep -q '^# rarplot --compare: doas / sudo, .*(the mean over 2 sweeps, t(1) interval)$' "$work/cmp-ac/comparison-ratio.tsv" &&
	[ "$(grep -vc '^#' "$work/cmp-ac/comparison-ratio.tsv")" -eq 5 ] && [ -s "$work/cmp-ac/comparison-ratio.png" ]
# Two sweeps give t(1) = 12.7: a slope interval across them wider than 2 % says so, and how many
# sweeps the same spread would need.
# wide_inconclusive RE: a table row whose quantity matches RE is inconclusive with a detectable
# change above the 2 % threshold.
wide_inconclusive() {
	awk -F'|' -v re="$1" '$2 ~ re && $(NF - 1) ~ /inconclusive/ {
		d = $(NF - 2); gsub(/[^0-9.]/, "", d); if (d + 0 > 2) found = 1 } END { exit !found }' "$work/out"
}
if wide_inconclusive '^ slope $'; then
	check "two sweeps, slope inconclusive: too few sweeps for a gate, with how many it needs" \
		grep -Eq "^Too few sweeps for a gate at ±2 %: the interval of the slope across 2 sweeps is ±[0-9.]+ % \(t\(1\) = 12.71\); with the same spread between sweeps, ([0-9]+ sweeps would bring it within ±2 %|more than 1000 would be needed)" "$work/out"
fi
compare sudo:doas --between "$work/cmp-ac/between.tsv" -o "$work/cmp-w" "$work/b/results.json"
check "--between: each paired interval is for the next sweep and holds the within-sweep one" \
	[ "$rc" -ne 2 ] && grep -q 'for the \*\*next sweep\*\*' "$work/out" &&
	[ "$(awk -F'\t' '$2 == "paired" {p[$1] = $4 " " $5} $2 == "within" {w[$1] = $4 " " $5}
		END {n = 0; for (q in w) {split(p[q], a, " "); split(w[q], b, " ");
			if (a[1] <= b[1] && a[2] >= b[2]) n++}; print n}' "$work/cmp-w/comparison.tsv")" -eq 3 ]
if wide_inconclusive '^ [a-z]'; then
	check "--between over 2 sweeps, a quantity inconclusive: too few sweeps for a gate, how many it needs" \
		grep -Eq "^Too few sweeps for a gate at ±2 %: the interval of the [a-z0-9 ]+ for the next sweep \(±[0-9.]+ %\) comes from a between.tsv over 2 sweeps \(t\(1\) = 12.71\)\. (No number of sweeps|With the same variation, a between.tsv over [0-9]+ sweeps)" "$work/out"
fi
printf 'quantity\tsweeps\n' >"$work/bad-between.tsv"
compare sudo:doas --between "$work/bad-between.tsv" "$work/b/results.json"
check "a bad --between file: exit 2 naming the file and line" \
	[ "$rc" -eq 2 ] && grep -q 'bad-between.tsv:1: expected the header' "$work/err"
tap_status
