#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# sudo-rs (built from the crate registry into the prefix) judges confgen's sudoers: its visudo
# accepts the per-task layout at every size and refuses per-role beyond 127 tasks (its list
# limit), and the real sudo-rs, shown the policy at /etc/sudoers-rs in a private mount namespace
# only, grants the bench user /usr/bin/true and refuses /usr/bin/false, /usr/bin/id and a filler
# uid, for several shapes and each --match; a manifest with a sudo-rs subject passes its grant
# check. Outside the namespaces, /etc (sudoers*, pam.d) is unchanged.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root (sudo-rs is setuid root, namespaces need root)"; exit 77; }
. tests/lib/tap.sh
need jq unshare runuser useradd
prefix=${RARPERF_PREFIX:-/opt/rarperf}
facts=$prefix/facts.json
CONFGEN=$PWD/bin/confgen
RB=$PWD/bin/rarbench
SUDORS=$prefix/bin/sudo-rs
VISUDORS=$prefix/sbin/visudo-rs
[ -x "$CONFGEN" ] && [ -x "$RB" ] || { notok "bin/confgen and bin/rarbench are built (make)"; exit 1; }

tmp=$(mktemp -d /tmp/rp-it26.XXXXXX)
chmod 0755 "$tmp"
filler=rps$$
cleanup() {
	userdel "$filler" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

etc_state() { # what must not change: /etc's sudoers files and PAM
	ls -la /etc | grep -E ' sudoers' || true
	find /etc/pam.d -type f -exec sha256sum {} + | LC_ALL=C sort
}
etc_state >"$tmp/etc.before"

check "facts.json: sudo-rs present, version $(jq -r '.tools["sudo-rs"].version' "$facts"), policy in the prefix" \
	jq -e '.tools["sudo-rs"] | .present and .policy_mounted_at == "/etc/sudoers-rs" and (.policy | startswith("'"$prefix"'/"))' "$facts"
user=$(jq -r .bench_user "$facts")
uid=$(jq -r .bench_uid "$facts")
# The group sudo-rs is for (facts.json's privileged_group, else the bench user's own): a filler
# account needs it to reach sudo-rs's own refusal.
group=$(jq -r '.privileged_group // empty' "$facts")
group=${group:-$(id -gn "$user")}
check "sudo-rs is setuid root for group $group only" [ "$(stat -c '%u:%G %a' "$SUDORS")" = "0:$group 4750" ]
policy=$tmp/sudoers-rs

# as_ns AS CMD...: runs CMD as AS (runuser) in a private mount namespace where /etc/sudoers-rs is
# a link to $policy (an overlay on /etc whose upper layer is private to this test); prints
# "rc|stdout|stderr".
as_ns() {
	local as=$1
	shift
	unshare -m sh -c '
		mount --make-rprivate / || exit 99
		d=$(mktemp -d) && mkdir "$d/u" "$d/w" && ln -s "$1" "$d/u/sudoers-rs" || exit 99
		mount -t overlay overlay -o "lowerdir=/etc,upperdir=$d/u,workdir=$d/w" /etc || exit 99
		shift
		out=$(runuser -u "$@" </dev/null 2>"$d/err"); rc=$?
		echo "$rc|$out|$(tr "\n" " " <"$d/err")"
		umount /etc; rm -rf "$d"' sh "$policy" "$as" -- "$@"
}
granted() { case $1 in 0\|*) return 0 ;; *) return 1 ;; esac; }
refused() { case $1 in "1||"*"sorry"*) return 0 ;; *) return 1 ;; esac; }

for shape in 1:1:1:1 2:2:50:3 3:2:7:2 1:3:200:1; do
	IFS=: read -r R U T C <<<"$shape"
	for m in last first middle; do
		what="sudo-rs R=$R U=$U T=$T C=$C --match $m (per-task)"
		"$CONFGEN" --roles "$R" --users "$U" --tasks "$T" --commands "$C" --uid "$uid" --match "$m" \
			--sudoers-layout per-task --sudoers "$policy" >/dev/null 2>&1 ||
			{ notok "$what: confgen writes the policy"; continue; }
		check "$what: visudo-rs -c accepts it" "$VISUDORS" -c -f "$policy"
		out=$(as_ns "$user" "$SUDORS" -n /usr/bin/true)
		check "$what: /usr/bin/true granted" granted "$out" || echo "# $out"
		out=$(as_ns "$user" "$SUDORS" -n /usr/bin/false)
		check "$what: /usr/bin/false refused" refused "$out" || echo "# $out"
	done
