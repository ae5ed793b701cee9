#!/bin/bash
# rar-bisect.sh: find the first RootAsRole version whose performance verdict differs from a good
# one, in about log2(N) measurements (doc/bisect.md has a worked example).
#
#   tools/rar-bisect.sh releases GOOD BAD
#       between two releases of the crate registry (GOOD older than BAD): builds and installs the
#       releases it needs (tools/provision-history.sh, cached), measures each against GOOD, and
#       halves the range until the first bad release. Prints one line per measurement, then
#       "first bad release: V". Exit 0 when found, 1 when BAD is not bad (nothing to find),
#       2 on a usage error.
#   tools/rar-bisect.sh run
#       one step of `git bisect run` in a RootAsRole source tree (the current directory): builds
#       the tree as the dev subject dosr-dev-bisect-<storage> (make provision-dev, rebuilt only
#       when the tree changed), measures it against the good build RAR_BISECT_GOOD, and exits as
#       git bisect run wants: 0 good, 1 bad (regressed), 125 skip (the tree does not build),
#       128 abort (the measurement itself failed).
#
# A version is bad when `rarplot --compare GOOD:candidate` finds a regression (exit 1): the
# intercept, the slope or the time at the largest size worse beyond its noise band, on paired
# runs of experiments/regression.json's design, each round in a shuffled order (interleaved, A B A B,
# favours the second of two similar binaries by 3 to 4 %: doc/rootasrole-history.md). Knobs:
#   RARPERF_PREFIX (/opt/rarperf)  RAR_BISECT_STORAGE (cbor)  RAR_BISECT_NOISE (2: percent,
#   rarplot --compare --noise)  RAR_BISECT_RUNS (200: runs per point)  RAR_BISECT_KEEP (a
#   directory to keep each measurement in)  RAR_BISECT_GOOD (run mode: the good build's program
#   in the prefix, default dosr-cbor, RootAsRole 3.3.4)  RARPERF_TREE (run mode: this rarperf
#   checkout, default the script's).
set -u
rarperf=${RARPERF_TREE:-$(cd "$(dirname "$0")/.." && pwd)}
prefix=${RARPERF_PREFIX:-/opt/rarperf}
storage=${RAR_BISECT_STORAGE:-cbor}
noise=${RAR_BISECT_NOISE:-2}
runs=${RAR_BISECT_RUNS:-200}
keep=${RAR_BISECT_KEEP:-}
. "$rarperf/tools/lib/keepdir.sh"
# root writes there: made now, or root's along its whole path (R34)
if [ -n "$keep" ]; then
	work=$(keepdir_make RAR_BISECT_KEEP "$keep") || exit 2
else
	work=$(mktemp -d /tmp/rar-bisect.XXXXXX)
fi
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

usage() {
	sed -n '4,16p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# measure NAME BASELINE CANDIDATE: one paired sweep of two subjects (JSON objects), then the
# verdict. Prints "good"/"bad" and rarplot's intercept line; returns 0 good, 1 bad, 2 failed.
measure() {
	local name=$1 out=$work/$1 line rc
	jq --argjson b "$2" --argjson c "$3" --argjson r "$runs" \
		'.name = "bisect" | .subjects = [$b + {"id": "baseline"}, $c + {"id": "candidate"}]
		 | .min_runs = $r | .max_runs = $r | .order = "random"' "$rarperf/experiments/regression.json" >"$work/$name.json" ||
		return 2
	"$rarperf/bin/rarbench" --manifest "$work/$name.json" --prefix "$prefix" --out "$out" --wait \
		--progress none >"$out.log" 2>&1 || { tail -3 "$out.log" >&2; return 2; }
	line=$("$rarperf/bin/rarplot" --compare baseline:candidate --noise "$noise" "$out/results.json" 2>&1)
	rc=$?
	line=$(printf '%s\n' "$line" | grep -m1 -E 'intercept' | tr -s ' ')
	case $rc in
	0) echo "good: $line" ;;
	1) echo "bad: $line" ;;
	# Inconclusive (exit 3): no regression found, as "no change" was before issue 46; the
	# line says which interval could not tell.
	3) echo "good (inconclusive, no regression found): $line" ;;
	*) echo "failed: rarplot --compare exit $rc" ;;
	esac
	[ "$rc" -eq 3 ] && return 0
	[ "$rc" -le 1 ] && return "$rc"
	return 2
}

