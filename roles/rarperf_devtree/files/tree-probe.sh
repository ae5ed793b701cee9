#!/bin/bash
# tree-probe.sh: describes a copy of a source tree as one JSON object on stdout, run by
# dev-sandbox.sh as its throwaway account in that copy (never as root, never in the tree itself:
# git reads the tree's .git/config, whose core.fsmonitor, filters and hooks are the tree owner's
# code). DEV_SANDBOX_TREE: the tree's absolute path (recorded as is); DEV_SANDBOX_REV: a git
# revision, or empty for the working tree. Prints the path, the revision asked for, the commit,
# whether the working tree differs from it (dirty), a SHA-256 of its content (paths and bytes of
# every file and symlink, without target/ and .git), the directory to build from (relative to the
# sandbox: src, or home/export for a revision, exported with git archive) and a version
# (Cargo.toml's, else git describe). Exit 1 with one line on stderr when REV is no commit of it.
set -euo pipefail
tree=$DEV_SANDBOX_TREE rev=${DEV_SANDBOX_REV:-}
# No fsmonitor and no hooks even for the account: git here only reads.
g() { git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c core.untrackedCache=false "$@"; }
commit='' dirty=null
if [ -e .git ] && g rev-parse --git-dir >/dev/null 2>&1; then
	if [ -n "$rev" ]; then
		commit=$(g rev-parse --verify --quiet "$rev^{commit}") ||
			{ echo "source tree $tree: $rev is no commit of it" >&2; exit 1; }
		dirty=false
	else
		commit=$(g rev-parse --verify --quiet HEAD || true)
		if [ -n "$(g status --porcelain --untracked-files=normal -- . ':(exclude)target' 2>/dev/null)" ]; then
			dirty=true
		else
			dirty=false
		fi
	fi
elif [ -n "$rev" ]; then
	echo "source tree $tree: not a git checkout, so it has no revision $rev" >&2
	exit 1
fi
src=$PWD rel=src
if [ -n "$rev" ]; then
	src=$HOME/export rel=home/export
	mkdir "$src"
	g archive --format=tar "$commit" | tar -x -C "$src"
fi
hash=$(cd "$src" && find . \( -path ./target -o -path ./.git \) -prune -o \( -type f -o -type l \) -print0 |
	LC_ALL=C sort -z | xargs -0 -r sha256sum -- | sha256sum | cut -d' ' -f1)
version=''
[ -z "$commit" ] || version=$(g describe --tags --always "$commit" 2>/dev/null || true)
if [ -f "$src/Cargo.toml" ]; then
	version=$(python3 -c 'import sys, tomllib
d = tomllib.load(open(sys.argv[1], "rb"))
v = d.get("package", {}).get("version")
if not isinstance(v, str): v = d.get("workspace", {}).get("package", {}).get("version", "")
print(v)' "$src/Cargo.toml")
fi
jq -n --arg path "$tree" --arg rev "$rev" --arg commit "$commit" --argjson dirty "$dirty" \
	--arg hash "sha256:$hash" --arg src "$rel" --arg version "$version" \
	'{path: $path, rev: (if $rev == "" then null else $rev end),
	  commit: (if $commit == "" then null else $commit end), dirty: $dirty, hash: $hash,
	  build_dir: $src, version: $version}'