done

# The granted command runs as root; anything else is refused.
"$CONFGEN" --roles 2 --users 2 --tasks 50 --commands 3 --uid "$uid" --command /usr/bin/id \
	--sudoers-layout per-task --sudoers "$policy" >/dev/null 2>&1
out=$(as_ns "$user" "$SUDORS" -n /usr/bin/id)
check "--command /usr/bin/id: runs as uid 0" sh -c "case '$out' in '0|uid=0(root)'*) exit 0;; *) exit 1;; esac" || echo "# $out"
out=$(as_ns "$user" "$SUDORS" -n /usr/bin/true)
check "--command /usr/bin/id: /usr/bin/true refused" refused "$out" || echo "# $out"

# A filler uid of the first role (the match sits in the last) is refused.
"$CONFGEN" --roles 3 --users 2 --tasks 5 --commands 2 --uid "$uid" --sudoers-layout per-task \
	--sudoers "$policy" >/dev/null 2>&1
if useradd -M -N -o -u 2147483648 -g "$group" -s /usr/sbin/nologin "$filler" >/dev/null 2>&1; then
	out=$(as_ns "$filler" "$SUDORS" -n /usr/bin/true)
	check "filler uid 2147483648 (first role) refused" refused "$out" || echo "# $out"
else
	notok "create a throwaway user with filler uid 2147483648"
fi

# sudo-rs allows at most 127 items in a list: per-role puts every task of a role in one.
"$CONFGEN" --tasks 127 --uid "$uid" --sudoers "$policy" >/dev/null 2>&1
check "per-role layout, 127 tasks: visudo-rs accepts it" "$VISUDORS" -c -f "$policy"
"$CONFGEN" --tasks 128 --uid "$uid" --sudoers "$policy" >/dev/null 2>&1
"$VISUDORS" -c -f "$policy" >"$tmp/visudo.out" 2>&1
check "per-role layout, 128 tasks: visudo-rs refuses it (too many items in list)" \
	sh -c "[ $? -ne 0 ] && grep -q 'too many items' '$tmp/visudo.out'"

# The manifest runner: its own namespace, the per-task layout for sudo-rs only.
cat >"$tmp/m.json" <<EOF
{"name":"it26","subjects":[{"id":"sudo","format":"sudoers"},
 {"id":"sudo-rs","format":"sudoers","program":"{prefix}/bin/sudo-rs","policy":"{prefix}/etc/sudoers-rs",
  "policy_mount_at":"/etc/sudoers-rs","sudoers_layout":"per-task"}],
 "axes":{"nb_tasks":[1,200]},"warmup":1,"min_runs":3,"max_runs":3,"min_time_s":0}
EOF
ls -d /tmp/rarbench-mntns-* 2>/dev/null | sort >"$tmp/layers.before"
(cd "$tmp" && "$RB" --manifest m.json --prefix "$prefix" --wait --out out --progress none) >"$tmp/m.out" 2>&1
rc=$?
check "manifest with sudo-rs at 200 tasks: grant checks pass, exit 0" [ $rc -eq 0 ] || tail -3 "$tmp/m.out"
check "manifest: sudo-rs measured at both points, every run exit 0" \
	jq -e '([.results[] | select(.parameters.subject == "sudo-rs")] | length) == 2 and all(.results[]; all(.exit_codes[]; . == 0))' "$tmp/out/results.json"
ls -d /tmp/rarbench-mntns-* 2>/dev/null | sort >"$tmp/layers.after"
check "manifest: its mount namespace's layer is gone from /tmp" \
	sh -c "[ -z \"\$(comm -13 '$tmp/layers.before' '$tmp/layers.after')\" ]"

etc_state >"$tmp/etc.after"
check "/etc has no sudoers-rs, and its sudoers files and PAM are unchanged" cmp -s "$tmp/etc.before" "$tmp/etc.after"
check "/etc/sudoers-rs does not exist outside the namespaces" [ ! -e /etc/sudoers-rs ]
prefix_lock "$prefix" "26-sudo-rs.sh"
"$CONFGEN" --uid "$uid" --deny-all --sudoers-layout per-task --sudoers "$prefix/etc/sudoers-rs" >/dev/null 2>&1
prefix_unlock "$prefix"
tap_status
