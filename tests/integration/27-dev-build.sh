#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# A subject from a source tree (make provision-dev, doc/provisioning.md): RootAsRole 3.3.4's crate
# source, copied to a git checkout with one uncommitted change, a build.rs that says its uid in
# cargo's log and tries to write outside its sandbox, and a .git/config whose core.fsmonitor
# records its uid (nothing of either may run as root: the tree is built by a throwaway account,
# doc/security.md R26, R30), built by the real playbook
# (tools/provision-dev.sh) beside the releases as dosr-dev-it27-json/-cbor. Checks facts.json's
# record of the tree (path, commit, dirty, content hash), the binaries' access and capabilities,
# a confgen grant of /usr/bin/true honoured and /usr/bin/false refused by dosr itself, a manifest
# naming the build ("build": "dev-it27") passing rarbench --dry-run, a second converge with
# changed=0 that builds nothing, and a tree that does not compile: the play fails (exit 2) with
# cargo's last lines, and the releases and facts.json stay byte for byte as they were.
# The dev builds stay installed (facts.json lists them, as it lists every binary of the prefix).
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
prefix=${RARPERF_PREFIX:-/opt/rarperf}
. tests/lib/tap.sh
need ansible-playbook jq getcap runuser git python3
need_prefix "$prefix"
f=$prefix/facts.json
if ! jq -e '.tools["dosr-cbor"].present' "$f" >/dev/null 2>&1; then
	echo "ok - RootAsRole is not built in $prefix (facts.json says why) # SKIP no dosr to build beside"
	exit 0
fi

