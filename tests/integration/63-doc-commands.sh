#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# The README's and the guides' commands, as written: every fenced block tagged "sh doc-test" in
# README.md and doc/guide-*.md runs from the tree's root, as root, against the provisioned prefix
# (the cheap ones: help, dry runs), each block one case that must exit 0. The expensive blocks are
# checked elsewhere: "make check" is this suite (.ci/run); "make demo" is tools/demo.sh, whose
# parts are tested by 10-provision-local (the playbook), 47-plan (quick.json's plan) and 60-rarplot
# (the figures); doc/guide-ci.md's "ci-recipe" blocks by 62-ci-recipe; a lab's commands by
# 70-lab-vms (lab.yml, install.yml shipping the prefix, rarlab, rarplot) and 50-rarlab.
# Also: every relative link of those files names a file that exists.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
. tests/lib/tap.sh

need_prefix "$prefix"
work=$(mktemp -d /tmp/rarperf-it-doc-XXXXXX)
trap 'rm -rf "$work"' EXIT
docs="README.md $(ls doc/guide-*.md | tr '\n' ' ')"

# blocks FILE: writes each "sh doc-test" block of FILE to $work/NAME-N.sh; prints their paths.
blocks() {
	awk -v dir="$work" -v name="$(basename "$1" .md)" '
		/^```sh doc-test$/ { n++; f = dir "/" name "-" n ".sh"; inb = 1; next }
		/^```/ && inb { inb = 0; print f; next }
		inb { print > f }' "$1"
}

total=0
for doc in $docs; do
	for b in $(blocks "$doc"); do
		total=$((total + 1))
		first=$(head -1 "$b")
		if (set -e; RARPERF_PREFIX=$prefix . "$b") >"$b.out" 2>&1; then
			ok "$doc: $first"
		else
			notok "$doc: $first (exit $?)"
			sed 's/^/    /' "$b.out" | tail -15
		fi
	done
done
check "the docs have doc-test blocks ($total)" [ "$total" -ge 5 ]

# Links: [text](path) and backquoted doc/… names must exist, relative to the file or the root.
for doc in $docs doc/tools.md tests/README.md src/README.md; do
	missing=""
	for l in $(grep -o '](\([^)#]*\))' "$doc" | sed 's/^](//; s/)$//' | grep -v '^https\?:'); do
		[ -e "$(dirname "$doc")/$l" ] || [ -e "$l" ] || missing="$missing $l"
	done
	check "$doc: every linked file exists${missing:+ (missing:$missing)}" [ -z "$missing" ]
done

# The README a newcomer reads in five minutes: at most 200 lines, the two commands in its first 20.
check "README.md has at most 200 lines ($(wc -l <README.md))" [ "$(wc -l <README.md)" -le 200 ]
check "make demo and make check are in README.md's first 20 lines" \
	sh -c "head -20 README.md | grep -q '^make demo' && head -20 README.md | grep -q '^make check'"
# Every code block closes before text follows it (a fence with text on its line runs on).
check "no text follows a closing fence on its line" sh -c "! grep -nE '^\`\`\` ' $docs doc/tools.md"
tap_status
