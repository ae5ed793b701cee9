#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# Provisions this machine with install.yml (inventory/local.ini) and checks the result: setuid sudo
# and doas in the prefix, and RootAsRole's dosr-json and dosr-cbor built from the crate registry
# with their file capabilities, their policies granting nothing after provisioning (confgen
# --deny-all), and with a confgen grant (written under the prefix's lock, then taken back) granting
# the bench user /usr/bin/true and denying anything else; every setuid or capability file of the prefix runnable by the bench group only (another
# user's exec of it fails: "Permission denied"), as facts.json records; a second
# run with changed=0, a --check run, a valid facts.json, and the system's sudo/sudoers/PAM files
# (contents and listing) unchanged.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
prefix=${RARPERF_PREFIX:-/opt/rarperf}
. tests/lib/tap.sh
need ansible-playbook jq getcap runuser

tmp=$(mktemp -d /tmp/rp-it10.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The system files the playbook must never touch: contents and the listing of their directories.
snapshot() {
	local f
	for f in /usr/bin/sudo /usr/bin/doas /etc/sudoers /etc/sudoers?* /etc/doas.conf /etc/pam.d /etc/security/rootasrole.json; do
		[ -e "$f" ] || { echo "absent $f"; continue; }
		find "$f" -printf '%p %y %m %u %g %s\n'
		find "$f" -type f -exec sha256sum {} +
	done | LC_ALL=C sort
}
snapshot >"$tmp/before"

# A frozen copy of the source, so both runs build the same tree even if others commit meanwhile.
src=$PWD
if git rev-parse HEAD >/dev/null 2>&1; then
	git clone -q --shared "$PWD" "$tmp/src" && src=$tmp/src
fi
play() {
	/usr/bin/python3 /usr/bin/ansible-playbook -i inventory/local.ini install.yml \
		-e rarperf_prefix="$prefix" -e rarperf_tools_src_dir="$src" \
		-e rarperf_tools_controller_stage_dir="$tmp/stage" "$@"
}

# make check provisions the prefix from this tree just before (make provision-if-needed): when the
# prefix's stamp says so, that was the first run, and the run below is already the second.
if sh tools/provision-stamp.sh fresh "$prefix" 2>/dev/null; then
	# The controller's staging directory, as a first run of this script leaves it.
	mkdir -p "$tmp/stage"
	ok "first run of the playbook: make provision from this tree (its stamp in $prefix is current)"
else
	t0=$(date +%s)
	play >"$tmp/run1.log" 2>&1
	rc=$?
	t1=$(date +%s)
	if [ $rc -eq 0 ]; then ok "first run of the playbook ($((t1 - t0)) s)"; else
		notok "first run of the playbook (exit $rc)"
		grep -E 'fatal|FAILED|msg' "$tmp/run1.log" | tail -15
	fi
fi

# The stamp is current only while the prefix's facts are as that provision left them: a converge
# with other variables (make check's own dev trees) makes the next make check provision again.
sp=$tmp/stamped
mkdir -p "$sp/share/rarperf/facts.d"
printf '{\n  "prefix": "%s",\n  "schema": 1\n}\n' "$sp" >"$sp/facts.json"
echo '{"tools": {}}' >"$sp/share/rarperf/facts.d/rarperf_rootasrole.json"
sh tools/provision-stamp.sh write "$sp"
check "provision-stamp: fresh just after make provision's stamp" sh tools/provision-stamp.sh fresh "$sp"
echo '{"tools": {"dosr-dev-x-cbor": {}}}' >"$sp/share/rarperf/facts.d/rarperf_rootasrole.json"
check "provision-stamp: stale once another converge rewrote a facts fragment" \
	sh -c "! sh tools/provision-stamp.sh fresh '$sp'"
check "provision-stamp: the demo still counts it (same tree, a superset of its tools)" \
	sh tools/provision-stamp.sh fresh-demo "$sp"

user=$(jq -r .bench_user "$prefix/facts.json" 2>/dev/null)
uid=$(jq -r .bench_uid "$prefix/facts.json" 2>/dev/null)
# The group the privileged tools are for: facts.json's, else the bench user's own.
group=$(jq -r '.privileged_group // empty' "$prefix/facts.json" 2>/dev/null)
group=${group:-$(id -gn "${user:-rarperf}" 2>/dev/null)}
gid=$(getent group "${group:-rarperf}" | cut -d: -f3)
mode_of() { stat -c '%u:%g %a' "$1" 2>/dev/null; }
check "prefix sudo is setuid root for group ${group:-?} only (4750)" test "$(mode_of "$prefix/bin/sudo")" = "0:$gid 4750"
check "prefix doas is setuid root for group ${group:-?} only (4750)" test "$(mode_of "$prefix/bin/doas")" = "0:$gid 4750"
check "visudo is in the prefix" test -x "$prefix/sbin/visudo"
check "sudo reads the prefix's sudoers" sh -c "'$prefix/bin/sudo' -V | grep -q 'Sudoers path: $prefix/etc/sudoers'"

check "the bench user exists with the uid in facts.json" test "$(id -u "${user:-rarperf}" 2>/dev/null)" = "$uid"
as_bench() { runuser -u "${user:-rarperf}" -- "$@" </dev/null >/dev/null 2>&1; }
# As provisioned, no policy grants anything (no standing root grant), even with other arguments.
check "as provisioned: sudo -n /usr/bin/true is refused (the policy grants nothing)" \
	sh -c "! runuser -u '${user:-rarperf}' -- '$prefix/bin/sudo' -n /usr/bin/true </dev/null >/dev/null 2>&1 && grep -q 'match=none' '$prefix/etc/sudoers'"
check "as provisioned: doas -n /usr/bin/true --anything is refused" \
	sh -c "! runuser -u '${user:-rarperf}' -- '$prefix/bin/doas' -n /usr/bin/true --anything </dev/null >/dev/null 2>&1 && grep -q 'match=none' '$prefix/etc/doas.conf'"
# A grant, as a sweep point writes it, under the lock a sweep holds; taken back at the end.
prefix_lock "$prefix" "10-provision-local.sh"
"$prefix/bin/confgen" --uid "$uid" --sudoers "$prefix/etc/sudoers" --doas "$prefix/etc/doas.conf" >/dev/null
for d in dosr-json dosr-cbor; do
	case $d in
	dosr-json) "$prefix/bin/confgen" --uid "$uid" --rar-json "$prefix/etc/rootasrole-json.json" >/dev/null ;;
	dosr-cbor) "$prefix/bin/confgen" --uid "$uid" --rar-cbor "$prefix/etc/rootasrole-cbor.json" >/dev/null ;;
	esac
