#!/bin/bash
# tree-probe.sh: describes a copy of a source tree, run by dev-sandbox.sh as its throwaway account
# in that copy (never as root, never in the tree itself: git reads the tree's .git/config, whose
# filters are the tree owner's code). DEV_SANDBOX_TREE: the tree's absolute path (for messages);
# DEV_SANDBOX_REV: a git revision, or empty for the working tree.
# Writes $HOME/probe.json, {commit, build_dir, version}: the commit (HEAD, or the revision's), the
# directory to build from (relative to the sandbox: src, or home/export for a revision, exported
# with git archive) and a version (Cargo.toml's, else git describe). That report is the tree's
# word (its code may have run as the same account): root reads it bounded, once the sandbox is
# gone, and checks every field's shape (probe-tree.sh, doc/security.md R28); nothing goes to a
# descriptor root holds. For a working tree at a commit, $HOME/commit gets the commit's files as
# a checkout makes them, which root hashes to say whether the copy is dirty (R31): the content
# hash, and whether it is the commit's, are root's, not this script's.
# Exit 1 with one line on stderr when REV is no commit of the tree.
set -euo pipefail
tree=$DEV_SANDBOX_TREE rev=${DEV_SANDBOX_REV:-}
# No fsmonitor and no hooks even for the account: git here only reads.
g() { git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c core.untrackedCache=false "$@"; }
commit=''
if [ -e .git ] && g rev-parse --git-dir >/dev/null 2>&1; then
	if [ -n "$rev" ]; then
		commit=$(g rev-parse --verify --quiet "$rev^{commit}") ||
			{ echo "source tree $tree: $rev is no commit of it" >&2; exit 1; }
	else
		commit=$(g rev-parse --verify --quiet HEAD || true)
		if [ -n "$commit" ]; then
			# The commit's files, whatever the index says (skip-worktree, assume-unchanged):
			# a fresh index of the commit, checked out beside the copy.
			# None when that fails (root then calls the copy dirty).
			if ! (mkdir "$HOME/commit" &&
				GIT_INDEX_FILE=$HOME/commit.index g read-tree "$commit" &&
				GIT_INDEX_FILE=$HOME/commit.index g checkout-index --all --ignore-skip-worktree-bits \
					--prefix="$HOME/commit/") >/dev/null; then
				rm -rf "$HOME/commit"
			fi
			rm -f "$HOME/commit.index"
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
version=''
[ -z "$commit" ] || version=$(g describe --tags --always "$commit" 2>/dev/null || true)
if [ -f "$src/Cargo.toml" ]; then
	# -I: nothing on sys.path from the working directory (the tree's own tomllib.py, R28).
	version=$(cd / && python3 -I -c 'import sys, tomllib
d = tomllib.load(open(sys.argv[1], "rb"))
v = d.get("package", {}).get("version")
if not isinstance(v, str): v = d.get("workspace", {}).get("package", {}).get("version", "")
print(v)' "$src/Cargo.toml")
fi
jq -n --arg commit "$commit" --arg src "$rel" --arg version "$version" \
	'{commit: (if $commit == "" then null else $commit end), build_dir: $src, version: $version}' \
	>"$HOME/probe.json"
