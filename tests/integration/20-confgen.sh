#!/bin/bash
# confgen against the real visudo, doas (and cvtsudoers when built): validity, equivalence of the
# grant sets across formats, the single match at the asked position, bad input, the seed's
# --setup line, and refusal of the machine's own policies.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
set -u
cd "$(dirname "$0")/../.." || exit 2

prefix=${RARPERF_PREFIX:-/opt/rarperf}
visudo=$prefix/sbin/visudo
doas=$prefix/bin/doas
cvtsudoers=$prefix/bin/cvtsudoers
confgen=$PWD/bin/confgen

quiet() { "$@" >/dev/null 2>&1; }
. tests/lib/tap.sh

if [ ! -x "$confgen" ]; then
	notok "bin/confgen is missing: run make first"
	exit 1
fi
if [ ! -x "$visudo" ] || [ ! -x "$doas" ]; then
	notok "no real visudo/doas under $prefix (sbin/visudo, bin/doas): run 'make provision' (or set RARPERF_PREFIX)"
	exit 1
fi

tmp=$(mktemp -d /tmp/rarperf-it-confgen.XXXXXX)
cleanup() {
	chattr -R -i "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
chmod 0755 "$tmp" # the bench user must reach doas.conf for `doas -C`

# The benchmark user: the provisioned one, else nobody (doas parses uids up to 65534 by default).
if bench_uid=$(id -u rarperf 2>/dev/null); then
	bench_gid=$(id -g rarperf)
else
	bench_uid=$(id -u nobody)
	bench_gid=$(id -g nobody)
fi
as_bench() { setpriv --reuid="$bench_uid" --regid="$bench_gid" --clear-groups "$@"; }

# Grant lists "uid command", one per line, in policy order.
grants_doas() { awk '$1 == "permit" { print $3, $NF }' "$1"; }
grants_rar_json() { jq -r '.roles[] | .actors[].id as $u | .tasks[].commands[] | "\($u) \(.)"' "$1"; }
grants_sudoers() { # through sudo's own parser when we have it, else by expanding aliases here
	if [ -x "$cvtsudoers" ]; then
		"$cvtsudoers" -f json -e "$1" 2>/dev/null |
			jq -r '.User_Specs[] | .User_List[].userid as $u | .Cmnd_Specs[].Commands[].command | "\($u) \(.)"'
	else
		awk '
		/^Cmnd_Alias / { a = $2; sub(/^[^=]*= /, ""); alias[a] = $0; next }
		/^#[0-9]/ {
			split($0, side, " ALL = "); n = split(side[1], users, ", ")
			m = split(side[2], specs, ", ")
			for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) {
				name = specs[j]; sub(/.*NOPASSWD: /, "", name)
				k = split(alias[name], cmds, ", ")
				for (c = 1; c <= k; c++) print substr(users[i], 2), cmds[c]
			}
		}' "$1"
	fi
}

