#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# 72-counts-prices: time as counts × prices (issue 51, item 4; doc/counts.md). The counted pass
# counts rarref (reference.counts) and its work equals callgrind's own count of rarref run by
# hand; rarplot predicts every subject's intercept and slope from its counts and profile at
# rarref's price and at the baseline's, and its numbers equal the arithmetic redone from
# predicted.tsv's parts; the published xeon167 analysis is reproduced byte for byte from its
# two runs (--counts-from); another machine's counts are refused in one line. About 40 s.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
rarplot=$PWD/bin/rarplot
. tests/lib/tap.sh

need jq
need awk
need valgrind
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-cprices-XXXXXX)
trap 'rm -rf "$work"' EXIT
pub=doc/results/2026-12-04-debian12-2core-xeon167

# rarref's work counted by callgrind by hand: the independent count of what the pass records.
for u in 0 10; do
	valgrind --tool=callgrind --callgrind-out-file="$work/ref.$u" bin/rarref "$u" 2>/dev/null
done
by_hand=$(($(awk '/^summary:/ {print $2}' "$work/ref.10") - $(awk '/^summary:/ {print $2}' "$work/ref.0")))
echo "    rarref 10 units by hand: $by_hand instructions of work"

# 1. One run with everything: counts, a profile, rarref and rarkref, so that results.json alone
# holds the work and the prices.
cat >"$work/m.json" <<JSON
{"name": "counts-prices", "subjects": [
  {"id": "sudo", "format": "sudoers"},
  {"id": "doas", "format": "doas"}],
 "axes": {"nb_tasks": [1, 30, 100]}, "bench_user": "$user", "warmup": 2, "min_runs": 10,
 "max_runs": 20, "rounds": 2, "min_time_s": 0, "profile": true, "profile_budget": 0,
 "reference": true, "kernel_reference": true, "counts": true}
JSON
"$rarbench" --manifest "$work/m.json" --prefix "$prefix" --wait --out "$work/run" \
	--progress none 2>"$work/run.err"
rc=$?
check "a counted run with rarref and rarkref exits 0" [ "$rc" -eq 0 ] || sed 's/^/    /' "$work/run.err"
res=$work/run/results.json
check "results.json's reference.counts: callgrind, its version, 10 units" \
	jq -e '.reference.counts | .instrument == "callgrind" and (.version | startswith("callgrind-"))
		and .units == 10 and .bare_instructions > 0 and .instructions > .bare_instructions' "$res"
recorded=$(jq '.reference.counts | .instructions - .bare_instructions' "$res")
echo "    recorded: $recorded"
check "rarref's counted work equals callgrind's count by hand ($by_hand)" [ "$recorded" = "$by_hand" ]
check "the published run's rarref work is the same count (a property of rarref's bytes)" \
	[ "$(jq '.reference.counts | .instructions - .bare_instructions' "$pub/counts/results.json")" = "$by_hand" ]

"$rarplot" --format none -o "$work/plot" "$res" >"$work/plot.out" 2>&1
check "rarplot on it exits 0" [ $? -eq 0 ] || sed 's/^/    /' "$work/plot.out"
check "predicted.md has the section \"Time as counts × prices\"" \
	grep -q '^## Time as counts × prices' "$work/plot/predicted.md"
check "counts-prices.tsv has a row per subject" \
	[ "$(awk 'NR > 1' "$work/plot/counts-prices.tsv" | wc -l)" -eq 2 ]