# A release's subject, built and installed first when the prefix lacks it (0, or 1 when it does
# not build: facts.json then says why).
release_subject() {
	local v=$1 name=dosr-$1-$storage
	if ! jq -e --arg n "$name" '.tools[$n].present == true' "$prefix/facts.json" >/dev/null 2>&1; then
		echo "  building $name (tools/provision-history.sh) ..." >&2
		RAR_RELEASES=$v RAR_HISTORY_FORMATS=$storage RARPERF_PREFIX=$prefix \
			bash "$rarperf/tools/provision-history.sh" >"$work/provision-$v.log" 2>&1
		jq -e --arg n "$name" '.tools[$n].present == true' "$prefix/facts.json" >/dev/null 2>&1 ||
			return 1
	fi
	jq -cn --arg v "$v" --arg s "$storage" --arg p "{prefix}/bin/$name" \
		--arg e "{prefix}/etc/rootasrole-$v-$storage" \
		'{"format": ("rar-" + $s), "rar_version": $v, "program": $p, "policy": ($e + ".json")}
		 + (if $s == "cbor" then {"policy_data": ($e + ".bin")} else {} end)'
}

releases_mode() {
	local good=$1 bad=$2 entry=/var/cache/rarperf/history/index-rootasrole.json
	local -a list=()
	local lo hi mid n=0 base cand verdict
	[ -s "$entry" ] || curl -fsS --max-time 60 https://index.crates.io/ro/ot/rootasrole -o "$entry" ||
		{ echo "rar-bisect: the crate registry cannot be reached" >&2; exit 2; }
	mapfile -t list < <(jq -r 'select(.yanked | not) | .vers' "$entry" | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' |
		sort -V | awk -v g="$good" -v b="$bad" '$0 == g {on = 1} on {print} $0 == b {exit}')
	[ "${list[0]:-}" = "$good" ] && [ "${list[${#list[@]} - 1]}" = "$bad" ] && [ ${#list[@]} -ge 2 ] ||
		{ echo "rar-bisect: $good and $bad are no two releases in that order" >&2; exit 2; }
	echo "rar-bisect: ${#list[@]} releases from $good (good) to $bad; $storage; bad = rarplot --compare regressed (noise $noise %)"
	base=$(release_subject "$good") || { echo "rar-bisect: $good does not build" >&2; exit 2; }
	cand=$(release_subject "$bad") || { echo "rar-bisect: $bad does not build" >&2; exit 2; }
	n=$((n + 1))
	verdict=$(measure "$bad" "$base" "$cand")
	case $? in
	0) echo "[$n] $bad: $verdict"; echo "rar-bisect: $bad is not worse than $good: nothing to find"; exit 1 ;;
	1) echo "[$n] $bad: $verdict" ;;
	*) echo "rar-bisect: the measurement of $bad failed: $verdict" >&2; exit 2 ;;
	esac
	lo=0 hi=$((${#list[@]} - 1))
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		if ! cand=$(release_subject "${list[$mid]}"); then
			# Skipped like git bisect skip: the range keeps it, the next probe is its neighbour.
			echo "[-] ${list[$mid]}: does not build, skipped ($prefix/facts.json says why)"
			unset 'list[mid]'
			list=("${list[@]}")
			hi=$((hi - 1))
			continue
		fi
		n=$((n + 1))
		verdict=$(measure "${list[$mid]}" "$base" "$cand")
		case $? in
		0) lo=$mid ;;
		1) hi=$mid ;;
		*) echo "rar-bisect: the measurement of ${list[$mid]} failed: $verdict" >&2; exit 2 ;;
		esac
		echo "[$n] ${list[$mid]}: $verdict"
	done
	echo "first bad release: ${list[$hi]} (last good: ${list[$lo]}; $n measurements for ${#list[@]} releases)"
}

run_mode() {
	local good=${RAR_BISECT_GOOD:-dosr-cbor} tree=$PWD base cand
	[ -f "$tree/Cargo.toml" ] || { echo "rar-bisect run: $tree is no RootAsRole tree" >&2; exit 128; }
	# The tree as it is at this commit, built beside the releases (a failed build: skip it).
	if ! make -C "$rarperf" --no-print-directory provision-dev RARPERF_PREFIX="$prefix" \
		RAR_DEV_TREE="$tree" DEV_NAME=bisect >"$work/provision.log" 2>&1; then
		echo "rar-bisect run: $(git -C "$tree" rev-parse --short HEAD 2>/dev/null): does not build, skip"
		tail -5 "$work/provision.log"
		exit 125
	fi
	base=$(jq -cn --arg s "$storage" --arg p "{prefix}/bin/$good" '{"format": ("rar-" + $s), "program": $p}')
	cand=$(jq -cn --arg s "$storage" '{"format": ("rar-" + $s), "build": "dev-bisect"}')
	verdict=$(measure "run-$(date +%s)" "$base" "$cand")
	case $? in
	0) echo "rar-bisect run: $(git -C "$tree" rev-parse --short HEAD 2>/dev/null): $verdict"; exit 0 ;;
	1) echo "rar-bisect run: $(git -C "$tree" rev-parse --short HEAD 2>/dev/null): $verdict"; exit 1 ;;
	*) echo "rar-bisect run: the measurement failed: $verdict" >&2; exit 128 ;;
	esac
}

case ${1:-} in
releases) [ $# -eq 3 ] || usage; releases_mode "$2" "$3" ;;
run) [ $# -eq 1 ] || usage; run_mode ;;
*) usage ;;
esac
