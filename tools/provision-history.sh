#!/bin/bash
# provision-history.sh: make provision-history RAR_RELEASES=all|"V1 V2 ...". Builds RootAsRole
# releases from Rust's crate registry, each in the storages it supports (json, cbor), as
# dosr-<version>-<storage> beside the prefix's own builds (doc/rootasrole-history.md), and records
# every one in facts.json: present, or absent with the reason (never a silent gap).
#
# The build cache (RAR_HISTORY_CACHE, /var/cache/rarperf/history) holds one cargo target directory
# shared by every release, and out/<name>-<key>: the binary (or .fail: why it did not build),
# whose key hashes the version, the storage, the cargo features, the toolchain (rustc -vV) and the
# baked settings. A second run with the same releases builds nothing; a new toolchain rebuilds.
# Progress: one line per build with its time.
#
# Then, unless RAR_HISTORY_INSTALL=0 (build only): each binary is installed into the prefix as
# roles/rarperf_rootasrole installs its own (root:<privileged group> 0750, file capabilities =p),
# its policy written granting nothing (confgen --deny-all), and its record kept in
# PREFIX/share/rarperf/history/<name>.json, which facts.json gets now and at every converge
# (roles/rarperf_facts). All of that under the prefix's lock (run/lock), as rarbench takes it.
#
# Knobs: RARPERF_PREFIX (/opt/rarperf), RAR_RELEASES (all: every release the registry lists, not
# yanked), RAR_HISTORY_FORMATS ("json cbor"), RAR_HISTORY_FEATURES (finder), CARGO
# (~/.cargo/bin/cargo), RAR_HISTORY_NICE (15), CONFGEN (bin/confgen of this tree).
# Exit 0 when every release is present or recorded absent; 2 on a usage error; 1 when the registry
# or the prefix cannot be used.
set -u
cd "$(dirname "$0")/.." || exit 2
top=$PWD
prefix=${RARPERF_PREFIX:-/opt/rarperf}
cache=${RAR_HISTORY_CACHE:-/var/cache/rarperf/history}
formats=${RAR_HISTORY_FORMATS:-json cbor}
features=${RAR_HISTORY_FEATURES:-finder}
cargo=${CARGO:-$HOME/.cargo/bin/cargo}
nice_level=${RAR_HISTORY_NICE:-15}
install=${RAR_HISTORY_INSTALL:-1}
confgen=${CONFGEN:-$top/bin/confgen}
index=${RAR_HISTORY_INDEX:-https://index.crates.io}
releases=${RAR_RELEASES:-}

die() { # MESSAGE [STATUS]
	echo "provision-history: $1" >&2
	exit "${2:-1}"
}
[ -n "$releases" ] || die 'usage: make provision-history RAR_RELEASES=all|"3.3.4 4.2.0 ..."' 2
for f in $formats; do
	case $f in json | cbor) ;; *) die "RAR_HISTORY_FORMATS: $f: json or cbor" 2 ;; esac
done
command -v jq >/dev/null || die "needs jq"
[ -x "$cargo" ] || cargo=$(command -v cargo) || die "no cargo (rustup's ~/.cargo/bin/cargo or CARGO=)"
[ -x "$confgen" ] || die "$confgen: not built (make)"
PATH=$(dirname "$cargo"):$PATH
export PATH
. tools/lib/keepdir.sh
# root builds and writes there: made now, or root's along its whole path (R34); the prefix too
cache=$(keepdir_make RAR_HISTORY_CACHE "$cache") || exit 2
[ "$install" = 0 ] || keepdir_check RARPERF_PREFIX "$prefix" || exit 2
mkdir -p "$cache/out" "$cache/logs" "$cache/crates" || exit 1

# The registry's entry: every release, with its checksum (one request, the index the role reads).
entry=$cache/index-rootasrole.json
if ! curl -fsS --max-time 60 "$index/ro/ot/rootasrole" -o "$entry.new"; then
	[ -s "$entry" ] || die "$index cannot be reached and no copy of its entry is cached"
	echo "provision-history: $index cannot be reached: using the cached entry of $(date -r "$entry" +%F)" >&2
else
	mv "$entry.new" "$entry"
fi
dl=$(curl -fsS --max-time 60 "$index/config.json" | jq -r .dl) || dl=https://static.crates.io/crates
if [ "$releases" = all ]; then
	releases=$(jq -r 'select(.yanked | not) | .vers' "$entry" | grep -E '^[0-9]+\.[0-9]+\.[0-9]+$' | sort -V)
