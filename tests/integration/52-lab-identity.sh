#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# rarlab compares a lab's hosts before running anything: five namespace hosts (tests/lib/nshosts.sh)
# see a copy of the provisioned prefix through an overlay (their own writable layer and prefix lock); on
# each, facts.json records its sudo's SHA-256 as roles/rarperf_facts does. c's sshd runs with
# another hard descriptor limit, d has another sudo build (a rebuilt binary, its facts updated),
# e refuses the coordinator's key. rarlab must refuse the lab with a table naming c and d and
# what differs, run nothing anywhere; run an identical subset; with --allow-mixed run all,
# grouped apart in the summary, lab.json, merged.json and rarplot's report.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
. tests/lib/tap.sh
need ip unshare /usr/sbin/sshd jq prlimit sha256sum
prefix=${RARPERF_PREFIX:-/opt/rarperf}
need_prefix "$prefix"
rarlab=$PWD/bin/rarlab rarplot=$PWD/bin/rarplot
[ -x "$rarlab" ] || { notok "bin/rarlab is missing: run make first"; exit 1; }

. tests/lib/nshosts.sh
tmp=$(mktemp -d /tmp/rp-it52.XXXXXX)
cleanup() {
	nshosts_down
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# the hosts read a copy of the prefix (runs on it go on meanwhile), each through an overlay
NSHOSTS_PREFIX_MNT=$prefix
nshosts_snapshot_prefix "$prefix" || { notok "copy of $prefix"; exit 1; }

a=i$$a b=i$$b c=i$$c d=i$$d e=i$$e
hard=$(prlimit --pid $$ --raw --noheadings -o HARD --nofile)
other=$((hard > 8192 ? 4096 : hard * 2))
up=0
nshosts_up "$a" "$b" || up=1
NSHOSTS_SSHD_WRAP="prlimit --nofile=1024:$other" nshosts_up "$c" || up=1
nshosts_up "$d" "$e" || up=1
if [ $up -eq 0 ]; then ok "five namespace hosts up over $prefix"; else
	notok "five namespace hosts up"
	exit 1
fi
nshosts_inventory "$tmp/lab.ini"
nshosts_known_hosts "$tmp/known_hosts"

# facts.json as the facts role writes it now: each tool's SHA-256 (into the host's own layer)
record_sha() {
	nshosts_exec "$1" "cd $prefix && jq --arg s \"\$(sha256sum bin/sudo | cut -d' ' -f1)\" \
		'.tools.sudo.sha256 = \$s' facts.json >facts.json.new && mv facts.json.new facts.json"
}
# d: another sudo build (the same binary with a byte appended), installed as the role does
nshosts_exec "$d" "cd $prefix/bin && cp sudo sudo.new && printf '\\n' >>sudo.new &&
	chown root:rarperf sudo.new && chmod 4750 sudo.new && mv sudo.new sudo"
for h in "$a" "$b" "$c" "$d" "$e"; do record_sha "$h"; done
check "$c's sessions have hard nofile $other, the others $hard" \
	test "$(nshosts_exec "$c" ulimit -Hn) $(nshosts_exec "$a" ulimit -Hn)" = "$other $hard"
sha_a=$(jq -r .tools.sudo.sha256 "$NSHOSTS_STATE/$a/prefix/facts.json")
sha_d=$(jq -r .tools.sudo.sha256 "$NSHOSTS_STATE/$d/prefix/facts.json")
check "$d's sudo is another build ($sha_d vs $sha_a)" test "${#sha_d}" = 64 -a "$sha_d" != "$sha_a"
nshosts_revoke_key "$e"

cat >"$tmp/m.json" <<'JSON'
{"name": "it52", "bench_user": "rarperf",
 "subjects": [{"id": "sudo", "format": "sudoers"}],
 "axes": {"nb_tasks": [1, 10, 30]}, "warmup": 1, "min_runs": 5, "max_runs": 5}
JSON
lab() { "$rarlab" -i "$tmp/lab.ini" --known-hosts "$tmp/known_hosts" --remote-dir "$prefix/runs" \
	--connect-timeout 5 "$@" "$tmp/m.json"; }
outcome() { awk -F'\t' -v h="$2" '$1 == h { print $2 }' "$1/summary.tsv"; }
group() { awk -F'\t' -v h="$2" '$1 == h { print $8 }' "$1/summary.tsv"; }

# --- a lab that differs is refused ----------------------------------------------------------
lab -o "$tmp/refused" >"$tmp/refused.out" 2>"$tmp/refused.err"
rc=$?
check "a lab that differs is refused: exit 2" test $rc -eq 2
check "the table names limit.nofile: $c has $other, $a and $b $hard" sh -c "
	grep -A2 '^  limit.nofile:' '$tmp/refused.err' | grep -qE '^    $other +$c\$' &&
	grep -A2 '^  limit.nofile:' '$tmp/refused.err' | grep -qE '^    $hard +$a $b $d\$'"
check "the table names tool.sudo.sha256: $d's build apart" sh -c "
	grep -A2 '^  tool.sudo.sha256:' '$tmp/refused.err' | grep -qE '^    $sha_d +$d\$'"
check "nothing else differs (2 keys, 3 groups)" grep -q "differ in 2 keys, 3 groups" "$tmp/refused.err"
check "refused: no host ran anything, no merged.json" sh -c "
	! ls -d '$NSHOSTS_STATE'/*/prefix/runs 2>/dev/null | grep -q . && [ ! -e '$tmp/refused/merged.json' ]"
check "refused: DIR/lab.json says which hosts differ" \
	test "$(jq -c '[.identical, (.groups | map(.hosts | join(",")))]' "$tmp/refused/lab.json")" \
	= "[false,[\"$a,$b\",\"$c\",\"$d\"]]"

# --- an identical subset runs; a host that cannot be read keeps its outcome -------------------
lab -o "$tmp/same" -l "$a,$b,$e" >"$tmp/same.out" 2>"$tmp/same.err"
rc=$?
check "identical hosts run: exit 1 ($e failed), $a and $b ok, $e auth" \
	test "$rc $(outcome "$tmp/same" "$a") $(outcome "$tmp/same" "$b") $(outcome "$tmp/same" "$e")" = "1 ok ok auth"
check "identical hosts: no group ('-'), lab.json identical" \
	test "$(group "$tmp/same" "$a") $(jq .identical "$tmp/same/lab.json")" = "- true"

# --- --allow-mixed: run, grouped apart --------------------------------------------------------
lab -o "$tmp/mixed" -l "$a,$b,$c,$d" --allow-mixed >"$tmp/mixed.out" 2>"$tmp/mixed.err"
rc=$?
check "--allow-mixed runs the lab: exit 0, every host ok" \
	test "$rc $(outcome "$tmp/mixed" "$a")$(outcome "$tmp/mixed" "$c")$(outcome "$tmp/mixed" "$d")" = "0 okokok"
check "--allow-mixed: summary groups $a $b in g1, $c in g2, $d in g3" \
	test "$(group "$tmp/mixed" "$a")$(group "$tmp/mixed" "$b")$(group "$tmp/mixed" "$c")$(group "$tmp/mixed" "$d")" = g1g1g2g3
check "--allow-mixed: merged.json holds every host's 3 points and the groups" \
	test "$(jq -c '[(.results | length), (.meta.lab.groups | map(.group + ":" + (.hosts | join(","))))]' "$tmp/mixed/merged.json")" \
	= "[12,[\"g1:$a,$b\",\"g2:$c\",\"g3:$d\"]]"
if [ -x "$rarplot" ]; then
	"$rarplot" -o "$tmp/plot" --format none "$tmp/mixed/merged.json" >/dev/null 2>"$tmp/plot.err"
	check "rarplot's report shows the groups and what differs" sh -c "
		grep -q 'mixed lab' '$tmp/plot/report.md' && grep -qE '^\\| g2 \\| $c \\| .*limit.nofile $other' '$tmp/plot/report.md' &&
		grep -qE '^\\| g3 \\| $d \\| .*tool.sudo.sha256 $sha_d' '$tmp/plot/report.md'" ||
		{ sed 's/^/    /' "$tmp/plot.err"; grep -A6 'mixed lab' "$tmp/plot/report.md" | sed 's/^/    /'; }
fi

tap_status
