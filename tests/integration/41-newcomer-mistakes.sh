#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# Mistakes a newcomer makes, each answered with exit 2 and one message that names the fix:
# a typo'd manifest key, axis, program, RootAsRole version, order and rarplot axis (plain and
# --compare); a trailing comma; a missing manifest; a one-sided --compare; --dry-run without a
# manifest; and issue 46's slips: a manifest given as rarbench's command or to rarplot, an
# abbreviated long option in each program, --dryrun, "repetitions": 3 (a warning), and
# -h/--help, -V/--version in every program.
# Every case runs the real programs against the provisioned prefix (dry runs: nothing is written).
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
root=$PWD
rarbench=$root/bin/rarbench
rarplot=$root/bin/rarplot
. tests/lib/tap.sh

need_prefix "$prefix"
work=$(mktemp -d /tmp/rarperf-it-newcomer-XXXXXX)
trap 'rm -rf "$work"' EXIT

# mistake NAME WANT CMD...: CMD exits 2 and its stderr holds WANT (a fixed string), nothing on
# stdout is needed. The message is shown when the case fails.
mistake() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$work/$name.out" 2>"$work/$name.err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF -- "$want" "$work/$name.err"; then
		ok "$name: exit 2, names the fix ($want)"
	else
		notok "$name: exit $rc, expected 2 and \"$want\""
		sed 's/^/    /' "$work/$name.err"
	fi
}

# A manifest the guide's question would write (doc/guide-first-comparison.md), then one typo
# at a time. jq edits it so that each case differs from the good one by its mistake only.
cat >"$work/good.json" <<'JSON'
{
  "name": "roles",
  "subjects": [
    {"id": "sudo", "format": "sudoers"},
    {"id": "sr-cbor", "format": "rar-cbor", "program": "{prefix}/bin/dosr-cbor"}
  ],
  "axes": {"nb_roles": [1, 10, 100], "nb_tasks": [1]},
  "bench_user": "rarperf",
  "min_runs": 10,
  "max_runs": 10
}
JSON
dry() { "$rarbench" --manifest "$1" --prefix "$prefix" --dry-run; }
"$rarbench" --manifest "$work/good.json" --prefix "$prefix" --dry-run >"$work/good.out" 2>&1
check "the good manifest's dry run passes (so each case below fails for its mistake alone)" \
	grep -q '^Points: 3 ' "$work/good.out" || sed 's/^/    /' "$work/good.out"

jq '. + {"repetition": 3}' "$work/good.json" >"$work/key.json"
mistake "1. typo'd key" '$.repetition: unknown key (did you mean "repetitions"?)' dry "$work/key.json"

jq '.axes = {"nb_role": [1, 10, 100]}' "$work/good.json" >"$work/axis.json"
mistake "2. typo'd axis" '$.axes.nb_role: unknown key (did you mean "nb_roles"?)' dry "$work/axis.json"

jq '.subjects[1].program = "{prefix}/bin/sr-cbor"' "$work/good.json" >"$work/program.json"
mistake "3. typo'd program" "did you mean $prefix/bin/dosr-cbor?" dry "$work/program.json"

jq '.subjects[1] = {"id": "sr-cbor", "format": "rar-cbor", "rar_version": "3.3.5"}' \
	"$work/good.json" >"$work/version.json"
mistake "4. typo'd RootAsRole version" 'the prefix has no RootAsRole 3.3.5 build (it has ' \
	dry "$work/version.json"
check "4. the message lists the versions the prefix has, 3.3.4 among them" \
	grep -qE 'build \(it has ([0-9.]+, )*3\.3\.4[,;]' "$work/4. typo'd RootAsRole version.err"

# 5. A trailing comma, as an editor leaves it after deleting the last key.
sed 's/"max_runs": 10/"max_runs": 10,/' "$work/good.json" >"$work/comma.json"
line=$(grep -n '^}' "$work/comma.json" | cut -d: -f1)
mistake "5. trailing comma" \
	"comma.json: line $line, column 1: not valid JSON (a comma before a closing bracket: JSON allows no trailing comma, remove it)" \
	dry "$work/comma.json"

mistake "6. missing manifest file" "nosuch.json: cannot open: No such file or directory (the shipped manifests are rarperf's experiments/*.json)" dry "$work/nosuch.json"

jq '.order = "interleave"' "$work/good.json" >"$work/order.json"
mistake "7. typo'd order" 'unknown order "interleave" (did you mean "interleaved"?)' dry "$work/order.json"

mistake "8. --dry-run without --manifest" '--dry-run goes with --manifest FILE' "$rarbench" --dry-run

# rarplot on real results: the published seed-tasks sweep, its tasks relabelled as roles (a
# roles sweep read with the default --x nb_tasks).
pub=doc/results/2026-12-01-debian12-2core/seed-tasks/results.json
jq '.results |= map(.parameters.nb_roles = .parameters.nb_tasks | .parameters.nb_tasks = "1")' \
	"$pub" >"$work/roles.json"
mistake "9. a roles sweep drawn along nb_tasks" '(the inputs vary nb_roles: try --x nb_roles)' \
	"$rarplot" --format none -o "$work/plot" "$work/roles.json"
mistake "9b. typo'd --x" 'no result has the parameter nb_role' \
	"$rarplot" --format none --x nb_role -o "$work/plot" "$work/roles.json"
