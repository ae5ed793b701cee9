#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# please (crate pleaser, built from the crate registry into the prefix) judges confgen's
# please.ini: `please -c` accepts it at 1, 100 and 10 000 tasks and refuses a broken one, and the
# real please, shown the policy at /etc/please.ini in a private mount namespace only, grants the
# bench user exactly the measured command as root and nothing else (another command, extra
# arguments, another target, a filler uid, a name the bench user's is a prefix of, deny-all),
# for several shapes and each --match; a manifest with a please subject passes its grant check
# and a small sweep fits, and its instructions are counted; past its 10 MiB of configuration the
# sweep records its refusal (class limit, in its words); a policy shown elsewhere than
# /etc/please.ini is refused (R23).
# Outside the namespaces, /etc (please.ini, sudoers*, pam.d) is unchanged.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root (please is setuid root, namespaces need root)"; exit 77; }
. tests/lib/tap.sh
need jq unshare runuser useradd
prefix=${RARPERF_PREFIX:-/opt/rarperf}
facts=$prefix/facts.json
CONFGEN=$PWD/bin/confgen
RB=$PWD/bin/rarbench
RP=$PWD/bin/rarplot
PLEASE=$prefix/bin/please
[ -x "$CONFGEN" ] && [ -x "$RB" ] && [ -x "$RP" ] || { notok "bin/confgen, bin/rarbench and bin/rarplot are built (make)"; exit 1; }
if ! jq -e '.tools.please.present' "$facts" >/dev/null 2>&1; then
	notok "facts.json: please present in $prefix (run make provision: roles/rarperf_please)"
	exit 1
fi

tmp=$(mktemp -d /tmp/rp-it26p.XXXXXX)
chmod 0755 "$tmp"
filler=rpp$$
cleanup() {
	userdel "$filler" >/dev/null 2>&1
	userdel "$longer" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

etc_state() { # what must not change: /etc's please.ini, sudoers files and PAM
	ls -la /etc | grep -E ' (please\.ini|sudoers)' || true
	[ ! -e /etc/please.ini ] || sha256sum /etc/please.ini
	find /etc/pam.d -type f -exec sha256sum {} + | LC_ALL=C sort
}
etc_state >"$tmp/etc.before"

check "facts.json: please present, version $(jq -r '.tools.please.version' "$facts"), policy in the prefix shown at /etc/please.ini" \
	jq -e '.tools.please | .present and .policy_mounted_at == "/etc/please.ini" and (.policy | startswith("'"$prefix"'/")) and .pam == false' "$facts"
user=$(jq -r .bench_user "$facts")
uid=$(jq -r .bench_uid "$facts")
group=$(jq -r '.privileged_group // empty' "$facts")
group=${group:-$(id -gn "$user")}
longer=${user}x
check "please and pleaseedit are setuid root for group $group only" \
	sh -c "[ \"\$(stat -c '%u:%G %a' '$PLEASE')\" = '0:$group 4750' ] && [ \"\$(stat -c '%u:%G %a' '$prefix/bin/pleaseedit')\" = '0:$group 4750' ]"
policy=$tmp/please.ini

# please -c is the judge, as visudo -c and doas -C are: run by root (please drops to the caller
# first), it exits 0 on a policy it can load whole and 1 otherwise.
for n in 1 100 10000; do
	"$CONFGEN" --tasks "$n" --uid "$uid" --user "$user" --please "$policy" >/dev/null 2>&1 ||
		notok "confgen writes a please.ini of $n tasks"
	check "please -c accepts confgen's please.ini at $n tasks ($(wc -c <"$policy") bytes)" "$PLEASE" -c "$policy"
done
"$CONFGEN" --roles 3 --users 4 --tasks 20 --commands 5 --uid "$uid" --please "$policy" --match middle >/dev/null 2>&1
check "please -c accepts R=3 U=4 T=20 C=5 (--user from --uid: $user, in the middle role's names)" \
	sh -c "'$PLEASE' -c '$policy' && grep -q '^name = ^(?:#[0-9]*|$user|#' '$policy'"
printf '[broken]\nname = ^%s$\nrule = ^(/usr/bin/true$\n' "$user" >"$tmp/broken.ini"
chmod 0644 "$tmp/broken.ini"
check "please -c refuses a rule that is no regular expression (exit 1, the file and section named)" \
	sh -c "! '$PLEASE' -c '$tmp/broken.ini' >'$tmp/c.out' 2>&1 && grep -q 'broken.ini: broken' '$tmp/c.out'"

# as_ns AS CMD...: runs CMD as AS (runuser) in a private mount namespace where /etc/please.ini
# is a link to $policy (an overlay on /etc whose upper layer is private to this test); prints
# "rc|stdout|stderr".
as_ns() {
	local as=$1
	shift
	unshare -m sh -c '
		mount --make-rprivate / || exit 99
		d=$(mktemp -d) && mkdir "$d/u" "$d/w" && ln -s "$1" "$d/u/please.ini" || exit 99
		mount -t overlay overlay -o "lowerdir=/etc,upperdir=$d/u,workdir=$d/w" /etc || exit 99
		shift
		out=$(runuser -u "$@" </dev/null 2>"$d/err"); rc=$?
		echo "$rc|$out|$(tr "\n" " " <"$d/err")"
		umount /etc; rm -rf "$d"' sh "$policy" "$as" -- "$@"
}
granted() { case $1 in 0\|*) return 0 ;; *) return 1 ;; esac; }
refused() { case $1 in 1\|*"may not"*) return 0 ;; *) return 1 ;; esac; }

