#!/bin/sh
# nofile.sh: what RLIMIT_NOFILE costs each tool (issue 19). RootAsRole 4.0.3 closes every possible
# descriptor one by one, so its intercept grows with the limit; sudo uses one close_range(2). A
# manifest sweeps limits.nofile over VALUES (an axis of the sweep) for sudo, sudo-pam, and 4.0.3's
# CBOR and JSON builds, at 1, 10 and 100 tasks; rarplot fits one line per subject and limit value,
# and this prints the fit table (intercept, slope, intervals) of each line. Run twice, from shells with
# different limits (`ulimit -n 1024` and `ulimit -n 65536`): the pinned limit, not the shell's, sets
# the intercept. Needs root, bin/rarbench and bin/rarplot (make), a provisioned prefix with
# RootAsRole 4.0.3 (make provision), jq. The hard limit is raised to the largest value first.
# Usage: selfbench/nofile.sh [VALUES ("1024 65536 1048576")] [RUNS (60)]
set -eu
cd "$(dirname "$0")/.."
values=${1:-1024 65536 1048576}
runs=${2:-60}
prefix=${RARPERF_PREFIX:-/opt/rarperf}
out=build/selfbench/nofile
rm -rf "$out"
mkdir -p "$out"
[ -x bin/rarbench ] && [ -x bin/rarplot ] || make -s bin/rarbench bin/rarplot
largest=$(printf '%s\n' $values | sort -n | tail -1)
# rarbench refuses a value above its hard limit: raise it (root with CAP_SYS_RESOURCE), else
# leave out the values this host cannot give and say so.
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$largest" -gt "$hard" ] && ! ulimit -Hn "$largest" 2>/dev/null; then
	kept=$(for v in $values; do [ "$v" -le "$hard" ] && echo "$v"; done | paste -sd' ' -)
	echo "nofile.sh: this shell cannot raise its hard limit $hard to $largest: values $kept only" >&2
	values=$kept
fi
cat >"$out/nofile.json" <<JSON
{"name": "nofile", "bench_user": "rarperf",
 "subjects": [{"id": "sudo", "format": "sudoers"},
  {"id": "sudo-pam", "format": "sudoers", "program": "{prefix}/bin/sudo-pam", "optional": true},
  {"id": "sr-cbor-4.0.3", "format": "rar-cbor", "rar_version": "4.0.3"},
  {"id": "sr-json-4.0.3", "format": "rar-json", "rar_version": "4.0.3"}],
 "axes": {"nb_tasks": [1, 10, 100]},
 "limits": {"nofile": [$(printf '%s\n' $values | paste -sd, -)]},
 "warmup": 5, "min_runs": $runs, "max_runs": $runs, "min_time_s": 0, "rounds": 3, "order": "interleaved"}
JSON
bin/rarbench --manifest "$out/nofile.json" --prefix "$prefix" --wait --out "$out/run" --progress none
bin/rarplot -o "$out/plots" --format none "$out/run/results.json" >"$out/table.txt"
printf 'shell nofile %s (hard %s); one line per subject and nofile value, each fitted on its own:\n' \
	"$(ulimit -n)" "$(ulimit -Hn)"
cat "$out/table.txt"
