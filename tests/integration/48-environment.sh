#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# The pinned environment of every measured child: the manifest's limits (nofile 1024 by default),
# umask, working directory and variables reach the grant check and the timed runs whatever the
# shell that started rarbench had, they are recorded in results.json and the journal, and a limit
# above the host's hard limit is refused before anything runs.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=$PWD/bin/rarbench
. tests/lib/tap.sh

need jq
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-it-env-XXXXXX)
trap 'rm -rf "$work"' EXIT

# A subject that exits 0 only in the pinned environment: grant check and timed runs alike (and
# only the loopback interface in its network namespace, whatever the host has).
probe='[ "$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " ")" = lo ] && [ "$(ulimit -n)" = 777 ] && [ "$(ulimit -Hn)" = 777 ] && [ "$(umask)" = 0077 ] && [ "$(pwd)" = /tmp ] && [ -z "$TERM" ] && [ -z "$LEAK" ] && [ "$LANG" = C ] && [ "$TZ" = UTC0 ]'
cat >"$work/env.json" <<JSON
{"name": "env", "subjects": [{"id": "probe", "format": "doas", "program": "/bin/sh",
  "args": ["-c", $(jq -Rn --arg s "$probe" '$s')]}],
 "axes": {"nb_tasks": [1, 2]}, "bench_user": "$user", "warmup": 1, "min_runs": 3, "max_runs": 3,
 "min_time_s": 0, "limits": {"nofile": 777}, "umask": "077", "cwd": "/tmp",
 "env": ["PATH=/usr/bin:/bin", "LANG=C", "TZ=UTC0"]}
JSON
(ulimit -n 4096 && TERM=xterm LEAK=1 "$rarbench" --manifest "$work/env.json" --prefix "$prefix" --wait \
	--out "$work/env" --progress none) 2>"$work/env.err"
