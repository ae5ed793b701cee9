#!/bin/sh
# 60-rarplot: rarplot on synthetic results with known slopes: fits.tsv against the known lines and
# an independent least squares (Debian's numpy), standard errors against gnuplot's own fit, the
# figures as valid PNG/SVG/PDF, a plain hyperfine export, several hosts, and the error cases.
set -u
cd "$(dirname "$0")/../.." || exit 2
RARPLOT=$PWD/bin/rarplot
PY=/usr/bin/python3
. tests/lib/tap.sh
[ -x "$RARPLOT" ] || { echo "not ok - bin/rarplot is built"; exit 1; }
need gnuplot jq
need_python_module numpy
T=$(mktemp -d /tmp/rarplot-test.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM

# --- synthetic results with known lines --------------------------------------------------
# exact.json: points exactly on known lines (seconds): sudo 3.2 ms + 0.16 µs/task, doas 2.0 ms
# + 0.30 µs/task (they cross at 1.2e-3 / 1.4e-7 = 8571.4 tasks), sr-cbor 1.1 ms + 0.054 µs/task.
# noisy.json: the same lines plus deterministic noise, 15 runs per point, times kept.
$PY - "$T" <<'PYEOF'
import json, sys
import numpy as np
out = sys.argv[1]
lines = [("sudo", "sudoers", 3.2e-3, 1.6e-7), ("doas", "doas", 2.0e-3, 3.0e-7),
         ("sr-cbor", "rar-cbor", 1.1e-3, 5.4e-8)]
tasks = [1, 2, 3, 5, 9, 15, 26, 46, 82, 146, 261, 464, 825, 1467, 2610, 4641, 8252, 10000]
rng = np.random.default_rng(12345)
def entry(subject, fmt, t, times):
    times = [float(v) for v in times]
    m = float(np.mean(times))
    return {"command": "/opt/rarperf/bin/%s /usr/bin/true" % subject, "mean": m,
            "stddev": float(np.std(times, ddof=1)) if len(times) > 1 else None,
            "median": float(np.median(times)), "user": 0.0, "system": 0.0,
            "min": min(times), "max": max(times), "times": times, "exit_codes": [0] * len(times),
            "parameters": {"nb_roles": "1", "nb_users": "1", "nb_tasks": str(t),
                           "nb_commands": "1", "subject": subject, "format": fmt}}
exact, noisy = [], []
for subject, fmt, a, b in lines:
    for t in tasks:
        y = a + b * t
        exact.append(entry(subject, fmt, t, [y, y, y]))
        # spread grows with size, so weighting matters
        noisy.append(entry(subject, fmt, t, y + rng.normal(0, 3e-5 + 2e-9 * t, 15)))
json.dump({"results": exact, "meta": {"schema": 1}}, open(out + "/exact.json", "w"))
json.dump({"results": noisy, "meta": {"schema": 1}}, open(out + "/noisy.json", "w"))
# estimated.json: the noisy sweep as rarbench writes it now: an estimate and its 95 % interval
# beside hyperfine's keys (here the 20 % trimmed mean, an interval of +/- 1 %).
est = json.loads(json.dumps(noisy))
for e in est:
    t = sorted(e["times"]); k = int(0.2 * len(t)); m = float(np.mean(t[k:len(t) - k]))
    e["nivcsw"] = [0] * len(t)
    e["rarbench"] = {"estimator": "trimmed", "estimate": m, "ci95": [m * 0.99, m * 1.01],
                     "runs_used": len(t), "contended_runs": 0}
json.dump({"results": est}, open(out + "/estimated.json", "w"))
# three hosts, each a scaled copy of the noisy sweep
hosts = []
for k, (h, s) in enumerate([("lab1", 1.0), ("lab2", 1.05), ("lab3", 0.97)]):
    for e in noisy:
        e2 = json.loads(json.dumps(e))
        e2["times"] = [v * s for v in e2["times"]]
        for key in ("mean", "stddev", "median", "min", "max"):
            e2[key] *= s
        e2["parameters"]["host"] = h
        hosts.append(e2)
json.dump({"results": hosts}, open(out + "/merged.json", "w"))
# too few points: two distinct sizes only
json.dump({"results": [e for e in exact if e["parameters"]["nb_tasks"] in ("1", "2")]},
          open(out + "/twopoints.json", "w"))
# wide.json: other subjects in another order, sizes 1..1000 as experiments/quick.json has them, and
# one line 185x steeper than another (sr-json 10 us/task against sr-cbor 0.054); doas-pam is a PAM
# variant of doas. zero.json: the same with a size 0, which log axes cannot show.
wide_lines = [("sr-json", "rar-json", 1.1e-3, 1.0e-5), ("sr-cbor", "rar-cbor", 1.1e-3, 5.4e-8),
              ("doas-pam", "doas", 2.0e-3, 3.0e-7), ("sudo", "sudoers", 3.2e-3, 1.6e-7)]
for name, sizes in (("wide", [1, 3, 10, 32, 100, 316, 1000]), ("zero", [0, 10, 100, 1000])):
    json.dump({"results": [entry(s, f, t, [a + b * t] * 3) for s, f, a, b in wide_lines for t in sizes]},
              open(out + "/%s.json" % name, "w"))
# even.json: sizes evenly spaced (0..1000), slopes within 10x: a linear axis shows them well.
# roles.json: roles log-spaced 1..100 (7 sizes, doc/guide-first-comparison.md's manifest), one task.
json.dump({"results": [entry(s, f, t, [a + b * t] * 3) for s, f, a, b in lines[:2]
                       for t in (0, 200, 400, 600, 800, 1000)]}, open(out + "/even.json", "w"))
roles = []
for s, f, a, b in lines[:2]:
    for r in (1, 2, 5, 10, 22, 46, 100):
        e = entry(s, f, 1, [a + 50 * b * r] * 3)
        e["parameters"]["nb_roles"] = str(r)
        roles.append(e)
json.dump({"results": roles}, open(out + "/roles.json", "w"))
PYEOF
# svg_looks FILE: one line per legend entry of a gnuplot SVG: its text, the colour of its sample
# line ("r,g,b") and whether that line is dashed.
svg_looks() {
	$PY - "$1" <<'PYEOF'
import re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
for group in svg.split('<g id="gnuplot_plot_')[1:]:
    title = re.match(r'\d+" ><title>(.*?)</title>', group).group(1)
    if title.startswith("gnuplot_plot_"):
        continue
    # The key sample: the group's first path, in the entry's colour and dash.
    path = re.search(r"<path [^>]*>", group)
    rgb = re.search(r"stroke='rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\)'", path.group(0)) if path else None
    dashed = path is not None and "stroke-dasharray" in path.group(0)
    print("%s\t%s\t%s" % (title, ",".join(rgb.groups()) if rgb else "none", "dashed" if dashed else "solid"))
PYEOF
}
# x_last_tic FILE: the largest x tic label of a gnuplot SVG (centred numbers under the x axis).
x_last_tic() {
	$PY - "$1" <<'PYEOF'
import re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
tics = [float(v) for v in re.findall(r'text-anchor="middle">\s*<text><tspan font-family="Sans" >([0-9.e+]+)</tspan>', svg)]
print("%g" % max(tics) if tics else "none")
PYEOF
}
[ -s "$T/noisy.json" ] || { echo "not ok - synthetic results generated"; exit 1; }

# --- exact lines: the known slopes, intercepts and crossover ----------------------------------
check "rarplot runs on exact lines" \
	sh -c "'$RARPLOT' -o '$T/exact' '$T/exact.json' >'$T/exact.out' 2>'$T/exact.err'"
check "fits.tsv header is the documented one (the original ten columns, then the 95 % intervals)" \
	sh -c "head -1 '$T/exact/fits.tsv' | grep -qx 'subject	format	host	x	n	intercept_ms	intercept_se_ms	slope_us	slope_se_us	r2	intercept_lo_ms	intercept_hi_ms	slope_lo_us	slope_hi_us'"
check "exact lines: slopes and intercepts are the known ones (1e-9 relative)" \
	awk -F'\t' 'NR > 1 {
		want_a = ($1 == "sudo") ? 3.2 : ($1 == "doas") ? 2.0 : 1.1
		want_b = ($1 == "sudo") ? 0.16 : ($1 == "doas") ? 0.30 : 0.054
		da = $6 - want_a; db = $8 - want_b
		if (da < 0) da = -da
		if (db < 0) db = -db
		if (da > 1e-9 * want_a || db > 1e-9 * want_b || $5 != 18 || $4 != "nb_tasks") bad = 1
		n++ }
		END { exit (bad || n != 3) }' "$T/exact/fits.tsv"
