#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# The README's and the guides' commands, as written. Every fenced `sh` block of README.md and
# doc/guide-*.md carries a tag that says what runs it, and a block without one fails here, so
# that no command of a guide goes untested (issue 53: a newcomer following the guides met
# commands gone stale):
#   sh doc-test        run here as written, from the tree's root, as root, against the provisioned
#                      prefix: the cheap ones (help, dry runs, a listing); each block must exit 0;
#   sh doc-sweep       run here as written, in a scratch directory laid out as the tree (bin,
#                      experiments, tools, plots linked; results/ its own), the blocks of one file
#                      in order: the sweeps a guide measures and draws, each block must exit 0;
#   sh doc-check       not run (it provisions, or runs the whole suite): a make line's targets
#                      must be the Makefile's, a sweep's manifest passes rarbench --dry-run, any
#                      other command must exist;
#   sh run-by FILE     run by FILE, a test of make check, which must exist and name this file;
#   sh ci-recipe       doc/guide-ci.md's recipe for a kept VM, run by 62-ci-recipe.
#   sh ci-hosted       doc/guide-ci.md's recipe for a shared runner thrown away after the job, run by 62.
# "make check" is this suite (.ci/run); "make demo" is tools/demo.sh, whose parts are tested by
# 10-provision-local (the playbook), 47-plan (quick.json's plan) and 60-rarplot (the figures).
# Also: every relative link of those files names a file that exists.
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
. tests/lib/tap.sh

need_prefix "$prefix"
work=$(mktemp -d /tmp/rarperf-it-doc-XXXXXX)
trap 'rm -rf "$work"' EXIT
docs="README.md $(ls doc/guide-*.md | tr '\n' ' ')"

# tagged FILE TAG: writes each "sh TAG" block of FILE to $work/NAME-TAG-N.sh; prints their paths.
tagged() {
	awk -v dir="$work" -v name="$(basename "$1" .md)" -v tag="$2" '
		{ line = $0; sub(/^ +/, "", line) }
		line == "```sh " tag { n++; f = dir "/" name "-" tag "-" n ".sh"; inb = 1; next }
		line ~ /^```/ && inb { inb = 0; print f; next }
		inb { print > f }' "$1"
}
blocks() { tagged "$1" doc-test; }

total=0
for doc in $docs; do
	for b in $(blocks "$doc"); do
		total=$((total + 1))
		first=$(head -1 "$b")
		# outside a condition, where set -e holds for every command of the block
		(set -e; RARPERF_PREFIX=$prefix . "$b") >"$b.out" 2>&1
		rc=$?
		if [ "$rc" -eq 0 ]; then
			ok "$doc: $first"
		else
			notok "$doc: $first (exit $rc)"
			sed 's/^/    /' "$b.out" | tail -15
		fi
	done
done
check "the docs have doc-test blocks ($total)" [ "$total" -ge 5 ]

# Every sh block is tagged (the tags above); a plain one says where it is.
untagged=$(awk '/^ *```sh *$/ { print FILENAME ":" FNR }' $docs | tr '\n' ' ')
check "every sh block of the README and the guides says what runs it${untagged:+ (untagged: $untagged)}" [ -z "$untagged" ]
unknown=$(grep -nE '^ *```sh [^ ]' $docs | grep -vE '```sh (doc-test|doc-sweep|doc-check|ci-recipe|ci-hosted|run-by [^ ]+)$' | tr '\n' ' ')
check "every sh block's tag is known${unknown:+ (not: $unknown)}" [ -z "$unknown" ]

# run-by FILE: the test exists and names the file whose commands it runs.
for doc in $docs; do
	for t in $(sed -n 's/^ *```sh run-by \([^ ]*\)$/\1/p' "$doc" | sort -u); do
		check "$doc: its commands tagged run-by $t are that test's (it exists and names $doc)" \
			sh -c "[ -f '$t' ] && grep -qF '$doc' '$t'"
	done
done

# doc-check: a make line's targets must be the Makefile's (its database, printed by make -pq for
# a target without a recipe: never make -n, which runs a recipe that calls $(MAKE), the demo's
# sweep among them); a sweep's manifest is checked with rarbench --dry-run (the prefix has what it
# names); any other command must exist. Continued lines are joined first.
make -npq .DEFAULT 2>/dev/null | sed -n 's/^\([A-Za-z0-9][A-Za-z0-9_.-]*\):.*/\1:/p' | sort -u >"$work/make-targets"
for doc in $docs; do
	n=0
	for b in $(tagged "$doc" doc-check); do
		n=$((n + 1))
		bad=""
		while IFS= read -r line; do
			line=${line%%#*}
			set -f
			# shellcheck disable=SC2086
			set -- $line
			set +f
			[ $# -gt 0 ] || continue
			case $1 in
			make)
				shift
				for a in "$@"; do
					case $a in
					-* | *=*) ;;
					*) grep -qx -- "$a:" "$work/make-targets" || bad="$bad; no make target $a" ;;
					esac
				done
				;;
			bin/rarbench)
				m=$(printf '%s\n' "$@" | grep -A1 -x -- --manifest | sed -n 2p)
				[ -z "$m" ] || RARPERF_PREFIX=$prefix bin/rarbench --manifest "$m" --dry-run >/dev/null 2>&1 ||
					bad="$bad; rarbench --manifest $m --dry-run"
				;;
			for | do | done | if | then | else | fi) ;;
			*) command -v "$1" >/dev/null 2>&1 || [ -x "$1" ] || bad="$bad; no $1" ;;
			esac
		done < <(sed -e ':a' -e '/\\$/{N; s/\\\n//; ba' -e '}' "$b")
		check "$doc: doc-check block $n ($(grep -v '^ *#' "$b" | head -1 | sed 's/ *#.*//; s/^ *//'))${bad:+: fails$bad}" [ -z "$bad" ]
	done
