#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# A manifest from someone else, run as root on the provisioned prefix (issue 36, findings 1, 7
# and 8): what it names that root reads or runs must be root's along its whole path, else exit 2
# with one line naming the field; its strings reach the terminal escaped; RARPERF_STRACE runs as
# root only when root's; a killed write's temporaries are removed by the next sweep. Each refused
# run must leave nothing: the hostile script never ran, the prefix's policies are as before, and
# the run's private /tmp (a tmpfs of its own mount namespace) stays empty.
# RARBENCH=/path/to/rarbench runs it against another build (today's main fails it).
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=${RARBENCH:-$PWD/bin/rarbench}
. tests/lib/tap.sh

need jq runuser unshare sha256sum
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
# Outside /tmp (each run gets a private one) and, like /tmp, writable by anyone (sticky).
work=$(mktemp -d /var/tmp/rarperf-it-hostile-XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
u=$work/u # the bench user's directory: what a hostile manifest points at
install -d -o "$user" -m 0755 "$u"
esc=$(printf '\033')

# as_user SCRIPT: runs sh -c SCRIPT as the bench user (the hostile files are theirs).
as_user() { runuser -u "$user" -- sh -c "$1" </dev/null; }
# rb NAME ARGS...: rarbench ARGS as root with a private, empty /tmp; stdout, stderr and the
# /tmp it left go to $work/NAME.{out,err,tmp}; returns rarbench's exit status.
rb() {
	n=$1
	shift
	unshare --mount --propagation private -- sh -c '
		mount -t tmpfs -o mode=1777 rp46 /tmp || exit 99
		"$@" >"'"$work/$n.out"'" 2>"'"$work/$n.err"'"
		rc=$?
		ls -A /tmp >"'"$work/$n.tmp"'"
		exit $rc' rb "$@"
}
# Everything of PREFIX/etc (names, modes, owners, bytes): compared before and after.
etc_state() { (cd "$prefix/etc" && find . -printf '%p %m %u\n' | sort && find . -type f -exec sha256sum {} + | sort); }
# locked NAME ARGS...: rb while this test holds the prefix's lock, so that no other sweep writes
# PREFIX/etc meanwhile: its state is compared exactly (a refused run never needs the lock; one
# that got further would exit 3 here, as today's main does, instead of waiting).
locked() {
	prefix_lock "$prefix" "46-hostile-manifest: $1"
	etc_state >"$work/$1.etc-before"
	rb "$@"
	lrc=$?
	etc_state >"$work/$1.etc-after"
	prefix_unlock "$prefix"
	return $lrc
}
nothing_left() { # NAME: the script did not run, /tmp empty, PREFIX/etc as it was, no output
	[ ! -e "$u/ran" ] && [ ! -s "$work/$1.tmp" ] && [ ! -e "$work/$1-out" ] &&
		cmp -s "$work/$1.etc-before" "$work/$1.etc-after"
}
one_line() { [ "$(wc -l <"$work/$1.err")" -eq 1 ] && grep -q -- "$2" "$work/$1.err"; }
# refused NAME RC PATTERN: exit 2, one line matching PATTERN, nothing left; else shows why.
refused() {
	if [ "$2" -eq 2 ] && one_line "$1" "$3" && nothing_left "$1"; then return 0; fi
	echo "    exit $2; stderr:" && sed 's/^/    /' "$work/$1.err"
	[ -e "$u/ran" ] && sed 's/^/    RAN: /' "$u/ran" && rm -f "$u/ran"
	[ -s "$work/$1.tmp" ] && sed 's/^/    left in \/tmp: /' "$work/$1.tmp"
	cmp -s "$work/$1.etc-before" "$work/$1.etc-after" || echo "    PREFIX/etc changed"
	return 1
}
# manifest NAME SUBJECTS [EXTRA_KEYS] -> $work/NAME.json
manifest() {
	cat >"$work/$1.json" <<JSON
{"name": "$1", ${3:-} "subjects": $2, "axes": {"nb_tasks": [1]}, "bench_user": "$user",
 "warmup": 0, "min_runs": 2, "max_runs": 2, "min_time_s": 0}
JSON
}

# The bench user's script: what runs it as root would write uid=0 into $u/ran.
as_user "printf '#!/bin/sh\nid >$u/ran\n' >$u/evil.sh && chmod 0755 $u/evil.sh"
# Their PAM directory: su and sudo let anyone in and run the script in the session.
as_user "mkdir $u/pam && for s in su sudo doas; do
	printf 'auth sufficient pam_permit.so\naccount sufficient pam_permit.so\nsession optional pam_exec.so $u/evil.sh\n' >$u/pam/\$s
done"
# --- finding 1: /bin/su with the bench user's script and PAM directory -------------------------
su=$(command -v su)
manifest su "[{\"id\":\"su\",\"format\":\"doas\",\"program\":\"$su\",\"args\":[\"-c\",\"$u/evil.sh\",\"root\"],
 \"pam\":\"$u/pam\"}]"
locked su "$rarbench" --manifest "$work/su.json" --prefix "$prefix" --out "$work/su-out" --progress none
check "finding 1 (su, the bench user's script and PAM files): exit 2, one line naming \$.subjects[0].program; the script never ran, nothing left" \
	refused su $? 'su.json: \$\.subjects\[0\]\.program: .* is set-user-ID or set-group-ID.* and outside the prefix'
# No key lifts the set-ID rule.
jq '.subjects[0] += {"unsafe_program": true, "unsafe_pam": true}' "$work/su.json" >"$work/su2.json"
locked su2 "$rarbench" --manifest "$work/su2.json" --prefix "$prefix" --out "$work/su2-out" --progress none
check "finding 1 with unsafe_program and unsafe_pam: still exit 2 (a set-ID program outside the prefix)" \
	refused su2 $? 'outside the prefix'

# The same PAM files through the prefix's own PAM build (sudo-rs's route): refused by its field.
pamtool=
for t in sudo-pam doas-pam sudo-rs; do
	if jq -e --arg t "$t" '.tools[$t].present == true' "$prefix/facts.json" >/dev/null; then
		pamtool=$t
		break
	fi
done
if [ -n "$pamtool" ]; then
	fmt=$(jq -r --arg t "$pamtool" '.tools[$t].format' "$prefix/facts.json")
	extra=
	[ "$pamtool" = sudo-rs ] && extra=',"policy":"{prefix}/etc/sudoers-rs","policy_mount_at":"/etc/sudoers-rs","sudoers_layout":"per-task"'
	manifest pam "[{\"id\":\"$pamtool\",\"format\":\"$fmt\",\"program\":\"{prefix}/bin/$pamtool\",\"pam\":\"$u/pam\"$extra}]"
	locked pam "$rarbench" --manifest "$work/pam.json" --prefix "$prefix" --out "$work/pam-out" --progress none
	check "the bench user's PAM directory for $pamtool: exit 2, one line naming \$.subjects[0].pam and its owner; nothing left" \
		refused pam $? "\$\.subjects\[0\]\.pam: $u/pam is not root's alone (.*owned by uid $(id -u "$user")"
	# With unsafe_pam the dry run says so in plain words (and nothing is run).
	jq '.subjects[0].unsafe_pam = true' "$work/pam.json" >"$work/pamu.json"
	locked pamu "$rarbench" --manifest "$work/pamu.json" --prefix "$prefix" --dry-run
	rc=$?
	check "unsafe_pam: --dry-run exits 0, says UNSAFE: ... can run code as root, and ran nothing" \
		sh -c "[ $rc -eq 0 ] && grep -q \"^UNSAFE: subject $pamtool's PAM directory $u/pam is not root's alone (.*owned by uid $(id -u "$user").*): a manifest that sets this can run code as root\" '$work/pamu.out'" &&
		nothing_left pamu || sed 's/^/    /' "$work/pamu.out" "$work/pamu.err"
else
	ok "no PAM build of a tool in $prefix (sudo-pam, doas-pam, sudo-rs) # SKIP"
fi

# A program the bench user wrote (not set-ID): refused unless unsafe_program.
manifest prog "[{\"id\":\"mine\",\"format\":\"doas\",\"program\":\"$u/evil.sh\"}]"
locked prog "$rarbench" --manifest "$work/prog.json" --prefix "$prefix" --out "$work/prog-out" --progress none
check "a program the bench user wrote: exit 2, one line naming \$.subjects[0].program and unsafe_program" \
	refused prog $? '\$\.subjects\[0\]\.program: .*not root.s alone.*unsafe_program'
rm -f "$u/ran"

# --- finding 7: ESC sequences in the name, the commands, the paths, a skip reason --------------
cat >"$work/esc.json" <<JSON
{"name": "esc\u001b[2J\u001b[H\u001b]0;owned\u0007", "bench_user": "$user", "axes": {"nb_tasks": [1]},
 "subjects": [{"id": "sh", "format": "doas", "program": "/bin/sh", "args": ["-c", "exit 0 # \u001b[8m hidden \u001b[0m"]},
   {"id": "ghost", "format": "doas", "program": "{prefix}/bin/no-such-\u001b[2J", "optional": true}],
 "warmup": 0, "min_runs": 2, "max_runs": 2, "min_time_s": 0}
JSON
rb escplan "$rarbench" --manifest "$work/esc.json" --prefix "$prefix" --dry-run
rc=$?
check "finding 7: --dry-run of a manifest full of ESC: exit 0, the plan printed" \
	sh -c "[ $rc -eq 0 ] && grep -q '^Plan of' '$work/escplan.out'" || sed 's/^/    /' "$work/escplan.err"
check "finding 7: no ESC byte in the dry run's stdout or stderr (shown as \\x1b)" \
	sh -c "! grep -q '$esc' '$work/escplan.out' '$work/escplan.err' && grep -q 'esc.x1b\[2J' '$work/escplan.out'"
jq '.subjects[0].pam = "/nonexistent/\u001b[2Jpam"' "$work/esc.json" >"$work/escpam.json"
locked escpam "$rarbench" --manifest "$work/escpam.json" --prefix "$prefix" --out "$work/escpam-out" --progress none
check "finding 7: a refused PAM path with ESC: exit 2, one line, escaped" \
	refused escpam $? '\$\.subjects\[0\]\.pam: /nonexistent/.x1b\[2Jpam'
check "finding 7: ... no ESC byte in it" sh -c "! grep -q '$esc' '$work/escpam.err'"
# The run itself (progress none, then the bar: only the bar's own "clear line" is an ESC), with
# two temporaries a killed write left (an hour old): one in PREFIX/etc, one in the output.
prefix_lock "$prefix" "46-hostile-manifest: plant a stale temporary"
stale=$prefix/etc/.doas.conf.Zq46Xy
: >"$stale" && touch -d '1 hour ago' "$stale"
prefix_unlock "$prefix"
mkdir -p "$work/esc-out" && : >"$work/esc-out/.results.json.Zq46Xy" && touch -d '1 hour ago' "$work/esc-out/.results.json.Zq46Xy"
rb escrun "$rarbench" --manifest "$work/esc.json" --prefix "$prefix" --wait --out "$work/esc-out" --progress none
rc=$?
check "finding 7: the run: exit 0, no ESC byte in its stdout or stderr" \
	sh -c "[ $rc -eq 0 ] && ! grep -q '$esc' '$work/escrun.out' '$work/escrun.err'" || sed 's/^/    /' "$work/escrun.err"
check "finding 7: the skipped subject's reason is shown escaped" grep -q 'skipping subject ghost: .*no-such-.x1b\[2J' "$work/escrun.err"
check "finding 8: the killed write's temporaries are gone (PREFIX/etc and the output), and said so" \
	sh -c "[ ! -e '$stale' ] && [ ! -e '$work/esc-out/.results.json.Zq46Xy' ] &&
		grep -q 'removed [0-9]* temporary file(s) that a killed write left in $prefix/etc' '$work/escrun.err'"
rm -f "$stale"
rb escbar "$rarbench" --manifest "$work/esc.json" --prefix "$prefix" --wait --out "$work/esc-bar" --progress bar
rc=$?
check "finding 7: with the progress bar, its own ESC[K is the only escape" \
	sh -c "[ $rc -eq 0 ] && ! tr -d '\r' <'$work/escbar.err' | sed 's/${esc}\[K//g' | grep -q '$esc'"
check "finding 7: the runs left /tmp empty" sh -c "[ ! -s '$work/escrun.tmp' ] && [ ! -s '$work/escbar.tmp' ]"

# --- finding 8: RARPERF_STRACE is run as root only when it is root's ---------------------------
as_user "printf '#!/bin/sh\nid >$u/ran\nexit 1\n' >$u/strace && chmod 0755 $u/strace"
manifest prof '[{"id":"doas","format":"doas"}]' '"profile": true,'
RARPERF_STRACE=$u/strace locked strace "$rarbench" --manifest "$work/prof.json" --prefix "$prefix" \
	--out "$work/strace-out" --progress none
check "RARPERF_STRACE written by the bench user (manifest): exit 2, one line naming it, never run" \
	refused strace $? "RARPERF_STRACE: $u/strace is not root's alone"
RARPERF_STRACE=$u/strace locked plainstrace "$rarbench" --profile -N -r 2 /usr/bin/true
check "RARPERF_STRACE written by the bench user (plain --profile): exit 2, one line, never run" \
	refused plainstrace $? "RARPERF_STRACE: $u/strace is not root's alone"

check "PREFIX/etc's policies grant nothing after it all (deny-all: match=none)" \
	sh -c "grep -q 'match=none' '$prefix/etc/doas.conf' && grep -q 'match=none' '$prefix/etc/sudoers'"
tap_status
