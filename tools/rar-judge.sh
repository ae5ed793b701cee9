#!/bin/bash
# rar-judge.sh BIN FORMAT SETTINGS DATA VERSION: confgen's RootAsRole policies judged by a real dosr outside
# the prefix (a build of tools/provision-history.sh before it is installed, or a scratch build whose
# baked RAR_CFG_PATH is SETTINGS): 4 shapes x 3 --match, /usr/bin/true granted, /usr/bin/false and
# /usr/bin/id refused, --seed-compat granted, --deny-all refused; as tests/integration/25-* does for
# the prefix's builds. BIN must be root:<bench group> 0750 with file capabilities =p. Root only.
CONFGEN=${CONFGEN:-$(dirname "$0")/../bin/confgen}
BENCH_USER=${BENCH_USER:-rarperf}
BENCH_UID=$(id -u "$BENCH_USER") || exit 2
bin=$1 format=$2 settings=$3 data=$4 version=$5
. "$(dirname "$0")/lib/keepdir.sh"
# confgen --force writes SETTINGS and DATA as root: their directories must be root's along their
# whole path, and the tool's stderr goes to a directory made here, never to a fixed /tmp name
# (a link there truncated a root file: R34).
keepdir_check SETTINGS "$(dirname "$settings")" || exit 2
[ "$format" = json ] || keepdir_check DATA "$(dirname "$data")" || exit 2
errdir=$(keepdir_temp rar-judge) || exit 2
trap 'rm -rf "$errdir"' EXIT
pass=0 fail=0
run() { o=$(cd /tmp && runuser -u "$BENCH_USER" -- "$bin" "$1" </dev/null 2>"$errdir/err"); rc=$?; e=$(tr '\n' ' ' <"$errdir/err"); echo "$rc|$o|$e"; }
for shape in 1:1:1:1 2:2:50:3 3:2:7:2 1:3:200:1; do
  IFS=: read -r R U T C <<<"$shape"
  for m in last first middle; do
    if [ $format = json ]; then $CONFGEN --force --rar-version $version --rar-json $settings --roles $R --users $U --tasks $T --commands $C --uid "$BENCH_UID" --match $m || { echo "confgen failed"; fail=$((fail+1)); continue; }
    else $CONFGEN --force --rar-version $version --rar-cbor $settings --rar-cbor-data $data --roles $R --users $U --tasks $T --commands $C --uid "$BENCH_UID" --match $m || { echo "confgen failed"; fail=$((fail+1)); continue; }; fi
    a=$(run /usr/bin/true); b=$(run /usr/bin/false); c=$(run /usr/bin/id)
    case $a in 0\|*) pass=$((pass+1));; *) fail=$((fail+1)); echo "NOT granted $shape $m: $a";; esac
    case $b in "1||"*"Permission denied"*) pass=$((pass+1));; *) fail=$((fail+1)); echo "NOT refused false $shape $m: $b";; esac
    case $c in "1||"*"Permission denied"*) pass=$((pass+1));; *) fail=$((fail+1)); echo "NOT refused id $shape $m: $c";; esac
  done
done
# seed-compat
if [ $format = json ]; then $CONFGEN --force --seed-compat --rar-version $version --rar-json $settings --uid "$BENCH_UID" --roles 1 --users 1 --tasks 2; else $CONFGEN --force --seed-compat --rar-version $version --rar-cbor $settings --rar-cbor-data $data --uid "$BENCH_UID" --roles 1 --users 1 --tasks 2; fi
a=$(run /usr/bin/true); case $a in 0\|*) pass=$((pass+1));; *) fail=$((fail+1)); echo "seed NOT granted: $a";; esac
# deny-all
if [ $format = json ]; then $CONFGEN --force --deny-all --rar-version $version --rar-json $settings --uid "$BENCH_UID"; else $CONFGEN --force --deny-all --rar-version $version --rar-cbor $settings --rar-cbor-data $data --uid "$BENCH_UID"; fi
a=$(run /usr/bin/true); case $a in "1||"*"Permission denied"*) pass=$((pass+1));; *) fail=$((fail+1)); echo "deny-all NOT refused: $a";; esac
echo "$bin ($version, $format): $pass passed, $fail failed"
[ "$fail" -eq 0 ]