fi
for v in $releases; do
	jq -r .vers "$entry" | grep -qxF "$v" ||
		die "RAR_RELEASES: $v is no release of rootasrole on $index" 2
done

# The baked settings: the role's defaults, with the prefix's paths (rarperf_rootasrole_env and
# rarperf_rootasrole_env_by_version), as one TOML [env] table for VERSION FORMAT.
env_toml() { # VERSION FORMAT NAME
	/usr/bin/python3 - "$1" "$2" "$3" "$prefix" <<'EOF'
import json, sys, yaml
v, fmt, name, prefix = sys.argv[1:5]
d = yaml.safe_load(open("roles/rarperf_rootasrole/defaults/main.yml"))
key = lambda s: tuple(int(x) for x in s.split("."))
env = dict(d["rarperf_rootasrole_env"])
for o in d.get("rarperf_rootasrole_env_by_version", []):
    if key(v) >= key(o["from"]):
        env.update(o["env"])
etc = f"{prefix}/etc/rootasrole-{v}-{fmt}"
env["RAR_CFG_TYPE"] = fmt
env["RAR_CFG_PATH"] = etc + ".json"
env["RAR_CFG_DATA_PATH"] = etc + (".json" if fmt == "json" else ".bin")
print("# Build-time settings of %s (RootAsRole %s), tools/provision-history.sh" % (name, v))
print("[env]")
for k in sorted(env):
    val = str(env[k]).replace("{{ rarperf_prefix }}", prefix)
    print("%s = %s" % (k, json.dumps(val)))
EOF
}

# fetch VERSION: the crate, checked against the index's SHA-256, unpacked into src-VERSION.
fetch() {
	local v=$1 crate=$cache/crates/rootasrole-$1.crate sum
	[ -f "$cache/src-$v/Cargo.toml" ] && return 0
	sum=$(jq -r --arg v "$v" 'select(.vers == $v) | .cksum' "$entry")
	if ! [ -f "$crate" ] || ! echo "$sum  $crate" | sha256sum -c --quiet >/dev/null 2>&1; then
		curl -fsSL --max-time 300 "$dl/rootasrole/$v/download" -o "$crate.new" || return 1
		echo "$sum  $crate.new" | sha256sum -c --quiet >/dev/null 2>&1 || { rm -f "$crate.new"; return 1; }
		mv "$crate.new" "$crate"
	fi
	rm -rf "$cache/src-$v.new" && mkdir "$cache/src-$v.new" &&
		tar -xzf "$crate" -C "$cache/src-$v.new" --strip-components=1 &&
		rm -rf "$cache/src-$v" && mv "$cache/src-$v.new" "$cache/src-$v"
}

# RootAsRole 4 runs PAM account and session management even with authentication skip: its records
# name the service, so that rarbench shows it the prefix's Debian stack as for the role's builds.
pam_service=$(/usr/bin/python3 -c 'import yaml; print(yaml.safe_load(open("roles/rarperf_rootasrole/defaults/main.yml"))["rarperf_rootasrole_env"]["RAR_PAM_SERVICE"])') ||
	die "roles/rarperf_rootasrole/defaults/main.yml: no RAR_PAM_SERVICE"