for shape in 1:1:1:1 2:2:50:3 3:2:7:2 1:3:200:1; do
	IFS=: read -r R U T C <<<"$shape"
	for m in last first middle; do
		what="please R=$R U=$U T=$T C=$C --match $m"
		"$CONFGEN" --roles "$R" --users "$U" --tasks "$T" --commands "$C" --uid "$uid" --user "$user" \
			--match "$m" --please "$policy" >/dev/null 2>&1 ||
			{ notok "$what: confgen writes the policy"; continue; }
		check "$what: please -c accepts it" "$PLEASE" -c "$policy"
		out=$(as_ns "$user" "$PLEASE" -n /usr/bin/true)
		check "$what: /usr/bin/true granted" granted "$out" || echo "# $out"
		out=$(as_ns "$user" "$PLEASE" -n /usr/bin/false)
		check "$what: /usr/bin/false refused" refused "$out" || echo "# $out"
	done
done

# Exactly the command: as root, with no argument, and only for the bench user.
"$CONFGEN" --roles 2 --users 2 --tasks 50 --commands 3 --uid "$uid" --user "$user" --command /usr/bin/id \
	--please "$policy" >/dev/null 2>&1
out=$(as_ns "$user" "$PLEASE" -n /usr/bin/id)
# (Without /dev/log, as in a container, please prints "Could not connect to syslog" first.)
check "--command /usr/bin/id: runs as uid 0" sh -c "case '$out' in '0|uid=0(root)'* | '0|Could not connect to syslog'?'uid=0(root)'*) exit 0;; *) exit 1;; esac" || echo "# $out"
out=$(as_ns "$user" "$PLEASE" -n /usr/bin/id -u)
check "--command /usr/bin/id: /usr/bin/id -u (an argument more) refused: the rule is anchored" refused "$out" || echo "# $out"
out=$(as_ns "$user" "$PLEASE" -n /usr/bin/true)
check "--command /usr/bin/id: /usr/bin/true refused" refused "$out" || echo "# $out"
out=$(as_ns "$user" "$PLEASE" -n -t daemon /usr/bin/id)
check "--command /usr/bin/id: as another target (daemon) refused: target ^root\$" refused "$out" || echo "# $out"

# A filler uid of the first role (the match sits in the last), and an account whose name starts
# with the bench user's (the name is anchored), are refused.
"$CONFGEN" --roles 3 --users 2 --tasks 5 --commands 2 --uid "$uid" --user "$user" --please "$policy" >/dev/null 2>&1
if useradd -M -N -o -u 2147483648 -g "$group" -s /usr/sbin/nologin "$filler" >/dev/null 2>&1; then
	out=$(as_ns "$filler" "$PLEASE" -n /usr/bin/true)
	check "filler uid 2147483648 (first role, \"#2147483648\" in the policy) refused" refused "$out" || echo "# $out"
else
	notok "create a throwaway user with filler uid 2147483648"
fi
if useradd -M -N -g "$group" -s /usr/sbin/nologin "$longer" >/dev/null 2>&1; then
	out=$(as_ns "$longer" "$PLEASE" -n /usr/bin/true)
	check "an account named $longer (the bench user's name and one letter) refused" refused "$out" || echo "# $out"
else
	notok "create a throwaway user named $longer"
fi
"$CONFGEN" --tasks 10 --uid "$uid" --deny-all --please "$policy" >/dev/null 2>&1
check "deny-all: please -c accepts it (no section)" sh -c "'$PLEASE' -c '$policy' && ! grep -q '^\\[' '$policy'"
out=$(as_ns "$user" "$PLEASE" -n /usr/bin/true)
check "deny-all: /usr/bin/true refused" refused "$out" || echo "# $out"

# The manifest runner: the default program, policy and /etc/please.ini for format please.
cat >"$tmp/m.json" <<EOF2
{"name":"it26p","subjects":[{"id":"sudo","format":"sudoers"},{"id":"please","format":"please"}],
 "axes":{"nb_tasks":[1,10,100,1000]},"warmup":1,"min_runs":5,"max_runs":5,"min_time_s":0}
