#!/bin/bash
# selfbench/fanout.sh: runs the same manifest with rarlab on 1 and on N (default 8) namespace hosts
# (tests/lib/nshosts.sh, provisioned by install.yml) and prints the coordinator's overhead —
# rarlab's wall time against the slowest host's own run time (the `t` of its done event; target:
# wall <= slowest + 5% + 1 s) — and its memory: peak RSS (/usr/bin/time), per host and per added
# host (target < 1 MiB per host). A benchmark, not a test: numbers depend on the machine (all
# hosts share its cores). Environment: FANOUT_HOSTS (default 8), FANOUT_MANIFEST (default: a small
# and a medium sudo+doas sweep written here). Needs root, ansible-playbook, /usr/bin/time, jq.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
set -u
cd "$(dirname "$0")/.." || exit 2
n_hosts=${FANOUT_HOSTS:-8}
rarlab=$PWD/bin/rarlab
[ -x "$rarlab" ] || { echo "selfbench/fanout.sh: bin/rarlab is missing: run make" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "selfbench/fanout.sh: needs root (network namespaces)" >&2; exit 2; }
for c in ansible-playbook jq /usr/bin/time ip unshare; do
	command -v "$c" >/dev/null || { echo "selfbench/fanout.sh: $c is missing" >&2; exit 2; }
done

. tests/lib/nshosts.sh
tmp=$(mktemp -d /tmp/rp-fanout.XXXXXX)
cleanup() {
	nshosts_down
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

hosts=()
for ((i = 1; i <= n_hosts; i++)); do hosts+=("f$$h$i"); done
nshosts_up "${hosts[@]}" || exit 1
nshosts_inventory "$tmp/lab.ini"
nshosts_known_hosts "$tmp/known_hosts"

src=$PWD
if git rev-parse HEAD >/dev/null 2>&1; then
	git clone -q --shared "$PWD" "$tmp/src" && src=$tmp/src
fi
echo "provisioning ${#hosts[@]} hosts with install.yml..."
t0=$(date +%s)
if ! /usr/bin/python3 /usr/bin/ansible-playbook -i "$tmp/lab.ini" install.yml \
	-e rarperf_tools_src_dir="$src" -e rarperf_tools_controller_stage_dir="$tmp/stage" \
	-e rarperf_ssh_public_key_file="$NSHOSTS_KEY.pub" >"$tmp/play.log" 2>&1; then
	echo "selfbench/fanout.sh: install.yml failed (going on if every host has rarbench):" >&2
	grep -E 'fatal|FAILED' "$tmp/play.log" | cut -c1-200 | tail -3 >&2
fi
echo "provisioned in $(($(date +%s) - t0)) s"
for h in "${hosts[@]}"; do
	[ -x "$NSHOSTS_STATE/$h/prefix/bin/rarbench" ] || { echo "selfbench/fanout.sh: $h has no rarbench" >&2; exit 1; }
done

if [ -n "${FANOUT_MANIFEST:-}" ]; then
	manifests=("$FANOUT_MANIFEST")
else
	# small: fixed costs dominate; medium: a run long enough for the 5% to matter
	cat >"$tmp/small.json" <<'JSON'
{"name": "fanout-small", "bench_user": "rarperf",
 "subjects": [{"id": "sudo", "format": "sudoers"}, {"id": "doas", "format": "doas"}],
 "axes": {"nb_tasks": [1, 10, 100, 1000]},
 "warmup": 2, "min_runs": 30, "max_runs": 30}
JSON
	cat >"$tmp/medium.json" <<'JSON'
{"name": "fanout-medium", "bench_user": "rarperf",
 "subjects": [{"id": "sudo", "format": "sudoers"}, {"id": "doas", "format": "doas"}],
 "axes": {"nb_tasks": [1, 10, 100, 1000, 3000]},
 "warmup": 5, "min_runs": 150, "max_runs": 150}
JSON
	manifests=("$tmp/small.json" "$tmp/medium.json")
fi
# What a session costs on these hosts before rarbench starts: connect, auth and the login
# shell (root's ~/.bashrc runs for every SSH command; rarlab pays it twice: SFTP, exec).
probe_start=$(date +%s%N)
nshosts_exec "${hosts[0]}" true
echo "one ssh session running 'true' on ${hosts[0]}: $(( ($(date +%s%N) - probe_start) / 1000000 )) ms"

# fanout MANIFEST N: rarlab on the first N hosts; prints one result line, sets rss_N.
fanout() {
	local manifest=$1 n=$2 out limit start end wall slowest rss_kb cpu status
	out=$tmp/out-$(basename "$manifest" .json)-$n
	limit=$(IFS=,; echo "${hosts[*]:0:n}")
	start=$(date +%s%N)
	/usr/bin/time -f '%M %U %S' -o "$tmp/time" "$rarlab" -i "$tmp/lab.ini" -l "$limit" --forks "$n" \
		--known-hosts "$tmp/known_hosts" --remote-dir /opt/rarperf/runs -o "$out" "$manifest" \
		>"$tmp/stdout" 2>"$tmp/stderr"
	status=$?
	end=$(date +%s%N)
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	slowest=$(cat "$out"/*/done.json 2>/dev/null | jq -s 'map(.t) | max // 0')
	read -r rss_kb cpu_u cpu_s <"$tmp/time"
	cpu=$(awk -v u="$cpu_u" -v s="$cpu_s" 'BEGIN { printf "%.2f", u + s }')
	eval "rss_$n=$rss_kb"
	awk -v n="$n" -v w="$wall" -v s="$slowest" -v r="$rss_kb" -v st="$status" -v c="$cpu" 'BEGIN {
		target = s * 1.05 + 1
		verdict = "MISSED"
		if (w <= target && st == 0)
			verdict = "met"
		printf "  %d host(s): exit %d, wall %.2f s, slowest host %.2f s, overhead %.2f s, target <= %.2f s: %s; rarlab CPU %.2f s; peak RSS %.1f MiB (%.2f MiB/host)\n", n, st, w, s, w - s, target, verdict, c, r / 1024, r / 1024 / n
	}'
}

for m in "${manifests[@]}"; do
	echo "manifest $(basename "$m"):"
	fanout "$m" 1
	fanout "$m" "$n_hosts"
	awk -v a="$rss_1" -v b="$(eval echo "\$rss_$n_hosts")" -v n="$n_hosts" 'BEGIN {
		per = (b - a) / (n - 1) / 1024
		verdict = "MISSED"
		if (per < 1)
			verdict = "met"
		printf "  memory per added host: %.2f MiB ((%d - %d kB) / %d): target < 1 MiB: %s\n", per, b, a, n - 1, verdict
	}'
done