check "exact lines: the crossover of doas with sudo is 8571 tasks" \
	grep -q '^| doas | doas | 18 | .* | 8571 \[8571, 8571\] |$' "$T/exact.out"
check "exact lines: sr-cbor's raw cost and slope vs sudo are -65.6% and -66.3% (as --compare rounds them)" \
	grep -q '^| sr-cbor | rar-cbor | 18 | .* | −66 % \[[^]]*\] (improved) | −66 % \[[^]]*\] (improved) | none in range |$' "$T/exact.out"
check "stdout table is the report.md table (its Verdicts section)" \
	sh -c "sed -n '/^## Verdicts/,/^## Skipped/p' '$T/exact/report.md' | grep '^|' | cmp -s - '$T/exact.out'"

# tools.json: the exact lines with what each subject is (the manifest's programs, the prefix's
# facts), and sudo-dev, a dev build of sudo whose slope is a quarter steeper (0.20 µs/task). doas
# and sr-cbor are other tools than sudo: they cost more or less, they do not regress; sudo-dev is
# sudo's own build: its steeper slope is a regression (man/rarplot.1, "Verdicts").
jq '.results += [.results[] | select(.parameters.subject == "sudo") |
		((.parameters.nb_tasks | tonumber) as $t | (3.2e-3 + 2e-7 * $t) as $y |
		.parameters.subject = "sudo-dev" | .times = [$y, $y, $y] |
		.mean = $y | .median = $y | .min = $y | .max = $y)] |
	.meta = {"manifest": {"subjects": [{"id": "sudo", "format": "sudoers"},
		{"id": "doas", "format": "doas"}, {"id": "sr-cbor", "format": "rar-cbor"},
		{"id": "sudo-dev", "format": "sudoers", "program": "{prefix}/bin/sudo-dev"}]},
		"prefix_facts": {"tools": {"sudo": {"version": "1.9.13p3"}, "doas": {"version": "6.8.2"},
			"dosr-cbor": {"version": "3.3.4"}, "sudo-dev": {"version": "1.9.17"}}}}' \
	"$T/exact.json" >"$T/tools.json"
"$RARPLOT" --format none -o "$T/tools" "$T/tools.json" >"$T/tools.out" 2>"$T/tools.err"
check "verdicts between tools: doas and sr-cbor against sudo are lower or higher, never regressed" \
	sh -c "grep -q '^| doas (OpenDoas 6.8.2) | doas | 18 | .* | −38 % \[[^]]*\] (lower) | +8[78] % \[[^]]*\] (higher) | 8571 ' '$T/tools.out' &&
		grep -q '^| sr-cbor (RootAsRole 3.3.4) | rar-cbor | 18 | .* (lower) | .* (lower) | none in range |$' '$T/tools.out' &&
		! grep -q '^| \(doas\|sr-cbor\) .*\(regressed\|improved\)' '$T/tools.out'" ||
	sed 's/^/    /' "$T/tools.out" "$T/tools.err"
check "verdicts within a tool: sudo-dev (a dev build of sudo) against sudo regressed on its slope" \
	grep -q '^| sudo-dev (sudo 1.9.17) | sudoers | 18 | .* (no change) | +25 % \[[^]]*\] (regressed) | ' "$T/tools.out"
rc=0
"$RARPLOT" --compare sudo:doas --allow-unpaired "$T/tools.json" >"$T/tools-cmp.out" 2>&1 || rc=$?
check "--compare between tools (doas against sudo): lower, higher, 'Verdict: higher', exit 1 ($rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q '^intercept −38 % \[[^]]*\] (lower), slope +8[78] % \[[^]]*\] (higher)' '$T/tools-cmp.out' &&
		grep -q '^Verdict: higher (the candidate, another tool, costs more on some quantity) (unpaired)\.$' '$T/tools-cmp.out' &&
		! grep -q 'regressed)\|improved)' '$T/tools-cmp.out'" || sed 's/^/    /' "$T/tools-cmp.out"
rc=0
"$RARPLOT" --compare sudo:sudo-dev --allow-unpaired "$T/tools.json" >"$T/dev-cmp.out" 2>&1 || rc=$?
check "--compare within a tool (sudo's dev build against sudo): the slope regressed, exit 1 ($rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q '^intercept 0.0 % \[[^]]*\] (no change), slope +25 % \[[^]]*\] (regressed)' '$T/dev-cmp.out' &&
		grep -q '^Verdict: regressed (unpaired)\.$' '$T/dev-cmp.out'" || sed 's/^/    /' "$T/dev-cmp.out"

# aa.json: an A/A whose lines meet at 5000 tasks exactly (a2: 1 µs more, 0.2 ns/task less), each
# point off its line by a residual orthogonal to the lines (the fits stay exact, their intervals
# ±0.3 % wide): where such lines meet has an interval far wider than the sizes (issue 55 saw
# "The lines meet at nb_tasks = 375.6 [-1.544e+04, 1.147e+04]"), which places no crossing.
$PY - "$T" <<'PYEOF'
import json, sys
import numpy as np
tasks = np.array([1, 2, 3, 5, 9, 15, 26, 46, 82, 146, 261, 464, 825, 1467, 2610, 4641, 8252,
                  10000], float)
X = np.vstack([np.ones_like(tasks), tasks]).T
rng = np.random.default_rng(55)
out = []
for s, a, b in (("a", 3.2e-3, 1.6e-7), ("a2", 3.201e-3, 1.6e-7 - 2e-10)):
    r = rng.normal(0, 3e-5, len(tasks))
    r -= X @ np.linalg.lstsq(X, r, rcond=None)[0]
    for t, e in zip(tasks, r):
        y = float(a + b * t + e)
        out.append({"command": "c", "mean": y, "stddev": None, "median": y, "min": y, "max": y,
                    "parameters": {"nb_roles": "1", "nb_users": "1", "nb_tasks": str(int(t)),
                                   "nb_commands": "1", "subject": s, "format": "sudoers"}})