# --compare gives the same hint (issue 53: it said "only 1 distinct x value" alone), on the
# guide's own roles sweeps (doc/guide-first-comparison.md), one sweep and the three.
roles=doc/results/2026-12-02-debian12-2core-guide
mistake "9c. --compare on a roles sweep without --x" '(the inputs vary nb_roles: try --x nb_roles)' \
	"$rarplot" --compare sudo:sr-cbor "$roles/roles-run-1/results.json"
mistake "9d. --compare on three roles sweeps without --x" '(the inputs vary nb_roles: try --x nb_roles)' \
	"$rarplot" --compare sudo:sr-cbor "$roles"/roles-run-1/results.json "$roles"/roles-run-2/results.json \
	"$roles"/roles-run-3/results.json

mistake "10. one-sided --compare" 'BASELINE:CANDIDATE' "$rarplot" --compare sudo "$pub"

# --- issue 46's slips: each one line, exit 2, naming the fix -------------------------------------
# slip NAME WANT CMD...: as mistake, and the answer is one line (no usage text after it).
slip() {
	local name=$1
	mistake "$@"
	check "$name: one line" [ "$(wc -l <"$work/$name.err")" -eq 1 ]
}
# Run from the checkout, as a newcomer types them.
slip "11. a manifest without --manifest" \
	'rarbench: experiments/quick.json is a manifest: use --manifest experiments/quick.json' \
	"$rarbench" experiments/quick.json
slip "12. rarplot given a manifest" \
	'experiments/quick.json is a manifest (rarbench --manifest experiments/quick.json --out DIR runs it): rarplot reads the DIR/results.json a sweep writes, or a hyperfine export' \
	"$rarplot" experiments/quick.json
# getopt_long takes any unique prefix of a long option: "--out x" was rarbench's --output x.
slip "13. --out without --manifest" '--out goes with --manifest FILE' \
	"$rarbench" --out "$work/x" -N --runs 1 true
slip "13b. an abbreviation: rarbench --run 3" \
	"'--run' is not an option: long options are written in full (--runs" "$rarbench" --run 3 -N true
slip "13c. an abbreviation in manifest mode: --dry" "'--dry' is not an option: long options are written in full (--dry-run" \
	"$rarbench" --manifest "$work/good.json" --prefix "$prefix" --dry
slip "13d. an abbreviation: rarplot --form none" "'--form' is not an option: long options are written in full (--format" \
	"$rarplot" --form none "$pub"
slip "13e. an abbreviation: confgen --tas 3" "'--tas' is not an option: long options are written in full (--tasks" \
	"$root/bin/confgen" --tas 3 --uid 1 --size
slip "13f. an abbreviation: rarlab --inv" "'--inv' is not an option: long options are written in full (--inventory" \
	"$root/bin/rarlab" --inv x "$work/good.json"
check "13g. the option written in full still works (rarbench --runs 1)" "$rarbench" --runs 1 -N --style none true
slip "14. --dryrun" "unknown option '--dryrun' (did you mean --dry-run?" \
	"$rarbench" --manifest "$work/good.json" --prefix "$prefix" --dryrun
slip "14b. --dryrun without --manifest" "unknown option '--dryrun' (did you mean --dry-run?" "$rarbench" --dryrun

# "repetitions": 3 is allowed, but never how to repeat an experiment (the guide, step 3): a warning.
jq '. + {"repetitions": 3}' "$work/good.json" >"$work/reps.json"
dry "$work/reps.json" >"$work/reps.out" 2>"$work/reps.err"
rc=$?
check "15. \"repetitions\": 3: the dry run passes (exit $rc) and warns with the guide's advice" sh -c \
	"[ $rc -eq 0 ] && grep -qF 'run 3 sweeps into 3 --out directories and compare them (doc/guide-first-comparison.md, step 3)' '$work/reps.err'" ||
	sed 's/^/    /' "$work/reps.err"

# Every program answers -h/--help (its usage on stdout) and -V/--version ("PROG VERSION (COMMIT)"),
# exit 0; rarref and rarlaunch, which rarbench starts, too.
for prog in rarbench rarplot rarlab confgen rarref rarlaunch; do
	for h in -h --help; do
		out=$("$root/bin/$prog" "$h" 2>&1)
		rc=$?
		check "16. $prog $h: exit 0, its usage" sh -c "[ $rc -eq 0 ] && printf '%s\n' \"\$1\" | grep -qi '^usage: $prog'" _ "$out"
	done
	for v in -V --version; do
		out=$("$root/bin/$prog" "$v" 2>&1)
		rc=$?
		check "16. $prog $v: exit 0, \"$prog VERSION (COMMIT)\"" sh -c \
			"[ $rc -eq 0 ] && [ \"\$(printf '%s\n' \"\$1\" | grep -c .)\" -eq 1 ] && printf '%s\n' \"\$1\" | grep -qE '^$prog [0-9]+\.[0-9]+\.[0-9]+ \([0-9a-f]+|unknown\)\$'" _ "$out"
	done
done
out=$("$rarbench" --manifest x --version 2>&1)
check "16. rarbench --manifest FILE --version: the same line" sh -c "printf '%s\n' \"\$1\" | grep -qE '^rarbench [0-9.]+ \('" _ "$out"
slip "17. rarlaunch by hand" 'rarlaunch: started by rarbench as rarlaunch FD PPID host|loopback, not by hand' \
	"$root/bin/rarlaunch" 3
slip "17b. rarref with a bad count" 'rarref: UNITS is a whole number from 0 to 100000' "$root/bin/rarref" many

check "nothing was written by any of the mistakes" [ ! -e "$work/plot" ] && [ ! -e "$work/x" ]
tap_status
