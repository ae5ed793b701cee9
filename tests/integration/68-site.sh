#!/bin/sh
# 68-site: rarsite builds the site of every published run (doc/results/), and headless Chromium
# (Debian's) loads every page: no console error, no broken link or image, no request outside
# file://; the headline figure in screenshots at 1280 and 390 px; a hover shows a known point's
# value. The site's numbers are the published fits' (site_numbers.py). The Bencher export of a
# published run validates against Bencher's schema and equals its fits.tsv. Bad input: one line,
# exit 2.
set -u
cd "$(dirname "$0")/../.." || exit 2
RARSITE=$PWD/bin/rarsite
PY=/usr/bin/python3
. tests/lib/tap.sh
[ -x "$RARSITE" ] || { echo "not ok - bin/rarsite is built"; exit 1; }
need /usr/bin/chromium
need_python_module jsonschema
T=$(mktemp -d /tmp/rarsite-test.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
SHOTS=build/test-logs/68-site
mkdir -p "$SHOTS"

# --- the site ---------------------------------------------------------------------------------
start=$(date +%s%N)
check "rarsite builds the site from doc/results" "$RARSITE" -o "$T/site" 2>"$T/err"
ms=$((($(date +%s%N) - start) / 1000000))
echo "# rarsite: $ms ms, $(find "$T/site" -type f | wc -l) files, $(du -sh "$T/site" | cut -f1)"
for p in index across runs history counts; do
	check "$p.html written" test -s "$T/site/$p.html"
done
missing=
for d in doc/results/*/; do
	r=$(basename "$d")
	[ -s "$T/site/runs/$r/index.html" ] || missing="$missing $r"
done
check "every published run has its page${missing:+ (missing:$missing)}" test -z "$missing"
check "the history page shows the 3.3.4 -> 4.0.3 change and the change points" \
	grep -q 'id="step-334-403"' "$T/site/history.html"
check "... with 3.3.4 -> 4.0.0 marked as a step" grep -q '3.3.4→4.0.0:' "$T/site/history.html"
if grep -q 'id="counts-none"' "$T/site/counts.html"; then
	ok "counts.html says no published run carries instruction counts yet"
else
	check "counts.html shows the counts a fits.tsv carries" grep -q 'instr' "$T/site/counts.html"
fi
check "no page loads anything from outside the site (CSP and no http(s) src)" \
	sh -c "! grep -l -E '(src|href)=\"(https?:)?//' '$T/site'/*.html '$T/site'/runs/*/index.html"
check "the site's numbers are the published files' numbers" $PY tests/lib/site_numbers.py "$T/site" doc/results

# --- a second build over the first: the same pages --------------------------------------------
cp "$T/site/index.html" "$T/site/runs.html" "$T/"
"$RARSITE" -o "$T/site" 2>/dev/null
check "a second build over the first gives the same pages" \
	sh -c "cmp -s '$T/index.html' '$T/site/index.html' && cmp -s '$T/runs.html' '$T/site/runs.html'"

# --- bad input: one line, exit 2, nothing written -----------------------------------------------
"$RARSITE" --results "$T/none" -o "$T/bad1" 2>"$T/err"
rc=$?
check "a missing results folder: exit 2, one line naming it" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q '$T/none' '$T/err' && [ ! -e '$T/bad1' ]"
mkdir -p "$T/res/2026-01-01-x/sweep"
printf 'subject\tquantity\tmean\nsudo\tslope_ratio\n' >"$T/res/across-hosts.tsv"
printf '{}' >"$T/res/2026-01-01-x/sweep/results.json"
"$RARSITE" --results "$T/res" -o "$T/bad2" 2>"$T/err"
rc=$?
check "a short row of across-hosts.tsv: exit 2, FILE:LINE named" \
	sh -c "[ $rc -eq 2 ] && grep -q 'across-hosts.tsv:2: expected 3 tab-separated fields' '$T/err' && [ ! -e '$T/bad2' ]"
printf 'subject\tquantity\tmean\nsudo\tslope_ratio\t1\n' >"$T/res/across-hosts.tsv"
printf '{"meta": {"host": {"cpus": "two"}}}' >"$T/res/2026-01-01-x/sweep/results.json"
"$RARSITE" --results "$T/res" -o "$T/bad3" 2>"$T/err"
rc=$?
check "a results.json whose meta has a wrong type: exit 2, the file and key named" \
	sh -c "[ $rc -eq 2 ] && grep -q 'sweep/results.json.*meta.host.cpus' '$T/err'"

# --- the programs' conventions (as 41-newcomer-mistakes checks the others') ---------------------
for h in -h --help; do
	check "rarsite $h: exit 0, its usage" sh -c "'$RARSITE' $h | grep -q '^usage: rarsite'"
done
for v in -V --version; do
	check "rarsite $v: exit 0, \"rarsite VERSION (COMMIT)\"" sh -c \
		"'$RARSITE' $v | grep -qE '^rarsite [0-9]+\\.[0-9]+\\.[0-9]+ \\(([0-9a-f]+|unknown)\\)\$'"
done
"$RARSITE" --res doc/results -o "$T/bad4" 2>"$T/err"
rc=$?
check "an abbreviation (--res): exit 2, the option to write in full" \
	sh -c "[ $rc -eq 2 ] && grep -q \"'--res' is not an option: long options are written in full (--results\" '$T/err' && [ ! -e '$T/bad4' ]"

# --- Bencher Metric Format ------------------------------------------------------------------------
RUN=doc/results/2026-12-03-debian12-2core-v1147/seed-tasks
check "rarsite --bmf writes a published run's fits" "$RARSITE" --bmf "$T/bmf.json" "$RUN/results.json"
check "the BMF file validates against Bencher's schema (tests/fixtures/bencher-bmf.schema.json)" \
	$PY -c 'import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
jsonschema.validate(json.load(open(sys.argv[2])), schema)' tests/fixtures/bencher-bmf.schema.json "$T/bmf.json"
check "the schema accepts Bencher's documented example and refuses a measure without a value" \
	$PY -c 'import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
example = {"benchmark_name": {"latency": {"value": 88.0, "lower_value": 87.42, "upper_value": 88.88},
                              "throughput": {"value": 5.55, "lower_value": 3.14, "upper_value": 6.30}},
           "/bin/sh -c ./my_build_script.sh": {"build-time": {"value": 87.0}},
           "my_binary": {"file-size": {"value": 42.0}}}
jsonschema.validate(example, schema)
for bad in ({"b": {"m": {"lower_value": 1}}}, {"b": {"m": {"value": "1"}}}, {"b": {"m": 1}}):
    try:
        jsonschema.validate(bad, schema)
    except jsonschema.ValidationError:
        continue
    sys.exit("accepted %r" % bad)' tests/fixtures/bencher-bmf.schema.json
check "every fit of fits.tsv is a benchmark with its intercept and slope and their intervals" \
	$PY -c 'import json, sys
bmf = json.load(open(sys.argv[1]))
lines = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
head, rows = lines[0], lines[1:]
c = {k: i for i, k in enumerate(head)}
assert len(bmf) == len(rows), (len(bmf), len(rows))
def close(a, b): return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1e-12)
for r in rows:
    name = "seed-tasks/%s/%s" % (r[c["subject"]], r[c["format"]]) + ("" if r[c["host"]] == "-" else "/" + r[c["host"]])
    b = bmf[name]
    for key, cols in (("intercept-ms", ("intercept_ms", "intercept_lo_ms", "intercept_hi_ms")),
                      ("slope-us-per-task", ("slope_us", "slope_lo_us", "slope_hi_us"))):
        got = (b[key]["value"], b[key]["lower_value"], b[key]["upper_value"])
        want = tuple(float(r[c[k]]) for k in cols)
        assert all(close(g, w) for g, w in zip(got, want)), (name, key, got, want)
print("# %d benchmarks equal fits.tsv" % len(rows))' "$T/bmf.json" "$RUN/fits.tsv"

# --- in a real browser ---------------------------------------------------------------------------
$PY tests/lib/site_browser.py "$T/site" doc/results "$SHOTS" >"$T/browser.tap" 2>&1
cat "$T/browser.tap"
fails=$((fails + $(grep -c '^not ok' "$T/browser.tap")))
[ -s "$T/browser.tap" ] && grep -q '^ok' "$T/browser.tap" || notok "the browser test ran"
tap_status