json.dump({"results": out}, open(sys.argv[1] + "/aa.json", "w"))
PYEOF
"$RARPLOT" --format none --baseline a -o "$T/aa" "$T/aa.json" >"$T/aa.out" 2>"$T/aa.err"
"$RARPLOT" --compare a:a2 --allow-unpaired "$T/aa.json" >"$T/aa-cmp.out" 2>&1
check "an A/A whose crossover interval spans far beyond the sizes: no crossing claimed (report.md, --compare)" \
	sh -c "grep -q '^| a2 | sudoers | 18 | .* | not measurable \[-[0-9.e+]*, [0-9.e+]*\] |$' '$T/aa.out' &&
		grep -q '^Crossover (nb_tasks): the lines do not measurably cross in the range (1 to 10000): the 95 % interval of where they meet, \[-[0-9.e+]*, [0-9.e+]*\], reaches beyond it\.$' '$T/aa-cmp.out' &&
		! grep -q 'lines meet at' '$T/aa-cmp.out'" ||
	sed 's/^/    /' "$T/aa.out" "$T/aa-cmp.out"

# --- report.md in the reader's order: the question, the figure, the verdicts, what was skipped ---
check "report.md: the first heading after the title is the question" \
	test "$(grep '^## ' "$T/exact/report.md" | head -1)" = "## The question"
check "report.md: the question names the axis, its sizes, the subjects and the baseline" \
	sh -c "grep -qx 'How does the time to authorise one command grow with nb_tasks, from 1 to 10000 (18 sizes; the other axes held at nb_roles=1, nb_users=1, nb_commands=1), for 3 subjects against the baseline \`sudo\`?' '$T/exact/report.md' &&
		grep -qx -- '- sudo, sudoers policy (the baseline)' '$T/exact/report.md'"
check "report.md: sections in the reader's order (question, figures, verdicts, another machine, skipped, fits, method)" \
	sh -c "[ \"\$(grep '^## ' '$T/exact/report.md' | tr '\n' ,)\" = '## The question,## Figures,## Verdicts,## On another machine,## Skipped,## Fits,## Method,## Looks,' ]"
check "report.md: one host's intervals are said to hold for that machine" \
	grep -q '^Every interval above holds for the machine these inputs were measured on' "$T/exact/report.md"
check "report.md: no subject skipped is said so, then the figures not drawn" \
	sh -c "grep -A2 -x '## Skipped' '$T/exact/report.md' | grep -qx 'No subject the inputs record as skipped.' &&
		grep -A4 -x '## Skipped' '$T/exact/report.md' | grep -q '^- perf_roles not drawn: '"
# A run that skipped subjects (quick.json's optional ones after make demo) says so in its meta.
jq '.meta = {"skipped_subjects": [{"id": "doas-pam", "reason": "/opt/rarperf/bin/doas-pam: absent from this prefix (facts.json: make provision-demo builds no PAM variant; make provision builds every tool of the prefix)"},
	{"id": "sr-cbor-4.0.3", "reason": "the prefix has no RootAsRole 4.0.3 build (it has 3.3.4; make provision)"}]}' \
	"$T/exact.json" >"$T/skipped.json"
"$RARPLOT" --format none -o "$T/skipped" "$T/skipped.json" >/dev/null 2>"$T/skipped.err"
check "report.md lists each subject the run skipped, with its reason and file" \
	sh -c "grep -qx -- '- subject doas-pam not measured: /opt/rarperf/bin/doas-pam: absent from this prefix (facts.json: make provision-demo builds no PAM variant; make provision builds every tool of the prefix) (\`$T/skipped.json\`)' '$T/skipped/report.md' &&
		grep -q -- '^- subject sr-cbor-4.0.3 not measured: the prefix has no RootAsRole 4.0.3 build' '$T/skipped/report.md'"
check "report.md: the skipped subjects come before the fits" \
	awk '/^## Skipped/ { s = NR } /^- subject doas-pam not measured/ { k = NR } /^## Fits/ { f = NR }
		END { exit !(s && k > s && f > k) }' "$T/skipped/report.md"

# --- noisy lines: against an independent least squares ---------------------------------------
for mode in weighted unweighted; do
	flag=
	[ $mode = unweighted ] && flag=--unweighted
	check "noisy ($mode): rarplot runs" \
		sh -c "'$RARPLOT' $flag -o '$T/$mode' '$T/noisy.json' >/dev/null 2>'$T/$mode.err'"
	# numpy from the JSON itself: median of each point, weights 1/(stddev/sqrt(runs))^2.
	check "noisy ($mode): slope, intercept and SEs match numpy's lstsq to 1e-6" \
		$PY - "$T/noisy.json" "$T/$mode/fits.tsv" $mode <<'PYEOF'
import csv, json, sys
import numpy as np
res = json.load(open(sys.argv[1]))["results"]
fits = {r["subject"]: r for r in csv.DictReader(open(sys.argv[2]), delimiter="\t")}
bad = 0
for subject in ("sudo", "doas", "sr-cbor"):
    pts = [e for e in res if e["parameters"]["subject"] == subject]
    x = np.array([float(e["parameters"]["nb_tasks"]) for e in pts])
    y = np.array([e["median"] * 1e3 for e in pts])
    if sys.argv[3] == "weighted":
        s = np.array([e["stddev"] * 1e3 / np.sqrt(len(e["times"])) for e in pts])
    else:
        s = np.ones_like(x)
    A = np.vstack([np.ones_like(x), x]).T / s[:, None]
    coef, rss, _, _ = np.linalg.lstsq(A, y / s, rcond=None)
    cov = np.linalg.inv(A.T @ A) * rss[0] / (len(x) - 2)
    want = [coef[0], np.sqrt(cov[0, 0]), coef[1] * 1e3, np.sqrt(cov[1, 1]) * 1e3]
    f = fits[subject]
    got = [float(f[k]) for k in ("intercept_ms", "intercept_se_ms", "slope_us", "slope_se_us")]
    for g, w in zip(got, want):
        if abs(g - w) > 1e-6 * abs(w):
            print("  %s: got %.12g want %.12g" % (subject, g, w), file=sys.stderr)
            bad = 1
sys.exit(bad)
PYEOF
	# gnuplot's own fit on the TSV rarplot wrote, with a script written here.
	for tsv in "$T/$mode"/data/perf_tasks/*.tsv; do
		subject=$(sed -n 's/^# subject=\([^ ]*\) .*/\1/p' "$tsv")
		using="1:2"
		[ $mode = weighted ] && using="1:2:5 yerror"
		gnuplot -e "set fit quiet nolog errorvariables; set fit limit 1e-14; set fit maxiter 5000;
			stats '$tsv' using 1:2 nooutput; a = STATS_intercept; b = STATS_slope;
			fit a + b*x '$tsv' using $using via a, b;
			print sprintf('%.15g %.15g %.15g %.15g', a, a_err, b*1000, b_err*1000)" \
			>"$T/gp.out" 2>&1
		check "noisy ($mode, $subject): SEs match gnuplot's asymptotic standard errors (1e-5)" \
			awk -v s="$subject" 'NR == FNR { ga = $1; gae = $2; gb = $3; gbe = $4; next }
			function rel(u, v) { d = (u - v) / v; return d < 0 ? -d : d }
			$1 == s { found = 1
				if (rel($7, gae) > 1e-5 || rel($9, gbe) > 1e-5 || rel($8, gb) > 1e-6 || rel($6, ga) > 1e-6) {
					printf "  rarplot %s %s, gnuplot %s %s\n", $7, $9, gae, gbe > "/dev/stderr"; bad = 1 } }
			END { exit (bad || !found) }' "$T/gp.out" "$T/$mode/fits.tsv"
	done