slug=$(printf '%s' "$prefix" | sed 's/[^A-Za-z0-9]\{1,\}/_/g')
tmp=$(mktemp -d /tmp/rp-it27.XXXXXX)
chmod 0755 "$tmp"
# The trees' cargo target directories (~0.25 GB each, named after their content, which names
# this run's directory) and kept copies go with the run.
builddir=/var/cache/rarperf/build
cleanup() {
	local t h
	for t in "$tmp/tree" "$tmp/broken" "$tmp/doas"; do
		[ -d "$t" ] || continue
		h=$(cd "$t" && find . \( -path ./target -o -path ./.git \) -prune -o \( -type f -o -type l \) -print0 |
			LC_ALL=C sort -z | xargs -0 -r sha256sum -- | sha256sum | cut -c1-16)
		rm -rf "$builddir/rootasrole-$slug/dev-target-$h" "$builddir/dev-exports/tree-$h"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The crate source the playbook fetched for the release (the build directory is named after the
# prefix, as group_vars/all.yml names it).
crate=/var/cache/rarperf/build/rootasrole-$slug/src-$(jq -r '.tools["dosr-cbor"].version' "$f")
if [ ! -f "$crate/Cargo.toml" ]; then
	notok "the release's crate source $crate is there (make provision)"
	exit 1
fi
tree=$tmp/tree
cp -a "$crate" "$tree"
git -C "$tree" init -q && git -C "$tree" add -A &&
	git -C "$tree" -c user.name=it27 -c user.email=it27@localhost commit -qm "rootasrole as released"
# A hostile tree (doc/security.md, "A developer's tree never runs as root"): build.rs says who
# runs it in cargo's log (a cargo:warning) and tries to write into a directory anyone may write
# to, which the sandbox never lets it reach (R30); .git/config names an fsmonitor that records
# who runs git in it, there. Neither may ever say 0.
drop=$tmp/drop
mkdir -m 1777 "$drop"
sed -i "0,/^fn main() {\$/s##fn main() {\n    let _ = std::process::Command::new(\"sh\").arg(\"-c\").arg(\"echo cargo:warning=rarperf-it27-build-uid=\$(id -u); id -u >>$drop/build-uid\").status();#" "$tree/build.rs"
git -C "$tree" -c user.name=it27 -c user.email=it27@localhost commit -qam "build.rs: who builds me"
commit=$(git -C "$tree" rev-parse HEAD)
printf '#!/bin/sh\nid -u >>%s/fsmonitor-uid\n' "$drop" >"$tmp/fsmonitor.sh"
chmod 0755 "$tmp/fsmonitor.sh"
git -C "$tree" config core.fsmonitor "$tmp/fsmonitor.sh"
# An uncommitted change (a developer's working tree): a comment, so the program is the release's.
printf '\n// rarperf test 27: an uncommitted change\n' >>"$tree/src/sr/main.rs"

user=$(jq -r .bench_user "$f")
uid=$(jq -r .bench_uid "$f")
group=$(jq -r '.privileged_group // empty' "$f")
group=${group:-$(id -gn "$user")}
gid=$(getent group "$group" | cut -d: -f3)

# An OpenDoas tree (the release's Debian source) whose configure and GNUmakefile record who runs
# them, built in the same converges as doas-dev-it27.
doas_src=$(ls -d /var/cache/rarperf/build/opendoas-"$slug"/opendoas-*/ 2>/dev/null | head -1)
doas_tree=''
if [ -n "$doas_src" ] && [ -x "$doas_src/configure" ]; then
	doas_tree=$tmp/doas
	cp -a "$doas_src" "$doas_tree"
	sed -i "1a echo rarperf-it27-configure-uid=\$(id -u); id -u >>$drop/configure-uid" "$doas_tree/configure"
	sed -i "1i \$(info rarperf-it27-make-uid=\$(shell id -u))\$(shell id -u >>$drop/make-uid)" "$doas_tree/GNUmakefile"
fi

# play LOG TREE NAME [DOAS_TREE]: make provision-dev's script, for this prefix; its exit status.
play() {
	PROGRESS_LOG=$1 RARPERF_PREFIX=$prefix RAR_DEV_TREE=$2 DEV_NAME=$3 DOAS_DEV_TREE=${4:-} \
		sh tools/provision-dev.sh >"$1.out" 2>"$1.err"
}
recap() { grep -E '^localhost +:' "$1" | tail -1; }
release_state() { # the releases and the facts file, byte for byte
	sha256sum "$f" "$prefix"/bin/sudo "$prefix"/bin/doas "$prefix"/bin/dosr-json "$prefix"/bin/dosr-cbor
	stat -c '%n %a %U:%G' "$prefix"/bin/dosr-json "$prefix"/bin/dosr-cbor
	getcap "$prefix"/bin/dosr-json "$prefix"/bin/dosr-cbor
}

t0=$(date +%s)
play "$tmp/run1.log" "$tree" it27 "$doas_tree"
rc=$?
t1=$(date +%s)
if [ $rc -eq 0 ]; then
	ok "make provision-dev builds the tree ($((t1 - t0)) s, dosr's builds: $(jq -r '[.tools["dosr-dev-it27-json", "dosr-dev-it27-cbor"].build_seconds] | map(tostring + " s") | join(", ")' "$f" 2>/dev/null))"
else
	notok "make provision-dev builds the tree (exit $rc)"
	tail -25 "$tmp/run1.log"
	exit 1
fi

# It ends naming what it built and where (issue 53: Ansible's recap named neither).
check "make provision-dev ends with each dev subject, its path, version and tree (uncommitted changes)" \
	sh -c "tail -4 '$tmp/run1.log.out' | grep -qx 'provision-dev: dosr-dev-it27-cbor at $prefix/bin/dosr-dev-it27-cbor: version [0-9.]*, built from $(realpath "$tree")@$commit (uncommitted changes)' &&
		tail -4 '$tmp/run1.log.out' | grep -q '^provision-dev: dosr-dev-it27-json at $prefix/bin/dosr-dev-it27-json: ' &&
		tail -1 '$tmp/run1.log.out' | grep -q 'build.: .dev-it27.'" || tail -4 "$tmp/run1.log.out" | sed 's/^/    /'
if [ -n "$doas_tree" ]; then
	check "... and doas-dev-it27's" grep -q "^provision-dev: doas-dev-it27 at $prefix/bin/doas-dev-it27: version " "$tmp/run1.log.out"
fi

# Nothing of the tree ran as root: its build.rs ran, as an account that is gone now, and could
# write nowhere outside its sandbox; its fsmonitor never ran as root (the probe's git, on a
# copy, runs none at all).
build_uids=$(cat "$builddir/rootasrole-$slug"/logs/dosr-dev-it27-*.log 2>/dev/null |
	sed -n 's/.*rarperf-it27-build-uid=\([0-9]*\).*/\1/p' | sort -u | tr '\n' ' ')
check "the tree's build.rs ran, never as root, as accounts removed since (uid: ${build_uids:-none})" \
	sh -c "[ -n '$build_uids' ] && for u in $build_uids; do [ \$u -ne 0 ] && ! getent passwd \$u >/dev/null || exit 1; done"
check "... and wrote nothing outside its sandbox (R30: $drop, world-writable, is out of its reach)" \
	test ! -e "$drop/build-uid"
check "the tree's .git/config fsmonitor never ran as root ($(sort -u "$drop/fsmonitor-uid" 2>/dev/null | tr '\n' ' ' || true))" \
	sh -c "! grep -qx 0 '$drop/fsmonitor-uid' 2>/dev/null"
check "no throwaway build account is left" sh -c "! getent passwd | grep -q '^rarperf-sb-'"
if [ -n "$doas_tree" ]; then
	dlogs=$(ls "$builddir/opendoas-$slug"/dev-dev-it27-*.log 2>/dev/null | tr '\n' ' ')
	cuids=$(cat $dlogs /dev/null | sed -n 's/^rarperf-it27-configure-uid=\([0-9]*\)$/\1/p' | sort -u | tr '\n' ' ')
	muids=$(cat $dlogs /dev/null | sed -n 's/^rarperf-it27-make-uid=\([0-9]*\)$/\1/p' | sort -u | tr '\n' ' ')
	check "the OpenDoas tree's configure and GNUmakefile ran, never as root (uid: ${cuids:-none} / ${muids:-none})" \
		sh -c "[ -n '$cuids' ] && [ -n '$muids' ] && for u in $cuids $muids; do [ \$u -ne 0 ] || exit 1; done"
	check "... and wrote nothing outside their sandbox" \
		sh -c "[ ! -e '$drop/configure-uid' ] && [ ! -e '$drop/make-uid' ]"
	check "doas-dev-it27: root:$group 4750, a regular file, its policy checked by the release's doas -C" \
		sh -c "[ \"\$(stat -c '%F %u:%g %a' '$prefix/bin/doas-dev-it27')\" = 'regular file 0:$gid 4750' ] &&
			'$prefix/bin/doas' -C '$prefix/etc/doas-dev-it27/doas.conf'"
	check "... and no set-ID file but the program in its dev prefix" \
		sh -c "[ -z \"\$(find '$prefix/dev/doas-dev-it27' -perm /6000)\" ]"
else
	echo "ok - OpenDoas dev tree # SKIP no OpenDoas source under /var/cache/rarperf/build"
fi

# The tree's content hash, computed here as doc/provisioning.md defines it.
hash=sha256:$(cd "$tree" && find . \( -path ./target -o -path ./.git \) -prune -o \( -type f -o -type l \) -print0 |
	LC_ALL=C sort -z | xargs -0 -r sha256sum -- | sha256sum | cut -d' ' -f1)
jqt() { jq -e "$@" >/dev/null 2>&1; }
for fmt in json cbor; do
	d=dosr-dev-it27-$fmt
	check "facts.json: $d names the tree, its commit, dirty, and its content hash" \
		jqt --arg d "$d" --arg p "$tree" --arg c "$commit" --arg h "$hash" \
		'.tools[$d] | .present and .build == "dev-it27" and .tree.path == $p and .tree.commit == $c
		 and .tree.dirty == true and .tree.rev == null and .tree.hash == $h
		 and .source == "tree:\($p)@\($c)" and .version == "3.3.4" and .cargo_version == "3.3.4"' "$f"
	check "facts.json: $d has the release's baked settings, its own files" \
		jqt --arg d "$d" --arg fmt "$fmt" --arg pre "$prefix" \
		'(.tools[$d].settings_baked | del(.RAR_CFG_PATH, .RAR_CFG_DATA_PATH))
		   == (.tools["dosr-\($fmt)"].settings_baked | del(.RAR_CFG_PATH, .RAR_CFG_DATA_PATH))
		 and (.tools[$d].settings | startswith("\($pre)/etc/rootasrole-d"))
		 and .tools[$d].settings != .tools["dosr-\($fmt)"].settings
		 and .tools[$d].path == "\($pre)/bin/\($d)"' "$f"
	# Issue 46's A/A: the baked paths as long as the release's, so that the code sits where the
	# release's does (a tree of the release's source builds the same .text, byte for byte).
	check "facts.json: $d's baked paths are as long as the release's" \
		jqt --arg d "$d" --arg fmt "$fmt" \
		'(.tools[$d].settings | length) == (.tools["dosr-\($fmt)"].settings | length)
		 and (.tools[$d].policy | length) == (.tools["dosr-\($fmt)"].policy | length)' "$f"
	check "$d: root:$group 0750 with file capabilities =p, as facts.json's access and privileged_files say" \
		sh -c "[ \"\$(stat -c '%u:%g %a' '$prefix/bin/$d')\" = '0:$gid 750' ] && getcap '$prefix/bin/$d' | grep -q ' =p\$' &&
			jq -e --arg d '$d' --arg p '$prefix/bin/$d' '.tools[\$d].access == \"0750 root:$group\" and .privileged_files[\$p] == \"0750 root:$group\"' '$f' >/dev/null"
done
check "facts.json: the release builds are still listed, unchanged in kind" \
	jqt '.tools["dosr-cbor"].present and .tools["dosr-cbor"].build == null and (.tools["dosr-cbor"].source | startswith("crates.io:"))' "$f"

# The build runs as the bench user: a grant of /usr/bin/true (written under the prefix's lock, as
# a sweep writes it), then deny-all again.
d=$prefix/bin/dosr-dev-it27-cbor
prefix_lock "$prefix" "27-dev-build.sh"
settings=$(jq -r '.tools["dosr-dev-it27-cbor"].settings' "$f")
data=$(jq -r '.tools["dosr-dev-it27-cbor"].policy' "$f")
bin/confgen --uid "$uid" --rar-cbor "$settings" --rar-cbor-data "$data" >/dev/null
out=$(runuser -u "$user" -- "$d" /usr/bin/id -u </dev/null 2>&1)
rc_id=$?
runuser -u "$user" -- "$d" /usr/bin/true </dev/null >/dev/null 2>&1
rc_true=$?
out_false=$(runuser -u "$user" -- "$d" /usr/bin/false </dev/null 2>&1)
rc_false=$?
bin/confgen --uid "$uid" --deny-all --rar-cbor "$settings" --rar-cbor-data "$data" >/dev/null
prefix_unlock "$prefix"
# refused RC OUTPUT: dosr's own refusal ("Permission denied"), not the command's exit status.
refused() { [ "$1" -ne 0 ] && case $2 in *"Permission denied"*) true ;; *) false ;; esac; }
check "bench user: dosr-dev-it27-cbor /usr/bin/true is granted (exit $rc_true)" test "$rc_true" -eq 0
check "bench user: dosr-dev-it27-cbor /usr/bin/false is refused by dosr (exit $rc_false: $(echo "$out_false" | head -1))" \
	refused "$rc_false" "$out_false"