done
check "bench user: sudo -n /usr/bin/true is granted" as_bench "$prefix/bin/sudo" -n /usr/bin/true
check "bench user: doas -n /usr/bin/true is granted" as_bench "$prefix/bin/doas" -n /usr/bin/true
check "bench user: sudo -n /usr/bin/id is denied" sh -c "! runuser -u '${user:-rarperf}' -- '$prefix/bin/sudo' -n /usr/bin/id </dev/null >/dev/null 2>&1"
check "bench user: doas -n /usr/bin/id is denied" sh -c "! runuser -u '${user:-rarperf}' -- '$prefix/bin/doas' -n /usr/bin/id </dev/null >/dev/null 2>&1"
check "policy passes visudo -cf" "$prefix/sbin/visudo" -qcf "$prefix/etc/sudoers"
check "policy passes doas -C" "$prefix/bin/doas" -C "$prefix/etc/doas.conf"

t2=$(date +%s)
play >"$tmp/run2.log" 2>&1
rc=$?
t3=$(date +%s)
recap=$(grep -E '^localhost +:' "$tmp/run2.log")
if [ $rc -eq 0 ] && echo "$recap" | grep -q ' changed=0 '; then
	ok "second run reports changed=0 ($((t3 - t2)) s)"
else
	notok "second run reports changed=0 (exit $rc: $recap)"
	grep -B3 -E '^changed:' "$tmp/run2.log" | grep TASK
fi

