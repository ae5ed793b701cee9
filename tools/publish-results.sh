#!/bin/bash
# Runs one manifest for publication and draws it:
#   tools/publish-results.sh MANIFEST DIR [--resume] [RARPLOT-OPTION...]
#
# How long: experiments/seed-tasks.json takes about 21 min of sweep and a 109 s profile pass on a
# 2-core machine (an Intel Xeon, family 6 model 207, KVM guest, 2026-12-04, nothing else running:
# issue 53); the script prints rarbench's own estimate for MANIFEST first. On a terminal it shows
# the sweep's progress (points done, elapsed, time left) and rarbench's messages as they come;
# either way the messages are kept in DIR/rarbench.out.
#
# Interrupted (Ctrl-C, a signal, a reboot): the same command again, or with --resume, continues
# the sweep from its journal (rarbench --resume: finished points are not measured again).
# Nothing a resume needs is deleted: the sweep's own directory, results/publish/<DIR's path with
# '/' as '_'>, is one per DIR (two publications never share it) and is kept after the run (its
# journal and profile/ estimate the sweep again). DIR holds .publishing until the run has
# finished; a DIR without it is a finished publication (or someone else's) and is refused.
#
# The sweep runs as root in a private mount namespace whose PREFIX/etc is a private copy, so
# that tests or other sweeps started meanwhile cannot rewrite the policies it measures; rarbench
# still takes the prefix's lock (--wait). DIR (new, under doc/results/ for a published run)
# receives what a reader needs to check every number again and nothing a script can remake from
# it: the run's results.json and results.tsv, its profile.tsv and profile-costs.tsv (rarplot
# reads them beside results.json), its journal.jsonl and profile/ (to estimate it again),
# rarbench's messages (rarbench.out: the profile pass's cost against the timed steps' is one of
# its last lines), and rarplot's fits, figures and report (rarplot.out).
# Tested by tests/integration/56-publish-resume.sh (interrupted, resumed, the same files).
set -eu
cd "$(dirname "$0")/.."
usage() {
	echo "usage: tools/publish-results.sh MANIFEST DIR [--resume] [RARPLOT-OPTION...]" >&2
	exit 2
}
[ $# -ge 2 ] || usage
manifest=$1 dir=${2%/}
shift 2
resume=0
rarplot_opts=()
for a in "$@"; do
	if [ "$a" = --resume ]; then resume=1; else rarplot_opts+=("$a"); fi
done
prefix=${RARPERF_PREFIX:-/opt/rarperf}
[ -f "$manifest" ] || { echo "publish-results: $manifest: no such manifest" >&2; exit 2; }
[ -n "$dir" ] || usage
[ "$(id -u)" -eq 0 ] || { echo "publish-results: run as root (a private mount namespace)" >&2; exit 2; }
again="tools/publish-results.sh $manifest $dir --resume${rarplot_opts[*]:+ ${rarplot_opts[*]}}"

# The sweep's directory: DIR's path (relative to the tree when inside it) made one name.
rel=$(realpath -m --relative-to=. "$dir")
case $rel in ../* | ..) rel=$(realpath -m "$dir") ;; esac
out=results/publish/$(printf '%s' "$rel" | sed 's|^/||; s|[^A-Za-z0-9._-]|_|g')
marker=$dir/.publishing
if [ -e "$dir" ] && [ ! -e "$marker" ]; then
	echo "publish-results: $dir exists and is not an unfinished publication: publish into a new directory" >&2
	exit 2
fi
if [ ! -e "$dir" ] && [ -e "$out/journal.jsonl" ] && [ "$resume" -eq 0 ]; then
	echo "publish-results: $out holds an earlier sweep for $dir: add --resume to continue it, or remove $out to start again" >&2
	exit 2
fi
if [ "$resume" -eq 1 ] && [ ! -e "$out/journal.jsonl" ] && [ ! -e "$marker" ]; then
	echo "publish-results: nothing to resume for $dir ($out has no journal): run it without --resume" >&2
	exit 2
fi
mkdir -p results/publish
. tools/lib/keepdir.sh
# root writes DIR: made now (each missing directory 0700, then DIR readable), or root's along
# its whole path (R34); an unfinished publication's DIR is root's and is taken again
dir=$(keepdir_make DIR "$dir") || exit 2
chmod 0755 "$dir"
marker=$dir/.publishing
printf '%s\n' "manifest $manifest" "sweep $out" >"$marker"
log=$dir/rarbench.out
resume_opt=()
if [ -e "$out/journal.jsonl" ]; then
	resume_opt=(--resume)
	echo "publish-results: resuming $out ($(date -u +%FT%TZ))" | tee -a "$log"
else
	bin/rarbench --manifest "$manifest" --prefix "$prefix" --out "$out" --dry-run 2>/dev/null |
		grep -m 1 '^Estimated wall time' | sed 's/^/publish-results: rarbench --dry-run: /' || true
	echo "publish-results: experiments/seed-tasks.json takes about 21 min and a 109 s profile pass on 2 cores"
fi

etc=$(mktemp -d /tmp/rarperf-publish-etc.XXXXXX)
rcfile=$etc.rc
finished=0
# The script's own stderr, kept: a signal's trap runs where the sweep's stderr goes to the log.
exec 3>&2
cleanup() {
	rm -rf "$etc" "$rcfile"
	if [ "$finished" -eq 0 ]; then
		echo "publish-results: not finished; $out and $dir are kept. Continue with:" >&3
		echo "  $again" >&3
	fi
}
trap cleanup EXIT
# A signal stops rarbench after its run in progress (it gets the signal too: the same process
# group); the script exits once it has, and says how to continue.
trap 'exit 130' INT
trap 'exit 143' TERM
cp -a "$prefix/etc/." "$etc/"

# sweep ARGS...: rarbench in its namespace; the bind mount never shows outside it.
sweep() {
	unshare -m sh -c 'mount --make-rprivate / && mount --bind "$1" "$2/etc" && shift 2 && exec "$@"' \
		sh "$etc" "$prefix" bin/rarbench --manifest "$manifest" --prefix "$prefix" --wait \
		--out "$out" "${resume_opt[@]}" "$@" 3>&-
}

# The progress events (doc/interfaces.md §5) drawn as one line on the terminal. It ignores
# SIGINT and SIGTERM, as tee -i does: both read rarbench's output until rarbench has stopped.
draw() {
	trap '' INT TERM
	local line total=0 done=0 eta=-1 t=0 profile=0
	jq -e '.profile == true' "$manifest" >/dev/null 2>&1 && profile=1
	num() { [[ $2 =~ \"$1\":(-?[0-9.]+) ]] && printf '%s' "${BASH_REMATCH[1]%.*}"; }
	mmss() { [ "$1" -ge 0 ] && printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)) || printf '?'; }
	while IFS= read -r line; do
		case $line in
		*'"event":"start"'*)
			total=$(num total "$line") done=$(num done "$line")
			printf 'publish-results: %s points, %s done before\n' "$total" "$done" >&2
			;;
		*'"event":"point_done"'*)
			total=$(num total "$line") done=$(num done "$line") eta=$(num eta_s "$line") t=$(num t "$line")
			printf '\r\033[K[%s/%s points] %s elapsed, about %s left' "$done" "$total" \
				"$(mmss "${t:-0}")" "$(mmss "${eta:--1}")" >&2
			if [ "$profile" -eq 1 ] && [ "$done" = "$total" ]; then
				printf '\npublish-results: the profile pass follows (each point once under strace; seed-tasks.json: 109 s)\n' >&2
			fi
			;;
		*'"event":"done"'*) printf '\r\033[K' >&2 ;;
		esac
	done
	[ "$done" = "$total" ] || printf '\n' >&2
}

if [ -t 2 ]; then
	# rarbench's messages on the terminal and in the log; its events drawn. tee, like draw,
	# ignores the signals and reads until rarbench has stopped.
	{
		rc=0
		sweep --progress jsonl 2> >(trap '' INT TERM && exec tee -a "$log" >&2) || rc=$?
		echo "$rc" >"$rcfile"
	} | draw
	rc=$(cat "$rcfile" 2>/dev/null || echo 1)
else
	rc=0
	sweep --progress none 2>>"$log" || rc=$?
fi
if [ "$rc" -ne 0 ]; then
	echo "publish-results: the sweep stopped (rarbench exit $rc); the end of $log:" >&2
	tail -n 3 "$log" >&2
	exit "$rc"
fi
# The journal (every run's wall, user and system time) and the profile pass's files: with them a
# reader can estimate the sweep again (another estimator, rarbench --resume) without measuring.
for f in results.json results.tsv profile.tsv profile-costs.tsv journal.jsonl; do
	[ ! -f "$out/$f" ] || cp "$out/$f" "$dir/$f"
done
# DIR's copy, remade from the sweep's (a resumed publication may have copied it before)
rm -rf "$dir/profile"
[ ! -d "$out/profile" ] || cp -r "$out/profile" "$dir/profile"
if ! bin/rarplot -o "$dir" --format png,svg "${rarplot_opts[@]}" "$dir/results.json" >"$dir/rarplot.out" 2>&1; then
	echo "publish-results: rarplot failed; the end of $dir/rarplot.out:" >&2
	tail -n 3 "$dir/rarplot.out" >&2
	exit 1
fi
rm -f "$marker"
finished=1
tail -n 2 "$log"
echo "publish-results: $dir: results.json, report.md and the figures (the sweep: $out)"
