#!/bin/bash
# probe-tree.sh TREE REV EXPORTS: describes the source tree TREE (at the git revision REV, or its
# working tree when REV is empty) as one JSON object on stdout, and keeps the copy that is built
# as EXPORTS/tree-<hash>: {path, rev, commit, dirty, hash, build_dir, version}. Run by root (the
# rarperf_devtree role's probe.yml), from the directory holding dev-sandbox.sh, tree-probe.sh
# and tree-hash.py.
# The tree is data (doc/security.md R28): a throwaway account copies it and runs tree-probe.sh on
# the copy (dev-sandbox.sh); that account writes its report into its own home, and nothing of the
# tree reaches root on a descriptor. Once the sandbox is gone and the copy sealed (root's, nobody
# else's to write), root reads the report (64 KiB at most) and takes from it only the commit (40
# or 64 hex digits), the version (a plain word, no ..) and the build directory, which must be the
# one asked for (src, or home/export for a revision) and a directory under the sandbox reached
# without a link. The content hash is root's own (tree-hash.py over the copy, never following a
# link), and so is dirty (R31): the copy's hash against that of the commit's files as a checkout
# makes them; a revision's export is its commit. A report of the wrong shape: exit 1, one line.
# Exit 1 with one line on stderr when the tree, or the revision, does not exist.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: probe-tree.sh TREE REV EXPORTS" >&2; exit 2; }
tree=$1 rev=$2 ex=$3
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "source tree $tree: $*" >&2; exit 1; }
[ -d "$tree" ] || fail "no such directory"
tree=$(realpath -e -- "$tree")
# Others may pass through (the account reaches its sandbox in it), not list it.
install -d -m 0711 "$ex"
w=$(mktemp -d "$ex/probe.XXXXXX")
trap 'rm -rf "$w"' EXIT
# The probe's output goes nowhere root reads: /dev/null (its report is a file of the account's).
DEV_SANDBOX_TREE=$tree DEV_SANDBOX_REV=$rev \
	bash "$here/dev-sandbox.sh" "$tree" "$w" -- bash -s <"$here/tree-probe.sh" >/dev/null

# thash DIR: the content hash of DIR (a directory under $w reached without a link), 64 hex digits.
thash() {
	local h
	h=$(python3 -I -S "$here/tree-hash.py" "$1") || fail "could not hash the copy $1"
	[[ $h =~ ^[0-9a-f]{64}$ ]] || fail "tree-hash.py printed no hash for $1"
	printf '%s\n' "$h"
}
# under REL: $w/REL is a directory reached from $w through directories alone (no link, no ..).
under() {
	local p=$w c
	case /$1/ in *//* | */../* | */./*) return 1 ;; esac
	IFS=/ read -r -a parts <<<"$1"
	for c in "${parts[@]}"; do
		p=$p/$c
		[ -d "$p" ] && [ ! -L "$p" ] || return 1
	done
	[ "$(realpath -e -- "$w/$1")" = "$w/$1" ]
}

rep=$w/home/probe.json
[ -f "$rep" ] && [ ! -L "$rep" ] || fail "the probe wrote no report"
[ "$(stat -c %s -- "$rep")" -le 65536 ] || fail "the probe's report is over 64 KiB"
want=src
[ -z "$rev" ] || want=home/export
err=$(jq -r --arg want "$want" '
	def show: tojson | .[:80];
	if type != "object" then "not a JSON object"
	elif (keys - ["build_dir", "commit", "version"]) != [] then "unknown keys \(keys - ["build_dir", "commit", "version"] | show)"
	elif .commit != null and ((.commit | type) != "string" or (.commit | test("^([0-9a-f]{40}|[0-9a-f]{64})$") | not))
		then "commit \(.commit | show) is no hex object name"
	elif .build_dir != $want then "build_dir \(.build_dir | show) is not \($want | show)"
	elif (.version | type) != "string" or (.version | test("^([A-Za-z0-9][A-Za-z0-9._+~/-]{0,127})?$") | not)
		or (.version | test("[.][.]|//"))
		then "version \(.version | show) is not a plain word (letters, digits, . _ + ~ / -, no .. nor //)"
	else empty end' "$rep" 2>/dev/null) || fail "the probe's report is not JSON"
[ -z "$err" ] || fail "the probe's report: $err"
commit=$(jq -r '.commit // ""' "$rep")
version=$(jq -r .version "$rep")
under "$want" || fail "the build directory $want is not a directory under the sandbox reached without a link"

hash=$(thash "$w/$want")
if [ -z "$commit" ]; then
	dirty=null
elif [ -n "$rev" ]; then
	dirty=false
elif under home/commit && [ "$(thash "$w/home/commit")" = "$hash" ]; then
	dirty=false
else
	dirty=true
fi

# Named after its content: the same tree probed again finds its copy there (used only when its
# content is still that).
dir=$ex/tree-${hash:0:16}
if [ -d "$dir" ] && [ ! -L "$dir" ] && [ "$(thash "$dir")" = "$hash" ]; then
	:
else
	rm -rf "$dir"
	mv -T -- "$w/$want" "$dir"
	chmod 0700 "$dir"
fi
jq -n --arg path "$tree" --arg rev "$rev" --arg commit "$commit" --argjson dirty "$dirty" \
	--arg hash "sha256:$hash" --arg dir "$dir" --arg version "$version" \
	'{path: $path, rev: (if $rev == "" then null else $rev end),
	  commit: (if $commit == "" then null else $commit end), dirty: $dirty, hash: $hash,
	  build_dir: $dir, version: $version}'
