#!/bin/bash
# selfbench/labscale.sh: rarlab on a lab of N namespace hosts at once (default 128, 256 and 512; one
# host each: a real sshd in its network namespace, tests/lib/nshosts.sh), every host seeing the
# copy of the provisioned prefix through an overlay of its own (its own writable layer and prefix
# lock; the prefix itself is only copied, so runs on it go on meanwhile). For each N:
# rarlab --forks N on a tiny sudo manifest, its wall time against the slowest host's own run
# (the `t` of its done event; target: wall <= slowest + 1 s + 1 %), its peak RSS (/usr/bin/time
# -v; target <= 0.25 MiB per host), and every host's results merged. Only the addresses of the
# hosts made here are contacted. Needs root, jq, /usr/bin/time, a provisioned prefix.
# Environment: LAB_SIZES (default "128 256 512"), RARPERF_PREFIX (default /opt/rarperf),
# LAB_MANIFEST (default: sudo, nb_tasks 1 and 100, 5 runs each), LAB_CONNECT_TIMEOUT (rarlab's
# --connect-timeout, default 60: the hosts' sshd and sftp-server share this machine's cores),
# LAB_JOBS (hosts built at once, default 8), LAB_RARLAB (the rarlab to run, default bin/rarlab;
# its rarbench beside it), LAB_KEEP (a directory to keep each size's phase log and memory map
# in), LAB_VARIANTS (';'-separated VAR=VALUE lists, each size run once per variant with them in
# rarlab's environment, e.g. "MALLOC_ARENA_MAX=1"; default: one run, no variable), LAB_LOGIN_FLOOR
# (0: leave out the login floor below, which takes 1-3 minutes at 512 hosts).
#
# Where the time goes (under each size's line): the hosts' SSH logins and their own CPU time
# (user + system of every host's sshd and all it reaped: sshd sessions, sftp-server, shells,
# rarbench and what it ran), which shares this machine's cores with rarlab: the wall's floor is
# (hosts' CPU + rarlab's CPU) / cores; the floor of the logins alone (N plain `ssh host true`,
# the hosts' CPU per login); rarlab's phase log (RARLAB_PHASE_LOG: per host when it entered each
# state), as median/max per phase; rarlab's memory at its peak by kind (thread stacks, malloc
# heaps, the rest) from /proc/PID/smaps sampled every 0.2 s.
#
# "Slowest host": the largest `t` of the hosts' done events, i.e. rarbench's own run on the host
# from its setup (progress_init) to its end, measured on the host's clock. It leaves out what
# only a coordinator adds (SSH handshake, identity probe, upload, fetch, merge) and rarbench's
# start before its setup; on this machine it includes the wait for the shared cores. The phase
# line adds the slowest run as rarlab saw it (from its exec request to the end of its output:
# rarbench's start included).
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
set -u
cd "$(dirname "$0")/.." || exit 2
. tools/lib/keepdir.sh
# root copies into LAB_KEEP: made now, or root's along its whole path (R34)
if [ -n "${LAB_KEEP:-}" ]; then LAB_KEEP=$(keepdir_make LAB_KEEP "$LAB_KEEP") || exit 2; fi
sizes=${LAB_SIZES:-128 256 512}
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarlab=${LAB_RARLAB:-$PWD/bin/rarlab}
[ -x "$rarlab" ] || { echo "selfbench/labscale.sh: bin/rarlab is missing: run make" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "selfbench/labscale.sh: needs root (network namespaces)" >&2; exit 2; }
[ -r "$prefix/facts.json" ] || { echo "selfbench/labscale.sh: $prefix is not provisioned" >&2; exit 2; }
for c in jq /usr/bin/time ip unshare /usr/sbin/sshd; do
	command -v "$c" >/dev/null || { echo "selfbench/labscale.sh: $c is missing" >&2; exit 2; }
done
max=0
for n in $sizes; do [ "$n" -gt "$max" ] && max=$n; done

