#!/bin/sh
# results-memory.sh: rarplot's peak memory against the results file it reads (issue 52, finding 7:
# a 32 MiB {"results":[0,0,...]} took rarplot to 1.35 GB). For hostile files of 1, 32 and 256 MiB
# (zeros as the results, as one result's times, and in meta) and for real results files, prints
# GNU time's %M (peak resident KiB) beside the bound, 4 times the file plus 32 MiB
# (src/common/jsonbudget.h), and fails (exit 1) when a run passes it. A hostile file must be
# refused (exit 2, one line naming it); a real one drawn (exit 0).
# Usage: selfbench/results-memory.sh [REAL_RESULTS.json...] (default: the newest published
# seed-tasks run and the history run of doc/results). Needs bin/rarplot (make) and
# /usr/bin/time (Debian package time); writes only in a temporary directory of its own.
set -eu
cd "$(dirname "$0")/.."
[ -x bin/rarplot ] || { echo "results-memory: bin/rarplot is missing (make)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "results-memory: /usr/bin/time is missing (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d /tmp/rarperf-results-memory.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ $# -eq 0 ]; then
	set -- doc/results/2026-12-03-debian12-2core-v1147/seed-tasks/results.json \
		doc/results/2026-12-01-debian12-2core/history/results.json
fi
entry='"command":"a b","mean":1,"stddev":0,"median":1,"min":1,"max":1'
fails=0

# zeros FILE MIB HEAD TAIL: HEAD, then "0," to MIB MiB in all (under the 256 MiB cap), "0", TAIL.
zeros() {
	bytes=$(($2 * 1024 * 1024 - ${#3} - ${#4} - 16))
	{ printf '%s' "$3"; yes '0,' | tr -d '\n' | head -c "$bytes"; printf '0%s' "$4"; } >"$1"
}

# measure NAME FILE WANT: rarplot on FILE under GNU time; WANT is the exit status it must have.
measure() {
	size=$(stat -c %s "$2")
	bound=$((size * 4 / 1024 + 32 * 1024))
	set +e
	/usr/bin/time -f %M -o "$work/rss" bin/rarplot -o "$work/plot" "$2" >/dev/null 2>"$work/err"
	rc=$?
	set -e
	rss=$(tail -1 "$work/rss")
	verdict=ok
	if [ "$rss" -gt "$bound" ]; then verdict="OVER THE BOUND"; fi
	if [ "$rc" -ne "$3" ]; then verdict="$verdict, exit $rc (want $3)"; fi
	if [ "$3" -eq 2 ] && { [ "$(wc -l <"$work/err")" -ne 1 ] || ! grep -q "^rarplot: $2: refused" "$work/err"; }; then
		verdict="$verdict, not one line naming the file"
	fi
	printf '%-34s %8d KiB file  %8d KiB peak  %8d KiB bound  %s\n' "$1" $((size / 1024)) "$rss" "$bound" "$verdict"
	[ "$verdict" = ok ] || { fails=$((fails + 1)); sed 's/^/    /' "$work/err" | head -3; }
	rm -rf "$work/plot"
}

for mib in 1 32 256; do
	zeros "$work/z.json" "$mib" '{"results":[' ']}'
	measure "zeros as results, $mib MiB" "$work/z.json" 2
	zeros "$work/z.json" "$mib" "{\"results\":[{$entry,\"times\":[" ']}]}'
	measure "zeros as times, $mib MiB" "$work/z.json" 2
	zeros "$work/z.json" "$mib" '{"meta":[' "],\"results\":[{$entry}]}"
	measure "zeros in meta, $mib MiB" "$work/z.json" 2
	rm -f "$work/z.json"
done
for f in "$@"; do
	measure "$(basename "$(dirname "$f")")/$(basename "$f")" "$f" 0
done
[ "$fails" -eq 0 ] || { echo "results-memory: $fails run(s) failed"; exit 1; }
echo "results-memory: every run within 4 times its file and 32 MiB"