toolchain=$(rustc -vV 2>/dev/null | tr '\n' ' ')
[ -n "$toolchain" ] || die "rustc -vV failed"
records=$cache/records.$$
: >"$records"
: >"$records.bins"
trap 'rm -f "$records" "$records.bins" "$records.all"' EXIT
n=0 total=0 built=0 cached=0 absent=0
# The cache's first build starts from a copy of the prefix's own RootAsRole target directory
# (roles/rarperf_rootasrole, the same features and registry paths, under its lock): the crates
# compiled there are fresh for cargo and only RootAsRole's own compile. A copy: the prefix's stays
# the prefix's. Nothing to copy: cargo compiles everything, as before.
seed_target() {
	local from
	from=/var/cache/rarperf/build/rootasrole-$(printf '%s' "$prefix" | sed 's/[^A-Za-z0-9]\{1,\}/_/g')/target
	[ ! -e "$cache/target" ] && [ -d "$from/release" ] || return 0
	rm -rf "$cache/target.seed"
	(exec 9>>"$from.lock" && flock 9 && cp -a "$from" "$cache/target.seed") &&
		mv "$cache/target.seed" "$cache/target" || rm -rf "$cache/target.seed"
}
for v in $releases; do for f in $formats; do total=$((total + 1)); done; done
hist_start=$(date +%s)
for v in $releases; do
	# The binary is sr up to 3.1.1 and dosr from 3.1.3 (doc/rootasrole-history.md): read from
	# the crate's own [[bin]] targets once it is fetched; until then, by version.
	bin=dosr
	printf '%s\n3.1.3\n' "$v" | sort -V -C && [ "$v" != 3.1.3 ] && bin=sr
	for f in $formats; do
		n=$((n + 1))
		name=dosr-$v-$f
		etc=$prefix/etc/rootasrole-$v-$f
		data=$etc.json
		[ "$f" = cbor ] && data=$etc.bin
		reason=
		# A format confgen cannot write is not built: nothing could measure it.
		probe=$(mktemp -d /tmp/rar-history.XXXXXX)
		if ! err=$("$confgen" --deny-all --uid 4242 --rar-version "$v" --rar-json "$probe/p.json" 2>&1); then
			reason="confgen: ${err#confgen: --rar-version: }"
		fi
		rm -rf "$probe"
		if [ -z "$reason" ] && ! fetch "$v"; then
			reason="the crate could not be fetched from $dl (or its SHA-256 differs from the index's)"
		fi
		if [ -z "$reason" ]; then
			bins=$(sed -n '/^\[\[bin\]\]/,/^name/s/^name = "\(.*\)"/\1/p' "$cache/src-$v/Cargo.toml")
			if printf '%s\n' "$bins" | grep -qx dosr; then
				bin=dosr
			elif printf '%s\n' "$bins" | grep -qx sr; then
				bin=sr
			else
				reason="its Cargo.toml has no binary named dosr or sr (${bins//$'\n'/, })"
			fi
		fi
		envf=$cache/env-$name.toml
		if [ -z "$reason" ]; then
			env_toml "$v" "$f" "$name" >"$envf.new" && mv "$envf.new" "$envf" || exit 1
		fi
		key=$(printf '%s\n' "$v" "$f" "$bin" "$features" "$toolchain" "$(cat "$envf" 2>/dev/null)" |
			sha1sum | cut -c1-12)
		out=$cache/out/$name-$key
		log=$cache/logs/$name-$key.log
		if [ -n "$reason" ]; then
			echo "[$n/$total] $name: absent: $reason"
			absent=$((absent + 1))
		elif [ -e "$out" ]; then
			echo "[$n/$total] $name: cached ($(jq -r .seconds "$out.json") s when built)"
			cached=$((cached + 1))
		elif [ -e "$out.fail" ]; then
			reason=$(cat "$out.fail")
			echo "[$n/$total] $name: absent (cached failure with this toolchain): $reason"
			absent=$((absent + 1))
		else
			echo "[$n/$total] $name: building (cargo build --release --locked --bin $bin --features $features) ..."
			start=$(date +%s)
			exec 8>>"$cache/target.lock" && flock 8
			seed_target
			if (cd "$cache/src-$v" && nice -n "$nice_level" cargo build --release --locked \
				--bin "$bin" --features "$features" --config "$envf" \
				--target-dir "$cache/target") >"$log" 2>&1; then
				install -m 0755 "$cache/target/release/$bin" "$out.new"
				jq -n --arg source "crates.io:rootasrole@$v" --arg cargo "$(cargo --version)" \
					--arg rustc "$(rustc --version)" --arg bin "$bin" --arg key "$key" \
					--argjson seconds $(($(date +%s) - start)) \
					'{source: $source, cargo: $cargo, rustc: $rustc, binary: $bin, key: $key,
					  seconds: $seconds}' >"$out.json"
				mv "$out.new" "$out"
				echo "[$n/$total] $name: built in $(($(date +%s) - start)) s"
				built=$((built + 1))
			else
				reason="cargo build failed with $(rustc --version | cut -d' ' -f1-2): $(grep -m1 -E '^error' "$log" | cut -c1-200)"
				[ "$reason" = "${reason%: }" ] || reason="${reason}see $log"
				printf '%s\n' "$reason" >"$out.fail"
				echo "[$n/$total] $name: absent after $(($(date +%s) - start)) s: $reason"
				absent=$((absent + 1))
			fi
			exec 8>&-
		fi
		if [ -n "$reason" ]; then
			jq -cn --arg n "$name" --arg v "$v" --arg f "rar-$f" --arg r "$reason" \
				'{($n): {present: false, version: $v, format: $f, history: true, reason: $r}}' >>"$records"
		else
			jq -c --arg n "$name" --arg v "$v" --arg f "rar-$f" --arg p "$prefix/bin/$name" \
				--arg s "$etc.json" --arg d "$data" --arg feat "$features" --arg svc "$pam_service" \
				'($v | split(".") | .[0] | tonumber >= 4) as $pam |
				 {($n): ({present: true, version: $v, format: $f, history: true, source: .source,
				  cargo: .cargo, rustc: .rustc, build_seconds: .seconds, build_key: .key,
				  configure: ("cargo build --release --locked --bin " + .binary + " --features " + $feat),
				  capabilities: "=p", pam: $pam, path: $p, policy: $d, settings: $s}
				  + (if $pam then {pam_service: $svc, pam_note: ("RootAsRole 4 runs PAM account and session management (service " + $svc + ") even with authentication skip")} else {} end))}' \
				"$out.json" >>"$records"
		fi
		printf '%s\t%s\t%s\t%s\n' "$name" "$out" "$v" "$f" >>"$records.bins"
	done