play --check >"$tmp/check.log" 2>&1
rc=$?
recap=$(grep -E '^localhost +:' "$tmp/check.log")
if [ $rc -eq 0 ] && echo "$recap" | grep -q ' changed=0 '; then ok "--check runs and predicts no change"; else
	notok "--check runs and predicts no change (exit $rc: $recap)"
fi

f=$prefix/facts.json
check "facts.json is valid JSON with schema 1" sh -c "jq -e '.schema == 1' '$f' >/dev/null"
check "facts.json: sudo and doas present, no PAM" sh -c "jq -e '.tools.sudo.present and .tools.doas.present and .tools.sudo.pam == false and .tools.doas.pam == false' '$f' >/dev/null"
# facts.json describes the installed builds: sudo's and doas's install stamps carry the hash of
# the source and configure flags the facts report (a changed flag or version rebuilds).
for t in sudo doas; do
	key=$(jq -j --arg t "$t" '.tools[$t] | "\(.source)|\(.configure)"' "$f" | sha1sum | cut -c1-12)
	check "facts.json: $t's source and configure flags are those of the installed build ($key)" \
		test -e "$prefix/share/rarperf/$t-installed-$key"
done
# The PAM variants: the same source, Debian's PAM flags, a build of their own (stamp named so).
check "facts.json: sudo-pam and doas-pam present, with PAM, their service and stack recorded" \
	sh -c "jq -e '.tools[\"sudo-pam\"] as \$s | .tools[\"doas-pam\"] as \$d | \$s.present and \$d.present
		and \$s.pam and \$d.pam and \$s.source == .tools.sudo.source and \$d.source == .tools.doas.source
		and \$s.pam_service == \"sudo\" and \$d.pam_service == \"doas\" and (\$s.pam_modules | length) > 2
		and .tools[\"sudo-rs\"].pam_stack == \$s.pam_stack' '$f' >/dev/null"
for t in sudo-pam doas-pam; do
	key=$(jq -j --arg t "$t" '.tools[$t] | "\(.source)|\(.configure)"' "$f" | sha1sum | cut -c1-12)
	check "facts.json: $t's source and configure flags are those of the installed build ($key)" \
		test -e "$prefix/share/rarperf/$t-installed-build-pam-$key"
done
check "facts.json: paths in the prefix" sh -c "jq -e '.prefix == \"$prefix\" and .tools.sudo.path == \"$prefix/bin/sudo\" and .tools.doas.policy == \"$prefix/etc/doas.conf\"' '$f' >/dev/null"
# RootAsRole is built from the crate registry (reachable here, as on CI): present, never skipped.
for d in dosr-json dosr-cbor; do
	check "facts.json: $d present, crate $(jq -r '.tools["'$d'"].version' "$f" 2>/dev/null), built with $(jq -r '.tools["'$d'"].rustc' "$f" 2>/dev/null)" \
		sh -c "jq -e '.tools[\"$d\"] | .present and (.version | test(\"^[0-9]+[.][0-9]+[.][0-9]+\$\")) and (.cargo | startswith(\"cargo \")) and (.rustc | startswith(\"rustc \")) and .settings_baked.RAR_CFG_IMMUTABLE == \"false\" and .pam == false' '$f' >/dev/null"
	check "$d: root:${group:-?} 0750 with RootAsRole's file capabilities (=p)" \
		sh -c "[ \"\$(stat -c '%u:%g %a' '$prefix/bin/$d')\" = '0:$gid 750' ] && getcap '$prefix/bin/$d' | grep -q ' =p\$'"
	check "bench user: $d /usr/bin/true is granted" as_bench "$prefix/bin/$d" /usr/bin/true
	check "bench user: $d /usr/bin/id is denied" sh -c "! runuser -u '${user:-rarperf}' -- '$prefix/bin/$d' /usr/bin/id </dev/null >/dev/null 2>&1"
done
"$prefix/bin/confgen" --uid "$uid" --deny-all --sudoers "$prefix/etc/sudoers" --doas "$prefix/etc/doas.conf" \
	--rar-json "$prefix/etc/rootasrole-json.json" --rar-cbor "$prefix/etc/rootasrole-cbor.json" >/dev/null
prefix_unlock "$prefix"
check "the grant taken back: dosr-json /usr/bin/true refused again" \
	sh -c "! runuser -u '${user:-rarperf}' -- '$prefix/bin/dosr-json' /usr/bin/true </dev/null >/dev/null 2>&1"
check "facts.json: sudo-rs present from the crate registry, its policy in the prefix" \
	sh -c "jq -e '.tools[\"sudo-rs\"] | .present and (.source | startswith(\"crates.io:sudo-rs@\")) and .policy == \"$prefix/etc/sudoers-rs\"' '$f' >/dev/null"
check "sudo-rs is setuid root for group ${group:-?} only (4750), visudo-rs beside it" \
	sh -c "[ \"\$(stat -c '%u:%g %a' '$prefix/bin/sudo-rs')\" = '0:$gid 4750' ] && '$prefix/sbin/visudo-rs' -c -f '$prefix/etc/sudoers-rs' >/dev/null"
check "facts.json: please present from the crate registry, its policy in the prefix, shown at /etc/please.ini" \
	sh -c "jq -e '.tools.please | .present and (.source | startswith(\"crates.io:pleaser@\")) and .policy == \"$prefix/etc/please.ini\" and .policy_mounted_at == \"/etc/please.ini\"' '$f' >/dev/null"
check "please and pleaseedit are setuid root for group ${group:-?} only (4750); please -c accepts the initial (deny-all) policy" \
	sh -c "[ \"\$(stat -c '%u:%g %a' '$prefix/bin/please')\" = '0:$gid 4750' ] && [ \"\$(stat -c '%u:%g %a' '$prefix/bin/pleaseedit')\" = '0:$gid 4750' ] && '$prefix/bin/please' -c '$prefix/etc/please.ini'"
check "facts.json: RootAsRole 4.0.3 built too, and PAM noted for it" \
	sh -c "jq -e '.tools[\"dosr-4.0.3-cbor\"] | .present and .version == \"4.0.3\" and .pam == true' '$f' >/dev/null"
check "facts.json: RootAsRole 4.2.0, the newest, built in both storages" \
	sh -c "jq -e '[.tools[\"dosr-4.2.0-json\", \"dosr-4.2.0-cbor\"] | .present and .version == \"4.2.0\"] | all' '$f' >/dev/null"
check "facts.json: dosr-json reads JSON, dosr-cbor CBOR, each from its own settings file" \
	sh -c "jq -e '.tools[\"dosr-json\"].settings_baked.RAR_CFG_TYPE == \"json\" and .tools[\"dosr-cbor\"].settings_baked.RAR_CFG_TYPE == \"cbor\" and .tools[\"dosr-cbor\"].policy == \"$prefix/etc/rootasrole-cbor.bin\"' '$f' >/dev/null"
# --- the prefix's privileged tools are for the bench group only --------------------------------
# Every setuid, setgid or file-capability file of the prefix, found as an auditor would (find,
# getcap -r), not from facts.json: root:<group> 4750 (setuid) or 0750 (capabilities, kept through
# both runs); a user outside the group (nobody) cannot exec it, the bench user can.
{
	find "$prefix" -xdev -type f \( -perm -4000 -o -perm -2000 \) -print
	getcap -r "$prefix" 2>/dev/null | sed 's/ [^ ]*$//'
} | LC_ALL=C sort -u >"$tmp/privileged"
jq -r '.tools | to_entries[] | select(.value.present) | select(.key | test("^(sudo|doas|sudo-pam|doas-pam|sudo-rs|pkexec|dosr-.*)$"))
	| .value.path' "$f" 2>/dev/null | LC_ALL=C sort >"$tmp/tools"
check "setuid or capability files: sudo, doas, their PAM builds, sudo-rs, pkexec and each dosr ($(grep -c . "$tmp/privileged") files)" \
	sh -c "grep -q dosr '$tmp/tools' && [ -z \"\$(LC_ALL=C comm -23 '$tmp/tools' '$tmp/privileged')\" ]"
# try_args NAME: a call that would run /usr/bin/true as root if the exec were allowed.
try_args() { case $1 in sudo | doas | sudo-pam | doas-pam | sudo-rs | sudo-dev* | doas-dev*) echo "-n /usr/bin/true" ;; dosr* | pkexec) echo /usr/bin/true ;; *) echo --version ;; esac; }
# harmless_args NAME: a call that runs nothing as root (RootAsRole 3.0 and 3.1 have no --version:
# "Unknown option", exit 1; their --help exits 0). A source tree's sudo or OpenDoas
# (make provision-dev: sudo-dev-NAME, doas-dev-NAME) answers as the release does.
harmless_args() { case $1 in sudo | sudo-pam | sudo-rs | sudo-dev*) echo -V ;; doas | doas-pam | doas-dev*) echo "-C $prefix/etc/doas.conf" ;; dosr-3.0.* | dosr-3.1.*) echo --help ;; dosr*) echo --version ;; *) echo --version ;; esac; }
jqt() { jq -e "$@" >/dev/null 2>&1; }
# exec_refused RC OUTPUT PATH: the kernel refused to exec PATH (EACCES). runuser 2.38 then says
# "runuser: failed to execute PATH: Permission denied" and exits 1 (a shell's exec exits 126); a
# tool's own refusal (dosr prints "Permission denied" too) is not an exec failure.
exec_refused() {
	[ "$1" -ne 0 ] || return 1
	case $2 in *"failed to execute $3: Permission denied"*) return 0 ;; esac
	[ "$1" -eq 126 ] && case $2 in *"$3"*"Permission denied"*) return 0 ;; esac
	return 1
}
while IFS= read -r p; do
	n=${p#"$prefix"/}
	if [ -u "$p" ]; then m=4750; else m=750; fi
	check "$n: root:${group:-?} $m (nothing for other users)" test "$(mode_of "$p")" = "0:$gid $m"
	# shellcheck disable=SC2046 # the arguments are words
	out=$(runuser -u nobody -- "$p" $(try_args "${n##*/}") </dev/null 2>&1)
	rc=$?
	check "nobody (not in ${group:-?}): $n $(try_args "${n##*/}") is refused at exec (exit $rc: $(echo "$out" | head -1))" \
		exec_refused "$rc" "$out" "$p"
	# shellcheck disable=SC2046
	check "bench user: $n $(harmless_args "${n##*/}") runs" as_bench "$p" $(harmless_args "${n##*/}")
done <"$tmp/privileged"
check "facts.json: privileged_group is ${group:-?}" jqt --arg g "${group:-?}" '.privileged_group == $g' "$f"
while IFS= read -r t; do
	p=$(jq -r --arg t "$t" '.tools[$t].path' "$f")
	a=$(stat -c '%04a %U:%G' "$p" 2>/dev/null)
	check "facts.json: $t's access is the installed \"$a\"" jqt --arg t "$t" --arg a "$a" '.tools[$t].access == $a' "$f"
done < <(jq -r '.tools | to_entries[] | select(.value.present) | .key' "$f" 2>/dev/null)
while IFS= read -r p; do printf '%s\t%s\n' "$p" "$(stat -c '%04a %U:%G' "$p")"; done <"$tmp/privileged" |
	jq -R -s 'split("\n") | map(select(length > 0) | split("\t") | {(.[0]): .[1]}) | add // {}' >"$tmp/privileged.json"
check "facts.json: privileged_files lists each of them with its access" \
	jqt --slurpfile w "$tmp/privileged.json" '.privileged_files == $w[0]' "$f"
check "no temporary file left beside facts.json" sh -c "! ls -a '$prefix' | grep -q '^\.facts\|ansible.*tmp'"

snapshot >"$tmp/after"
if cmp -s "$tmp/before" "$tmp/after"; then
	ok "system sudo, sudoers, doas.conf and /etc/pam.d unchanged ($(grep -c . "$tmp/before") entries)"
else
	notok "system sudo, sudoers, doas.conf and /etc/pam.d unchanged"
	diff "$tmp/before" "$tmp/after" | head -20
fi
tap_status