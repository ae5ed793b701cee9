#!/bin/sh
# provision-dev.sh: make provision-dev. Builds source trees as dev subjects beside the prefix's
# releases (doc/provisioning.md, "Subjects from a source tree"): the whole playbook runs, so the
# releases stay as they are, with the trees named by
#   RAR_DEV_TREE (RootAsRole: dosr-dev[-NAME]-json/-cbor), SUDO_DEV_TREE (sudo-dev[-NAME]),
#   DOAS_DEV_TREE (doas-dev[-NAME]); RAR_DEV_REV, SUDO_DEV_REV, DOAS_DEV_REV: a git revision of
#   the tree instead of its working tree; DEV_NAME: the NAME that tells several trees apart;
#   DEV_STORAGES: the RootAsRole storages to build, "json,cbor" (default) or one of them (a
#   storage is one more compile of the tree's crates and their LTO link: a CI check that
#   measures dosr-dev-cbor alone needs only cbor).
# The RootAsRole versions beside the main one are those the prefix already has (facts.json), so a
# prefix provisioned by make provision-demo does not build 4.0.3 now.
# Exit 2 on a usage error; the playbook's status otherwise (2 when a tree does not build). It ends
# with one line per dev subject built: its name, its path in the prefix, its version and tree.
set -u
prefix=${RARPERF_PREFIX:-/opt/rarperf}
if [ -z "${RAR_DEV_TREE:-}${SUDO_DEV_TREE:-}${DOAS_DEV_TREE:-}" ]; then
	echo "usage: make provision-dev RAR_DEV_TREE=DIR [RAR_DEV_REV=REV] [SUDO_DEV_TREE=DIR] [DOAS_DEV_TREE=DIR] [DEV_NAME=NAME]" >&2
	exit 2
fi
case ${DEV_NAME:-} in
*[!a-z0-9_.]*)
	echo "provision-dev: DEV_NAME=$DEV_NAME: use only a-z, 0-9, '_' and '.'" >&2
	exit 2
	;;
esac
storages=$(printf '%s' "${DEV_STORAGES:-json,cbor}" | jq -Rc 'split(",")') || exit 2
if ! printf '%s' "$storages" | jq -e 'length > 0 and all(. == "json" or . == "cbor") and (unique | length) == length' >/dev/null; then
	echo "provision-dev: DEV_STORAGES=${DEV_STORAGES:-}: use json, cbor or json,cbor" >&2
	exit 2
fi
for t in "${RAR_DEV_TREE:-}" "${SUDO_DEV_TREE:-}" "${DOAS_DEV_TREE:-}"; do
	[ -z "$t" ] || [ -d "$t" ] || { echo "provision-dev: $t: no such directory" >&2; exit 2; }
done
vars=$(jq -n --arg prefix "$prefix" --arg name "${DEV_NAME:-}" \
	--arg rt "${RAR_DEV_TREE:-}" --arg rr "${RAR_DEV_REV:-}" \
	--arg st "${SUDO_DEV_TREE:-}" --arg sr "${SUDO_DEV_REV:-}" \
	--arg dt "${DOAS_DEV_TREE:-}" --arg dr "${DOAS_DEV_REV:-}" --argjson fmts "$storages" \
	'{rarperf_prefix: $prefix,
	  rarperf_rootasrole_dev_tree: $rt, rarperf_rootasrole_dev_rev: $rr, rarperf_rootasrole_dev_name: $name,
	  rarperf_rootasrole_dev_formats: $fmts,
	  rarperf_sudo_dev_tree: $st, rarperf_sudo_dev_rev: $sr, rarperf_sudo_dev_name: $name,
	  rarperf_doas_dev_tree: $dt, rarperf_doas_dev_rev: $dr, rarperf_doas_dev_name: $name}') || exit 2
if [ -r "$prefix/facts.json" ]; then
	# The extra releases make provision built, not the history's (make provision-history keeps
	# those itself, "history": true; the role would otherwise build every one of them again).
	extra=$(jq -c '[.tools[] | select((.format // "") | startswith("rar-")) | select(.build == null)
		| select(.history != true) | select((.path // "") | test("/dosr-[0-9]")) | .version] | unique' \
		"$prefix/facts.json") || exit 2
	vars=$(printf '%s' "$vars" | jq -c --argjson e "$extra" '. + {rarperf_rootasrole_extra_versions: $e}')
fi
# shellcheck disable=SC2086
sh "$(dirname "$0")/with-progress.sh" ${ANSIBLE_PLAYBOOK:-/usr/bin/python3 /usr/bin/ansible-playbook} \
	-i inventory/local.ini install.yml -e "$vars" || exit $?
# The last lines name what was built and where (Ansible's recap names neither): each dev subject
# of this DEV_NAME whose source is one of the trees given, from the prefix's facts.json.
build=dev${DEV_NAME:+-$DEV_NAME}
# (each tree as given and resolved: the roles record one or the other)
trees=$(for t in "${RAR_DEV_TREE:-}" "${SUDO_DEV_TREE:-}" "${DOAS_DEV_TREE:-}"; do
	[ -z "$t" ] || printf '%s\n%s\n' "$t" "$(realpath -e "$t")"
done | jq -Rsc 'split("\n") | map(select(length > 0))')
summary=$(jq -r --arg b "$build" --argjson trees "$trees" '
	.tools | to_entries[] | .key as $name | .value
	| select(.build == $b and .present != false)
	| select((.tree.path // "") | IN($trees[]))
	| "provision-dev: \($name) at \(.path): version \(.version), built from \(.source | ltrimstr("tree:"))"
	  + (if .tree.dirty == true then " (uncommitted changes)" else "" end)' "$prefix/facts.json")
# The build succeeded whatever this finds: a summary that cannot be made is said, not an error.
if [ -n "$summary" ]; then
	printf '%s\n' "$summary"
else
	echo "provision-dev: built; $prefix/facts.json lists the subjects with \"build\": \"$build\""
fi
echo "provision-dev: measure it as a subject with \"build\": \"$build\" (doc/guide-ci.md); unchanged trees are not rebuilt"