done
echo "provision-history: $total builds: $built built, $cached cached, $absent absent, in $(($(date +%s) - hist_start)) s"
if [ "$install" = 0 ]; then
	rm -f "$records.bins"
	exit 0
fi

# Install into the prefix, under its lock (rarbench holds it through a sweep).
[ -f "$prefix/facts.json" ] || die "$prefix/facts.json is missing: make provision first"
group=$(jq -r '.privileged_group // .bench_user' "$prefix/facts.json")
uid=$(jq -r .bench_uid "$prefix/facts.json")
mkdir -p "$prefix/share/rarperf/history" "$prefix/run" || exit 1
exec 9>>"$prefix/run/lock"
flock -w 1800 9 || die "the prefix's lock is held (a sweep?): try again later"
while IFS=$'\t' read -r name out v f; do
	rec=$(grep -F "\"$name\":" "$records" | tail -1)
	if [ "$(printf '%s' "$rec" | jq -r '.[].present')" = true ]; then
		etc=$prefix/etc/rootasrole-$v-$f
		install -o root -g "$group" -m 0750 "$out" "$prefix/bin/$name.new" &&
			setcap =p "$prefix/bin/$name.new" && mv "$prefix/bin/$name.new" "$prefix/bin/$name" ||
			die "$name: could not be installed into $prefix/bin"
		if [ "$f" = json ]; then
			"$confgen" --deny-all --force --uid "$uid" --rar-version "$v" --rar-json "$etc.json"
		else
			"$confgen" --deny-all --force --uid "$uid" --rar-version "$v" --rar-cbor "$etc.json" \
				--rar-cbor-data "$etc.bin"
		fi || die "$name: confgen could not write its policy"
	fi
	printf '%s' "$rec" | jq '.[]' >"$prefix/share/rarperf/history/$name.json.new" &&
		mv "$prefix/share/rarperf/history/$name.json.new" "$prefix/share/rarperf/history/$name.json"
done <"$records.bins"
rm -f "$records.bins"
jq -s 'add' "$records" >"$records.all"
# A PAM build gets the stack the prefix stores for its service, as roles/rarperf_facts gives it.
jq --slurpfile h "$records.all" '.tools as $old | .tools += ($h[0] | with_entries(
	if .value.pam_service then .value.pam_service as $svc |
	  .value += ([$old[] | select(.pam_service == $svc and .pam_stack)] | first
	    | if . then {pam_stack, pam_stack_shown_at, pam_modules} else {} end)
	else . end))' "$prefix/facts.json" >"$prefix/facts.json.new" &&
	mv "$prefix/facts.json.new" "$prefix/facts.json" || die "facts.json could not be updated"
rm -f "$records.all"
echo "provision-history: $prefix/facts.json lists $(jq '[.tools[] | select(.history)] | length' "$prefix/facts.json") history builds ($(jq '[.tools[] | select(.history and .present)] | length' "$prefix/facts.json") present)"
