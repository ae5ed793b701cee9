#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# confgen's RootAsRole policies judged by RootAsRole itself: every dosr the prefix has (facts.json:
# dosr-json, dosr-cbor and the extra versions) runs as the bench user under confgen's JSON or CBOR
# policy of several shapes, each --match and --seed-compat: /usr/bin/true is granted (exit 0, run
# as root), /usr/bin/false and /usr/bin/id are refused ("Permission denied", nothing run), a filler
# uid of a role without the command is refused; a manifest's grant check passes for each dosr;
# RootAsRole 4's close(2) calls grow with RLIMIT_NOFILE.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root (dosr runs as the bench user, policies are root's)"; exit 77; }
. tests/lib/tap.sh
need jq useradd runuser
prefix=${RARPERF_PREFIX:-/opt/rarperf}
facts=$prefix/facts.json
CONFGEN=$PWD/bin/confgen
RB=$PWD/bin/rarbench
[ -x "$CONFGEN" ] && [ -x "$RB" ] || { notok "bin/confgen and bin/rarbench are built (make)"; exit 1; }
[ -f "$facts" ] || { notok "$facts exists (make provision)"; exit 1; }

tmp=$(mktemp -d /tmp/rp-it25.XXXXXX)
chmod 0755 "$tmp"
filler=rpf$$
cleanup() {
	userdel "$filler" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

user=$(jq -r .bench_user "$facts")
uid=$(jq -r .bench_uid "$facts")
# The group the dosr binaries are for (facts.json's privileged_group, else the bench user's own):
# a filler account needs it to reach dosr's own refusal.
group=$(jq -r '.privileged_group // empty' "$facts")
group=${group:-$(id -gn "$user")}
# Every RootAsRole binary the facts list as present: name, format, settings file, data file.
jq -r '.tools | to_entries[] | select(.key | startswith("dosr")) | select(.value.present)
	| [.key, .value.format, .value.settings, .value.policy, .value.version] | @tsv' "$facts" >"$tmp/dosrs"
check "facts.json lists dosr-json and dosr-cbor as present" \
	sh -c "cut -f1 '$tmp/dosrs' | grep -qx dosr-json && cut -f1 '$tmp/dosrs' | grep -qx dosr-cbor"

# write NAME FORMAT SETTINGS DATA confgen-args...: the policy that NAME reads, in the dialect of
# its version ($version of the loop below: RootAsRole 4 reads a CBOR build's settings as CBOR).
write() {
	local name=$1 format=$2 settings=$3 data=$4
	shift 4
	case $format in
	rar-json) "$CONFGEN" "$@" --rar-version "$version" --rar-json "$settings" ;;
	rar-cbor) "$CONFGEN" "$@" --rar-version "$version" --rar-cbor "$settings" --rar-cbor-data "$data" ;;
	esac
}
# run AS BIN CMD: runs BIN CMD as AS without a terminal; prints "rc|stdout|stderr" on one line.
run() {
	local o e rc
	o=$(runuser -u "$1" -- "$2" "$3" </dev/null 2>"$tmp/err")
	rc=$?
	e=$(tr '\n' ' ' <"$tmp/err")
	echo "$rc|$o|$e"
}
granted() { # granted OUT: exit 0, and /usr/bin/id -u style output if any
	case $1 in 0\|*) return 0 ;; *) return 1 ;; esac
}
refused() { # refused OUT: exit 1, nothing run (no stdout), dosr's refusal on stderr (3.0 and 3.1:
	# "No matching role found")
	case $1 in "1||"*"Permission denied"* | "1||"*"No matching role found"*) return 0 ;; *) return 1 ;; esac
}
# hidden VERSION FORMAT C MATCH: whether RootAsRole VERSION cannot see this grant. 3.0's and
# 3.1's JSON finder refuses a task whose granted command is followed in its list by one that does
# not exist (confgen's fillers, C > 1 with --match first or middle): "No matching role found".
# Their CBOR finder, and 3.2 on, grant it. The history (experiments/history.json) measures
# --match last, which they all read.
hidden() {
	case $1 in 3.0.* | 3.1.*) [ "$2" = rar-json ] && [ "$3" -gt 1 ] && [ "$4" != last ] ;; *) return 1 ;; esac
}