check "bench user: /usr/bin/id is refused too, nothing run as root (exit $rc_id)" refused "$rc_id" "$out"
check "after deny-all: /usr/bin/true refused again" \
	sh -c "! runuser -u '$user' -- '$d' /usr/bin/true </dev/null >/dev/null 2>&1"

# A manifest names the build by "build"; rarbench checks it against facts.json.
cat >"$tmp/m.json" <<EOF
{"name": "it27", "bench_user": "$user", "min_runs": 3, "min_time_s": 0,
 "subjects": [{"id": "base", "format": "rar-cbor"}, {"id": "dev", "format": "rar-cbor", "build": "dev-it27"}]}
EOF
check "rarbench --dry-run accepts a subject with \"build\": \"dev-it27\"" \
	sh -c "bin/rarbench --manifest '$tmp/m.json' --prefix '$prefix' --dry-run 2>&1 | grep -q 'dosr-dev-it27-cbor'"
sed 's/"dev-it27"/"dev-nosuch"/' "$tmp/m.json" >"$tmp/m2.json"
bin/rarbench --manifest "$tmp/m2.json" --prefix "$prefix" --dry-run >"$tmp/m2.out" 2>&1
rc=$?
check "a build the prefix lacks: exit 2 naming it and make provision-dev (exit $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'subjects\[1\].program: .*dosr-dev-nosuch-cbor is missing (.*make provision-dev' '$tmp/m2.out'"

