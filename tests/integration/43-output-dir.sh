#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# The output directory (issue 45 finding 4): rarbench, as root, writes results.json, results.tsv,
# journal.jsonl and profile/ (where root's strace writes its trace) only in a directory nobody but
# root can change: root's along its whole path, or one it makes (under /tmp too). Another user's
# directory on the way is refused before anything is measured or locked (exit 2, one line naming
# the directory at fault and the fix), and a FIFO or a link left in the output directory neither
# blocks nor redirects it.
# RARBENCH=/path/to/rarbench runs it against another build (it must fail on one without these).
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=${RARBENCH:-$PWD/bin/rarbench}
. tests/lib/tap.sh

need jq runuser timeout mkfifo unshare
need_prefix "$prefix"
# The one sweep that runs to its end must not wait for the shared prefix's lock (other sweeps may
# hold it for minutes): the script runs again in a private mount namespace that sees a copy of
# the prefix at its path (as 45-leave-nothing.sh does), with a lock of its own.
if [ -z "${RARPERF_IT43_COPY:-}" ]; then
	copy=$(mktemp -d /var/tmp/rarperf-it43-prefix-XXXXXX) || exit 1
	(cd "$prefix" && find . -mindepth 1 -maxdepth 1 ! -name run -exec cp -a {} "$copy/" \; 2>/dev/null)
	chmod 0755 "$copy"
	[ -u "$copy/bin/doas" ] && [ -r "$copy/etc/doas.conf" ] || {
		notok "cannot copy $prefix to $copy"
		rm -rf "$copy"
		exit 1
	}
	RARPERF_IT43_COPY=$copy unshare --mount --propagation private \
		bash -c 'mount --bind "$RARPERF_IT43_COPY" "$1" && shift && exec bash "$@"' _ "$prefix" "$0"
	rc=$?
	rm -rf "$copy"
	exit "$rc"
fi
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
uid=$(id -u "$user")
work=$(mktemp -d /tmp/rarperf-it43-XXXXXX) || exit 1
victim=/etc/rarperf-it43-victim-$$
cleanup() {
	rm -f "$victim"
	rm -rf "$work"
}
trap cleanup EXIT
chmod 0711 "$work"

# manifest NAME EXTRA -> $work/NAME.json: doas granting the safe command, one point, three runs.
manifest() {
	cat >"$work/$1.json" <<JSON
{"name": "$1", $2 "subjects": [{"id":"doas","format":"doas"}], "axes": {"nb_tasks": [1]},
 "bench_user": "$user", "warmup": 0, "min_runs": 3, "max_runs": 3, "min_time_s": 0}
JSON
}
manifest plain ''
manifest prof '"profile": true, "profile_budget": 0,'
run() { # NAME OUT [MANIFEST]: rarbench as root, stderr to $work/NAME.err, bounded; sets rc
	timeout 120 "$rarbench" --manifest "$work/${3:-plain}.json" --prefix "$prefix" --wait \
		--out "$2" --progress none >/dev/null 2>"$work/$1.err" </dev/null
	rc=$?
}

# --- 1. --out in a directory the bench user made: refused before anything ---
install -d -o "$user" -m 0755 "$work/u"
run user "$work/u/out"
check "--out under the bench user's directory: exit 2" [ "$rc" -eq 2 ]
check "... one line naming --out, the directory at fault, its owner and the fix" \
	sh -c "[ \$(wc -l <'$work/user.err') -eq 1 ] && grep -qF -- '--out $work/u/out: $work/u is owned by uid $uid' '$work/user.err' && grep -qF \"root's along its whole path\" '$work/user.err'"
check "... nothing made in it" [ ! -e "$work/u/out" ]
timeout 60 "$rarbench" --manifest "$work/plain.json" --prefix "$prefix" --out "$work/u/out" \
	--dry-run >/dev/null 2>&1
check "... the dry run, which writes nothing, still checks the manifest there: exit 0" [ $? -eq 0 ]

# --- 2. a sticky directory open to all as the output directory itself ---
install -d -m 1777 "$work/sticky"
run sticky "$work/sticky"
check "--out a 1777 directory: exit 2, one line (writable by others)" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/sticky.err') -eq 1 ] && grep -q 'sticky is writable by others' '$work/sticky.err'"
# ... but a new directory in it, or one root made there, is rarbench's own.
run insticky "$work/sticky/mine"
check "--out NEW under a root-owned sticky directory (as /tmp/NAME): exit 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/insticky.err"
check "... it is root's, 0755" [ "$(stat -c '%u %a' "$work/sticky/mine" 2>/dev/null)" = "0 755" ]
install -d -o "$user" -m 0700 "$work/sticky/theirs"
run theirs "$work/sticky/theirs/out"
check "--out under the bench user's directory in a sticky one: exit 2 naming its owner" \
	sh -c "[ $rc -eq 2 ] && grep -q 'sticky/theirs is owned by uid $uid' '$work/theirs.err'"

# --- 3. a FIFO at OUT/results.json and OUT/journal.jsonl: nothing blocks ---
mkdir -m 0755 "$work/fifo"
mkfifo "$work/fifo/results.json"
start=$(date +%s)
timeout 60 "$rarbench" --manifest "$work/plain.json" --prefix "$prefix" --out "$work/fifo" \
	--dry-run >/dev/null 2>&1
rc=$?
check "a FIFO at OUT/results.json: the dry run (which reads it for its estimate) does not block: exit 0" \
	[ "$rc" -eq 0 ]
run fifo "$work/fifo"
took=$(($(date +%s) - start))
check "... the run does not block: exit 2 after ${took}s, before anything is measured" \
	sh -c "[ $rc -eq 2 ] && [ $took -lt 100 ] && [ ! -e '$work/fifo/journal.jsonl' ]"
check "... one line: results.json is not a regular file (a FIFO)" \
	sh -c "[ \$(wc -l <'$work/fifo.err') -eq 1 ] && grep -q 'results.json is not a regular file (a FIFO): remove it' '$work/fifo.err'"
rm -f "$work/fifo/results.json" "$work/fifo/journal.jsonl"
mkfifo "$work/fifo/journal.jsonl"
run fifoj "$work/fifo"
check "a FIFO at OUT/journal.jsonl: refused at once, exit 2 naming it" \
	sh -c "[ $rc -eq 2 ] && grep -q 'journal.jsonl is not a regular file (a FIFO)' '$work/fifoj.err'"

# --- 4. OUT/profile the bench user's, a link at profile/trace: nothing created through it ---
mkdir -m 0755 "$work/prof"
install -d -o "$user" -m 0755 "$work/prof/profile"
runuser -u "$user" -- ln -s "$victim" "$work/prof/profile/trace"
run prof "$work/prof" prof
check "OUT/profile the bench user's: exit 2 before any run, naming it" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/prof.err') -eq 1 ] && grep -q 'prof/profile is owned by uid $uid' '$work/prof.err'"
check "... the link's target was not created" [ ! -e "$victim" ]
check "... nothing measured (no journal)" [ ! -e "$work/prof/journal.jsonl" ]

tap_status