done
check "noisy: the known sudo slope 0.16 µs/task is within 4 standard errors" \
	awk -F'\t' '$1 == "sudo" { d = $8 - 0.16; if (d < 0) d = -d; exit !(d < 4 * $9) }' "$T/weighted/fits.tsv"
check "noisy: fits.tsv's intervals are value -/+ t95(16) x standard error" \
	awk -F'\t' 'NR > 1 { t = 2.1199
		if ($11 > $6 || $12 < $6 || $13 > $8 || $14 < $8) bad = 1
		d = ($14 - $8) - t * $9; if (d < 0) d = -d; if (d > 1e-3 * $9) bad = 1
		d = ($6 - $11) - t * $7; if (d < 0) d = -d; if (d > 1e-3 * $7) bad = 1 }
		END { exit bad }' "$T/weighted/fits.tsv"
check "noisy: the report gives each slope its interval" \
	grep -q '^| sudo | sudoers | 18 | [0-9.]* ± [0-9.e-]* \[[0-9.]*, [0-9.]*\] | [0-9.]* ± [0-9.e-]* \[[0-9.]*, [0-9.]*\] |' "$T/weighted/report.md"
check "noisy: the data TSVs carry each point's 95 % interval around it (columns 9-10)" \
	awk -F'\t' '/^#/ { next } { n++; if (NF != 10 || $9 > $2 || $10 < $2 || $9 == $10) bad = 1 }
		END { exit (bad || n == 0) }' "$T/weighted/data/perf_tasks/"*.tsv
check "noisy: results without rarbench's additions are still read, the median as y" \
	grep -q 'to the median wall time of each point' "$T/weighted/report.md"
check "estimated: rarbench's estimate is the y, its interval the error bar and the weight" \
	sh -c "'$RARPLOT' --format png -o '$T/est' '$T/estimated.json' >/dev/null 2>'$T/est.err' &&
		grep -q 'trimmed estimate' '$T/est/report.md'"
check "estimated: the TSV's y is the estimate, its interval +/- 1 %" \
	$PY - "$T/estimated.json" "$T/est/data/perf_tasks" <<'PYEOF'
import glob, json, sys
res = json.load(open(sys.argv[1]))["results"]
want = {(e["parameters"]["subject"], int(e["parameters"]["nb_tasks"])): e["rarbench"]["estimate"] * 1e3 for e in res}
bad = n = 0
for f in glob.glob(sys.argv[2] + "/*.tsv"):
    subject = open(f).readline().split("subject=")[1].split()[0]
    for line in open(f):
        if line.startswith("#"):
            continue
        v = [float(c) for c in line.split("\t")]
        w = want[(subject, int(v[0]))]
        n += 1
        if abs(v[1] - w) > 1e-9 * w or abs(v[8] - 0.99 * w) > 1e-9 * w or abs(v[9] - 1.01 * w) > 1e-9 * w:
            bad = 1
sys.exit(bad or n != 54)
PYEOF
check "--stat estimate on a plain hyperfine export: exit 2, says why" \
	sh -c "! '$RARPLOT' --stat estimate --format none -o '$T/noest' tests/fixtures/rarplot/hyperfine-plain.json 2>'$T/noest.err' &&
		grep -q 'no rarbench estimate' '$T/noest.err'"
check "noisy: weighting changes the sudo fit" \
	sh -c "! cmp -s '$T/weighted/fits.tsv' '$T/unweighted/fits.tsv'"

# --- the figures ---------------------------------------------------------------------------
check "perf_tasks.png is PNG image data" sh -c "file -b '$T/weighted/perf_tasks.png' | grep -q '^PNG image data, 1000 x 760'"
check "perf_tasks.png is not trivial (> 20 kB)" test "$(wc -c <"$T/weighted/perf_tasks.png")" -gt 20000
check "perf_tasks.svg is SVG" sh -c "file -b '$T/weighted/perf_tasks.svg' | grep -q 'SVG'"
check "perf_tasks.svg has the legend with the intercept and slope" grep -q 'sudo/sudoers — 3.20 ms + 0.16[0-9]* ± [0-9.e-]* µs/task' "$T/weighted/perf_tasks.svg"
check "perf_tasks.pdf is a PDF document" sh -c "file -b '$T/weighted/perf_tasks.pdf' | grep -q '^PDF document'"
check "no temporary figure is left" sh -c "! ls -A '$T/weighted' | grep -q '^\\.'"
check "perf_roles is skipped with a reason when nb_roles does not vary" \
	grep -q 'perf_roles not drawn: .*only 1 distinct nb_roles value' "$T/weighted/report.md"
check "report.md shows the figure" grep -q '^!\[perf_tasks.png\](perf_tasks.png)$' "$T/weighted/report.md"
check "report.md: the figure comes before the verdicts' table" \
	awk '/^!\[perf_tasks.png\]/ { p = NR } /^## Verdicts/ { v = NR } END { exit !(p && v > p) }' "$T/weighted/report.md"
# A published run with profiles: its figure before the ~250 lines of profiles, not after them.
pub=doc/results/2026-12-01-debian12-2core/seed-tasks/results.json
if [ -f "$pub" ]; then
	"$RARPLOT" --format png -o "$T/pub" "$pub" >/dev/null 2>"$T/pub.err"
	check "a run with profiles: the figure link comes before the profile section" \
		awk '/^!\[perf_tasks.png\]\(perf_tasks.png\)$/ { p = NR } /^## Profiles/ { q = NR } /^## Verdicts/ { v = NR }
			END { exit !(p && v > p && q > v) }' "$T/pub/report.md"
else
	notok "the published run $pub is there"
fi
# The first Intel machine's run, quoted against the six AMD machines' intervals
# (doc/results/across-hosts.tsv): its README found sudo-rs's start-up and doas's per-task ratio
# below them, the rest inside. "On another machine" now says so for each quantity it quotes.
pub=doc/results/2026-12-04-debian12-2core-xeon167/seed-main/results.json
if [ -f "$pub" ]; then
	"$RARPLOT" --format none -o "$T/xeon" "$pub" >/dev/null 2>"$T/xeon.err"
	sed -n '/^## On another machine/,/^## Skipped/p' "$T/xeon/report.md" >"$T/xeon.another"
	check "On another machine: each quoted interval says whether this run falls inside it" \
		sh -c "[ \$(grep -o 'a new one \[[^]]*\] (this run [0-9.]*: \(inside\|outside, below\|outside, above\))' '$T/xeon.another' | wc -l) -eq \$(grep -o 'a new one \[' '$T/xeon.another' | wc -l) ] &&
			[ \$(grep -o 'a new one \[' '$T/xeon.another' | wc -l) -ge 8 ]" ||
		sed 's/^/    /' "$T/xeon.another" "$T/xeon.err"
	check "On another machine: the Intel run's sudo-rs start-up and doas per task below, sr-json inside" \
		sh -c "grep -q '^- sudo-rs against sudo, start-up (intercept ratio) [0-9.]* over 6 machines, a new one \[1.599, 2.031\] (this run 1.55[0-9]: outside, below), per unit (slope ratio) .* (this run 3.1[0-9]*: inside)\.$' '$T/xeon.another' &&
			grep -q '^- doas against sudo, .* per unit (slope ratio) [0-9.]* over 6 machines, a new one \[3.982, 10.535\] (this run 3.2[0-9]*: outside, below)' '$T/xeon.another' &&
			grep -q '^- sr-json against sudo, start-up (intercept ratio) [0-9.]* over 6 machines, a new one \[1.030, 1.270\] (this run 1.1[0-9]*: inside)' '$T/xeon.another'"
