#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# A manifest from someone else, run as root on the provisioned prefix (issue 36, findings 1, 7
# and 8): what it names that root reads or runs must be root's along its whole path, else exit 2
# with one line naming the field; its strings reach the terminal escaped; RARPERF_STRACE runs as
# root only when root's; a killed write's temporaries are removed by the next sweep. Each refused
# run must leave nothing: the hostile script never ran, PREFIX/etc is as it was, and the run's
# /tmp stays empty (each refused run has a mount namespace of its own: rb below).
# RARBENCH=/path/to/rarbench runs it against another build (today's main fails it).
set -u
cd "$(dirname "$0")/../.." || exit 2
prefix=${RARPERF_PREFIX:-/opt/rarperf}
rarbench=${RARBENCH:-$PWD/bin/rarbench}
. tests/lib/tap.sh

need jq runuser unshare sha256sum
need_prefix "$prefix"
user=$(jq -r '.bench_user // "rarperf"' "$prefix/facts.json")
uid=$(id -u "$user")
# Outside /tmp (each run gets a private one) and, like /tmp, writable by anyone (sticky).
work=$(mktemp -d /var/tmp/rarperf-it-hostile-XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
u=$work/u # the bench user's directory: what a hostile manifest points at
# rb gives each run an empty /tmp, which would hide a checkout under /tmp (a clone there failed
# every rb case, issue 46): rarbench runs from a copy here with what it runs beside itself.
install -d -m 0755 "$work/bin"
for b in rarbench rarlaunch rarref; do
	cp "$(dirname "$rarbench")/$b" "$work/bin/$b" || {
		notok "copy $b beside $rarbench to $work/bin"
		exit 1
	}
done
rarbench=$work/bin/rarbench
install -d -o "$user" -m 0755 "$u"
esc=$(printf '\033')

# as_user SCRIPT: runs sh -c SCRIPT as the bench user (the hostile files are theirs).
as_user() { runuser -u "$user" -- sh -c "$1" </dev/null; }
# rb NAME ARGS...: rarbench ARGS as root, refused before it needs the prefix: in a mount
# namespace of its own, where /tmp is an empty tmpfs and PREFIX/etc a tmpfs holding a copy of
# $work/etc (taken at the start), so that other sweeps (other tests, in parallel) cannot blur
# what this run changed; and with the prefix's lock held by this test, so that a build that
# does get further (today's main) stops at the lock (exit 3) instead of acting on the copy.
# stdout, stderr, what /tmp held at the end and PREFIX/etc's state before and after go to
# $work/NAME.{out,err,tmp,etc-before,etc-after}; returns rarbench's status.
rb() {
	n=$1
	shift
	prefix_lock "$prefix" "46-hostile-manifest: $n"
	# The lock's descriptor stays with this shell: rarbench and its children get none of it.
	9<&- unshare --mount --propagation private -- sh -c '
		w=$1 n=$2 etc=$3/etc
		shift 3
		state() { (cd "$etc" && find . -printf "%p %m %u\n" | sort && find . -type f -exec sha256sum {} + | sort); }
		mount -t tmpfs -o mode=1777 rp46 /tmp && mount -t tmpfs -o mode=0755 rp46etc "$etc" &&
			cp -a "$w/etc/." "$etc/" || exit 99
		state >"$w/$n.etc-before"
		"$@" >"$w/$n.out" 2>"$w/$n.err"
		rc=$?
		ls -A /tmp >"$w/$n.tmp"
		state >"$w/$n.etc-after"
		exit $rc' rb "$work" "$n" "$prefix" "$@"
	rbrc=$?
	prefix_unlock "$prefix"
	return $rbrc
}
# run NAME ARGS...: rarbench ARGS as root, a run that measures (it takes the prefix's lock, and
# may undo what a dead run left on the real prefix: so no private namespace).
run() {
	n=$1
	shift
	"$@" >"$work/$n.out" 2>"$work/$n.err"
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
	cmp -s "$work/$1.etc-before" "$work/$1.etc-after" ||
		diff "$work/$1.etc-before" "$work/$1.etc-after" | sed 's/^/    PREFIX\/etc: /'
	return 1
}
# manifest NAME SUBJECTS [EXTRA_KEYS] -> $work/NAME.json
manifest() {
	cat >"$work/$1.json" <<JSON
{"name": "$1", ${3:-} "subjects": $2, "axes": {"nb_tasks": [1]}, "bench_user": "$user",
 "warmup": 0, "min_runs": 2, "max_runs": 2, "min_time_s": 0}
JSON
}

# The copy of PREFIX/etc every run sees (taken under the prefix's lock: no sweep half-way).
prefix_lock "$prefix" "46-hostile-manifest: a copy of the policies"
cp -a "$prefix/etc" "$work/etc"
prefix_unlock "$prefix"
# The bench user's script: what runs it as root appends uid=0 to $u/ran.
as_user "printf '#!/bin/sh\nid >>$u/ran\n' >$u/evil.sh && chmod 0755 $u/evil.sh"
# Their PAM directory: su, sudo and doas let anyone in and run the script in the session.
as_user "mkdir $u/pam && for s in su sudo doas; do
	printf 'auth sufficient pam_permit.so\naccount sufficient pam_permit.so\nsession optional pam_exec.so $u/evil.sh\n' >$u/pam/\$s
done"

# --- finding 1: /bin/su with the bench user's script and PAM directory -------------------------
su=$(command -v su)
manifest su "[{\"id\":\"su\",\"format\":\"doas\",\"program\":\"$su\",\"args\":[\"-c\",\"$u/evil.sh\",\"root\"],
 \"pam\":\"$u/pam\"}]"
rb su "$rarbench" --manifest "$work/su.json" --prefix "$prefix" --out "$work/su-out" --progress none
check "finding 1 (su, the bench user's script and PAM files): exit 2, one line naming \$.subjects[0].program; the script never ran, nothing left" \
	refused su $? 'su.json: \$\.subjects\[0\]\.program: .* is set-user-ID or set-group-ID.* and outside the prefix'
# No key lifts the set-ID rule.
jq '.subjects[0] += {"unsafe_program": true, "unsafe_pam": true}' "$work/su.json" >"$work/su2.json"
rb su2 "$rarbench" --manifest "$work/su2.json" --prefix "$prefix" --out "$work/su2-out" --progress none
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
	rb pam "$rarbench" --manifest "$work/pam.json" --prefix "$prefix" --out "$work/pam-out" --progress none
	check "the bench user's PAM directory for $pamtool: exit 2, one line naming \$.subjects[0].pam and its owner; nothing left" \
		refused pam $? "\$\.subjects\[0\]\.pam: $u/pam is not root's alone (.*owned by uid $uid"
	# With unsafe_pam the dry run says so in plain words (and nothing is run).
	jq '.subjects[0].unsafe_pam = true' "$work/pam.json" >"$work/pamu.json"
	rb pamu "$rarbench" --manifest "$work/pamu.json" --prefix "$prefix" --dry-run
	rc=$?
	check "unsafe_pam: --dry-run exits 0, says UNSAFE: ... can run code as root, and ran nothing" \
		sh -c "[ $rc -eq 0 ] && grep -q \"^UNSAFE: subject $pamtool's PAM directory $u/pam is not root's alone (.*owned by uid $uid.*): a manifest that sets this can run code as root\" '$work/pamu.out'" &&
		nothing_left pamu || sed 's/^/    /' "$work/pamu.out" "$work/pamu.err"
else
	ok "no PAM build of a tool in $prefix (sudo-pam, doas-pam, sudo-rs) # SKIP"
fi

# A program the bench user wrote (not set-ID): refused unless unsafe_program.
manifest prog "[{\"id\":\"mine\",\"format\":\"doas\",\"program\":\"$u/evil.sh\"}]"
rb prog "$rarbench" --manifest "$work/prog.json" --prefix "$prefix" --out "$work/prog-out" --progress none
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
rb escpam "$rarbench" --manifest "$work/escpam.json" --prefix "$prefix" --out "$work/escpam-out" --progress none
check "finding 7: a refused PAM path with ESC: exit 2, one line, escaped" \
	refused escpam $? '\$\.subjects\[0\]\.pam: /nonexistent/.x1b\[2Jpam'
check "finding 7: ... no ESC byte in it" sh -c "! grep -q '$esc' '$work/escpam.err'"
# The run itself (progress none, then the bar: only the bar's own "clear line" is an ESC), with
# two temporaries a killed write left (an hour old): one in PREFIX/etc, one in the output.
prefix_lock "$prefix" "46-hostile-manifest: a killed write's temporary"
stale=$prefix/etc/.doas.conf.Zq46Xy
: >"$stale" && touch -d '1 hour ago' "$stale"
prefix_unlock "$prefix"
trap 'rm -rf "$work"; rm -f "$stale"' EXIT
mkdir -p "$work/esc-out" && : >"$work/esc-out/.results.json.Zq46Xy" &&
	touch -d '1 hour ago' "$work/esc-out/.results.json.Zq46Xy"
run escrun "$rarbench" --manifest "$work/esc.json" --prefix "$prefix" --wait --out "$work/esc-out" --progress none
rc=$?
check "finding 7: the run: exit 0, no ESC byte in its stdout or stderr" \
	sh -c "[ $rc -eq 0 ] && ! grep -q '$esc' '$work/escrun.out' '$work/escrun.err'" || sed 's/^/    /' "$work/escrun.err"
check "finding 7: the skipped subject's reason is shown escaped" grep -q 'skipping subject ghost: .*no-such-.x1b\[2J' "$work/escrun.err"
check "finding 8: the killed write's temporaries are gone (PREFIX/etc and the output), and said so" \
	sh -c "[ ! -e '$stale' ] && [ ! -e '$work/esc-out/.results.json.Zq46Xy' ] &&
		grep -q 'removed 1 temporary file(s) that a killed write left in $prefix/etc' '$work/escrun.err'"
run escbar "$rarbench" --manifest "$work/esc.json" --prefix "$prefix" --wait --out "$work/esc-bar" --progress bar
rc=$?
check "finding 7: with the progress bar, its own ESC[K is the only escape" \
	sh -c "[ $rc -eq 0 ] && ! tr -d '\r' <'$work/escbar.err' | sed 's/${esc}\[K//g' | grep -q '$esc'"

# --- finding 8: RARPERF_STRACE is run as root only when it is root's ---------------------------
as_user "printf '#!/bin/sh\nid >$u/ran\nexit 1\n' >$u/strace && chmod 0755 $u/strace"
manifest prof '[{"id":"doas","format":"doas"}]' '"profile": true,'
RARPERF_STRACE=$u/strace rb strace "$rarbench" --manifest "$work/prof.json" --prefix "$prefix" \
	--out "$work/strace-out" --progress none
check "RARPERF_STRACE written by the bench user (manifest): exit 2, one line naming it, never run" \
	refused strace $? "RARPERF_STRACE: $u/strace is not root's alone"
RARPERF_STRACE=$u/strace rb plainstrace "$rarbench" --profile -N -r 2 /usr/bin/true
check "RARPERF_STRACE written by the bench user (plain --profile): exit 2, one line, never run" \
	refused plainstrace $? "RARPERF_STRACE: $u/strace is not root's alone"
tap_status