# Second converge over the unchanged tree: nothing built, nothing changed.
release_state >"$tmp/state.before"
t2=$(date +%s)
play "$tmp/run2.log" "$tree" it27 "$doas_tree"
rc=$?
t3=$(date +%s)
if [ $rc -eq 0 ] && recap "$tmp/run2.log" | grep -q ' changed=0 '; then
	ok "second converge over the unchanged tree: changed=0, the cached build reused ($((t3 - t2)) s)"
else
	notok "second converge over the unchanged tree: changed=0 (exit $rc: $(recap "$tmp/run2.log"))"
	grep -B3 -E '^changed:' "$tmp/run2.log" | grep TASK
fi

# A tree that does not compile: the play fails with cargo's last lines; nothing else moves.
cp -a "$tree" "$tmp/broken"
printf '\nfn rarperf_it27_broken( {\n' >>"$tmp/broken/src/sr/main.rs"
play "$tmp/run3.log" "$tmp/broken" it27broken
rc=$?
check "a tree that does not compile: make provision-dev exits 2 (exit $rc)" test "$rc" -eq 2
check "... and says so with the end of cargo's output" \
	sh -c "grep -q 'cargo build of dosr-dev-it27broken-json' '$tmp/run3.log' && grep -Eq 'error(\[E[0-9]+\])?: |could not compile' '$tmp/run3.log'"