rc=$?
check "started from a shell with nofile 4096, TERM and another variable: every run saw the pinned environment" \
	[ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/env.err"
res=$work/env/results.json
check "results.json records the pinned limit, the umask, cwd and the exact variables" \
	jq -e '.meta.environment | .limits.nofile == {"soft": 777, "hard": 777, "pinned": true}
		and .limits.stack.pinned == false and .umask == "077" and .cwd == "/tmp"
		and (.env | index("TZ=UTC0")) and (.env | map(startswith("TERM=")) | any | not)
		and (.aslr | type) == "number" and .network == "loopback"' "$res"
check "the journal's header records it: a resume in another environment is refused" \
	sh -c "head -1 '$work/env/journal.jsonl' | jq -e '.versions.environment.limits.nofile.soft == 777' >/dev/null"

# The default: nofile 1024 whatever the shell's limit.
probe_default='[ "$(ulimit -n)" = 1024 ] && [ "$(pwd)" = / ] && [ "$LANG" = C ] && [ -z "$TERM" ]'
cat >"$work/default.json" <<JSON
{"name": "default", "subjects": [{"id": "probe", "format": "doas", "program": "/bin/sh",
  "args": ["-c", $(jq -Rn --arg s "$probe_default" '$s')]}],
 "axes": {"nb_tasks": [1]}, "bench_user": "$user", "warmup": 1, "min_runs": 3, "max_runs": 3, "min_time_s": 0}
JSON
(ulimit -n 65536 2>/dev/null || ulimit -n 4096; TERM=xterm "$rarbench" --manifest "$work/default.json" \
	--prefix "$prefix" --wait --out "$work/default" --progress none) 2>"$work/default.err"
check "without limits: nofile 1024 from a shell with more, cwd /, no TERM" [ $? -eq 0 ]

# A limit above the hard limit of the shell rarbench runs in: exit 2, the path named, nothing run.
sed 's/"nofile": 777/"nofile": 5000/' "$work/env.json" >"$work/high.json"
(ulimit -n 4096 && "$rarbench" --manifest "$work/high.json" --prefix "$prefix" --wait --out "$work/high" \
	--progress none) 2>"$work/high.err"
rc=$?
check "nofile 5000 under a hard limit of 4096: exit 2, one line naming \$.limits.nofile" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/high.err') -eq 1 ] && grep -q 'high.json: \$.limits.nofile: 5000 is above this host.s hard limit 4096' '$work/high.err' && [ ! -e '$work/high' ]"

# A swept limit: every point measured at each value, each run seeing its point's value; the
# results and the journal say which; a value above the hard limit is refused with its index.
probe_sweep='case $(ulimit -n):$(ulimit -Hn) in 700:700 | 900:900) exit 0 ;; esac; exit 1'
cat >"$work/sweep.json" <<JSON
{"name": "sweep", "subjects": [{"id": "probe", "format": "doas", "program": "/bin/sh",
  "args": ["-c", $(jq -Rn --arg s "$probe_sweep" '$s')]}],
 "axes": {"nb_tasks": [1, 2]}, "bench_user": "$user", "warmup": 1, "min_runs": 3, "max_runs": 3,
 "min_time_s": 0, "limits": {"nofile": [700, 900]}}
JSON
(ulimit -n 4096 && "$rarbench" --manifest "$work/sweep.json" --prefix "$prefix" --wait --out "$work/sweep" \
	--progress none) 2>"$work/sweep.err"
rc=$?
check "limits.nofile [700, 900]: 4 points, every run saw its point's value (soft and hard)" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/sweep.err"
check "results.json: each point says its limit (parameters limit.nofile), the record the swept values" \
	jq -e '(.results | length) == 4 and ([.results[].parameters["limit.nofile"]] | sort == ["700","700","900","900"])
		and .meta.environment.swept_limit == {"name": "nofile", "values": [700, 900]}' "$work/sweep/results.json"
check "the journal's step ids name the limit" \
	sh -c "grep -c 'nofile=900' '$work/sweep/journal.jsonl' | grep -qx 2"
sed 's/"nofile": \[700, 900\]/"nofile": [700, 5000]/' "$work/sweep.json" >"$work/sweep-high.json"
(ulimit -n 4096 && "$rarbench" --manifest "$work/sweep-high.json" --prefix "$prefix" --wait \
	--out "$work/sweep-high" --progress none) 2>"$work/sweep-high.err"
rc=$?
check "limits.nofile [700, 5000] under a hard limit of 4096: exit 2 naming \$.limits.nofile[1], nothing run" \
	sh -c "[ $rc -eq 2 ] && grep -q 'sweep-high.json: \$.limits.nofile\[1\]: 5000 is above this host.s hard limit 4096' '$work/sweep-high.err' && [ ! -e '$work/sweep-high' ]"
# The CPU stall (src/bench/schedwait.h): rarlaunch reads each run's own wait for a CPU from the
# kernel's account of the started process (/proc/PID/schedstat), read from its zombie. With one
# CPU hog per core (bounded by timeout, pinned, nice 0 like the runs) a CPU-bound run pinned to
# the same CPUs shares a CPU with a hog and waits about as long as it runs: nearly every run is
# contended. The workload is rarref (static, about 30 ms of CPU): /usr/bin/true is done within
# its first time slice, and the kernel's wake-up preemption runs it at once beside a hog
# (doc/precision.md).
if [ -r /proc/self/schedstat ]; then src=schedstat; else src=off-cpu; fi
check "results.json says what judged contention: \"$src\" on this host" \
	jq -e --arg s "$src" '.meta.environment.contention_source == $s' "$res"
if [ "$src" = schedstat ] && [ "$(nproc)" -ge 2 ]; then
	hogs=""
	for cpu in 0 1; do
		timeout 60 taskset -c "$cpu" nice -n 0 sh -c 'while :; do :; done' &
		hogs="$hogs $!"
	done
	sleep 1
	timeout 60 taskset -c 0,1 "$rarbench" -N --warmup 1 --runs 15 --export-json "$work/hogs.json" \
		"taskset -c 0,1 $PWD/bin/rarref 300" >"$work/hogs.out" 2>&1
	rc=$?
	for p in $hogs; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	check "two CPU hogs: rarbench -N measured a CPU-bound command" [ "$rc" -eq 0 ]
	[ "$rc" -eq 0 ] || sed 's/^/    /' "$work/hogs.out"
	check "two CPU hogs: every run has its CPU stall (cpu_stall_ns), at least 80 % contended, each 'preempted'" \
		jq -e '.results[0] | (.cpu_stall_ns | length) == 15 and all(.cpu_stall_ns[]; type == "number")
			and .rarbench.contended_runs >= 12 and .rarbench.preempted_runs >= 12' "$work/hogs.json"
	jq -r '.results[0] | "    contended \(.rarbench.contended_runs)/15, stall (ms): \([.cpu_stall_ns[] / 1e6 | floor])"' \
		"$work/hogs.json" 2>/dev/null
fi

tap_status
