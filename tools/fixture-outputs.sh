#!/bin/bash
# tools/fixture-outputs.sh OUTDIR: run the built tools of the current tree (bin/) over fixed inputs
# and keep every output, stderr and exit status, so that two trees can be compared byte for byte:
# a restructuring proves "behaviour unchanged" with
#   git worktree add /tmp/before REV && (cd /tmp/before && make -j2 && "$OLDPWD"/tools/fixture-outputs.sh /tmp/a)
#   make -j2 && tools/fixture-outputs.sh /tmp/b && diff -r /tmp/a /tmp/b
# (the script is the after-tree's; run the same copy in both trees). Nothing timed: only
# deterministic outputs; the dry run's free disk space is masked. Needs a provisioned prefix for
# the dry runs (they print its plan).
set -u
out=${1:?usage: fixture-outputs.sh OUTDIR}
root=$(pwd)
. "$(dirname "$0")/lib/keepdir.sh"
# made now, or root's along its whole path (R34)
out=$(keepdir_make OUTDIR "$out") || exit 2
rc() { echo "rc=$?" >>"$1"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# confgen: shapes x formats x match positions x versions x layouts, --size, bad arguments
i=0
for shape in "1 1 1 1" "3 2 5 4" "10 3 50 2" "2 1 1 7"; do
  set -- $shape
  for match in last first middle; do
    for ver in 3.3.4 4.0.3; do
      for layout in per-role per-task; do
        i=$((i+1)); d=$tmp/c$i; mkdir -p "$d"
        bin/confgen --uid 1234 --roles $1 --users $2 --tasks $3 --commands $4 --match $match \
          --rar-version $ver --sudoers-layout $layout --sudoers $d/sudoers --doas $d/doas.conf \
          --rar-json $d/rar.json --rar-cbor $d/rar-cbor.json >$d/stdout 2>$d/stderr; rc $d/stdout
        bin/confgen --uid 1234 --roles $1 --users $2 --tasks $3 --commands $4 --match $match \
          --rar-version $ver --sudoers $d/x --doas $d/y --rar-json $d/z --rar-cbor $d/w --size \
          >$d/size.out 2>&1; rc $d/size.out
        sed -i "s#$tmp#TMP#g" $d/stdout $d/stderr $d/size.out
        for f in "$d"/*; do [ -f "$f" ] && cp "$f" "$out/confgen-$i-$(basename "$f")"; done
      done
    done
  done
done
bin/confgen --seed-compat $tmp/s.sudoers $tmp/s.json 3 2 5 4 1234 >$out/confgen-seed.out 2>&1; rc $out/confgen-seed.out
cp $tmp/s.sudoers $out/confgen-seed.sudoers 2>/dev/null; cp $tmp/s.json $out/confgen-seed.json 2>/dev/null
bin/confgen --deny-all --uid 5 --tasks 3 --sudoers $tmp/d.sudoers --doas $tmp/d.doas --rar-json $tmp/d.json >$out/confgen-deny.out 2>&1; rc $out/confgen-deny.out
cat $tmp/d.sudoers $tmp/d.doas $tmp/d.json >>$out/confgen-deny.out 2>/dev/null
n=0
for bad in "--uid -1" "--uid x --tasks 3" "--tasks 0 --uid 1" "--uid 1 --match nowhere" "--roles 99999999999 --uid 1" \
           "--uid 1 --rar-version 9" "--bogus" "a b c" "--uid 1 --sudoers /nonexistent/dir/f"; do
  n=$((n+1)); bin/confgen $bad >$out/confgen-bad-$n.out 2>&1; rc $out/confgen-bad-$n.out
done

# rarplot: reports and data of the fixtures and the published runs (figures as gnuplot scripts'
# outputs are not compared: gnuplot's own bytes), the comparisons, bad input
for f in tests/fixtures/rarplot/*.json doc/results/*/*/results.json; do
  name=$(echo "$f" | tr / _)
  bin/rarplot --format none -o $tmp/p-$name "$f" >$out/rarplot-$name.out 2>&1; rc $out/rarplot-$name.out
  (cd $tmp/p-$name 2>/dev/null && find . -type f | sort | while read -r g; do echo "== $g"; cat "$g"; done) >$out/rarplot-$name.files
done
for f in doc/results/*/*/results.json; do
  name=$(echo "$f" | tr / _)
  for c in experiments/claims/*.tsv; do
    bin/rarplot --format none --claims "$c" -o $tmp/q "$f" >$out/rarplot-claims-$name-$(basename $c).out 2>&1
    rc $out/rarplot-claims-$name-$(basename $c).out; cat $tmp/q/claims.tsv >>$out/rarplot-claims-$name-$(basename $c).out 2>/dev/null; rm -rf $tmp/q
  done
done
for f in tests/fixtures/compare/*.json; do
  b=$(basename $f .json)
  for pair in sudo:sudo-rs sudo:rar base:cand a:b; do
    bin/rarplot --compare $pair -o $tmp/k "$f" >$out/compare-$b-$pair.out 2>&1; rc $out/compare-$b-$pair.out
    # gnuplot's PDF carries the time it was drawn: masked, the rest compared byte for byte.
    cat $tmp/k/* 2>/dev/null | sed 's#/CreationDate (D:[0-9Z]*)#/CreationDate (masked)#' >>$out/compare-$b-$pair.out
    rm -rf $tmp/k
  done
done
bin/rarplot --format none /nonexistent.json >$out/rarplot-bad1.out 2>&1; rc $out/rarplot-bad1.out
bin/rarplot --stat bogus x.json >$out/rarplot-bad2.out 2>&1; rc $out/rarplot-bad2.out

# rarbench: every manifest and fuzz corpus file, dry run (the plan), and bad command lines
for f in experiments/*.json fuzz/corpus/fuzz_manifest/*; do
  name=$(echo "$f" | tr / _)
  bin/rarbench --manifest "$f" --dry-run >$out/dryrun-$name.out 2>&1; rc $out/dryrun-$name.out
done
n=0
for bad in "--runs x true" "--runs 0 true" "--warmup -1 true" "--style bogus true" "--export-json" \
           "--order bogus true" "--precision 200 true" "--estimator x true" "--manifest /nonexistent"; do
  n=$((n+1)); bin/rarbench $bad >$out/rarbench-bad-$n.out 2>&1; rc $out/rarbench-bad-$n.out
done
bin/rarbench --help >$out/rarbench-help.out 2>&1; rc $out/rarbench-help.out
bin/rarplot --help >$out/rarplot-help.out 2>&1; rc $out/rarplot-help.out
bin/rarlab --help >$out/rarlab-help.out 2>&1; rc $out/rarlab-help.out
bin/confgen --help >$out/confgen-help.out 2>&1; rc $out/confgen-help.out
# rarlab: bad inventories and arguments (nothing is contacted: each fails before connecting)
for f in fuzz/corpus/fuzz_inventory/*; do
  name=$(basename "$f")
  bin/rarlab -i "$f" --dry-run experiments/quick.json >$out/rarlab-inv-$name.out 2>&1; rc $out/rarlab-inv-$name.out
done
n=0
for bad in "--forks 0" "--forks x" "--bogus" ""; do
  n=$((n+1)); bin/rarlab $bad >$out/rarlab-bad-$n.out 2>&1; rc $out/rarlab-bad-$n.out
done
sed -i "s#$tmp#TMP#g; s#$root#ROOT#g; s/[0-9.]* GiB free there/N GiB free there/" "$out"/* 2>/dev/null
echo "$(ls "$out" | wc -l) outputs in $out"