# shape_case NAME R U T C MATCH [extra confgen options]: generate all four formats and check them.
shape_case() {
	local name=$1 r=$2 u=$3 t=$4 c=$5 match=$6
	shift 6
	local d=$tmp/$name
	mkdir -p "$d" && chmod 0755 "$d"
	if ! "$confgen" --roles "$r" --users "$u" --tasks "$t" --commands "$c" --uid "$bench_uid" \
		--match "$match" "$@" --sudoers "$d/sudoers" --doas "$d/doas.conf" \
		--rar-json "$d/rar.json" --rar-cbor "$d/rar-cbor.json" 2>"$d/err"; then
		notok "$name: confgen failed: $(cat "$d/err")"
		return
	fi
	# --size, the same arguments: each file's exact size, nothing written (the files stay as they are).
	local f expect="" before
	for f in sudoers doas.conf rar.json rar-cbor.json rar-cbor.bin; do
		expect="$expect$(stat -c %s "$d/$f")	$d/$f
"
	done
	before=$(stat -c %Y.%i "$d"/*)
	check "$name: --size prints each file's size as written" test "$("$confgen" --size --roles "$r" \
		--users "$u" --tasks "$t" --commands "$c" --uid "$bench_uid" --match "$match" "$@" \
		--sudoers "$d/sudoers" --doas "$d/doas.conf" --rar-json "$d/rar.json" \
		--rar-cbor "$d/rar-cbor.json" | head -5)" = "${expect%
}"
	check "$name: --size writes nothing" test "$(stat -c %Y.%i "$d"/*)" = "$before"
	check "$name: visudo -cf accepts the sudoers" quiet "$visudo" -cf "$d/sudoers"
	check "$name: doas -C accepts doas.conf" quiet "$doas" -C "$d/doas.conf"
	check "$name: doas -C permits the bench uid /usr/bin/true" \
		test "$(as_bench "$doas" -C "$d/doas.conf" /usr/bin/true)" = "permit nopass"
	check "$name: doas -C denies the bench uid /usr/bin/false" \
		test "$(as_bench "$doas" -C "$d/doas.conf" /usr/bin/false)" = "deny"

	grants_doas "$d/doas.conf" >"$d/g.doas"
	grants_sudoers "$d/sudoers" >"$d/g.sudo"
	grants_rar_json "$d/rar.json" >"$d/g.rar"
	local n_expect=$((r * u * t * c))
	check "$name: doas.conf holds R*U*T*C = $n_expect grants" test "$(wc -l <"$d/g.doas")" -eq "$n_expect"
	if printf '%s\n' "$@" | grep -q per-task; then
		check "$name: sudoers and doas grant the same set" cmp -s <(sort "$d/g.doas") <(sort "$d/g.sudo")
	else
		check "$name: sudoers and doas grant the same list, in the same order" cmp -s "$d/g.doas" "$d/g.sudo"
	fi
	check "$name: RootAsRole JSON and doas grant the same list, in the same order" cmp -s "$d/g.doas" "$d/g.rar"

	# The bench uid gets /usr/bin/true exactly once, at the asked position.
	local mr mu mt mc
	case $match in
	last) mr=$((r - 1)) mu=$((u - 1)) mt=$((t - 1)) mc=$((c - 1)) ;;
	first) mr=0 mu=0 mt=0 mc=0 ;;
	middle) mr=$(((r - 1) / 2)) mu=$(((u - 1) / 2)) mt=$(((t - 1) / 2)) mc=$(((c - 1) / 2)) ;;
	esac
	local want_line=$((((mr * u + mu) * t + mt) * c + mc + 1))
	local lines
	lines=$(grep -nx "$bench_uid /usr/bin/true" "$d/g.doas" | cut -d: -f1 | tr '\n' ' ')
	check "$name: bench uid granted /usr/bin/true once, as grant $want_line of $n_expect ($match)" \
		test "$lines" = "$want_line "
	check "$name: the bench uid is in exactly one role of the JSON, role $((mr + 1)) slot $((mu + 1))" \
		test "$(jq -c "[.roles | to_entries[] | .key as \$r | .value.actors | to_entries[] | select(.value.id == $bench_uid) | [\$r, .key]]" "$d/rar.json")" = "[[$mr,$mu]]"
	check "$name: JSON task $((mt + 1)) command $((mc + 1)) of that role is /usr/bin/true" \
		test "$(jq -r ".roles[$mr].tasks[$mt].commands[$mc]" "$d/rar.json")" = /usr/bin/true
	# Nothing granted to anyone who exists, nothing that exists but the match.
	local others
	others=$(awk -v b="$bench_uid" '$1 != b { print $1 }' "$d/g.doas" | sort -u)
	local exists=0 uid
	for uid in $others; do
		[ "$uid" -ge 2147483648 ] || exists=1
		getent passwd "$uid" >/dev/null && exists=1
	done
	check "$name: every other uid is >= 2^31 and unknown to passwd" test "$exists" -eq 0
	check "$name: every other command lies under /nonexistent, which does not exist" \
		test -z "$(awk '$2 != "/usr/bin/true" && $2 !~ "^/nonexistent/" ' "$d/g.doas")" -a ! -e /nonexistent
	check "$name: rar-cbor settings point at the absolute .bin" \
		test "$(jq -r .storage.settings.path "$d/rar-cbor.json")" = "$d/rar-cbor.bin"
	check "$name: modes sudoers 0440, doas 0644, json 0644, cbor 0400" \
		test "$(stat -c %a "$d/sudoers" "$d/doas.conf" "$d/rar.json" "$d/rar-cbor.bin" | tr '\n' ' ')" = "440 644 644 400 "
}

shape_case r2u2t50c3-last 2 2 50 3 last
shape_case r2u2t50c3-first 2 2 50 3 first
shape_case r2u2t50c3-middle 2 2 50 3 middle
shape_case r3u4t7c5-middle 3 4 7 5 middle
shape_case r1u1t1c1 1 1 1 1 last
shape_case r2u3t4c2-per-task 2 3 4 2 last --sudoers-layout per-task

# --seed-compat: the original's sudoers is still valid, and its caller is in every role there.
d=$tmp/seed && mkdir -p "$d"
if "$confgen" --seed-compat --roles 2 --users 2 --tasks 3 --commands 2 --uid 1000 \
	--sudoers "$d/sudoers" --rar-cbor "$d/rootasrole.json" 2>"$d/err"; then
	check "seed-compat: visudo -cf accepts the sudoers" quiet "$visudo" -cf "$d/sudoers"
	check "seed-compat: #1000 is in both roles' user specs" test "$(grep -c '^#2001, #1000 ALL = ' "$d/sudoers")" -eq 2
	check "seed-compat: the CBOR holds the spec's 3.3.4 header" \
		test "$(head -c 15 "$d/rootasrole.bin" | od -An -tx1 | tr -d ' \n')" = bf6776657273696f6e65332e332e34
else
	notok "seed-compat: confgen failed: $(cat "$d/err")"
fi

# The seed's hyperfine --setup line, as written: relative paths, nothing else created.
d=$tmp/setup && mkdir -p "$d/etc"
if (cd "$d" && "$confgen" etc/sudoers etc/rootasrole.json 1 1 5 1 1000) 2>"$tmp/setup.err"; then
	check "seed --setup line: writes exactly etc/sudoers and etc/rootasrole.json" \
		test "$(cd "$d" && find . | sort | tr '\n' ' ')" = ". ./etc ./etc/rootasrole.json ./etc/sudoers "
	check "seed --setup line: visudo -cf accepts etc/sudoers" quiet "$visudo" -cf "$d/etc/sudoers"
	check "seed --setup line: the JSON's data path is itself, absolute" \
		test "$(jq -r .storage.settings.path "$d/etc/rootasrole.json")" = "$d/etc/rootasrole.json"
	check "seed --setup line: 5 tasks, the last one holding /usr/bin/true" \
		test "$(jq -r '.roles[0].tasks | length, .[4].commands[0]' "$d/etc/rootasrole.json" | tr '\n' ' ')" = "5 /usr/bin/true "
else
	notok "seed --setup line failed: $(cat "$tmp/setup.err")"
fi
d=$tmp/setup-cbor && mkdir -p "$d/etc"
(cd "$d" && "$confgen" --rar-format cbor etc/sudoers etc/rootasrole.json 1 1 5 1 1000)
check "seed --setup line with --rar-format cbor: settings, .bin and sudoers" \
	test "$(cd "$d" && find . -type f | sort | tr '\n' ' ')" = "./etc/rootasrole.bin ./etc/rootasrole.json ./etc/sudoers "

# Bad input: exit 2, one line naming the argument, no file touched.
bad_case() { # bad_case "what" expected-word confgen-args...
	local what=$1 word=$2
	shift 2
	local d=$tmp/bad && rm -rf "$d" && mkdir -p "$d"
	(cd "$d" && "$confgen" "$@" >"$tmp/bad.out" 2>"$tmp/bad.err")
	local rc=$?
	local lines files
	lines=$(wc -l <"$tmp/bad.err")
	files=$(find "$d" -mindepth 1 | wc -l)
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$word" "$tmp/bad.err" && [ "$files" -eq 0 ] &&
		[ ! -s "$tmp/bad.out" ]; then
		ok "bad input: $what ($(cat "$tmp/bad.err"))"
	else
		notok "bad input: $what: exit $rc, $lines stderr lines, $files files: $(cat "$tmp/bad.err")"
	fi
}
bad_case "zero roles" "--roles" --roles 0 --uid 1 --sudoers s
bad_case "negative users" "--users" --users -1 --uid 1 --sudoers s
bad_case "tasks not a number" "--tasks" --tasks 12x --uid 1 --sudoers s
bad_case "commands empty" "--commands" --commands "" --uid 1 --sudoers s
bad_case "product past the limit" "--roles \* --tasks \* --commands" --roles 1000 --tasks 1000 --commands 101 --uid 1 --sudoers s
bad_case "actors past the limit" "--roles \* --users" --roles 100000 --users 101 --uid 1 --sudoers s
bad_case "doas rules past the limit" "--doas" --roles 10 --users 100 --tasks 10000 --commands 11 --uid 1 --doas d
bad_case "uid in the filler range" "--uid" --uid 2147483648 --sudoers s
bad_case "uid past 32 bits" "--uid" --uid 4294967296 --sudoers s
bad_case "uid missing" "--uid" --sudoers s
bad_case "unknown match" "--match" --match sideways --uid 1 --sudoers s
bad_case "relative command" "--command" --command bin/true --uid 1 --sudoers s
bad_case "no output" "no output" --uid 1
bad_case "missing directory" "no-such-dir" --uid 1 --sudoers s --doas no-such-dir/doas.conf
bad_case "same file twice" "--doas" --uid 1 --sudoers s --doas ./s
bad_case "positional form with 6 arguments" "positional" s r.json 1 1 5 1
bad_case "positional NB_TASKS not a number" "NB_TASKS" s r.json 1 1 five 1 1000
bad_case "positional USER_ID out of range" "USER_ID" s r.json 1 1 5 1 99999999999
bad_case "unknown option" "--bogus" --bogus --uid 1 --sudoers s
bad_case "--rar-cbor-data without --rar-cbor" "--rar-cbor-data" --uid 1 --sudoers s --rar-cbor-data x.bin

# The machine's own policies are refused, by resolved path, and left untouched.
snap() { for f in /etc/sudoers /etc/doas.conf /etc/security/rootasrole.json; do
	[ -e "$f" ] && stat -c '%n %i %Y %s' "$f"
done; ls /etc/sudoers.d 2>/dev/null; }
before=$(snap)
ln -s /etc "$tmp/etc-link"
bad_case "refuses /etc/sudoers" "refusing" --uid 1 --sudoers /etc/sudoers
bad_case "refuses /etc/sudoers via a linked directory" "refusing" --uid 1 --sudoers "$tmp/etc-link/sudoers"
bad_case "refuses /etc/../etc/doas.conf" "refusing" --uid 1 --doas /etc/../etc/doas.conf
if [ -d /etc/sudoers.d ]; then
	bad_case "refuses /etc/sudoers.d/rarperf" "refusing" --uid 1 --sudoers /etc/sudoers.d/rarperf
fi
if [ -d /etc/security ]; then
	bad_case "refuses /etc/security/rootasrole.json" "refusing" --uid 1 --rar-json /etc/security/rootasrole.json
fi
bad_case "positional form refuses /etc/sudoers" "refusing" /etc/sudoers r.json 1 1 5 1 1000
check "the machine's policy files are unchanged" test "$before" = "$(snap)"

# A write that fails on the second file (ENOSPC on a 1 MiB tmpfs, in a private mount namespace):
# every file is written whole before any is renamed, so the first target keeps its old content and
# no temporary file is left.
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null; then
	mkdir -p "$tmp/full"
	unshare -m bash -c '
		mount -t tmpfs -o size=1m,mode=0755 rarperf-full "$2" || exit 99
		"$1" --uid 1 --tasks 2 --sudoers "$2/sudoers" >/dev/null || exit 98
		sha256sum <"$2/sudoers" >"$3/full.before"
		"$1" --uid 1 --users 300 --tasks 100 --sudoers "$2/sudoers" --doas "$2/doas.conf" \
			2>"$3/full.err"
		echo $? >"$3/full.rc"
		sha256sum <"$2/sudoers" >"$3/full.after"
		ls -A "$2" >"$3/full.ls"' _ "$confgen" "$tmp/full" "$tmp"
	rc=$?
	if [ "$rc" -eq 99 ]; then
		echo "ok - ENOSPC on the second file # SKIP cannot mount a tmpfs here"
	else
		check "ENOSPC on the second file: exit 1, saying so" \
			test "$(cat "$tmp/full.rc" 2>/dev/null)" = 1 -a "$(grep -c 'No space left' "$tmp/full.err")" = 1
		check "ENOSPC on the second file: the first target is unchanged" \
			cmp -s "$tmp/full.before" "$tmp/full.after"
		check "ENOSPC on the second file: no temporary file left" \
			test "$(cat "$tmp/full.ls" 2>/dev/null)" = sudoers
	fi
else
	echo "ok - ENOSPC on the second file # SKIP not root"
fi

# Not root: files keep the caller's ownership; an immutable file cannot be cleared, and says why.
d=$tmp/nonroot && mkdir -p "$d" && chown "$bench_uid:$bench_gid" "$d"
if as_bench "$confgen" --uid "$bench_uid" --tasks 3 --sudoers "$d/sudoers" --rar-json "$d/r.json" 2>"$tmp/nr.err"; then
	check "as a non-root user: files owned by that user" \
		test "$(stat -c %u "$d/sudoers" "$d/r.json" | sort -u)" = "$bench_uid"
	if chattr +i "$d/r.json" 2>/dev/null; then
		as_bench "$confgen" --uid "$bench_uid" --rar-json "$d/r.json" 2>"$tmp/nr.err"
		rc=$?
		check "as a non-root user: an immutable file fails with exit 1, naming CAP_LINUX_IMMUTABLE" \
			test "$rc" -eq 1 -a "$(grep -c CAP_LINUX_IMMUTABLE "$tmp/nr.err")" -eq 1
		check "as root: an immutable file is cleared and rewritten" \
			quiet "$confgen" --uid "$bench_uid" --tasks 2 --rar-json "$d/r.json"
		check "as root: the rewritten file is no longer immutable" \
			test "$(lsattr "$d/r.json" | cut -c5)" = "-"
		check "as root: the rewritten file belongs to root" test "$(stat -c %u "$d/r.json")" = 0
	else
		echo "# chattr +i not permitted here: immutable cases not exercised"
	fi
else
	notok "as a non-root user: confgen failed: $(cat "$tmp/nr.err")"
fi

tap_status
