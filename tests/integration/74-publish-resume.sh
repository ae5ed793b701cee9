#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# tools/publish-results.sh (doc/guide-publishing.md) as a newcomer runs it, on a small manifest
# (sudo and doas, 8 sizes, 2 rounds, the profile pass; issue 53 item 4): a publication run to its
# end; the same one interrupted by SIGTERM (to its process group, as Ctrl-C reaches every
# process of the terminal's) after a few steps, which keeps its journal and says how to continue;
# the same command again, which continues from the journal and measures only what was missing,
# and ends with exactly the uninterrupted publication's files. A finished DIR is refused, a
# --resume with nothing to resume is refused, and on a terminal (script(1)) the progress is drawn
# while DIR/rarbench.out keeps rarbench's messages (the profile pass's cost among them), without
# the terminal's escapes. About 1-2 min on 2 cores.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
prefix=${RARPERF_PREFIX:-/opt/rarperf}
. tests/lib/tap.sh
need jq script setsid strace gnuplot
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
tmp=$(mktemp -d /tmp/rp-it67.XXXXXX)
# the sweeps' own directories: results/publish/<DIR's path, '/' as '_'>
sweep_dir() { printf 'results/publish/%s' "$(printf '%s' "$1" | sed 's|^/||; s|[^A-Za-z0-9._-]|_|g')"; }
cleanup() {
	for d in full cut tty; do rm -rf "$(sweep_dir "$tmp/$d")"; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
publish=tools/publish-results.sh

cat >"$tmp/it67.json" <<JSON
{"name": "it67", "subjects": [{"id": "sudo", "format": "sudoers"}, {"id": "doas", "format": "doas"}],
 "axes": {"nb_tasks": {"range": [1, 701, 100]}}, "bench_user": "$user", "rounds": 2,
 "warmup": 3, "min_runs": 30, "max_runs": 30, "min_time_s": 0, "profile": true}
JSON
steps=16 # 8 sizes x 2 rounds
files() { (cd "$1" && find . -type f | LC_ALL=C sort); }
points() { jq -c '[.results[] | [.parameters.subject, .parameters.nb_tasks]] | sort' "$1/results.json" 2>/dev/null; }

# --- 1. uninterrupted ----------------------------------------------------------------------------
t0=$(date +%s)
"$publish" "$tmp/it67.json" "$tmp/full" >"$tmp/full.log" 2>&1
rc=$?
check "an uninterrupted publication exits 0 ($(($(date +%s) - t0)) s)" [ "$rc" -eq 0 ] ||
	tail -5 "$tmp/full.log" | sed 's/^/    /'
check "it holds results.json, the journal, profile/, report.md, no .publishing" \
	sh -c "[ -s '$tmp/full/results.json' ] && [ -s '$tmp/full/journal.jsonl' ] && [ -d '$tmp/full/profile' ] &&
		[ -s '$tmp/full/report.md' ] && [ ! -e '$tmp/full/.publishing' ]"
check "its sweep directory is kept ($(sweep_dir "$tmp/full"))" test -s "$(sweep_dir "$tmp/full")/journal.jsonl"
check "rarbench.out ends with the profile pass's cost and the points written" \
	sh -c "grep -q '^rarbench: profile pass [0-9.]* s after [0-9.]* s of timed steps' '$tmp/full/rarbench.out' &&
		tail -1 '$tmp/full/rarbench.out' | grep -q 'points of it67 written to'"
"$publish" "$tmp/it67.json" "$tmp/full" >"$tmp/again.log" 2>&1
rc=$?
check "the same command on a finished DIR is refused (exit $rc), naming why" \
	sh -c "[ $rc -eq 2 ] && grep -q 'exists and is not an unfinished publication' '$tmp/again.log'"

# --- 2. interrupted, then the same command again -------------------------------------------------
journal=$(sweep_dir "$tmp/cut")/journal.jsonl
setsid "$publish" "$tmp/it67.json" "$tmp/cut" >"$tmp/cut1.log" 2>&1 &
pid=$!
for _ in $(seq 1 1200); do # at most 120 s: 3 steps journalled (the header and 3 lines)
	[ "$({ wc -l <"$journal"; } 2>/dev/null || echo 0)" -ge 4 ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -TERM -- -"$pid" 2>/dev/null
wait "$pid"
rc=$?
before=$(($({ wc -l <"$journal"; } 2>/dev/null || echo 1) - 1))
check "SIGTERM to the publication's process group: it stops (exit $rc: rarbench's 143)" [ "$rc" -eq 143 ] ||
	tail -5 "$tmp/cut1.log" | sed 's/^/    /'
check "the interrupted sweep kept its journal ($before of $steps steps)" sh -c "[ $before -ge 3 ] && [ $before -lt $steps ]"
check "it says how to continue, on its stderr: the same command with --resume" \
	grep -qxF "  $publish $tmp/it67.json $tmp/cut --resume" "$tmp/cut1.log"
check "DIR is marked unfinished (.publishing) and keeps rarbench's messages" \
	sh -c "[ -e '$tmp/cut/.publishing' ] && grep -q 'interrupted; continue with --resume' '$tmp/cut/rarbench.out'"
"$publish" "$tmp/it67.json" "$tmp/cut" >"$tmp/cut2.log" 2>&1
rc=$?
check "the same command again continues and exits 0" [ "$rc" -eq 0 ] || tail -5 "$tmp/cut2.log" | sed 's/^/    /'
check "it resumed the journal (rarbench.out says so)" grep -q '^publish-results: resuming ' "$tmp/cut/rarbench.out"
check "the journal holds each step once: the header and $steps steps" \
	test "$(wc -l <"$tmp/cut/journal.jsonl")" = $((steps + 1))
p_full=$(points "$tmp/full")
check "the resumed publication has the uninterrupted one's points ($(jq length <<<"${p_full:-[]}"))" \
	test -n "$p_full" -a "$p_full" = "$(points "$tmp/cut")"
files "$tmp/full" >"$tmp/full.files"
files "$tmp/cut" >"$tmp/cut.files"
check "and exactly its files ($(wc -l <"$tmp/full.files") files)" cmp -s "$tmp/full.files" "$tmp/cut.files" ||
	diff "$tmp/full.files" "$tmp/cut.files" | head -5 | sed 's/^/    /'
"$publish" "$tmp/it67.json" "$tmp/none" --resume >"$tmp/none.log" 2>&1
rc=$?
check "--resume with nothing to resume is refused (exit $rc)" \
	sh -c "[ $rc -eq 2 ] && grep -q 'nothing to resume' '$tmp/none.log' && [ ! -e '$tmp/none' ]"

# --- 3. on a terminal ----------------------------------------------------------------------------
script -qec "$publish $tmp/it67.json $tmp/tty" /dev/null >"$tmp/tty.log" 2>&1
rc=$?
check "on a terminal: exit 0" [ "$rc" -eq 0 ] || tail -5 "$tmp/tty.log" | sed 's/^/    /'
check "on a terminal: the progress is drawn (points done, elapsed, time left)" \
	grep -q "\[$steps/$steps points\] [0-9]*m[0-9]*s elapsed" "$tmp/tty.log"
check "on a terminal: rarbench's messages reach it too" grep -q 'rarbench: profile pass' "$tmp/tty.log"
clean_log() { grep -q '^rarbench: profile pass' "$1" && ! grep -q "$(printf '\033')" "$1"; }
check "rarbench.out keeps the messages, without the terminal's escapes" clean_log "$tmp/tty/rarbench.out"
files "$tmp/tty" >"$tmp/tty.files"
check "and the same files as without a terminal" cmp -s "$tmp/full.files" "$tmp/tty.files"
tap_status