shapes="1:1:1:1 2:2:50:3 3:2:7:2 1:3:200:1"
# The loop rewrites the prefix's RootAsRole policies itself: one owner at a time.
prefix_lock "$prefix" "25-rootasrole.sh"
while IFS=$'\t' read -r name format settings data version; do
	bin=$prefix/bin/$name
	for shape in $shapes; do
		IFS=: read -r R U T C <<<"$shape"
		for m in last first middle; do
			what="$name ($version) R=$R U=$U T=$T C=$C --match $m"
			if ! write "$name" "$format" "$settings" "$data" --roles "$R" --users "$U" --tasks "$T" \
				--commands "$C" --uid "$uid" --match "$m" >"$tmp/confgen.err" 2>&1; then
				notok "$what: confgen writes the policy ($(head -1 "$tmp/confgen.err"))"
				continue
			fi
			out=$(run "$user" "$bin" /usr/bin/true)
			if hidden "$version" "$format" "$C" "$m"; then
				check "$what: /usr/bin/true not seen by $version's JSON finder (a missing command after it)" \
					refused "$out" || echo "# $out"
			else
				check "$what: /usr/bin/true granted" granted "$out" || echo "# $out"
			fi
			if [ "$m" = last ] && [ "$shape" = 2:2:50:3 ] && [ "$format" = rar-cbor ]; then
				want=7b kind=JSON # '{'
				[ "${version%%.*}" -ge 4 ] && want=bf kind=CBOR # an indefinite map
				check "$name: its settings file is $kind, as RootAsRole $version reads it" \
					[ "$(head -c1 "$settings" | od -An -tx1 | tr -d ' ')" = "$want" ]
			fi
			out=$(run "$user" "$bin" /usr/bin/false)
			check "$what: /usr/bin/false refused" refused "$out" || echo "# $out"
		done
	done

	# The granted command really runs as root: make /usr/bin/id the command, R=2 U=2 T=50 C=3.
	for m in last first middle; do
		write "$name" "$format" "$settings" "$data" --roles 2 --users 2 --tasks 50 --commands 3 \
			--uid "$uid" --match "$m" --command /usr/bin/id >/dev/null 2>&1
		out=$(run "$user" "$bin" /usr/bin/id)
		if hidden "$version" "$format" 3 "$m"; then
			check "$name --match $m --command /usr/bin/id: not seen by $version's JSON finder" \
				refused "$out" || echo "# $out"
		else
			check "$name --match $m --command /usr/bin/id: runs as uid 0" \
				sh -c "case '$out' in '0|uid=0(root) gid=0(root)'*) exit 0;; *) exit 1;; esac" || echo "# $out"
		fi
		out=$(run "$user" "$bin" /usr/bin/true)
		check "$name --match $m --command /usr/bin/id: /usr/bin/true refused" refused "$out" || echo "# $out"
	done

	# A filler actor of a role whose tasks hold only /nonexistent commands: refused. The role is
	# read from the JSON policy itself (same shape, same naming in both formats).
	for m in last first; do
		"$CONFGEN" --roles 3 --users 2 --tasks 5 --commands 2 --uid "$uid" --match "$m" \
			--rar-json "$tmp/shape.json" >/dev/null 2>&1
		fuid=$(jq -r '[.roles[] | select([.tasks[].commands[]] | index("/usr/bin/true") | not)][0].actors[0].id' "$tmp/shape.json")
		write "$name" "$format" "$settings" "$data" --roles 3 --users 2 --tasks 5 --commands 2 \
			--uid "$uid" --match "$m" >/dev/null 2>&1
		userdel "$filler" >/dev/null 2>&1
		if useradd -M -N -o -u "$fuid" -g "$group" -s /usr/sbin/nologin "$filler" >/dev/null 2>&1; then
			out=$(run "$filler" "$bin" /usr/bin/true)
			check "$name --match $m: filler uid $fuid (a role without the command) refused" refused "$out" || echo "# $out"
		else
			notok "$name: create a throwaway user with filler uid $fuid"
		fi
	done

	# RootAsRole 4 closes every possible descriptor one by one (issue 19): its close(2) calls
	# follow RLIMIT_NOFILE, which is why rarbench pins it. Counted with strace (-u keeps the
	# file capabilities), the same grant, nofile 1024 then 16384 (or this host's hard limit).
	if [ "${version%%.*}" -ge 4 ] && command -v strace >/dev/null && command -v prlimit >/dev/null; then
		write "$name" "$format" "$settings" "$data" --uid "$uid" >/dev/null 2>&1
		closes() {
			rm -f "$tmp/strace"
			prlimit --nofile="$1:$1" strace -f -qq -c -U calls,name -e trace=close,close_range \
				-o "$tmp/strace" -u "$user" "$bin" /usr/bin/true </dev/null >/dev/null 2>&1 || return 1
			awk '$NF == "close" { n = $1 } END { print n + 0 }' "$tmp/strace"
		}
		hi=$(ulimit -Hn)
		case $hi in unlimited | *[!0-9]*) hi=16384 ;; esac
		[ "$hi" -gt 16384 ] && hi=16384
		c1=$(closes 1024) c2=$(closes "$hi")
		check "$name: close(2) calls grow with the nofile limit (${c1:-?} at 1024, ${c2:-?} at $hi)" \
			sh -c "[ '${c1:-0}' -ge 1000 ] && [ \$((${c2:-0} - ${c1:-0})) -ge \$(($hi - 1024)) ]"
	fi

	# The original generator's output (--seed-compat: empty role names, task names 0, fillers 5001+).
	write "$name" "$format" "$settings" "$data" --roles 2 --users 2 --tasks 20 --commands 2 --uid "$uid" \
		--seed-compat >/dev/null 2>&1
	check "$name --seed-compat R=2 U=2 T=20 C=2: /usr/bin/true granted" granted "$(run "$user" "$bin" /usr/bin/true)"
	check "$name --seed-compat: /usr/bin/id refused" refused "$(run "$user" "$bin" /usr/bin/id)"
