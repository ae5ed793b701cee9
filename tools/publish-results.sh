#!/bin/sh
# Runs one manifest for publication and draws it: tools/publish-results.sh MANIFEST DIR [RARPLOT-OPTION...]
#
# The sweep runs as root in a private mount namespace whose PREFIX/etc is a private copy, so
# that tests or other sweeps started meanwhile cannot rewrite the policies it measures; rarbench
# still takes the prefix's lock (--wait). DIR (new, under doc/results/ for a published run)
# receives what a reader needs to check every number again and nothing a script can remake from
# it: the run's results.json and results.tsv, its profile.tsv and profile-costs.tsv (rarplot
# reads them beside results.json), its journal.jsonl and profile/ (to estimate it again),
# rarbench's messages (rarbench.out: the profile pass's cost against the timed steps' is one of
# its last lines), and rarplot's fits, figures and report (rarplot.out). The sweep's own
# directory is kept in results/publish/NAME until the next run of the same manifest.
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || {
	echo "usage: tools/publish-results.sh MANIFEST DIR [RARPLOT-OPTION...]" >&2
	exit 2
}
manifest=$1 dir=$2
shift 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
[ -f "$manifest" ] || { echo "publish-results: $manifest: no such manifest" >&2; exit 2; }
[ ! -e "$dir" ] || { echo "publish-results: $dir exists: publish into a new directory" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "publish-results: run as root (a private mount namespace)" >&2; exit 2; }
name=$(basename "$manifest" .json)
out=results/publish/$name
rm -rf "$out"
mkdir -p results/publish
. tools/lib/keepdir.sh
# root writes DIR: made now (each missing directory 0700, then DIR readable), or root's along
# its whole path (R31)
dir=$(keepdir_make DIR "$dir") || exit 2
chmod 0755 "$dir"
etc=$(mktemp -d /tmp/rarperf-publish-etc.XXXXXX)
trap 'rm -rf "$etc"' EXIT INT TERM
cp -a "$prefix/etc/." "$etc/"
# The namespace ends with rarbench: the bind mount never shows outside it.
unshare -m sh -c 'mount --make-rprivate / && mount --bind "$1" "$2/etc" && shift 2 && exec "$@"' \
	sh "$etc" "$prefix" bin/rarbench --manifest "$manifest" --prefix "$prefix" --wait \
	--out "$out" --progress none 2>"$dir/rarbench.out"
# The journal (every run's wall, user and system time) and the profile pass's files: with them a
# reader can estimate the sweep again (another estimator, rarbench --resume) without measuring.
for f in results.json results.tsv profile.tsv profile-costs.tsv journal.jsonl; do
	[ ! -f "$out/$f" ] || cp "$out/$f" "$dir/$f"
done
[ ! -d "$out/profile" ] || cp -r "$out/profile" "$dir/profile"
bin/rarplot -o "$dir" --format png,svg "$@" "$dir/results.json" >"$dir/rarplot.out" 2>&1
tail -n 2 "$dir/rarbench.out"
echo "publish-results: $dir: results.json, report.md and the figures"