else
	notok "the published run $pub is there"
fi

# --- one look per subject, one legend entry each, axes ending at the data, log axes -----------
"$RARPLOT" --format png,svg -o "$T/wide" "$T/wide.json" >/dev/null 2>"$T/wide.err"
check "wide: rarplot runs" test $? -eq 0
svg_looks "$T/weighted/perf_tasks.svg" >"$T/looks.noisy"
svg_looks "$T/wide/perf_tasks.svg" >"$T/looks.wide"
look_of() { # $1 file, $2 legend name: its colour and line
	awk -F'\t' -v n="$2" 'index($1, n " — ") == 1 { print $2, $3 }' "$1"
}
check "one legend entry per subject (3 subjects, 3 entries; 4 in wide)" \
	sh -c "[ \$(wc -l <'$T/looks.noisy') -eq 3 ] && [ \$(wc -l <'$T/looks.wide') -eq 4 ]"
check "one legend entry per subject with its points and line together (no separate fit entry)" \
	sh -c "! grep -q ' fit: \\|95 % CI)' '$T/weighted/perf_tasks.svg' &&
		[ \$(grep -c '<title>sudo/sudoers — ' '$T/weighted/perf_tasks.svg') -eq 1 ]"
look_is() { # $1 looks file, $2 legend name, $3 "r,g,b solid|dashed"
	[ "$(awk -F'\t' -v n="$2" 'index($1, n " — ") == 1 { print $2, $3 }' "$1")" = "$3" ]
}
same_colour_twice() {
	look_is "$T/looks.noisy" sudo/sudoers '0,0,0 solid' && look_is "$T/looks.wide" sudo/sudoers '0,0,0 solid' &&
		look_is "$T/looks.noisy" sr-cbor/rar-cbor '0,114,178 solid' &&
		look_is "$T/looks.wide" sr-cbor/rar-cbor '0,114,178 solid'
}
check "the same subject has the same colour in two different inputs (sudo black, sr-cbor blue)" same_colour_twice
check "a PAM variant (doas-pam) has its tool's colour (doas: bluish green) and a dashed line" \
	sh -c "grep -q '^doas/doas — .*	0,158,115	solid\$' '$T/looks.noisy' && grep -q '^doas-pam/doas — .*	0,158,115	dashed\$' '$T/looks.wide'"
check "every subject of a figure has its own colour and line" \
	test "$(cut -f2,3 "$T/looks.wide" | sort -u | wc -l)" -eq 4
check "report.md lists each subject's look, the same in both runs" \
	sh -c "grep -qx '| sudo | sudoers | sudo/sudoers | black \`#000000\` | filled circle | solid |' '$T/weighted/report.md' &&
		grep -qx '| sudo | sudoers | sudo/sudoers | black \`#000000\` | filled circle | solid |' '$T/wide/report.md' &&
		grep -qx '| doas-pam | doas | doas-pam/doas | bluish green \`#009E73\` | open triangle | dashed |' '$T/wide/report.md'"
check "the x axis ends at the largest size (10000), not at the next tic beyond" \
	test "$(x_last_tic "$T/weighted/perf_tasks.svg")" = 10000
check "the x axis ends at the largest size (1000), not at 1200" \
	test "$(x_last_tic "$T/wide/perf_tasks.svg")" = 1000
check "the figure says the estimator and what the error bars are (median)" \
	sh -c "grep -q '<text>points: median of its runs, error bars: its 95 % interval (order statistics)</text>' '$T/weighted/perf_tasks.svg' && grep -q '<text>lines: weighted least squares</text>' '$T/weighted/perf_tasks.svg'"
check "the figure's caption in report.md says the estimator and what the error bars are (trimmed)" \
	grep -q "^perf_tasks: linear axes from 0 (as the seed drew it; perf_tasks_log shows the same on log–log axes)\. Points: rarbench's trimmed estimate (contended runs: unknown), error bars: its 95 % interval; lines: weighted least squares\.$" "$T/est/report.md"
check "sizes log-spaced (1..10000), slopes within 10x: perf_tasks_log drawn, saying why" \
	sh -c "[ -s '$T/weighted/perf_tasks_log.png' ] &&
		grep -q '^perf_tasks_log: log–log axes, drawn because the sizes are log-spaced (14 of 18 in the leftmost fifth of a linear axis' '$T/weighted/report.md'"
"$RARPLOT" --format svg -o "$T/even" "$T/even.json" >/dev/null 2>"$T/even.err"
check "sizes evenly spaced, slopes within 10x: no log figure" \
	sh -c "[ $? -eq 0 ] && [ -s '$T/even/perf_tasks.svg' ] && ! ls '$T/even' | grep -q '_log' &&
		! grep -q 'perf_tasks_log' '$T/even/report.md'"
"$RARPLOT" --format svg --x nb_roles -o "$T/roles" "$T/roles.json" >/dev/null 2>"$T/roles.err"
# x_tics FILE: the x axis's tic labels, space-separated.
x_tics() {
	$PY - "$1" <<'PYEOF'
import re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
print(" ".join(re.findall(r'text-anchor="middle">\s*<text><tspan font-family="Sans" >([0-9.e+]+)</tspan>', svg)))
PYEOF
}
tics=none
[ -s "$T/roles/perf_roles_log.svg" ] && tics=$(x_tics "$T/roles/perf_roles_log.svg")
check "perf_roles over log-spaced roles (1..100): perf_roles_log on log axes (x tics: $tics)" \
	sh -c "[ '$tics' = '1 10 100' ] &&
		grep -q '<text>Time to authorise one command vs. number of roles — log–log axes: log-spaced sizes</text>' '$T/roles/perf_roles_log.svg'" ||
	sed 's/^/    /' "$T/roles.err"
# y_tics FILE: the y axis's tic labels (right-aligned numbers), space-separated.
y_tics() {
	$PY - "$1" <<'PYEOF'
import re, sys
svg = open(sys.argv[1], encoding="utf-8").read()
print(" ".join(re.findall(r'text-anchor="end">\s*<text><tspan font-family="Sans" >([0-9.e+-]+)</tspan>', svg)))
PYEOF
}
# roles.json's times stay within one decade (2.0-4.0 ms): of the 1, 2 and 5 of each decade only 2
# falls on the axis; issue 55 saw an axis without a number (2.8-3.6 ms).
ytics=none
[ -s "$T/roles/perf_roles_log.svg" ] && ytics=$(y_tics "$T/roles/perf_roles_log.svg")
check "perf_roles_log within one decade (2.0-4.0 ms): the y axis has numbers (y tics: $ytics)" \
	sh -c "[ \$(echo '$ytics' | wc -w) -ge 2 ] && echo '$ytics' | grep -qw 3"
