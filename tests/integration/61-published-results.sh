#!/bin/sh
# The published results (doc/results/*/*/) say only what their own results.json says: rarplot run
# again on each results.json gives the same fits.tsv (and claims.tsv, profile-fits.tsv), and an independent least
# squares (Debian's numpy, tests/lib/check_fit.py) agrees with every fit to 1e-6.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/tap.sh
need jq
need_python_module numpy
RARPLOT=$PWD/bin/rarplot
[ -x "$RARPLOT" ] || { notok "bin/rarplot is built (make)"; exit 1; }
T=$(mktemp -d /tmp/rp-it61.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
n=0
for d in doc/results/*/*/; do
	[ -f "$d/results.json" ] && [ -f "$d/fits.tsv" ] || continue
	n=$((n + 1))
	name=${d#doc/results/}
	axis=$(awk -F'\t' 'NR == 2 { print $4 }' "$d/fits.tsv")
	set -- --format none -o "$T/$n" --x "$axis"
	[ -f "$d/claims.tsv" ] && set -- "$@" --claims experiments/claims/rar-perf-readme.tsv
	# A claims.tsv without the "method" column was written before report.md's comparisons
	# were paired per round (as --compare's): it is reproduced by the delta method it used, and
	# compared on its own eleven columns; one with the column is reproduced as it stands.
	old_claims=no
	if [ -f "$d/claims.tsv" ] && ! head -1 "$d/claims.tsv" | grep -q '	method$'; then
		old_claims=yes
		set -- "$@" --comparisons delta
	fi
	extra=
	# An inputs file lists the same run's supplements (seed-both's second manifest): one machine,
	# which files from before rarbench recorded it must say (--machines same).
	if [ -f "$d/inputs" ]; then
		extra=$(sed "s|^|$d/|" "$d/inputs" | tr '\n' ' ')
		set -- "$@" --machines same
	fi
	# shellcheck disable=SC2086 # extra inputs, one word each
	"$RARPLOT" "$@" "$d/results.json" $extra >/dev/null 2>"$T/$n.err"
	check "$name: rarplot on its results.json exits 0" [ $? -eq 0 ] || cat "$T/$n.err"
	check "$name: the same fits.tsv" cmp -s "$d/fits.tsv" "$T/$n/fits.tsv"
	if [ "$old_claims" = yes ]; then
		cut -f1-11 "$T/$n/claims.tsv" >"$T/$n/claims-11.tsv"
		check "$name: the same claims.tsv (the delta method it was written with)" \
			cmp -s "$d/claims.tsv" "$T/$n/claims-11.tsv"
	elif [ -f "$d/claims.tsv" ]; then
		check "$name: the same claims.tsv" cmp -s "$d/claims.tsv" "$T/$n/claims.tsv"
	fi
	[ -f "$d/profile-fits.tsv" ] &&
		check "$name: the same profile-fits.tsv (its counters fitted from its own results.json)" \
			cmp -s "$d/profile-fits.tsv" "$T/$n/profile-fits.tsv"
	# shellcheck disable=SC2086 # extra inputs, one word each
	check "$name: numpy's least squares agrees with every fit to 1e-6" \
		/usr/bin/python3 tests/lib/check_fit.py "$d/fits.tsv" "$axis" "$d/results.json" $extra
done
check "published result directories found ($n)" [ "$n" -ge 2 ]
# Kept comparisons (doc/results/*/*/verdict.txt, the A/A sweeps of doc/guide-ci.md): rarplot
# --compare on the results.json beside one prints it again, byte for byte (its bootstrap is seeded).
k=0
for v in doc/results/*/*/verdict.txt; do
	[ -f "$v" ] || continue
	d=${v%/verdict.txt}
	k=$((k + 1))
	"$RARPLOT" --compare dosr-cbor:dosr-dev-cbor "$d/results.json" >"$T/verdict-$k.txt" 2>&1
	check "${d#doc/results/}: rarplot --compare prints its verdict.txt again" cmp -s "$v" "$T/verdict-$k.txt"
done
check "kept comparisons found ($k)" [ "$k" -ge 17 ]
tap_status
