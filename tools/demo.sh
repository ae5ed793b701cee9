#!/bin/sh
# demo.sh: `make demo`, the README's first command. On a fresh Debian 12 as root: Ansible if it
# is missing, then only what experiments/quick.json needs (sudo, doas, sudo-rs, please and RootAsRole
# 4.2.0's, the newest, and 3.3.4's JSON and CBOR builds: `make provision` builds every tool, the
# PAM builds of sudo and doas too, which quick.json then measures as well: they are optional)
# unless the prefix was provisioned from this very tree (tools/provision-stamp.sh), then the
# sweep, the figures and the report. Each step says when it starts and how long it took (the
# provisioning also its slowest tasks and cargo builds; every task's time is in
# build/provision-demo.log); the end says where the figure and the report are, and the three lines
# that matter.
set -eu
cd "$(dirname "$0")/.."
prefix=${RARPERF_PREFIX:-/opt/rarperf}
out=${DEMO_OUT:-results/quick}
manifest=experiments/quick.json
make=${MAKE:-make}
jobs=$(nproc 2>/dev/null || echo 2)
provision_log=${DEMO_PROVISION_LOG:-build/provision-demo.log}
start=$(date +%s)
times=
begin() { # NAME TEXT: a step starts
	step=$1
	step_start=$(date +%s)
	echo "== $2"
}
end() { # a step ends: its time, on its own line and in the closing summary
	now=$(date +%s)
	echo "   $step: $((now - step_start)) s"
	times="$times${times:+, }$step $((now - step_start)) s"
}

if ! command -v ansible-playbook >/dev/null; then
	begin apt "installing Ansible (apt-get)"
	apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ansible
	end
fi
if sh tools/provision-stamp.sh fresh-demo "$prefix"; then
	echo "== $prefix was provisioned from this tree: nothing to build (make provision builds every tool)"
else
	begin provisioning "provisioning what $manifest measures into $prefix (the first time: about 5 minutes of builds on 2 cores)"
	RARPERF_PREFIX=$prefix DEMO_PROVISION_LOG=$provision_log "$make" --no-print-directory provision-demo
	end
	# Where that time went: the slowest tasks (profile_tasks' summary, the end of the log; a wait
	# for the background cargo builds holds their time) and each cargo build's own time (facts.json).
	awk '/^=+ *$/ {s = 1; next}
		s && / [0-9.]+s$/ && k < 5 {t = $NF; sub(/s$/, "", t); n = $0; sub(/ -* ?[0-9.]+s$/, "", n)
			printf("%s%s %.0f s", (k++ ? ", " : "   slowest tasks: "), n, t)}
		END {if (k) print ""}' "$provision_log"
	builds=$(jq -r '[.tools | to_entries[] | select(.value.build_seconds != null)
		| "\(.key) \(.value.build_seconds) s"] | join(", ")' "$prefix/facts.json" 2>/dev/null || :)
	[ -z "$builds" ] || echo "   cargo builds (their own times, in the background): $builds"
	echo "   every task's time: $provision_log"
fi
begin build "building rarperf"
"$make" --no-print-directory -s -j"$jobs" all
end
if [ -d "$out" ]; then rm -rf "$out.prev" && mv "$out" "$out.prev"; fi
begin measuring "measuring $manifest as the bench user (the previous results, if any, are in $out.prev)"
bin/rarbench --manifest "$manifest" --prefix "$prefix" --out "$out" --wait
end
begin drawing "drawing the figures and the report"
# The README's claims as written (about 3.x) and the same claims for the newest release, 4.2.0.
cat experiments/claims/rar-perf-readme.tsv experiments/claims/rar-perf-readme-newest.tsv >"$out/claims-checked.tsv"
bin/rarplot -o "$out" --claims "$out/claims-checked.tsv" "$out/results.json" >"$out/table.txt"
end

figure=$out/perf_tasks.png
[ -e "$out/perf_tasks_log.png" ] && figure="$out/perf_tasks_log.png (log-log; linear: perf_tasks.png)"
echo
echo "done in $(($(date +%s) - start)) s ($times):"
echo "  figure: $figure"
echo "  report: $out/report.md (every fit with its 95 % interval; the original RaR-perf claims checked)"
# fits.tsv: subject format host x n intercept_ms intercept_se_ms slope_us ...; ranked cheapest first.
rank() { # COLUMN UNIT FORMAT: every subject's value in fits.tsv's COLUMN, ascending
	awk -F'\t' -v c="$1" 'NR > 1 && $4 == "nb_tasks" {print $c "\t" $1}' "$out/fits.tsv" | sort -g |
		awk -F'\t' -v unit="$2" -v fmt="$3" '{printf("%s%s " fmt "%s", (NR > 1 ? ", " : ""), $2, $1,
			(NR == 1 ? " " unit : ""))} END {print ""}'
}
echo "  each run costs (the fit at 0 tasks): $(rank 6 ms %.2f)"
echo "  and each task adds: $(rank 8 us %.3g)"
# The newest RootAsRole against sudo, in one line (quick.json's sr-*-4.2.0 subjects).
newest=$(awk -F'\t' 'NR > 1 && $4 == "nb_tasks" && ($1 == "sudo" || $1 ~ /^sr-(json|cbor)-4[.]2[.]0$/) {
		printf("%s%s %.2f ms + %.3g us/task", (k++ ? ", " : ""), $1, $6, $8)}' "$out/fits.tsv")
echo "  newest RootAsRole (4.2.0) beside sudo: $newest"
# claims.tsv: id host subject versus quantity claimed measured se lo hi verdict
awk -F'\t' 'NR > 1 && $11 != "not measured" {v = $11; sub(/ \(.*/, "", v); n[v]++; k++}
	END {
		printf "  RaR-perf README claims checked, preliminary (one quick sweep: report.md says why): %d:", k
		split("holds|direction holds, size differs|not confirmed|contradicted", order, "|")
		for (i = 1; i <= 4; i++) if (order[i] in n) { printf " %d %s;", n[order[i]], order[i]; delete n[order[i]] }
		for (v in n) printf " %d %s;", n[v], v
		print ""
	}' "$out/claims.tsv" | sed 's/;$/ (report.md)/'
# A fit that should not be believed (report.md's "unreliable:" lines) is said here too, where a
# new user reads the result, each with its reason (contention, interval width, shape, slope) and
# that reason's remedy, as rarplot words it: wide intervals on a quiet host want more runs, not a
# quieter host.
unreliable=$(grep -c '^unreliable: ' "$out/table.txt" || true)
if [ "${unreliable:-0}" -gt 0 ]; then
	echo "  unreliable: $unreliable fit(s) (report.md, and [unreliable] in the figure's legend):"
	grep '^unreliable: ' "$out/table.txt" | sed 's/^unreliable: /    /'
else
	echo "  reliability: no fit rests mostly on contended or noisy points (report.md)"
fi