check "slopes spanning 185x: perf_tasks_log in every format, besides the linear perf_tasks" \
	sh -c "[ -s '$T/wide/perf_tasks_log.png' ] && [ -s '$T/wide/perf_tasks_log.svg' ] &&
		[ -s '$T/wide/perf_tasks.png' ] && [ -s '$T/wide/perf_tasks.svg' ]"
check "the log figure says why in its title, and report.md in its caption" \
	sh -c "grep -q '<text>Time to authorise one command vs. number of tasks — log–log axes: the slopes span 185×</text>' '$T/wide/perf_tasks_log.svg' &&
		grep -q '^perf_tasks_log: log–log axes, drawn because the fitted slopes span 185× (sr-json/rar-json 10 µs/task against sr-cbor/rar-cbor 0.054 µs/task)' '$T/wide/report.md' &&
		grep -qx '!\[perf_tasks_log.png\](perf_tasks_log.png)' '$T/wide/report.md'"
svg_looks "$T/wide/perf_tasks_log.svg" >"$T/looks.wide-log"
check "the log figure has the same looks and legend entries as the linear one" cmp -s "$T/looks.wide" "$T/looks.wide-log"
check "the log figure's x axis ends at the largest size (1000)" test "$(x_last_tic "$T/wide/perf_tasks_log.svg")" = 1000
"$RARPLOT" --format png -o "$T/zero" "$T/zero.json" >/dev/null 2>"$T/zero.err"
check "slopes spanning 185x with a size 0: exit 0, no log figure, a note saying why" \
	sh -c "[ $? -eq 0 ] && [ -s '$T/zero/perf_tasks.png' ] && [ ! -e '$T/zero/perf_tasks_log.png' ] &&
		grep -q 'perf_tasks_log not drawn: the fitted slopes span 185× .* log axes need every size and time above 0' '$T/zero/report.md'"

# --- several hosts -----------------------------------------------------------------------
check "merged results of three hosts" \
	sh -c "'$RARPLOT' --format png,svg -o '$T/hosts' '$T/merged.json' >'$T/hosts.out' 2>/dev/null"
check "fits.tsv has one row per subject and host" test "$(awk -F'\t' 'NR > 1' "$T/hosts/fits.tsv" | wc -l)" -eq 9
check "min/median/max slope across hosts: sudo scaled by 0.97, 1, 1.05" \
	awk -F' [|] ' '$1 == "| sudo" && $3 == "3" { if (($6 + 0) / ($4 + 0) < 1.07 || ($6 + 0) / ($4 + 0) > 1.09) exit 1; found = 1 }
		END { exit !found }' "$T/hosts.out"
check "the host figure draws the band across hosts" grep -q 'min–max over hosts' "$T/hosts/perf_tasks.svg"
check "the host figure: one legend entry per subject, not per host nor per band" \
	test "$(svg_looks "$T/hosts/perf_tasks.svg" | wc -l)" -eq 3
check "across hosts: the slope's variance split into within- and between-host parts" \
	sh -c "grep -q '| mean \[95 % CI\] | within-host σ | between-host σ | between share |' '$T/hosts.out' &&
		grep -q '^| sudo | sudoers | 3 | .* | [0-9.]* \[[0-9.]*, [0-9.]*\] | [0-9.e-]* | [0-9.e-]* | [0-9]*% |$' '$T/hosts.out'"

# --- a plain hyperfine export (subjects told apart by command) -------------------------------
check "a plain hyperfine export is read" \
	sh -c "'$RARPLOT' --format png -o '$T/plain' --baseline seq tests/fixtures/rarplot/hyperfine-plain.json >'$T/plain.out' 2>/dev/null"
check "its subjects are the commands' programs, format -" \
	sh -c "cut -f1,2,5 '$T/plain/fits.tsv' | tr '\t' ' ' | grep -qx 'seq - 3' && cut -f1,2,5 '$T/plain/fits.tsv' | tr '\t' ' ' | grep -qx 'printf - 3'"