done

# doc-sweep: a scratch tree per file, the blocks in order.
for doc in $docs; do
	sweeps=$(tagged "$doc" doc-sweep)
	[ -n "$sweeps" ] || continue
	tree=$work/tree-$(basename "$doc" .md)
	mkdir -p "$tree"
	for d in bin experiments tools plots doc; do ln -s "$PWD/$d" "$tree/$d"; done
	for b in $sweeps; do
		first=$(grep -m 1 'bin/' "$b" | sed 's/^ *//; s/ *\\$//')
		t0=$(date +%s)
		# As typed into a terminal (no set -e); every command that fails is recorded, and only
		# rarplot --compare may: its 1 and 3 are verdicts (regressed, inconclusive), which the
		# guide explains.
		: >"$b.failed"
		(
			cd "$tree" || exit 2
			trap 'printf "%s\t%s\n" "$?" "$BASH_COMMAND" >>"$b.failed"' ERR
			RARPERF_PREFIX=$prefix . "$b"
		) >"$b.out" 2>&1
		rc=$?
		failed=$(awk -F'\t' '!(($1 == 1 || $1 == 3) && $2 ~ /^bin\/rarplot --compare /)' "$b.failed")
		verdicts=$(awk -F'\t' '{ printf "%s%s", (NR > 1 ? ", " : ""), "exit " $1 }' "$b.failed")
		# (the block's own status is its last command's: a verdict there is recorded too)
		if [ -z "$failed" ] && { [ "$rc" -eq 0 ] || [ -s "$b.failed" ]; }; then
			ok "$doc: $first ($(($(date +%s) - t0)) s${verdicts:+; rarplot --compare: $verdicts})"
		else
			notok "$doc: $first (exit $rc${failed:+; failed: $(head -1 <<<"$failed")})"
			sed 's/^/    /' "$b.out" | tail -15
		fi
	done
done

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