EOF2
ls -d /tmp/rarbench-mntns-* 2>/dev/null | sort >"$tmp/layers.before"
(cd "$tmp" && "$RB" --manifest m.json --prefix "$prefix" --wait --out out --progress none) >"$tmp/m.out" 2>&1
rc=$?
check "manifest with please at 1..1000 tasks: grant checks pass, exit 0" [ $rc -eq 0 ] || tail -3 "$tmp/m.out"
check "manifest: please measured at the 4 points, every run exit 0" \
	jq -e '([.results[] | select(.parameters.subject == "please")] | length) == 4 and all(.results[]; all(.exit_codes[]; . == 0))' "$tmp/out/results.json"
"$RP" -o "$tmp/plots" "$tmp/out/results.json" >"$tmp/plot.out" 2>&1
check "rarplot fits please: a line in fits.tsv with its slope's interval" \
	awk -F'\t' '$1 == "please" && $2 == "please" && $13 != "" && $14 != "" { found = 1 } END { exit !found }' "$tmp/plots/fits.tsv" ||
	tail -3 "$tmp/plot.out"
sed -n 's/^/# /p' "$tmp/plots/fits.tsv"
ls -d /tmp/rarbench-mntns-* 2>/dev/null | sort >"$tmp/layers.after"
check "manifest: its mount namespace's layer is gone from /tmp" \
	sh -c "[ -z \"\$(comm -13 '$tmp/layers.before' '$tmp/layers.after')\" ]"
check "after the sweep the prefix's please.ini grants nothing (deny-all)" \
	sh -c "head -1 '$prefix/etc/please.ini' | grep -q 'match=none' && ! grep -q '^\\[' '$prefix/etc/please.ini'"

# The counted pass (valgrind's callgrind under please's set-user-ID credentials): please's
# instructions grow with the tasks (about 0.6 M a task: it compiles every section's regexes).
if command -v valgrind >/dev/null 2>&1; then
	cat >"$tmp/c.json" <<EOF2
{"name":"it26p-counts","subjects":[{"id":"please","format":"please"}],
 "axes":{"nb_tasks":[1,100]},"warmup":0,"min_runs":2,"max_runs":2,"min_time_s":0,"counts":true}
EOF2
	(cd "$tmp" && "$RB" --manifest c.json --prefix "$prefix" --wait --out cout --progress none) >"$tmp/c.out" 2>&1
	rc=$?
	check "counted pass with please at 1 and 100 tasks: exit 0, 100 tasks count at least 50 M instructions more" \
		sh -c "[ $rc -eq 0 ] && jq -e '[.results[] | select(.parameters.subject == \"please\") | {(.parameters.nb_tasks | tostring): .counts.instructions}] | add | .[\"100\"] - .[\"1\"] > 50000000' '$tmp/cout/results.json'" ||
		tail -3 "$tmp/c.out"
else
	notok "valgrind is installed (role rarperf_packages), for the counted pass"
fi

# What please cannot hold is a result: past 10 MiB of configuration (about 95 000 tasks) it says
# so on stdout, which its grant check keeps; the sweep goes on with sudo and exits 0.
cat >"$tmp/big.json" <<EOF2
{"name":"it26p-limit","subjects":[{"id":"sudo","format":"sudoers"},{"id":"please","format":"please"}],
 "axes":{"nb_tasks":[100,120000]},"warmup":0,"min_runs":2,"max_runs":2,"min_time_s":0}
EOF2
(cd "$tmp" && "$RB" --manifest big.json --prefix "$prefix" --wait --out bout --progress none) >"$tmp/big.out" 2>&1
rc=$?
check "please at 120000 tasks (12.6 MB): a refusal of class limit in please's words, the sweep exits 0" \
	sh -c "[ $rc -eq 0 ] && jq -e '[.meta.skipped_subjects[] | select(.id == \"please\") | .refusal | select(.class == \"limit\" and .at.nb_tasks == 120000 and (.error | test(\"too much config\")))] | length == 1' '$tmp/bout/results.json'" ||
	tail -3 "$tmp/big.out"

# R23: please's policy is shown only where please reads it.
cat >"$tmp/bad.json" <<EOF2
{"name":"it26p-bad","subjects":[{"id":"please","format":"please","policy_mount_at":"/etc/ld.so.preload"}],
 "axes":{"nb_tasks":[1]},"warmup":0,"min_runs":2,"max_runs":2,"min_time_s":0}
EOF2
(cd "$tmp" && "$RB" --manifest bad.json --prefix "$prefix" --dry-run) >"$tmp/bad.out" 2>&1
rc=$?
check "policy_mount_at /etc/ld.so.preload for please: exit 2, not where please reads its policy (R23)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'policy_mount_at: /etc/ld.so.preload is not where' '$tmp/bad.out'" || cat "$tmp/bad.out"

etc_state >"$tmp/etc.after"
check "/etc's please.ini (absent or not), sudoers files and PAM are unchanged" cmp -s "$tmp/etc.before" "$tmp/etc.after"
tap_status
