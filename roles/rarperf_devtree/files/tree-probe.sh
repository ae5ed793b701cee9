#!/bin/bash
# tree-probe.sh TREE REV EXPORTS: describes a source tree as one JSON object on stdout: its
# absolute path, the git revision asked for, the commit, whether the working tree differs from
# it (dirty), a SHA-256 of its content (paths and bytes of every file and symlink, without
# target/ and .git), the directory to build from and a version (Cargo.toml's, else git describe). With REV, the commit's tree is exported
# (git archive) to EXPORTS/<commit> once, and that export is described and built.
# Exit 1 with one line on stderr when TREE is no directory or REV no commit of it.
set -euo pipefail
tree=$1 rev=$2 exports=$3
[ -d "$tree" ] || { echo "source tree $tree: no such directory" >&2; exit 1; }
tree=$(realpath -e "$tree")
# The tree may belong to another user: git would refuse it as "dubious ownership".
g() { git -c safe.directory='*' -C "$tree" "$@"; }
commit='' dirty=null
if g rev-parse --git-dir >/dev/null 2>&1; then
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
src=$tree
if [ -n "$rev" ]; then
	src=$exports/$commit
	if [ ! -d "$src" ]; then
		mkdir -p "$exports"
		rm -rf "$src.new" && mkdir "$src.new"
		g archive --format=tar "$commit" | tar -x -C "$src.new"
		mv "$src.new" "$src"
	fi
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
	--arg hash "sha256:$hash" --arg src "$src" --arg version "$version" \
	'{path: $path, rev: (if $rev == "" then null else $rev end),
	  commit: (if $commit == "" then null else $commit end), dirty: $dirty, hash: $hash,
	  build_dir: $src, version: $version}'
