#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# The PAM builds of sudo and OpenDoas (sudo-pam, doas-pam) judged by themselves under Debian's own
# PAM service files, shown at /etc/pam.d only inside a private mount namespace: as the bench user,
# /usr/bin/true is granted and /usr/bin/false refused under confgen's policies of several shapes
# and every --match; a manifest measures them (the stack shown by rarbench's namespace, recorded);
# a stack naming a missing module fails the grant check with PAM's message and the module's name,
# nothing measured; the host's /etc/pam.d is byte-identical afterwards.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root (setuid tools run as the bench user, policies are root's)"; exit 77; }
. tests/lib/tap.sh
need jq runuser unshare mount sha256sum
prefix=${RARPERF_PREFIX:-/opt/rarperf}
facts=$prefix/facts.json
CONFGEN=$PWD/bin/confgen
RB=$PWD/bin/rarbench
[ -x "$CONFGEN" ] && [ -x "$RB" ] || { notok "bin/confgen and bin/rarbench are built (make)"; exit 1; }
need_prefix "$prefix"
if ! jq -e '.tools["sudo-pam"].present and .tools["doas-pam"].present' "$facts" >/dev/null; then
	echo "1..0 # SKIP $prefix has no sudo-pam or doas-pam (make provision RARPERF_PREFIX=$prefix)"
	exit 0
fi

tmp=$(mktemp -d /tmp/rp-it27.XXXXXX)
chmod 0755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
pamhash() { (cd /etc/pam.d && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum); }
before=$(pamhash)

user=$(jq -r .bench_user "$facts")
uid=$(jq -r .bench_uid "$facts")
group=$(jq -r '.privileged_group // empty' "$facts")
group=${group:-$(id -gn "$user")}
pamdir=$prefix/share/rarperf/pam.d

# --- what the playbook installed and recorded --------------------------------------------------
for t in sudo-pam doas-pam; do
	svc=${t%-pam}
	check "facts.json: $t uses PAM service $svc, its stack stored in the prefix, its modules listed" \
		jq -e --arg t "$t" --arg s "$svc" --arg d "$pamdir" '.tools[$t] | .pam == true
			and .pam_service == $s and .pam_stack == ($d + "/" + $s)
			and (.pam_modules | index("pam_limits.so")) and (.pam_modules | index("pam_unix.so"))' "$facts"
	check "facts.json: $t is setuid root for $group only (4750 root:$group)" \
		jq -e --arg t "$t" --arg g "$group" '.tools[$t].access == ("4750 root:" + $g)
			and .privileged_files[.tools[$t].path] == ("4750 root:" + $g)' "$facts"
done
check "the PAM builds read the prefix's policies (the non-PAM builds' files)" \
	jq -e '.tools["sudo-pam"].policy == .tools.sudo.policy and .tools["doas-pam"].policy == .tools.doas.policy
		and (.tools["sudo-pam"].configure | test("--with-pam")) and (.tools["doas-pam"].configure | test("--with-pam"))' "$facts"
check "sudo-pam links libpam, sudo does not" \
	sh -c "ldd '$prefix/libexec/pam/sudo/sudoers.so' | grep -q libpam && ! ldd '$prefix/libexec/sudo/sudoers.so' | grep -q libpam"
check "doas-pam links libpam, doas does not" \
	sh -c "ldd '$prefix/bin/doas-pam' | grep -q libpam && ! ldd '$prefix/bin/doas' | grep -q libpam"
check "Debian's service files are in the prefix, not in the host's /etc/pam.d" \
	sh -c "[ -f '$pamdir/sudo' ] && [ -f '$pamdir/doas' ] && [ -f '$pamdir/dosr' ] && [ ! -e /etc/pam.d/doas ]"