done <"$tmp/dosrs"
# No standing grant: the policies deny again, then the manifest below takes the lock itself.
while IFS=$'\t' read -r name format settings data version; do
	write "$name" "$format" "$settings" "$data" --uid "$uid" --deny-all >/dev/null 2>&1
done <"$tmp/dosrs"
prefix_unlock "$prefix"

# --- the manifest's grant check with every dosr as a subject ------------------------------------
# A manifest holds at most 48 subjects (manifest.h): a prefix with the whole history
# (make provision-history) has more, so they go in manifests of 40.
split -l 40 -d "$tmp/dosrs" "$tmp/dosrs-part."
for part in "$tmp"/dosrs-part.*; do
	k=${part##*.}
	{
		printf '{"name":"it25","subjects":['
		sep=
		while IFS=$'\t' read -r name format settings data version; do
			printf '%s{"id":"sr-%s","format":"%s","rar_version":"%s","program":"%s","policy":"%s"%s}' "$sep" \
				"${name#dosr-}" "$format" "$version" "$prefix/bin/$name" "$settings" \
				"$([ "$format" = rar-cbor ] && printf ',"policy_data":"%s"' "$data")"
			sep=,
		done <"$part"
		printf '],"axes":{"nb_tasks":[1,30]},"warmup":1,"min_runs":3,"max_runs":3,"min_time_s":0}\n'
	} >"$tmp/m$k.json"
	"$RB" --manifest "$tmp/m$k.json" --prefix "$prefix" --wait --out "$tmp/out$k" --progress none >"$tmp/m$k.out" 2>&1
	rc=$?
	n=$(wc -l <"$part")
	check "manifest $k with $n dosr subjects: grant checks pass, exit 0" [ $rc -eq 0 ] || tail -5 "$tmp/m$k.out"
	check "manifest $k: every dosr subject measured at both points, every run exit 0" \
		jq -e --argjson n "$n" '(.results | length) == 2 * $n and all(.results[]; all(.exit_codes[]; . == 0))' "$tmp/out$k/results.json"
done

check "after the manifest: every dosr's policy grants nothing (deny-all)" \
	sh -c "! runuser -u '$user' -- '$prefix/bin/dosr-json' /usr/bin/true </dev/null >/dev/null 2>&1"
tap_status