# --- errors: one line, exit 2, nothing drawn --------------------------------------------------
expect_error() { # $1 description, $2 expected status, $3 pattern, rest: arguments
	d=$1 want=$2 pat=$3
	shift 3
	rm -rf "$T/err"
	"$RARPLOT" -o "$T/err" "$@" >"$T/err.out" 2>"$T/err.msg"
	st=$?
	if [ $st -eq "$want" ] && [ "$(wc -l <"$T/err.msg")" -eq 1 ] && grep -q -- "$pat" "$T/err.msg" &&
		[ ! -s "$T/err.out" ] && ! ls "$T/err"/*.png "$T/err"/*.svg "$T/err"/*.pdf >/dev/null 2>&1; then
		ok "$d"
	else
		notok "$d (status $st: $(cat "$T/err.msg"))"
	fi
}
expect_error "too few points: exit 2 naming the file" 2 \
	"$T/twopoints.json: subject sudo .*only 2 distinct nb_tasks values" "$T/twopoints.json"
expect_error "asked axis absent: exit 2 naming the file and axis" 2 \
	"hyperfine-plain.json: no result has the parameter nb_roles" --x nb_roles tests/fixtures/rarplot/hyperfine-plain.json
head -c 300 "$T/exact.json" >"$T/truncated.json"
expect_error "unreadable JSON: exit 2 naming the file" 2 "$T/truncated.json: not valid JSON" "$T/truncated.json"
expect_error "missing file: exit 2 naming it" 2 "$T/none.json: No such file" "$T/none.json"
expect_error "a second, bad input is named" 2 "$T/truncated.json" "$T/exact.json" "$T/truncated.json"
expect_error "bad --stat: exit 2" 2 "stat" --stat mode "$T/exact.json"
expect_error "--baseline naming no subject of the inputs: exit 2, one line listing the subjects" 2 \
	"--baseline sdo: no such subject in the inputs; subjects: seq, printf" \
	--baseline sdo tests/fixtures/rarplot/hyperfine-plain.json
# --- machines: hosts told apart, never pooled; combined across machines (issue 43) ------------
# Synthetic files with a machine identity: the noisy sweep as machine A (twice: repetitions) and
# scaled by 1.1 (the baseline) / 1.2 (doas) as machine B; a manifest of other axes; a file
# without the baseline; a lab's merged.json whose hosts share one boot.
$PY - "$T" <<'PYEOF'
import json, sys
out = sys.argv[1]
noisy = json.load(open(out + "/noisy.json"))["results"]
def meta(mid, boot, axes=None, family="25"):
    return {"name": "m", "manifest": {"name": "m", "axes": axes or {"nb_tasks": [1, 10000]},
                                      "command": "/usr/bin/true", "match": "last"},
            "machine": {"machine_id_sha256": mid, "boot_id_sha256": boot,
                        "cpu": {"model_name": "Test CPU " + mid, "family": family, "model": "1",
                                "stepping": "1", "microcode": "0x1"},
                        "kernel": {"release": "6.1.0", "build": "#1"}}}
def scaled(s_base, s_other):
    res = []
    for e in noisy:
        e2 = json.loads(json.dumps(e))
        s = s_base if e2["parameters"]["subject"] == "sudo" else s_other
        e2["times"] = [v * s for v in e2["times"]]
        for key in ("mean", "stddev", "median", "min", "max"):
            e2[key] *= s
        res.append(e2)
    return res
for name, res, m in (("ma1", noisy, meta("aaaa0001", "b0000001")),
                     ("ma2", noisy, meta("aaaa0001", "b0000002")),
                     ("mb", scaled(1.1, 1.2), meta("bbbb0002", "b0000003")),
                     ("mclone", scaled(1.1, 1.2), meta("aaaa0001", "b0000007", family="23")),
                     ("maxes", scaled(1.1, 1.2), meta("cccc0003", "b0000004", {"nb_tasks": [1, 100]})),
                     ("nobase", [e for e in noisy if e["parameters"]["subject"] != "sudo"],
                      meta("dddd0004", "b0000005"))):
    json.dump({"results": res, "meta": m}, open("%s/%s.json" % (out, name), "w"))
merged = json.load(open(out + "/merged.json"))
merged["meta"] = {"rarlab": {}, "hosts": {h: meta("eeee000%d" % i, "b0000006")
                                          for i, h in enumerate(("lab1", "lab2", "lab3"))}}
json.dump(merged, open(out + "/onebox.json", "w"))
PYEOF
expect_error "one machine id across two boots, the same CPU and kernel: exit 2 asking for --machines (a reboot, or a VM image's clones)" 2 \
	"one machine id, two boots, the same CPU and kernel: one machine rebooted, or two clones of one VM image" \
	"$T/ma1.json" "$T/ma2.json"
"$RARPLOT" --format none --machines same -o "$T/rep" "$T/ma1.json" "$T/ma2.json" >/dev/null 2>&1
check "two files of one machine (--machines same): repetitions, fitted together as one host" \
	sh -c "[ \$(cut -f3 '$T/rep/fits.tsv' | sort -u | grep -vc '^host$') -eq 1 ] && [ ! -e '$T/rep/across-hosts.tsv' ] &&
		grep -q '^## On another machine' '$T/rep/report.md'"
"$RARPLOT" --format none -o "$T/two" "$T/ma1.json" "$T/mb.json" >"$T/two.out" 2>"$T/two.err"
check "two machines: two hosts, each fitted on its own, across-hosts.tsv written" \
	sh -c "cut -f3 '$T/two/fits.tsv' | sort -u | tr '\n' ' ' | grep -qx 'host ma1.json mb.json ' &&
		[ -s '$T/two/across-hosts.tsv' ] && [ -s '$T/two/across-hosts-values.tsv' ]"
check "two machines: doas's intercept ratio is 1.2/1.1 as much on machine B, both combined" \
	$PY -c "
import csv, math, sys
rows = list(csv.DictReader(open('$T/two/across-hosts-values.tsv'), delimiter='\t'))
v = {r['host']: float(r['value']) for r in rows if r['subject'] == 'doas' and r['quantity'] == 'intercept_ratio'}
sys.exit(0 if abs(v['mb.json'] / v['ma1.json'] - 1.2 / 1.1) < 1e-6 else 1)"
"$RARPLOT" --format none -o "$T/clone" "$T/ma1.json" "$T/mclone.json" >/dev/null 2>&1
check "one machine id on another CPU (a VM image's clone): two hosts, never pooled" \
	sh -c "cut -f3 '$T/clone/fits.tsv' | sort -u | tr '\n' ' ' | grep -qx 'host ma1.json mclone.json ' &&
		[ -s '$T/clone/across-hosts.tsv' ]"
check "two machines: report.md opens with the across-machines section" \
	awk '/^## Across machines/ { a = NR } /^## Verdicts/ { v = NR } END { exit !(a && v > a) }' "$T/two/report.md"
expect_error "two machines of different manifests: exit 2 naming both files and what differs" 2 \
	"ma1.json and .*maxes.json: different manifests (their axes differs)" "$T/ma1.json" "$T/maxes.json"
expect_error "a machine without the baseline: exit 2 naming the file" 2 \
	"nobase.json: no baseline sudo" "$T/ma1.json" "$T/nobase.json"
expect_error "two files without a machine identity: exit 2 asking for --machines" 2 \
	"pass --machines distinct if they come from different machines" "$T/noisy.json" "$T/estimated.json"
expect_error "bad --machines: exit 2" 2 "--machines maybe: use auto, distinct or same" \
	--machines maybe "$T/exact.json"
"$RARPLOT" --format none -o "$T/onebox" "$T/onebox.json" >/dev/null 2>&1
check "a lab whose hosts share one boot: the report says they are one machine" \
	sh -c "grep -q '^\*\*One machine.\*\*' '$T/onebox/report.md' &&
		awk -F'\t' 'NR > 1 && \$14 != 1 { bad = 1 } END { exit bad }' '$T/onebox/across-hosts.tsv'"

# The three published seed runs (three machines, from before rarbench recorded the machine): three
# hosts, no pooled fit; sr-cbor-4.2.0 (measured on 2026-12-02 only) against sudo there only.
set -- doc/results/2026-11-30-debian12-2core/seed-tasks/results.json \
	doc/results/2026-12-01-debian12-2core/seed-tasks/results.json \
	doc/results/2026-12-02-debian12-2core/seed-tasks/results.json
if [ -f "$1" ] && [ -f "$2" ] && [ -f "$3" ]; then
	expect_error "the published three without --machines: exit 2, one line" 2 "--machines distinct" "$@"
	"$RARPLOT" --format none --machines distinct -o "$T/pub3" "$@" >/dev/null 2>"$T/pub3.err"
	check "published three: exit 0" [ $? -eq 0 ] || cat "$T/pub3.err"
	check "published three: three hosts, sudo fitted on each (no pooled fit)" \
		sh -c "[ \$(awk -F'\t' '\$1 == \"sudo\"' '$T/pub3/fits.tsv' | wc -l) -eq 3 ] &&
			awk -F'\t' '\$1 == \"sudo\"' '$T/pub3/fits.tsv' | cut -f3 | sort | tr '\n' ' ' |
			grep -qx '2026-11-30-debian12-2core 2026-12-01-debian12-2core 2026-12-02-debian12-2core '"
	check "published three: sr-cbor-4.2.0 against sudo on the 2026-12-02 machine only, one host" \
		sh -c "awk -F'\t' '\$1 == \"sr-cbor-4.2.0\" && \$3 == \"intercept_ratio\" { print \$4, \$15 }' '$T/pub3/across-hosts.tsv' |
			grep -qx '1 2026-12-02-debian12-2core' &&
			grep -q '^- sr-cbor-4.2.0 on 1 host (2026-12-02-debian12-2core): one host' '$T/pub3/report.md'"
	check "published three: a prediction interval for every subject two machines or more measured" \
		$PY -c "
import csv, sys
rows = [r for r in csv.DictReader(open('$T/pub3/across-hosts.tsv'), delimiter='\t')
        if r['quantity'] != 'crossover' and int(r['hosts']) >= 2]
subjects = {r['subject'] for r in rows}
ok = len(subjects) >= 8 and all(float(r['predict_lo']) < float(r['mean']) < float(r['predict_hi']) for r in rows)
sys.exit(0 if ok else 1)"
	check "published three: mean and prediction as Student's t over the hosts' logs (numpy)" \
		$PY -c "
import csv, math, sys
import numpy as np
t = {2: 12.7062, 3: 4.3027}
vals = {}
for r in csv.DictReader(open('$T/pub3/across-hosts-values.tsv'), delimiter='\t'):
    vals.setdefault((r['subject'], r['quantity']), []).append(float(r['value']))
bad = 0
for r in csv.DictReader(open('$T/pub3/across-hosts.tsv'), delimiter='\t'):
    k = int(r['hosts'])
    if r['scale'] != 'log' or k < 2:
        continue
    y = np.log(vals[(r['subject'], r['quantity'])]); s = y.std(ddof=1)
    hi = math.exp(y.mean() + t[k] * s * math.sqrt(1 + 1 / k))
    lo = math.exp(y.mean() - t[k] * s / math.sqrt(k))
    bad += abs(hi / float(r['predict_hi']) - 1) > 1e-4 or abs(lo / float(r['mean_lo']) - 1) > 1e-4
sys.exit(bad)"
else
	notok "the three published seed-tasks runs are there"
fi
mkdir -p "$T/nognuplot"
rm -rf "$T/err"
PATH=$T/nognuplot "$RARPLOT" -o "$T/err" "$T/exact.json" >"$T/err.out" 2>"$T/err.msg"
st=$?
if [ $st -eq 1 ] && grep -q 'gnuplot not found in PATH: install the Debian package gnuplot-nox' "$T/err.msg" &&
	[ ! -e "$T/err" ]; then
	ok "gnuplot missing from PATH: exit 1, names gnuplot-nox, writes nothing"
else
	notok "gnuplot missing from PATH (status $st: $(cat "$T/err.msg"))"
fi
PATH=$T/nognuplot "$RARPLOT" --format none -o "$T/nofig" "$T/exact.json" >/dev/null 2>&1
check "--format none needs no gnuplot and writes the report" test -s "$T/nofig/fits.tsv" -a -s "$T/nofig/report.md"
"$RARPLOT" >/dev/null 2>&1
check "no results file: exit 2" test $? -eq 2
"$RARPLOT" --format gif "$T/exact.json" >/dev/null 2>&1
check "unknown figure format: exit 2" test $? -eq 2
check "--help exits 0" sh -c "'$RARPLOT' --help | grep -q 'usage: rarplot'"
check "man page exists" test -s man/rarplot.1
"$RARPLOT" --help | grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/help.opts"
sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p; /^\.SH OPTIONS/,/^\.SH FILES/p' man/rarplot.1 |
	sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/man.opts"
check "rarplot(1) documents every option of --help, and no other" cmp -s "$T/help.opts" "$T/man.opts" ||
	diff "$T/help.opts" "$T/man.opts"

# --- bytes of a claims file are text: an 8-bit CSI, HTML, a bidi override ---------------------
printf 'evil\tdoas\tsudo\traw_pct\t-10\t\23331m<img src=x onerror=alert(1)> gpj.\342\200\256exe | \033]52;c;AA\007\n' \
	>"$T/hostile-claims.tsv"
# The lines of $1 with a raw CSI, ESC, BEL, bidi override or an HTML tag.
raw_bytes() {
	LC_ALL=C grep -c "$(printf '\233')\|$(printf '\033')\|$(printf '\007')\|$(printf '\342\200\256')\| <img" "$1"
}
"$RARPLOT" --format none -o "$T/hostile" --claims "$T/hostile-claims.tsv" "$T/exact.json" \
	>"$T/hostile.out" 2>"$T/hostile.err"
check "a hostile claims file: rarplot exits 0" test $? -eq 0
check "the hostile claims file holds a raw CSI, ESC, BEL, bidi override and HTML tag" \
	test "$(raw_bytes "$T/hostile-claims.tsv")" -eq 1
for f in report.md stdout; do
	file=$T/hostile/report.md
	[ $f = stdout ] && file=$T/hostile.out
	check "a hostile claim's words in $f: the CSI, the tag, the override and the pipe escaped" \
		grep -qF '| \x9b31m\<img src=x onerror=alert(1)\> gpj.\xe2\x80\xaeexe \| \x1b\]52;c;AA\x07 |' "$file"
	check "no raw CSI, ESC, BEL, bidi override nor HTML tag in $f" test "$(raw_bytes "$file")" -eq 0
done

# --- report.md names the estimator, the contended runs' treatment, what ± and the bars are ----
check "report.md: a file without meta names its results' estimator, the contended runs unknown" \
	grep -q "(from the results' meta): \`trimmed\` (the 20 % trimmed mean of the runs); \*\*contended runs\*\* (runs that waited for a CPU another task held): unknown" \
	"$T/est/report.md"
check "report.md: the estimate's weight is its 95 % half-width / 1.96, not stddev/sqrt(runs)" \
	sh -c "grep -q 'the half-width of its 95 % interval ÷ 1.96' '$T/est/report.md' && ! grep -q 'stddev/√runs' '$T/est/report.md'"
check "report.md: the median's weight is stddev/sqrt(runs), its error bar the order-statistic interval" \
	sh -c "grep -q 'σ its standard error: stddev/√runs' '$T/weighted/report.md' && grep -q 'order statistics of its times' '$T/weighted/report.md'"
check "report.md: ± is a standard error, brackets 95 % intervals" \
	grep -q '^- \*\*±\*\* in the tables: the standard error of the intercept or the slope.*\*\*Brackets\*\*: 95 % intervals' "$T/weighted/report.md"

# --- a constant series (gnuplot's fit finds its matrix singular), and a figure gnuplot fails on --------
$PY - "$T/const.json" <<'PYEOF'
import json, sys
res = []
for subj, slope in [("sudo", 1e-6), ("flat", 0.0)]:
    for x in [1, 10, 100, 1000]:
        t = 0.002 + slope * x
        res.append({"command": subj, "mean": t, "stddev": 0.0, "median": t, "user": 0, "system": 0,
                    "min": t, "max": t, "times": [t, t, t], "exit_codes": [0, 0, 0],
                    "parameters": {"nb_tasks": str(x), "subject": subj, "format": "f"}})
json.dump({"results": res}, open(sys.argv[1], "w"))
PYEOF
"$RARPLOT" -o "$T/const" --format png "$T/const.json" >/dev/null 2>"$T/const.err"
check "a constant series: exit 0, its figure, fits.tsv and report.md written" \
	sh -c "[ $? -eq 0 ] && [ -s '$T/const/perf_tasks.png' ] && [ -s '$T/const/fits.tsv' ] && [ -s '$T/const/report.md' ]"
mkdir -p "$T/badplots"
cp plots/*.gp "$T/badplots/"
echo 'exit status 3' >"$T/badplots/perf_tasks.gp"
"$RARPLOT" -o "$T/bad" --format png --plots-dir "$T/badplots" "$T/const.json" >/dev/null 2>"$T/bad.err"
check "a figure gnuplot fails on: exit 1, yet fits.tsv and report.md written and the failure noted" \
	sh -c "[ $? -eq 1 ] && [ -s '$T/bad/fits.tsv' ] && grep -q 'perf_tasks not drawn: gnuplot failed' '$T/bad/report.md'"
tap_status