# run AS BIN CMD: BIN CMD as AS in a private mount namespace whose /etc/pam.d is the host's plus
# the prefix's files (what rarbench shows); prints "rc|stdout|stderr" on one line.
mkdir "$tmp/etc-pam.d"
cp -a /etc/pam.d/. "$tmp/etc-pam.d/"
cp "$pamdir"/* "$tmp/etc-pam.d/"
run() {
	local o e rc
	o=$(unshare --mount --propagation private sh -c 'mount --bind "$1" /etc/pam.d && shift && exec runuser -u "$@"' \
		sh "$tmp/etc-pam.d" "$1" -- "$2" -n "$3" </dev/null 2>"$tmp/err")
	rc=$?
	e=$(tr '\n' ' ' <"$tmp/err")
	echo "$rc|$o|$e"
}
granted() { case $1 in 0\|*) return 0 ;; *) return 1 ;; esac; }
refused() { # exit 1, nothing run, the tool's own refusal on stderr (false alone says nothing)
	case $1 in "1||"*[a-z]*) return 0 ;; *) return 1 ;; esac
}

shapes="1:1:1:1 2:2:50:3 3:2:7:2"
prefix_lock "$prefix" "27-pam.sh"
for t in sudo-pam doas-pam; do
	case $t in sudo-pam) out_flag=--sudoers policy=$(jq -r '.tools.sudo.policy' "$facts") ;;
	doas-pam) out_flag=--doas policy=$(jq -r '.tools.doas.policy' "$facts") ;;
	esac
	for shape in $shapes; do
		IFS=: read -r R U T C <<<"$shape"
		for m in last first middle; do
			what="$t R=$R U=$U T=$T C=$C --match $m"
			if ! "$CONFGEN" --roles "$R" --users "$U" --tasks "$T" --commands "$C" --uid "$uid" \
				--match "$m" "$out_flag" "$policy" >"$tmp/confgen.err" 2>&1; then
				notok "$what: confgen writes the policy ($(head -1 "$tmp/confgen.err"))"
				continue
			fi
			out=$(run "$user" "$prefix/bin/$t" /usr/bin/true)
			check "$what: /usr/bin/true granted" granted "$out" || echo "# $out"
			out=$(run "$user" "$prefix/bin/$t" /usr/bin/false)
			check "$what: /usr/bin/false refused" refused "$out" || echo "# $out"
		done
	done
	"$CONFGEN" --deny-all --uid "$uid" "$out_flag" "$policy" >/dev/null 2>&1
	out=$(run "$user" "$prefix/bin/$t" /usr/bin/true)
	check "$t: deny-all refuses /usr/bin/true again" refused "$out" || echo "# $out"
done
prefix_unlock "$prefix"

# --- rarbench: the stack shown in its namespace, recorded; a broken stack names its module -----
cat >"$tmp/m.json" <<JSON
{"name": "it27", "subjects": [{"id": "sudo", "format": "sudoers"},
  {"id": "sudo-pam", "format": "sudoers", "program": "{prefix}/bin/sudo-pam"},
  {"id": "doas", "format": "doas"}, {"id": "doas-pam", "format": "doas", "program": "{prefix}/bin/doas-pam"},
  {"id": "sudo-rs", "format": "sudoers", "program": "{prefix}/bin/sudo-rs", "policy": "{prefix}/etc/sudoers-rs",
   "policy_mount_at": "/etc/sudoers-rs", "sudoers_layout": "per-task", "optional": true}],
 "axes": {"nb_tasks": [1, 40]}, "warmup": 1, "min_runs": 3, "max_runs": 3, "min_time_s": 0}
JSON
for m in last first middle; do
	jq --arg m "$m" '. + {match: $m}' "$tmp/m.json" >"$tmp/m-$m.json"
	"$RB" --manifest "$tmp/m-$m.json" --prefix "$prefix" --wait --out "$tmp/out-$m" --progress none >"$tmp/m.out" 2>&1
	rc=$?
	check "manifest --match $m with sudo, sudo-pam, doas, doas-pam, sudo-rs: grant checks pass, exit 0" [ $rc -eq 0 ] || tail -3 "$tmp/m.out"
done
res=$tmp/out-last/results.json
check "results.json: every subject measured at both points, every run exit 0" \
	jq -e '(.results | length) == 2 * (.meta.pam | length) and (.meta.pam | length) >= 4
		and all(.results[]; all(.exit_codes[]; . == 0))' "$res"
check "meta.pam: the PAM subjects saw the prefix's files at /etc/pam.d, the others the host's" \
	jq -e --arg d "$pamdir" '.meta.pam | .["sudo-pam"] == {"service": "sudo", "shown_at_etc_pam_d": $d}
		and .["doas-pam"].service == "doas" and .["doas-pam"].shown_at_etc_pam_d == $d
		and .sudo.shown_at_etc_pam_d == "the host'"'"'s /etc/pam.d"
		and (.["sudo-rs"] == null or .["sudo-rs"].shown_at_etc_pam_d == $d)' "$res"

# Under /tmp, which anyone may write in: "unsafe_pam" says so (46-hostile-manifest.sh: the rule).
mkdir "$tmp/badpam"
printf '#%%PAM-1.0\nsession required pam_limits.so\naccount required pam_rarperf_missing.so\n@include common-session-noninteractive\n' >"$tmp/badpam/sudo"
cat >"$tmp/bad.json" <<JSON
{"name": "it27-bad", "subjects": [{"id": "sudo-pam", "format": "sudoers", "program": "{prefix}/bin/sudo-pam",
  "pam": "$tmp/badpam", "unsafe_pam": true}], "axes": {"nb_tasks": [1]}, "warmup": 1, "min_runs": 3, "max_runs": 3, "min_time_s": 0}
JSON
"$RB" --manifest "$tmp/bad.json" --prefix "$prefix" --wait --out "$tmp/bad" --progress none >"$tmp/bad.out" 2>&1
rc=$?
check "a stack with a missing module: the grant check fails (exit 1), nothing measured" \
	sh -c "[ $rc -eq 1 ] && ! jq -e '.results | length > 0' '$tmp/bad/results.json' >/dev/null 2>&1"
check "... its message quotes sudo's own PAM error (Module is unknown) and names the missing module" \
	sh -c "grep -q 'subject sudo-pam denied /usr/bin/true (exit 1): sudo: PAM account management error: Module is unknown' '$tmp/bad.out' &&
		grep -q 'module pam_rarperf_missing.so is in none of PAM.s module directories' '$tmp/bad.out'" || cat "$tmp/bad.out"

check "the host's /etc/pam.d is byte-identical" [ "$(pamhash)" = "$before" ]
check "after the runs: sudo-pam's policy grants nothing" \
	sh -c "! runuser -u '$user' -- '$prefix/bin/sudo-pam' -n /usr/bin/true </dev/null >/dev/null 2>&1"
tap_status
