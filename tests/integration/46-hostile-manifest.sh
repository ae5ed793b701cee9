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

# --- issue 45: the environment, the mount point, the account, the trace's mode -----------------
# The bench user's library: its constructor appends who loaded it, and as which program, to
# $u/ran (any process that loads it as root says ruid=0 or euid=0 there).
if command -v cc >/dev/null; then
	as_user "cat >$u/evil.c <<'C'
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void evil(void)
{
	uid_t r, e, s;
	char exe[256] = \"\";
	FILE *f = fopen(\"$u/ran\", \"a\");

	getresuid(&r, &e, &s);
	if (readlink(\"/proc/self/exe\", exe, sizeof(exe) - 1) < 0)
		exe[0] = 0;
	if (f != NULL)
		fprintf(f, \"ruid=%u euid=%u exe=%s\\n\", r, e, exe), fclose(f);
}
C
cc -shared -fPIC -o $u/evil.so $u/evil.c"
fi
if [ -f "$u/evil.so" ]; then
	# Finding 1 as written: the library in env, traced by root's strace.
	manifest envld '[{"id":"t","format":"doas","program":"/usr/bin/true"}]' \
		"\"profile\": true, \"profile_budget\": 0, \"env\": [\"PATH=/usr/bin:/bin\", \"LD_PRELOAD=$u/evil.so\"],"
	rb envlddry "$rarbench" --manifest "$work/envld.json" --prefix "$prefix" --dry-run
	check "issue 45 finding 1: LD_PRELOAD in env, --dry-run: exit 2, one line naming \$.env[1]; nothing loaded it" \
		refused envlddry $? 'envld.json: \$\.env\[1\]: LD_PRELOAD is not allowed (a manifest.s env may set only PATH'
	rb envld "$rarbench" --manifest "$work/envld.json" --prefix "$prefix" --out "$work/envld-out" --progress none
	check "issue 45 finding 1: the run: exit 2, the same line; nothing loaded it, no output" \
		refused envld $? 'envld.json: \$\.env\[1\]: LD_PRELOAD is not allowed'
	# Finding 2 as written: a RootAsRole policy shown as the loader's preload list, from a
	# working directory of the bench user's holding '"/usr/bin/true"' (the policy's first
	# quoted word, read by ld.so as a path relative to it) as a copy of the library.
	rar=
	for t in dosr-json dosr-4.2.0-json dosr-4.0.3-json; do
		if jq -e --arg t "$t" '.tools[$t].present == true' "$prefix/facts.json" >/dev/null; then
			rar=$t
			break
		fi
	done
	as_user "mkdir -p '$u/cwd/\"/usr/bin' && cp $u/evil.so '$u/cwd/\"/usr/bin/true\"'"
	if [ -n "$rar" ]; then
		ver=$(jq -r --arg t "$rar" '.tools[$t].version' "$prefix/facts.json")
		manifest preload "[{\"id\":\"r\",\"format\":\"rar-json\",\"program\":\"{prefix}/bin/$rar\",\"rar_version\":\"$ver\",
 \"policy\":$(jq --arg t "$rar" '.tools[$t].settings' "$prefix/facts.json"),\"policy_mount_at\":\"/etc/ld.so.preload\"}]" \
			"\"cwd\": \"$u/cwd\","
		rb preloaddry "$rarbench" --manifest "$work/preload.json" --prefix "$prefix" --dry-run
		check "issue 45 finding 2: policy_mount_at /etc/ld.so.preload, --dry-run: exit 2, one line naming the field and where $rar reads its policy" \
			refused preloaddry $? "preload.json: \$\.subjects\[0\]\.policy_mount_at: /etc/ld.so.preload is not where .*/bin/$rar reads its policy (facts.json: "
		rb preload "$rarbench" --manifest "$work/preload.json" --prefix "$prefix" --out "$work/preload-out" --progress none
		check "issue 45 finding 2: the run: exit 2, the same line; nothing loaded the library, no output" \
			refused preload $? "\$\.subjects\[0\]\.policy_mount_at: /etc/ld.so.preload is not where"
	else
		ok "issue 45 finding 2: no RootAsRole JSON build in $prefix # SKIP"
	fi
	# The same path for sudo-rs, whose own path is /etc/sudoers-rs.
	manifest preloadrs '[{"id":"rs","format":"sudoers","program":"{prefix}/bin/sudo-rs","policy":"{prefix}/etc/sudoers-rs","policy_mount_at":"/etc/ld.so.preload","sudoers_layout":"per-task"}]' \
		"\"cwd\": \"$u/cwd\","
	rb preloadrs "$rarbench" --manifest "$work/preloadrs.json" --prefix "$prefix" --dry-run
	check "issue 45 finding 2: sudo-rs's policy at /etc/ld.so.preload: exit 2, facts.json's /etc/sudoers-rs named" \
		refused preloadrs $? 'policy_mount_at: /etc/ld.so.preload is not where .*sudo-rs reads its policy (facts.json: /etc/sudoers-rs)'
else
	ok "issue 45 findings 1 and 2: no C compiler to build the bench user's library # SKIP"
fi
rm -f "$u/ran"

# Finding 1, the tracer's side: with variables the allow-list takes, the traced run sees exactly
# the timed runs' environment (strace hands it over with -E; its own is fixed).
probe="grep -q '^TracerPid:[[:space:]]*0\$' /proc/self/status && w=timed || w=traced; tr '\\0' '\\n' </proc/\$\$/environ >$u/env-\$w; exit 0"
manifest envtr "[{\"id\":\"sh\",\"format\":\"doas\",\"program\":\"/bin/sh\",\"args\":[\"-c\",$(jq -Rn --arg s "$probe" '$s')]}]" \
	'"profile": true, "env": ["PATH=/usr/bin:/bin", "LANG=C", "TZ=UTC0"],'
run envtr "$rarbench" --manifest "$work/envtr.json" --prefix "$prefix" --wait --out "$work/envtr-out" --progress none
rc=$?
check "issue 45 finding 1: traced and timed runs get the same environment, the manifest's, no more" \
	sh -c "[ $rc -eq 0 ] && [ -s '$u/env-traced' ] && cmp -s '$u/env-timed' '$u/env-traced' &&
		grep -qx TZ=UTC0 '$u/env-traced' && ! grep -q '^LD_' '$u/env-traced'" ||
	{ sed 's/^/    /' "$work/envtr.err"; diff "$u/env-timed" "$u/env-traced" | sed 's/^/    /'; }

# Finding 3: another account of the host, in the run and in the dry run (issue 46: "nobody").
install -d -m 1777 "$work/any"
manifest acct "[{\"id\":\"sh\",\"format\":\"doas\",\"program\":\"/bin/sh\",\"args\":[\"-c\",\"id >>$work/any/ran\"]}]"
jq '.bench_user = "daemon"' "$work/acct.json" >"$work/daemon.json"
rb daemon "$rarbench" --manifest "$work/daemon.json" --prefix "$prefix" --out "$work/daemon-out" --progress none
check "issue 45 finding 3: bench_user daemon: exit 2, one line naming \$.bench_user and the prefix's" \
	refused daemon $? "daemon.json: \$\.bench_user: \"daemon\" is not the prefix's bench user (facts.json: \"$user\")"
rb daemondry "$rarbench" --manifest "$work/daemon.json" --prefix "$prefix" --dry-run
check "issue 45 finding 3: ... and its --dry-run: exit 2, the same line" \
	refused daemondry $? '\$\.bench_user: "daemon" is not the prefix.s bench user'
jq '.bench_user = "nobody"' "$work/acct.json" >"$work/nobody.json"
rb nobodydry "$rarbench" --manifest "$work/nobody.json" --prefix "$prefix" --dry-run
check "issue 46: bench_user nobody, --dry-run: exit 2, one line naming \$.bench_user" \
	refused nobodydry $? '\$\.bench_user: "nobody" is not the prefix.s bench user'
check "issue 45 finding 3: nothing ran as another account" [ ! -e "$work/any/ran" ]

# Finding 7: the manifest's umask 000 and the profile: while strace writes the trace, it is root's
# and 0600 (the subject, as the bench user, stats it; its timed runs find none).
probe="stat -c '%a %U' $work/umask-out/profile/trace >>$u/trace-mode 2>/dev/null; exit 0"
manifest umask "[{\"id\":\"sh\",\"format\":\"doas\",\"program\":\"/bin/sh\",\"args\":[\"-c\",$(jq -Rn --arg s "$probe" '$s')]}]" \
	'"profile": true, "umask": "000",'
run umask "$rarbench" --manifest "$work/umask.json" --prefix "$prefix" --wait --out "$work/umask-out" --progress none
rc=$?
check "issue 45 finding 7: umask 000 with the profile: the trace is 0600 root's while strace writes it" \
	sh -c "[ $rc -eq 0 ] && [ -s '$u/trace-mode' ] && ! grep -vqx '600 root' '$u/trace-mode'" ||
	{ sed 's/^/    /' "$work/umask.err"; sed 's/^/    mode: /' "$u/trace-mode"; }
check "issue 45 finding 7: no trace left in the output" [ ! -e "$work/umask-out/profile/trace" ]

# The profile's strace takes a set-user-ID bit from the program's path as root: never with a
# program another user can change.
manifest progprof "[{\"id\":\"mine\",\"format\":\"doas\",\"program\":\"$u/evil.sh\",\"unsafe_program\":true}]" '"profile": true,'
rb progprof "$rarbench" --manifest "$work/progprof.json" --prefix "$prefix" --dry-run
check "a bench user's program with unsafe_program and profile: exit 2, one line naming \$.subjects[0].program" \
	refused progprof $? '\$\.subjects\[0\]\.program: .*"profile" traces it as root.*not with "unsafe_program"'

# A further round against R1-R26: a path through /proc means what the opener makes of it. With
# the manifest's cwd deep in the bench user's tree, /proc/self/cwd/../.. named the prefix's own
# PAM directory to rarbench's checks (its cwd is root's) and the bench user's copy to the
# set-user-ID tool, which resolves /etc/pam.d's links from the manifest's cwd: root. The same
# for a program through /proc/self/cwd (root's strace runs there) and through /dev/fd.
deep=$u/deep
as_user "mkdir -p $deep/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19/20"
up=$(printf '../%.0s' $(seq 1 30))
manifest pamproc "[{\"id\":\"sp\",\"format\":\"sudoers\",\"program\":\"{prefix}/bin/sudo-pam\",\"pam\":\"/proc/self/cwd/${up}${prefix#/}/share/rarperf/pam.d\",\"unsafe_pam\":true}]" \
	"\"cwd\": \"$deep/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19/20\","
rb pamproc "$rarbench" --manifest "$work/pamproc.json" --prefix "$prefix" --dry-run
check "a PAM directory through /proc/self/cwd (unsafe_pam or not): --dry-run exits 2, one line naming \$.subjects[0].pam" \
	refused pamproc $? '\$\.subjects\[0\]\.pam: /proc/self/cwd/.* goes through /proc'
manifest progproc "[{\"id\":\"id\",\"format\":\"doas\",\"program\":\"/proc/self/cwd/${up}usr/bin/id\",\"unsafe_program\":true}]" \
	"\"cwd\": \"$deep\", \"profile\": true,"
rb progproc "$rarbench" --manifest "$work/progproc.json" --prefix "$prefix" --out "$work/progproc-out" --progress none
check "a program through /proc/self/cwd (unsafe_program or not): exit 2, one line naming \$.subjects[0].program" \
	refused progproc $? '\$\.subjects\[0\]\.program: /proc/self/cwd/.* goes through /proc'
manifest progfd "[{\"id\":\"id\",\"format\":\"doas\",\"program\":\"/dev/fd/../cwd/${up}usr/bin/id\"}]"
rb progfd "$rarbench" --manifest "$work/progfd.json" --prefix "$prefix" --dry-run
check "a program through /dev/fd (a link into /proc): --dry-run exits 2, one line naming \$.subjects[0].program" \
	refused progfd $? '\$\.subjects\[0\]\.program: /dev/fd/.* goes through /proc'
manifest selfmount "[{\"id\":\"doas\",\"format\":\"doas\",\"policy_mount_at\":\"$prefix/etc/doas.conf\"}]"
rb selfmount "$rarbench" --manifest "$work/selfmount.json" --prefix "$prefix" --dry-run
check "policy_mount_at where the policy is written already: --dry-run exits 2, one line (shown over itself it loops)" \
	refused selfmount $? '\$\.subjects\[0\]\.policy_mount_at: .*is where the policy is written already'
rm -f "$u/ran"

# --- issue 52 finding 5: root's strace ran with the manifest's limits and cwd -------------------
# As written: core unlimited and a file size limit, a root-only cwd, the profile, a subject long
# enough to be traced; strace (root) passed the file size limit writing the trace and dumped a
# root core file into that directory. Now "core" may only be 0 (every child has core files off).
install -d -m 0700 "$work/rootonly"
manifest core '[{"id":"dd","format":"doas","program":"/usr/bin/dd","args":["if=/dev/zero","of=/dev/null","bs=1","count=600000"]}]' \
	"\"profile\": true, \"profile_budget\": 0, \"limits\": {\"core\": \"unlimited\", \"fsize\": 16777216}, \"cwd\": \"$work/rootonly\","
rb core "$rarbench" --manifest "$work/core.json" --prefix "$prefix" --out "$work/core-out" --progress none
check "issue 52 finding 5 as written (core unlimited, fsize, a root-only cwd, profile, dd): exit 2, one line naming \$.limits.core" \
	refused core $? 'core.json: \$\.limits\.core: only 0'
# Without "core": the run is harmless. strace keeps root's limits (no core file, no file size
# limit: the trace outgrows the manifest's 1 MiB) and /; the traced program alone has the
# manifest's limits (it reads its own and its tracer's /proc/PID/limits).
probe="tp=\$(sed -n 's/^TracerPid:[[:space:]]*//p' /proc/self/status); [ \"\$tp\" = 0 ] && exit 0;
(grep -E '^Max (file size|core file size) ' /proc/\$tp/limits; grep -E '^Max (file size|core file size) ' /proc/\$\$/limits) | tr -s ' ' | sed 's/ \$//' >$u/limits;
dd if=/dev/zero of=/dev/null bs=1 count=100000 2>/dev/null; exit 0"
manifest core2 "[{\"id\":\"sh\",\"format\":\"doas\",\"program\":\"/bin/sh\",\"args\":[\"-c\",$(jq -Rn --arg s "$probe" '$s')]}]" \
	"\"profile\": true, \"profile_budget\": 0, \"limits\": {\"fsize\": 1048576}, \"cwd\": \"$work/rootonly\","
run core2 "$rarbench" --manifest "$work/core2.json" --prefix "$prefix" --wait --out "$work/core2-out" --progress none
rc=$?
check "issue 52 finding 5 without core: exit 0, the subject traced in full (status ok)" \
	sh -c "[ $rc -eq 0 ] && jq -e '[.results[].profile.status] | all(. == \"ok\")' '$work/core2-out/results.json' >/dev/null" ||
	sed 's/^/    /' "$work/core2.err"
# rarbench (and so strace) inherits this shell's limits: its file size limit, its hard core limit.
lim() { prlimit --pid $$ --raw --noheadings -o "$2" "--$1"; }
printf 'Max file size %s %s bytes\nMax core file size 0 %s bytes\nMax file size 1048576 1048576 bytes\nMax core file size 0 0 bytes\n' \
	"$(lim fsize SOFT)" "$(lim fsize HARD)" "$(lim core HARD)" >"$work/limits-want"
check "issue 52 finding 5: strace kept this shell's file size limit and had no core file; the traced program the manifest's fsize and core 0" \
	cmp -s "$work/limits-want" "$u/limits" || diff "$work/limits-want" "$u/limits" | sed 's/^/    /'
check "issue 52 finding 5: no core file anywhere in the cwd, the output or the test's directories" \
	sh -c "[ -z \"\$(find '$work' -type f \\( -name core -o -name 'core.[0-9]*' \\))\" ] && [ ! -e /core ]"
rm -f "$u/ran"
tap_status
