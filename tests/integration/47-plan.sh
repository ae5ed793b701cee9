#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# Plan before you run: rarbench --manifest --dry-run checks a manifest against the provisioned
# prefix and prints the plan touching nothing; every problem with the subjects in one pass, exit
# 2; rarlab refuses a bad manifest before contacting any host.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
root=$PWD
rarbench=$root/bin/rarbench
rarlab=$root/bin/rarlab
. tests/lib/tap.sh

need jq
need_prefix "$prefix"
work=$(mktemp -d /tmp/rarperf-it-plan-XXXXXX)
trap 'rm -rf "$work"' EXIT
etc_state() { find "$prefix/etc" "$prefix/run" -printf '%p %m %s %T@\n' 2>/dev/null | LC_ALL=C sort; }

# --- 1. the seed's sweep: subjects, 14 points, runs and disk; nothing touched ---
etc_state >"$work/etc.before"
(cd "$work" && "$rarbench" --manifest "$root/experiments/seed-tasks.json" --prefix "$prefix" --dry-run) \
	>"$work/plan.out" 2>"$work/plan.err"
rc=$?
check "seed-tasks --dry-run: exit 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/plan.err"
check "the plan lists the 13 subjects with their resolved programs (please and pkexec among them)" \
	sh -c "grep -q 'Subjects (13 measured)' '$work/plan.out' && grep -q '$prefix/bin/dosr-cbor /usr/bin/true' '$work/plan.out' && grep -q 'shown at /etc/sudoers-rs' '$work/plan.out'"
check "the plan counts 14 points (15 log-spaced values, one duplicate)" grep -q '^Points: 14 ' "$work/plan.out"
check "the plan gives the runs and the timeout" grep -q 'Runs per point and subject: 100 warmup, at least 100 runs, more to fill 3 s; a run is killed after 60 s' "$work/plan.out"
check "the plan has one row of policy bytes per point" \
	[ "$(awk '/^Policy bytes/{f=1; next} f && /^ +[0-9]+ +1 +1 +[0-9]+ +1 /{n++} /^$/{f=0} END{print n+0}' "$work/plan.out")" = 14 ]
