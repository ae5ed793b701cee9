#!/bin/sh
# memory.sh: each run's own peak memory (issue 34) against GNU time's %M, for sudo, doas and
# RootAsRole 3.3.4's JSON build at 1 and 1000 tasks on the provisioned prefix, same policy, same
# bench user. One sweep measures the tools (memory_usage_byte of every timed run); a second, per
# size, measures /usr/bin/time -f %M wrapped around each tool as the manifest's program, so that
# the grant, the policy and the user are the run's own. Prints per subject and size both medians
# (KiB), their difference and whether it is within 10 % or 256 KiB, and rarbench's own peak.
# Usage: selfbench/memory.sh [RUNS (20)]. Needs root, jq, /usr/bin/time (Debian package time).
set -eu
cd "$(dirname "$0")/.."
runs=${1:-20}
prefix=${RARPERF_PREFIX:-/opt/rarperf}
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
work=$(mktemp -d /tmp/rarperf-memory-XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
mkdir -m 1777 "$work/gt"
common="\"command\": \"/usr/bin/true\", \"bench_user\": \"$user\", \"warmup\": 3, \"min_runs\": $runs,
 \"max_runs\": $runs, \"min_time_s\": 0, \"order\": \"interleaved\", \"rounds\": 1, \"seed\": 1"
cat >"$work/tools.json" <<JSON
{"name": "memory", "subjects": [{"id": "sudo", "format": "sudoers"}, {"id": "doas", "format": "doas"},
 {"id": "sr-json", "format": "rar-json", "program": "{prefix}/bin/dosr-json"}],
 "axes": {"nb_roles": [1], "nb_users": [1], "nb_tasks": [1, 1000], "nb_commands": [1]}, $common}
JSON
for n in 1 1000; do
	gt() { echo "\"program\": \"/usr/bin/time\", \"args\": [\"-a\", \"-o\", \"$work/gt/$1-$n\", \"-f\", \"%M\", $2]"; }
	cat >"$work/gt-$n.json" <<JSON
{"name": "memory-gnu-time-$n", "subjects": [
 {"id": "gt-sudo", "format": "sudoers", $(gt sudo '"{prefix}/bin/sudo", "-n", "{command}"')},
 {"id": "gt-doas", "format": "doas", $(gt doas '"{prefix}/bin/doas", "-n", "{command}"')},
 {"id": "gt-sr-json", "format": "rar-json", $(gt sr-json '"{prefix}/bin/dosr-json", "{command}"')}],
 "axes": {"nb_roles": [1], "nb_users": [1], "nb_tasks": [$n], "nb_commands": [1]}, $common}
JSON
done
bin/rarbench --manifest "$work/tools.json" --prefix "$prefix" --wait --out "$work/tools" --progress none \
	2>"$work/err" &
pid=$!
hwm=0
while kill -0 "$pid" 2>/dev/null; do
	h=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || :)
	[ -n "$h" ] && [ "$h" -gt "$hwm" ] && hwm=$h
	sleep 0.1
done
wait "$pid" || { cat "$work/err" >&2; exit 1; }
for n in 1 1000; do
	bin/rarbench --manifest "$work/gt-$n.json" --prefix "$prefix" --wait --out "$work/gt-out-$n" \
		--progress none 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
done
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "memory.sh: $runs runs per subject and size, $(date -u +%FT%TZ); rarbench's own peak (VmHWM) $hwm KiB"
printf '%-8s %6s %12s %12s %8s %s\n' subject tasks rarbench GNU-time diff within
for s in sudo doas sr-json; do
	for n in 1 1000; do
		rb=$(jq -r --arg s "$s" --arg n "$n" '.results[] | select(.parameters.subject == $s and
			.parameters.nb_tasks == $n) | .memory_usage_byte[] / 1024' "$work/tools/results.json" | median)
		g=$(median <"$work/gt/$s-$n")
		awk -v s="$s" -v n="$n" -v a="$rb" -v b="$g" 'BEGIN {
			d = a - b; t = b * 0.1 > 256 ? b * 0.1 : 256
			printf "%-8s %6d %12.0f %12.0f %+7.1f%% %s\n", s, n, a, b, 100 * d / b,
				(d < 0 ? -d : d) <= t ? "yes" : "NO" }'
	done
done
