#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# Ten mistakes a newcomer makes, each answered with exit 2 and one message that names the fix:
# a typo'd manifest key, axis, program, RootAsRole version, order and rarplot axis; a trailing
# comma; a missing manifest; a one-sided --compare; --dry-run without a manifest. Every case runs
# the real programs against the provisioned prefix (dry runs: nothing is written).
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

mistake "10. one-sided --compare" 'BASELINE:CANDIDATE' "$rarplot" --compare sudo "$pub"

check "nothing was written by any of the mistakes" [ ! -e "$work/plot" ]
tap_status
