#!/bin/sh
# make provision-history's build cache (tools/provision-history.sh), without building anything:
# the releases already in the cache (RAR_HISTORY_CACHE, /var/cache/rarperf/history) come back
# "cached" with nothing built, in seconds; a release confgen cannot write (3.0.5) is recorded
# absent with the reason and never built; a version the registry does not list, or no list at
# all, is a usage error (exit 2). Skipped (77) when nothing was ever built into the cache (make
# provision-history RAR_RELEASES=4.2.0 does that once, about 6 minutes of cargo).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/tap.sh
need jq curl
cache=${RAR_HISTORY_CACHE:-/var/cache/rarperf/history}
[ -x bin/confgen ] || { notok "bin/confgen is built (make)"; exit 1; }
# The releases with a cached binary in each storage, from the build records
# (out/dosr-V-S-KEY.json): only those are asked for, so that nothing needs building.
cached() { # STORAGE
	ls "$cache"/out/dosr-*-"$1"-*.json 2>/dev/null | sed -E "s|.*/dosr-([0-9.]+)-$1-[0-9a-f]+\.json|\1|" |
		sort -u | tr '\n' ' '
}
cached_json=$(cached json) cached_cbor=$(cached cbor)
[ -n "$cached_json$cached_cbor" ] || { echo "# no build in $cache yet: skipped"; exit 77; }
T=$(mktemp -d /tmp/rp-it28.XXXXXX)
trap 'rm -rf "$T"' EXIT
start=$(date +%s)
rc=0
: >"$T/out"
for s in json cbor; do
	eval "releases=\$cached_$s"
	[ -n "$releases" ] || continue
	RAR_HISTORY_INSTALL=0 RAR_HISTORY_FORMATS=$s RAR_RELEASES="$releases" \
		bash tools/provision-history.sh >>"$T/out" 2>&1 || rc=$?
done
RAR_HISTORY_INSTALL=0 RAR_RELEASES=3.0.5 bash tools/provision-history.sh >>"$T/out" 2>&1 || rc=$?
took=$(($(date +%s) - start))
cached="json: $cached_json; cbor: $cached_cbor"
check "provision-history over the cached releases ($cached) exits 0" [ "$rc" -eq 0 ] || cat "$T/out"
check "nothing built: every cached release comes back cached ($took s)" \
	sh -c "! grep -q ': building' '$T/out' && ! grep -E 'builds: [1-9][0-9]* built' '$T/out'"
check "a second provisioning takes seconds, not minutes ($took s)" [ "$took" -lt 60 ]
check "3.0.5 absent, with confgen's reason, never fetched nor built" \
	sh -c "grep -q 'dosr-3.0.5-json: absent: confgen: .*cannot write' '$T/out' && [ ! -e '$cache/src-3.0.5' ]"
RAR_HISTORY_INSTALL=0 RAR_RELEASES=9.9.9 bash tools/provision-history.sh >"$T/bad" 2>&1
check "a version the registry does not list: exit 2, named" \
	sh -c "[ $? -eq 2 ] && grep -q '9.9.9 is no release of rootasrole' '$T/bad'"
RAR_RELEASES= bash tools/provision-history.sh >"$T/none" 2>&1
check "no RAR_RELEASES: exit 2 with the usage" sh -c "[ $? -eq 2 ] && grep -q 'usage: make provision-history' '$T/none'"
tap_status
