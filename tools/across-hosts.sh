#!/bin/sh
# Redraws the project's across-machine table from every published seed-tasks run:
# tools/across-hosts.sh [RARPLOT-OPTION...]
#
# rarplot fits each published machine (doc/results/*/seed-tasks/results.json) on its own, compares
# each subject with sudo there, and combines the machines (rarplot(1), ACROSS MACHINES). The runs
# published before rarbench recorded the machine's identity each ran on a machine of its own
# (their READMEs), hence --machines distinct. Writes doc/results/across-hosts.tsv (what a one-host
# report quotes: rarplot --published), across-hosts-values.tsv (each machine's values) and
# across-hosts.md (rarplot's report, whose first section is the table in words).
set -eu
cd "$(dirname "$0")/.."
[ -x bin/rarplot ] || { echo "across-hosts: bin/rarplot is missing: run make" >&2; exit 2; }
set -- "$@" doc/results/*/seed-tasks/results.json
out=$(mktemp -d /tmp/rarperf-across.XXXXXX)
trap 'rm -rf "$out"' EXIT INT TERM
bin/rarplot --format none --machines distinct -o "$out" "$@" >/dev/null 2>"$out/err" ||
	{ cat "$out/err" >&2; exit 1; }
cp "$out/across-hosts.tsv" "$out/across-hosts-values.tsv" doc/results/
cp "$out/report.md" doc/results/across-hosts.md
echo "across-hosts: wrote doc/results/across-hosts.tsv, across-hosts-values.tsv, across-hosts.md" >&2