# 2. The arithmetic, redone from predicted.tsv's parts (a second path through the numbers): at
# rarref's price, intercept = kernel parts (accounted - user) + instructions per call x price;
# at the baseline's, the baseline's user work over its instructions is the price.
redo() { # DIR: prints the largest relative difference (%) between rarplot's and awk's
	awk -F'\t' '
	FNR == 1 { file++; if (file == 1) for (i = 1; i <= NF; i++) c[$i] = i; else for (i = 1; i <= NF; i++) p[$i] = i; next }
	file == 1 { s = $c["subject"]; ins[s] = $c["instr_per_call"]; price = $c["rarref_ns_per_instr"]
		ri[s] = $c["rarref_intercept_ms"]; bi[s] = $c["baseline_intercept_ms"]; next }
	{ s = $p["subject"]; if (!(s in ins)) next
	  k[s] = $p["accounted_ms"] - $p["user_ms"]; u[s] = $p["user_ms"] }
	function rel(a, b) { d = (a - b) / b; return 100 * (d < 0 ? -d : d) }
	END { bp = u["sudo"] / ins["sudo"]; worst = 0
		for (s in ins) {
			r = rel(k[s] + ins[s] * price / 1e6, ri[s]); if (r > worst) worst = r
			if (s != "sudo") { r = rel(k[s] + ins[s] * bp, bi[s]); if (r > worst) worst = r }
		}
		printf "%.3f\n", worst }' "$1/counts-prices.tsv" "$1/predicted.tsv"
}
d=$(redo "$work/plot")
echo "    largest difference between rarplot's predictions and the arithmetic redone: $d %"
check "every prediction equals the parts' arithmetic within 0.2 % (rounding of the TSVs)" \
	awk -v d="$d" 'BEGIN { exit !(d <= 0.2) }'
check "rarref's price times its counted work is its work time in predicted.md" \
	awk -F'|' -v w="$recorded" '/^\| .* \| [0-9.]+ \| [0-9]+ \| [0-9.]+ \|$/ && NF == 6 {
		t = $3 + 0; p = $5 + 0; d = (p * w / 1e6 - t) / t; ok = (d < 0 ? -d : d) < 0.001 }
		END { exit !ok }' "$work/plot/predicted.md"

# 3. The published analysis, reproduced from its two runs: the quiet timed one and the counted one.
"$rarplot" --format none -o "$work/pub" --counts-from "$pub/counts/results.json" \
	"$pub/seed-main/results.json" >"$work/pub.out" 2>&1
check "rarplot --counts-from on the published runs exits 0" [ $? -eq 0 ] || sed 's/^/    /' "$work/pub.out"
check "counts-prices.tsv equals the published one, byte for byte" \
	cmp "$work/pub/counts-prices.tsv" "$pub/counts-prices/counts-prices.tsv"
check "predicted.md equals the published one" cmp "$work/pub/predicted.md" "$pub/counts-prices/predicted.md"
d=$(redo "$work/pub")
check "the published predictions equal the parts' arithmetic within 0.2 % ($d %)" \
	awk -v d="$d" 'BEGIN { exit !(d <= 0.2) }'
check "published: at sudo's prices, the four other intercepts within 5 %" \
	awk -F'\t' 'NR > 1 && $2 != "sudo" { e = $13 < 0 ? -$13 : $13; if (e > 5) bad++; n++ }
		END { exit !(n == 4 && bad == 0) }' "$pub/counts-prices/counts-prices.tsv"
check "start-price.tsv is reproduced by its awk from the published files" \
	bash -c 'p1=$1/seed-main/predicted.tsv
		p2=doc/results/2026-12-03-debian12-2core-v1147/seed-tasks/predicted.tsv
		p3=doc/results/2026-12-02-debian12-2core-v1045/seed-tasks/predicted.tsv
		{ head -1 "$1/counts-prices/start-price.tsv"
		  for m in xeon167:$p1 amd-v1147:$p2 amd-v1045:$p3; do
			awk -F"\t" -v label="${m%%:*}" -f "$1/counts-prices/startprice.awk" \
				"$1/counts-prices/counts-prices.tsv" "${m#*:}" "${m#*:}"
		  done; } | cmp - "$1/counts-prices/start-price.tsv"' _ "$pub"

# 4. Counts join times of one machine only.
out=$("$rarplot" --format none -o "$work/other" --counts-from "$pub/counts/results.json" \
	doc/results/2026-12-03-debian12-2core-v1147/seed-tasks/results.json 2>&1)
rc=$?
echo "    $out" | tail -1
check "another machine's counts: exit 2" [ "$rc" -eq 2 ]
check "... in one line naming the file and the reason" \
	bash -c '[ "$(printf "%s\n" "$1" | wc -l)" -eq 1 ] && printf "%s" "$1" | grep -q "counts-from .*another machine"' _ "$out"
check "... and nothing written" [ ! -e "$work/other/counts-prices.tsv" ]
tap_status
