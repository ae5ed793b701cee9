#!/bin/sh
# demo.sh: `make demo`, the README's first command. On a fresh Debian 12 as root: Ansible if it
# is missing, then only what experiments/quick.json needs (sudo, doas, sudo-rs and RootAsRole
# 3.3.4's JSON and CBOR builds: `make provision` builds every tool, the PAM builds of sudo and
# doas and RootAsRole 4.0.3 too, which quick.json then measures as well: they are optional) when
# the prefix lacks it, then the sweep, the figures and the report. Each step says how long it
# took; the end says where the figure and the report are and what they show.
set -eu
cd "$(dirname "$0")/.."
prefix=${RARPERF_PREFIX:-/opt/rarperf}
out=${DEMO_OUT:-results/quick}
manifest=experiments/quick.json
make=${MAKE:-make}
start=$(date +%s)
last=$start
times=
step_done() { # NAME: what just finished, with its seconds
	now=$(date +%s)
	times="$times${times:+, }$1 $((now - last)) s"
	last=$now
}

if ! command -v ansible-playbook >/dev/null; then
	echo "== installing Ansible (apt-get)"
	apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ansible
	step_done apt
fi
need_provision=0
for f in bin/sudo bin/doas bin/sudo-rs bin/dosr-json bin/dosr-cbor facts.json \
	share/rarperf/policy-deny-all-sudoers; do
	[ -e "$prefix/$f" ] || need_provision=1
done
if [ "$need_provision" -eq 1 ]; then
	echo "== provisioning what $manifest measures into $prefix (the first time: a few minutes of builds)"
	"$make" --no-print-directory provision-demo
	step_done provisioning
else
	echo "== $prefix has what $manifest measures (make provision updates it, and builds every tool)"
fi
echo "== building rarperf"
"$make" --no-print-directory -s all
step_done build
if [ -d "$out" ]; then rm -rf "$out.prev" && mv "$out" "$out.prev"; fi
echo "== measuring $manifest as the bench user (the previous results, if any, are in $out.prev)"
bin/rarbench --manifest "$manifest" --prefix "$prefix" --out "$out"
step_done measuring
echo "== drawing the figures and the report"
bin/rarplot -o "$out" --claims experiments/claims/rar-perf-readme.tsv "$out/results.json" >"$out/table.txt"
step_done drawing
echo
echo "done in $(($(date +%s) - start)) s ($times):"
echo "  figure: $out/perf_tasks.png (and .svg)"
echo "  report: $out/report.md (every fit with its 95 % interval; the original RaR-perf claims checked)"
# fits.tsv: subject format host x n intercept_ms intercept_se_ms slope_us ...
awk -F'\t' 'NR > 1 && $4 == "nb_tasks" {printf "%s%s %.2f ms + %.2f us/task", sep, $1, $6, $8; sep = "; "}
	END {print ""}' "$out/fits.tsv" | sed 's/^/  per run: /'
