# Each machine's price of one instruction of a tool's start (ns, and in rarref's price), and each
# intercept predicted at the baseline's (sudo's) price on that machine, from the machine's
# published predicted.tsv (user_ms: the user work per call its CPU time leaves; user_rarref_runs:
# that in rarref work runs; accounted_ms - user_ms: its kernel parts at its rarkref prices) and
# the instructions per call counted on xeon167 (counts-prices.tsv), assumed the same there (the
# same releases, policies and design; not yet counted on those machines).
# rarref's work is 8 373 760 instructions (static, reads nothing: a property of its bytes).
# usage: awk -F'\t' -v label=L -f startprice.awk counts-prices.tsv predicted.tsv predicted.tsv
FNR == 1 { file++; next }
file == 1 { ins[$2] = $3; next }
file == 2 && $2 == "sudo" { base = $17 * 1e6 / ins["sudo"]; next }
file == 3 && ($2 in ins) {
	refwork_ns = $17 * 1e6 / $18
	own = $17 * 1e6 / ins[$2]
	pred = ($5 - $17) + ins[$2] * base / 1e6
	printf "%s\t%s\t%.3f\t%.4f\t%.2f\t%.3f\t%.3f\t%+.1f\n", label, $2, own,
	    refwork_ns / 8373760, own / (refwork_ns / 8373760), $4, pred, 100 * (pred - $4) / $4
}