# The bytes it prints are the bytes confgen writes: the largest point's doas.conf, written here.
doas_planned=$(awk '/^Policy bytes/{f=1; next} f && $1 == "point" {for (i = 1; i <= NF; i++) if ($i == "doas") c = i}
	f && $4 == 10000 {print $c}' "$work/plan.out")
"$root/bin/confgen" --tasks 10000 --uid "$(jq -r .bench_uid "$prefix/facts.json")" --doas "$work/doas.conf" >/dev/null
check "the planned doas.conf of 10000 tasks ($doas_planned bytes) is the size confgen writes" \
	[ "$doas_planned" = "$(stat -c %s "$work/doas.conf")" ]
check "the plan gives the disk needed and the free space" grep -q '^Disk: at most .* free there' "$work/plan.out"
check "the plan estimates the wall time from the procedure, without a pilot, with its source" \
	grep -Eq '^Estimated wall time: about [0-9.]+-[0-9.]+ (s|min|h) \(the runs x each subject' "$work/plan.out"
check "with no earlier sweep in --out, the costs are the built-in per-tool ones, named" \
	grep -q '^  cost per run from built-in per-tool costs (doc/results/2026-12-01-debian12-2core) for sudo, sudo-rs, ' "$work/plan.out"
check "no 'unknown without a pilot' any more" sh -c "! grep -q 'unknown without a pilot' '$work/plan.out'"
etc_state >"$work/etc.after"
check "--dry-run left $prefix/etc and run/ byte-identical" cmp -s "$work/etc.before" "$work/etc.after"
check "--dry-run created no output directory" [ ! -e "$work/results" ]
runuser -u nobody -- "$rarbench" --manifest "$root/experiments/quick.json" --prefix "$prefix" --dry-run \
	>"$work/nobody.out" 2>&1
check "--dry-run works as any user" sh -c "[ $? -eq 0 ] && grep -q '^Points: 7 ' '$work/nobody.out'"

# --- 2. a typo measures nothing, loudly: every problem, one line each, exit 2 ---
cat >"$work/typos.json" <<JSON
{"name": "typos", "subjects": [
 {"id": "a", "format": "sudoers", "program": "{prefix}/bin/sudoo"},
 {"id": "b", "format": "rar-json", "rar_version": "4.1.7"},
 {"id": "c", "format": "doas", "policy": "/tmp/rarperf-plan-victim"},
 {"id": "d", "format": "rar-cbor", "program": "{prefix}/bin/dosr-json"}],
 "axes": {"nb_tasks": [1, 10]}}
JSON
(cd "$work" && "$rarbench" --manifest typos.json --prefix "$prefix" --dry-run) >"$work/typos.out" 2>"$work/typos.err"
rc=$?
check "problems: exit 2" [ "$rc" -eq 2 ]
check "misspelt program: named with its JSON path" grep -q '^typos.json: \$.subjects\[0\].program: .*/bin/sudoo is missing' "$work/typos.err"
check "rar_version 4.1.7: names the versions the prefix has" \
	grep -q '^typos.json: \$.subjects\[1\].rar_version: 4.1.7: the prefix has no RootAsRole 4.1.7 build (it has .*3.3.4' "$work/typos.err"
check "rar_version 4.1.7: says which make target builds RootAsRole's versions" \
	grep -q 'rar_version: 4.1.7: .*make provision builds those of rarperf_rootasrole_extra_versions' "$work/typos.err"
check "a program of the prefix that is missing: names the nearest (sudo) and says make provision builds every tool" \
	grep -q 'program: .*/bin/sudoo is missing (did you mean .*/bin/sudo? make provision builds every tool of the prefix' "$work/typos.err"
check "policy outside the prefix: named" grep -q '^typos.json: \$.subjects\[2\].policy: .*may only be written in' "$work/typos.err"
check "a JSON build given CBOR files: named" grep -q '^typos.json: \$.subjects\[3\].format: .*dosr-json reads rar-json policies, not rar-cbor' "$work/typos.err"
check "all of them in one pass, then the count" grep -Eq '^rarbench: typos.json: [4-9] problems with its subjects' "$work/typos.err"
check "nothing printed on stdout, nothing written" sh -c "[ ! -s '$work/typos.out' ] && [ ! -e /tmp/rarperf-plan-victim ] && [ ! -e '$work/results' ]"
echo '{"name": "v", "subjects": [{"id": "s", "format": "rar-json", "rar_version": "9.9.9"}]}' >"$work/v999.json"
(cd "$work" && "$rarbench" --manifest v999.json --prefix "$prefix" --dry-run) >/dev/null 2>"$work/v999.err"
check "rar_version 9.9.9: a format confgen cannot write, refused with the series it writes (exit 2)" \
	sh -c "[ $? -eq 2 ] && grep -q 'v999.json: \\$.subjects\\[0\\].rar_version: .*9.9.9.*cannot write.*4.2.x' '$work/v999.err'"
echo '{"name": "x", "colour": 1, "subjects": [{"id": "s", "format": "sudoers"}]}' >"$work/unknown.json"
(cd "$work" && "$rarbench" --manifest unknown.json --prefix "$prefix" --dry-run) >/dev/null 2>"$work/unknown.err"
check "unknown key: exit 2, one line with its path" \
	sh -c "[ $? -eq 2 ] && [ \$(wc -l <'$work/unknown.err') -eq 1 ] && grep -q 'unknown.json: \$.colour: unknown key' '$work/unknown.err'"
echo '{"name": "x", "colour": 1, "warmup": "3", "axes": {"nb_tasks": []}, "subjects": [{"id": "s", "format": "yaml"}]}' >"$work/many.json"
(cd "$work" && "$rarbench" --manifest many.json --prefix "$prefix" --dry-run) >/dev/null 2>"$work/many.err"
check "four manifest problems: all of them, one line each with its path, then how many (exit 2)" \
	sh -c "[ $? -eq 2 ] && grep -q '^many.json: \$.colour: unknown key' '$work/many.err' && grep -q '^many.json: \$.warmup: expected an integer' '$work/many.err' && grep -q '^many.json: \$.axes.nb_tasks: empty axis' '$work/many.err' && grep -q '^many.json: \$.subjects\[0\].format: unknown format' '$work/many.err' && grep -q '^many.json: 4 problems' '$work/many.err'"
sed 's/sudoo/sudo/; s/, "rar_version": "4.1.7"//; /"id": "c"/d; s/"program": "{prefix}\/bin\/dosr-json"/"optional": true, "program": "{prefix}\/bin\/nothing-here"/' \
	"$work/typos.json" >"$work/fixed.json"
(cd "$work" && "$rarbench" --manifest fixed.json --prefix "$prefix" --dry-run) >"$work/fixed.out" 2>&1
check "an optional subject that is missing is skipped, not an error" \
	sh -c "[ $? -eq 0 ] && grep -q 'd .*skipped: .*nothing-here is missing' '$work/fixed.out'"

# --- 2b. a sweep whose largest point cannot fit beside the previous one on PREFIX/etc's disk ---
subjects=$(seq 1 16 | sed 's/.*/{"id": "d&", "format": "doas"}/' | paste -sd,)
free_kib=$(df -Pk "$prefix/etc" | awk 'NR == 2 {print $4}')
# 16 doas.conf of 1 role x 10^6 tasks x C commands: 61 bytes a rule, C chosen to need more than free
cmds=$(awk -v f="$free_kib" 'BEGIN {c = int(f * 1024 / (2 * 16 * 1e6 * 60)) + 1; print (c < 100 ? c : 100)}')
echo "{\"name\": \"huge\", \"subjects\": [$subjects], \"axes\": {\"nb_tasks\": [1000000], \"nb_commands\": [$cmds]}, \"max_policy_bytes\": 68719476736}" >"$work/huge.json"
"$rarbench" --manifest "$work/huge.json" --prefix "$prefix" --dry-run >/dev/null 2>"$work/huge.err"
rc=$?
if [ "$cmds" -lt 100 ]; then
	check "a sweep larger than the free space: exit 2, one line naming the point and the space" \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/huge.err') -eq 1 ] && grep -q 'nb_tasks=1000000,nb_commands=$cmds needs .* is free' '$work/huge.err'"
else
	ok "a sweep larger than the free space # SKIP more free space ($free_kib KiB) than 16 subjects of 10^8 rules need"
fi

# --- 3. rar_version alone picks that version's build and files ---
if jq -e '.tools["dosr-4.0.3-cbor"].present' "$prefix/facts.json" >/dev/null 2>&1; then
	echo '{"name": "v4", "subjects": [{"id": "sr", "format": "rar-cbor", "rar_version": "4.0.3"}], "axes": {"nb_tasks": [1]}}' >"$work/v4.json"
	"$rarbench" --manifest "$work/v4.json" --prefix "$prefix" --dry-run >"$work/v4.out" 2>&1
	check "rar_version 4.0.3 alone plans bin/dosr-4.0.3-cbor with 4.0.3's files" \
		sh -c "[ $? -eq 0 ] && grep -q '$prefix/bin/dosr-4.0.3-cbor /usr/bin/true' '$work/v4.out' && grep -q 'policy $prefix/etc/rootasrole-4.0.3-cbor.json, data $prefix/etc/rootasrole-4.0.3-cbor.bin' '$work/v4.out'"
else
	notok "the prefix has RootAsRole 4.0.3 (facts.json): make provision"
fi

# --- 3b. the estimate against a real sweep: a tiny manifest planned, run, planned again ---
# range_s PLAN: the estimate's low and high ends in seconds.
range_s() {
	sed -n 's/^Estimated wall time: about \([0-9.]*\)-\([0-9.]*\) \(s\|min\|h\) .*/\1 \2 \3/p' "$1" |
		awk '{ f = $3 == "min" ? 60 : $3 == "h" ? 3600 : 1; print $1 * f, $2 * f }'
}
cat >"$work/tiny.json" <<JSON
{"name": "tiny", "subjects": [{"id": "sudo", "format": "sudoers"}, {"id": "doas", "format": "doas"},
 {"id": "sr-cbor", "format": "rar-cbor", "program": "{prefix}/bin/dosr-cbor"}],
 "axes": {"nb_roles": [1], "nb_users": [1], "nb_tasks": [1, 30, 300], "nb_commands": [1]},
 "command": "/usr/bin/true", "warmup": 9, "min_runs": 150, "max_runs": 150, "min_time_s": 0,
 "order": "interleaved", "rounds": 3, "seed": 1}
JSON
"$rarbench" --manifest "$work/tiny.json" --prefix "$prefix" --dry-run --out "$work/tiny" >"$work/tiny-before.out" 2>&1
read -r prior_lo prior_hi < <(range_s "$work/tiny-before.out")
"$rarbench" --manifest "$work/tiny.json" --prefix "$prefix" --wait --progress none --out "$work/tiny" \
	>/dev/null 2>"$work/tiny.err"
check "the tiny sweep runs" test $? -eq 0 || sed 's/^/    /' "$work/tiny.err"
# Its wall time from its own meta: from the prefix's lock taken to the results written.
real_s=$(jq -r '(.meta.finished | fromdateiso8601) - (.meta.started | fromdateiso8601)' "$work/tiny/results.json")
"$rarbench" --manifest "$work/tiny.json" --prefix "$prefix" --dry-run --out "$work/tiny" >"$work/tiny-after.out" 2>&1
read -r lo hi < <(range_s "$work/tiny-after.out")
echo "# tiny sweep: ${real_s} s; estimated before it ${prior_lo:-?}-${prior_hi:-?} s (built-in costs), after it ${lo:-?}-${hi:-?} s (its own)"
check "after the sweep, the costs are the last sweep's, named with its directory" \
	grep -q "^  cost per run from the last sweep in $work/tiny for sudo, doas, sr-cbor;" "$work/tiny-after.out"
within2() { # LO HI REAL: the range's middle (geometric) within a factor of 2 of REAL, REAL being
	# whole seconds (meta's timestamps): a 3 s sweep took 3 to 4 s
	awk -v lo="$1" -v hi="$2" -v real="$3" 'BEGIN { m = sqrt(lo * hi); exit !(lo > 0 && real > 0 && m <= 2 * (real + 1) && m >= real / 2) }'
}
check "the estimate from the last sweep (${lo:-?}-${hi:-?} s) lies within a factor of 2 of the real ${real_s} s" \
	within2 "${lo:-0}" "${hi:-0}" "${real_s:-0}"
# The built-in costs were measured on another machine (2-core AMD VMs): on a host that takes the
# CPU away from its guest (issue 53: a 1 ms loop took 1-8 ms) or a slower one the sweep takes
# longer than they say, rightly. Printed, not required; the estimate from the sweep's own costs
# above is this host's, and is required.
if within2 "${prior_lo:-0}" "${prior_hi:-0}" "${real_s:-0}"; then
	echo "# the estimate from built-in costs (${prior_lo:-?}-${prior_hi:-?} s) lies within a factor of 2 of the real ${real_s} s"
else
	echo "# the estimate from built-in costs (${prior_lo:-?}-${prior_hi:-?} s) misses the real ${real_s} s by more than a factor of 2: this host is not the built-in costs' (printed, not a failure)"
fi
check "the estimate from built-in costs is a range in seconds (${prior_lo:-?}-${prior_hi:-?} s)" \
	awk -v lo="${prior_lo:-0}" -v hi="${prior_hi:-0}" 'BEGIN { exit !(lo > 0 && hi >= lo) }'

# --- 4. rarlab checks the manifest before contacting any host ---
printf '[bench]\nunreachable ansible_host=127.0.0.1 ansible_port=9\n' >"$work/inv.ini"
for m in typos unknown; do
	start=$(date +%s%N)
	(cd "$work" && "$rarlab" -i inv.ini --connect-timeout 30 "$m.json") >"$work/lab-$m.out" 2>"$work/lab-$m.err"
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	check "rarlab with $m.json: exit 2 in ${ms} ms, no host contacted, nothing written" \
		sh -c "[ $rc -eq 2 ] && [ $ms -lt 5000 ] && [ ! -e '$work/rarlab-out' ]"
done
check "rarlab names the problem" grep -q 'unknown.json: \$.colour: unknown key' "$work/lab-unknown.err"
(cd "$work" && "$rarlab" -i inv.ini --dry-run "$root/experiments/quick.json") >"$work/lab-dry.out" 2>&1
check "rarlab --dry-run: exit 0, the hosts listed, none contacted" \
	sh -c "[ $? -eq 0 ] && grep -q 'quick.json: 10 subjects, 7 points, on 1 host: unreachable' '$work/lab-dry.out' && [ ! -e '$work/rarlab-out' ]"

tap_status