. tests/lib/nshosts.sh
# indexes above 250 (addresses in 10.251.0.0/16): 1..250 stay free for tests run meanwhile
NSHOSTS_PREFIX_MNT=$prefix NSHOSTS_MIN=251 NSHOSTS_MAX=$((max + 260))
tmp=$(mktemp -d /tmp/rp-labscale.XXXXXX)
cleanup() {
	echo "tearing the lab down..."
	# every sshd stopped at once first: nshosts_down then finds them gone
	# shellcheck disable=SC2046 # a list of pids
	[ -n "$NSHOSTS_STATE" ] && kill $(cat "$NSHOSTS_STATE"/*/sshd.launcher 2>/dev/null) 2>/dev/null
	sleep 1
	nshosts_down
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "building $max namespace hosts (sshd each)..."
t0=$(date +%s)
nshosts_snapshot_prefix "$prefix" || exit 1
hosts=()
for ((i = 1; i <= max; i++)); do hosts+=("s$$-$i"); done
nshosts_up "${hosts[0]}" || exit 1
# the others LAB_JOBS at a time (each takes the next free veth index; ip link add is atomic)
jobs=${LAB_JOBS:-8}
for ((i = 1; i < max; i += jobs)); do
	pids=()
	for ((j = i; j < i + jobs && j < max; j++)); do
		{ nshosts__setup_one "${hosts[j]}" && nshosts_start_sshd "${hosts[j]}"; } &
		pids+=($!)
	done
	wait "${pids[@]}" # not the sshds: they run on
done
for h in "${hosts[@]}"; do
	[ -f "$NSHOSTS_STATE/$h/sshd.launcher" ] || { echo "selfbench/labscale.sh: host $h did not come up" >&2; exit 1; }
done
echo "built in $(($(date +%s) - t0)) s"
nshosts_known_hosts "$tmp/known_hosts"

if [ -n "${LAB_MANIFEST:-}" ]; then
	manifest=$LAB_MANIFEST
else
	manifest=$tmp/tiny.json
	cat >"$manifest" <<'JSON'
{"name": "labscale", "bench_user": "rarperf",
 "subjects": [{"id": "sudo", "format": "sudoers"}],
 "axes": {"nb_tasks": [1, 100]}, "warmup": 1, "min_runs": 5, "max_runs": 5}
JSON
fi
# The hosts' own CPU so far (user + system of each listening sshd and of every process it reaped:
# the per-connection sshds, sftp-servers, shells and rarbench runs), in clock ticks.
hosts_cpu_ticks() {
	for h in "$@"; do cat "/proc/$(cat "$NSHOSTS_STATE/$h/sshd.launcher")/stat"; done 2>/dev/null |
		awk '{ s += $14 + $15 + $16 + $17 } END { print s + 0 }'
}
# SSH connections accepted so far by the hosts (their sshd logs).
hosts_logins() {
	for h in "$@"; do grep -c 'Accepted publickey' "$NSHOSTS_STATE/$h/sshd.log"; done |
		awk '{ s += $1 } END { print s + 0 }'
}
# "median max" (ms) of one phase's durations over the phase log's rows of a pass: the time from
# column a to column b (columns of phaselog.h; rows lacking either are left out).
phase_stats() {
	awk -F'\t' -v p="$2" -v a="$3" -v b="$4" '$1 == p && $a >= 0 && $b >= 0 { print $b - $a }' "$1" |
		sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.0f/%.0f", v[int((NR + 1) / 2)], v[NR]; else printf "-" }'
}
ticks=$(getconf CLK_TCK)
# The biggest of rarlab's /proc/PID/smaps seen until PID ends, into FILE (pid, file).
sample_smaps() {
	local best=0 rss
	while kill -0 "$1" 2>/dev/null; do
		rss=$(awk '/^Rss:/ { s += $2 } END { print s + 0 }' "/proc/$1/smaps" 2>/dev/null)
		if [ "${rss:-0}" -gt "$best" ]; then
			cp "/proc/$1/smaps" "$2.tmp" 2>/dev/null && mv "$2.tmp" "$2" && best=$rss
		fi
		sleep 0.2
	done
}
# "stacks MiB (count), heaps MiB, rest MiB" of an smaps file: thread stacks are the anonymous
# read-write mappings of HOSTPOOL_STACK_BYTES (256 KiB) below a guard page.
smaps_kinds() {
	awk '/^[0-9a-f]+-[0-9a-f]+ / { perm = $2; path = $6; guard_before = prev_guard
			prev_guard = (perm == "---p"); next }
		/^Size:/ { kind = "rest"
			if (path == "" && perm == "rw-p") kind = (guard_before && $2 >= 240 && $2 <= 264) ? "stack" : "heap"
			if (path == "[heap]") kind = "heap"
			if (kind == "stack") nstack++; next }
		/^Rss:/ { rss[kind] += $2 }
		END { printf "stacks %.1f MiB (%d, %.0f KiB each), heaps %.1f MiB, rest %.1f MiB",
			rss["stack"] / 1024, nstack, nstack ? rss["stack"] / nstack : 0, rss["heap"] / 1024, rss["rest"] / 1024 }' "$1"
}
# The hosts' CPU (s) of one plain `ssh host true` per host, 16 at a time, and its wall (s).
login_floor() {
	local c0 t0 i=0
	c0=$(hosts_cpu_ticks "$@")
	t0=$(date +%s%N)
	for h in "$@"; do
		ssh -n -i "$NSHOSTS_KEY" -o BatchMode=yes -o ConnectTimeout=60 \
			-o UserKnownHostsFile="$tmp/known_hosts" -o StrictHostKeyChecking=yes \
			root@"$(nshosts_addr "$h")" true &
		i=$((i + 1))
		[ $((i % 16)) -eq 0 ] && wait
	done
	wait
	awk -v a="$c0" -v b="$(hosts_cpu_ticks "$@")" -v t="$ticks" -v w0="$t0" -v w1="$(date +%s%N)" \
		'BEGIN { printf "%.2f %.2f", (b - a) / t, (w1 - w0) / 1e9 }'
}
points=$(jq '(.subjects | length) * ([.axes[] | length] | reduce .[] as $n (1; . * $n))' "$manifest")


IFS=';' read -r -a variants <<<"${LAB_VARIANTS:-}"
[ ${#variants[@]} -eq 0 ] && variants=("")
for n in $sizes; do for variant in "${variants[@]}"; do
	out=$tmp/out-$n
	rm -rf "$out"
	[ -n "$variant" ] && echo "variant: $variant"
	nshosts_inventory "$tmp/lab-$n.ini" "${hosts[@]:0:n}"
	cpu0=$(hosts_cpu_ticks "${hosts[@]:0:n}")
	logins0=$(hosts_logins "${hosts[@]:0:n}")
	start=$(date +%s%N)
	# shellcheck disable=SC2086 # the variant's words are VAR=VALUE assignments
	env $variant RARLAB_PHASE_LOG="$tmp/phases-$n.tsv" /usr/bin/time -v -o "$tmp/time-$n" \
		"$rarlab" -i "$tmp/lab-$n.ini" --forks "$n" \
		--connect-timeout "${LAB_CONNECT_TIMEOUT:-60}" \
		--known-hosts "$tmp/known_hosts" --remote-dir "$prefix/runs" -o "$out" "$manifest" \
		>"$tmp/stdout-$n" 2>"$tmp/stderr-$n" &
	tpid=$!
	sleep 0.2
	rpid=$(pgrep -P "$tpid" | head -1)
	rm -f "$tmp/smaps-$n"
	[ -n "$rpid" ] && sample_smaps "$rpid" "$tmp/smaps-$n" &
	spid=$!
	wait "$tpid"
	status=$?
	wait "$spid"
	end=$(date +%s%N)
	hcpu=$(awk -v a="$cpu0" -v b="$(hosts_cpu_ticks "${hosts[@]:0:n}")" -v t="$ticks" 'BEGIN { printf "%.2f", (b - a) / t }')
	logins=$(($(hosts_logins "${hosts[@]:0:n}") - logins0))
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
	slowest=$(cat "$out"/*/done.json 2>/dev/null | jq -s 'map(.t) | max // 0')
	rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time-$n")
	cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.2f", s }' "$tmp/time-$n")
	ok=$(awk -F'\t' 'NR > 1 && $2 == "ok"' "$out/summary.tsv" | wc -l)
	merged=$(jq '.results | length' "$out/merged.json" 2>/dev/null || echo 0)
	lines=$(wc -l <"$tmp/stderr-$n")
	awk -v n="$n" -v w="$wall" -v s="$slowest" -v r="$rss_kb" -v st="$status" -v ok="$ok" \
		-v m="$merged" -v want=$((n * points)) -v l="$lines" -v c="$cpu" 'BEGIN {
		target = s * 1.01 + 1
		tv = (w <= target) ? "met" : "MISSED"
		mv = (r / 1024 / n <= 0.25) ? "met" : "MISSED"
		printf "%d hosts: exit %d, %d ok, %d/%d results merged; wall %.2f s, slowest host %.2f s, overhead %.2f s (target <= %.2f s: %s); peak RSS %.1f MiB = %.3f MiB/host (target <= 0.25: %s); rarlab CPU %.2f s; %d progress lines\n", n, st, ok, m, want, w, s, w - s, target - s, tv, r / 1024, r / 1024 / n, mv, c, l
	}'
	ph=$tmp/phases-$n.tsv
	printf '    hosts: %s SSH logins; their CPU %s s (sshd, sftp-server, rarbench), %.2f s of wall on %d cores\n' \
		"$logins" "$hcpu" "$(awk -v c="$hcpu" -v k="$(nproc)" 'BEGIN { print c / k }')" "$(nproc)"
	printf '    phases, median/max ms: identify connect %s, probe %s; run upload %s, run %s, fetch %s\n' \
		"$(phase_stats "$ph" identify 3 5)" "$(phase_stats "$ph" identify 5 7)" \
		"$(phase_stats "$ph" run 4 5)" "$(phase_stats "$ph" run 5 6)" "$(phase_stats "$ph" run 6 7)"
	awk -F'\t' -v w="$wall" '$1 == "identify" || $1 == "run" { if ($7 > last[$1]) last[$1] = $7 }
		$1 == "run" && $5 >= 0 && $6 >= 0 && $6 - $5 > slow { slow = $6 - $5 }
		$2 == "-" { mark[$1] = $7 }
		END { printf "    at ms: identify pass over %.0f, run pass over %.0f, merged %.0f, end %.0f; slowest run as rarlab saw it (exec to end of output) %.2f s, wall - that %.2f s\n",
			last["identify"], last["run"], mark["merge"], mark["end"], slow / 1000, w - slow / 1000 }' "$ph"
	[ -f "$tmp/smaps-$n" ] && printf '    rarlab memory at its peak: %s\n' "$(smaps_kinds "$tmp/smaps-$n")"
	if [ "${LAB_LOGIN_FLOOR:-1}" != 0 ]; then
		read -r fcpu fwall <<<"$(login_floor "${hosts[@]:0:n}")"
		awk -v c="$fcpu" -v w="$fwall" -v n="$n" -v l="$logins" -v k="$(nproc)" 'BEGIN {
			printf "    login floor: %d plain ssh logins took %.2f s of the hosts'"'"' CPU (%.1f ms each), %.2f s wall; %d logins: %.2f s on %d cores\n", n, c, c / n * 1000, w, l, c / n * l / k, k }'
	fi
	if [ -n "${LAB_KEEP:-}" ]; then
		cp "$ph" "$LAB_KEEP/phases-$n${variant:+-${variant//[^A-Za-z0-9]/_}}.tsv"
		cp "$tmp/smaps-$n" "$LAB_KEEP/smaps-$n${variant:+-${variant//[^A-Za-z0-9]/_}}" 2>/dev/null
	fi
	tail -3 "$tmp/stderr-$n" | sed 's/^/    /'
done; done
