#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# A copied prefix (issue 45 finding 8, issue 46 item 2). A sweep runs on a prefix seen at the
# prefix's path in a private mount namespace; meanwhile the prefix is copied with `cp -a`, its
# run/ (lock, holder, record) included, and a second sweep runs on the copy bind-mounted at the
# same path in another namespace, as the lab's namespace hosts do. The copy's record names the
# first sweep's cgroup and pid: the second must ignore it (and say so), and the first must run to
# its end with exit 0 and leave no grant. A copy at a path of its own is refused with one line
# saying how to provision a second prefix, whether named by --prefix or by RARPERF_PREFIX.
# RARBENCH=/path/to/rarbench runs it against another build (it must fail on one without these).
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=${RARBENCH:-$PWD/bin/rarbench}
. tests/lib/tap.sh

need jq unshare
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it44-XXXXXX) || exit 1
orig=$(mktemp -d /var/tmp/rarperf-it44-orig-XXXXXX) || exit 1
copy=$(mktemp -d /var/tmp/rarperf-it44-copy-XXXXXX) || exit 1
pid_a=
cleanup() {
	# The first sweep, if a failing build left it running: its own pid (unshare's, which
	# execs bash, which execs rarbench).
	[ -n "$pid_a" ] && kill -TERM "$pid_a" 2>/dev/null && wait "$pid_a" 2>/dev/null
	rm -rf "$work" "$orig" "$copy"
}
trap cleanup EXIT

# The "original": the shared prefix's files (not its run/: the shared lock stays untouched), a
# prefix of its own that the namespace shows at $prefix.
(cd "$prefix" && find . -mindepth 1 -maxdepth 1 ! -name run -exec cp -a {} "$orig/" \; 2>/dev/null)
chmod 0755 "$orig" "$copy"
[ -u "$orig/bin/doas" ] && [ -r "$orig/etc/doas.conf" ] || {
	notok "cannot copy $prefix to $orig"
	exit 1
}

# in_ns DIR CMD...: CMD in a private mount namespace that sees DIR at $prefix.
in_ns() {
	unshare --mount --propagation private \
		bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' _ "$1" "$prefix" "${@:2}"
}
# manifest NAME RUNS SLEEP -> $work/NAME.json: doas granting the safe command; the measured
# program (root's /bin/sh through doas's policy check) sleeps SLEEP s a run.
manifest() {
	cat >"$work/$1.json" <<JSON
{"name": "$1", "subjects": [{"id":"doas","format":"doas","program":"/bin/sh",
  "args":["-c","sleep $3"]}], "axes": {"nb_tasks": [1]}, "bench_user": "$user",
 "warmup": 0, "min_runs": $2, "max_runs": $2, "min_time_s": 0}
JSON
}
manifest long 16 0.25
manifest short 2 0

# --- 1. the first sweep, on the original ---
in_ns "$orig" "$rarbench" --manifest "$work/long.json" --prefix "$prefix" --out "$work/long" \
	--progress none 2>"$work/long.err" &
pid_a=$!
for _ in $(seq 1 300); do
	grep -q '"cgroup"' "$orig/run/state.json" 2>/dev/null && [ -s "$orig/run/holder" ] && break
	sleep 0.1
done
check "the first sweep holds the original's lock and a record naming its cgroup" \
	grep -q '"cgroup"' "$orig/run/state.json"

# --- 2. the prefix copied as the lab scripts do (cp -a, run/ included), a sweep on the copy ---
cp -a "$orig/." "$copy/"
check "the copy holds the first sweep's record" grep -q '"cgroup"' "$copy/run/state.json"
in_ns "$copy" "$rarbench" --manifest "$work/short.json" --prefix "$prefix" --out "$work/short" \
	--progress none 2>"$work/short.err"
rc=$?
check "the sweep on the copy: exit 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/short.err"
check "the sweep on the copy says, in one line, that the record is another prefix's" \
	[ "$(grep -c 'record of another prefix.*ignored' "$work/short.err")" -eq 1 ]
check "the sweep on the copy took over no lock and killed nothing" \
	sh -c "! grep -Eq 'took over the lock|killed [0-9]+ process' '$work/short.err'"
alive() { kill -0 "$1" 2>/dev/null; }
check "the first sweep still runs after the copy's sweep ended" alive "$pid_a"
wait "$pid_a"
rc=$?
pid_a=
check "the first sweep runs to its end: exit 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/long.err"
check "the first sweep measured its point" \
	[ "$(jq '[.results[] | select(.parameters.subject == "doas")] | length' "$work/long/results.json" 2>/dev/null)" = 1 ]
check "no grant left in the original (doas.conf deny-all), no record, no holder" \
	sh -c "grep -q 'match=none' '$orig/etc/doas.conf' && ! grep -q '^permit' '$orig/etc/doas.conf' && [ ! -e '$orig/run/state.json' ] && [ ! -e '$orig/run/holder' ]"
check "no grant left in the copy either" \
	sh -c "grep -q 'match=none' '$copy/etc/doas.conf' && ! grep -q '^permit' '$copy/etc/doas.conf' && [ ! -e '$copy/run/state.json' ]"

# --- 3. a copy at a path of its own (issue 46): refused, saying how to make one's own ---
"$rarbench" --manifest "$work/short.json" --prefix "$copy" --dry-run >/dev/null 2>"$work/own.err"
rc=$?
check "--prefix COPY: exit 2, one line naming facts.json and make provision RARPERF_PREFIX=" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/own.err') -eq 1 ] && grep -q 'facts.json: prefix: provisioned as $prefix' '$work/own.err' && grep -q 'make provision RARPERF_PREFIX=' '$work/own.err'"
RARPERF_PREFIX=$copy "$rarbench" --manifest "$work/short.json" --dry-run >/dev/null 2>"$work/env.err"
rc=$?
check "RARPERF_PREFIX=COPY (no --prefix) is the prefix rarbench checks: the same refusal" \
	sh -c "[ $rc -eq 2 ] && grep -q 'RARPERF_PREFIX=' '$work/env.err'"
RARPERF_PREFIX=$prefix "$rarbench" --manifest "$work/short.json" --dry-run >/dev/null 2>"$work/ok.err"
check "RARPERF_PREFIX=$prefix, where it was provisioned: the dry run passes" [ $? -eq 0 ]

tap_status