release_state >"$tmp/state.after"
if cmp -s "$tmp/state.before" "$tmp/state.after"; then
	ok "... and the releases (sudo, doas, dosr-json, dosr-cbor) and facts.json are untouched"
else
	notok "... and the releases and facts.json are untouched"
	diff "$tmp/state.before" "$tmp/state.after" | head
fi
check "... and nothing of the broken tree is installed" \
	sh -c "! ls '$prefix/bin' | grep -q it27broken && [ ! -e '$prefix/share/rarperf/dev/dosr-dev-it27broken-cbor.json' ]"

# Two dev builds drawing the same policy path (the hashed tags are short): refused before any
# build (roles/rarperf_rootasrole/tasks/dev-clash.yml, run alone over a scratch prefix).
mkdir -p "$tmp/clash/share/rarperf/dev"
printf '%s\n' '- hosts: localhost' '  connection: local' '  gather_facts: false' '  tasks:' \
	'    - name: The clash check' \
	"      ansible.builtin.include_tasks: $PWD/roles/rarperf_rootasrole/tasks/dev-clash.yml" >"$tmp/clash.yml"
clash() { # NAME JSON-OF-THE-DEV-BUILDS: the check's exit status; its output in $tmp/clash.NAME
	ansible-playbook -i localhost, "$tmp/clash.yml" -e rarperf_prefix="$tmp/clash" \
		-e rarperf_rootasrole_dev_name=t -e "{\"rarperf_rootasrole_release_builds\":
		[{\"settings\": \"/p/etc/rootasrole-cbor.json\"}], \"rarperf_rootasrole_dev_builds\": $2}" \
		>"$tmp/clash.$1" 2>&1
}
dev() { # SETTINGS-OF-JSON SETTINGS-OF-CBOR
	printf '[{"name": "dosr-dev-t-json", "settings": "%s"}, {"name": "dosr-dev-t-cbor", "settings": "%s"}]' "$1" "$2"
}
clash ok "$(dev /p/etc/rootasrole-d111.json /p/etc/rootasrole-d222.json)"
check "dev-clash: two storages with paths of their own pass" test $? -eq 0
clash twins "$(dev /p/etc/rootasrole-d111.json /p/etc/rootasrole-d111.json)"
check "dev-clash: the tree's two storages on one path are refused, naming it" \
	sh -c "[ $? -ne 0 ] && grep -q 'its policy path /p/etc/rootasrole-d111.json is taken; choose another DEV_NAME' '$tmp/clash.twins'"
clash release "$(dev /p/etc/rootasrole-d111.json /p/etc/rootasrole-cbor.json)"
check "dev-clash: a release's path is refused" \
	sh -c "[ $? -ne 0 ] && grep -q 'rootasrole-cbor.json is taken' '$tmp/clash.release'"
echo '{"settings": "/p/etc/rootasrole-d222.json"}' >"$tmp/clash/share/rarperf/dev/dosr-dev-other-cbor.json"
clash kept "$(dev /p/etc/rootasrole-d111.json /p/etc/rootasrole-d222.json)"
check "dev-clash: the path of another dev build the prefix keeps is refused, naming that build" \
	sh -c "[ $? -ne 0 ] && grep -q 'd222.json (also dosr-dev-other-cbor' '$tmp/clash.kept'"
mv "$tmp/clash/share/rarperf/dev/dosr-dev-other-cbor.json" "$tmp/clash/share/rarperf/dev/dosr-dev-t-cbor.json"
clash itself "$(dev /p/etc/rootasrole-d111.json /p/etc/rootasrole-d222.json)"
check "dev-clash: the build's own earlier record is no clash" test $? -eq 0
tap_status
