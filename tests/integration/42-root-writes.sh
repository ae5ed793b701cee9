#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# Where the shell tools write as root (issue 52 finding 4, doc/security.md R34): a KEEP directory
# (REG_KEEP, RAR_BISECT_KEEP, CMP_KEEP, ...) is made by the script or root's along its whole path,
# never a directory another user made (links placed there made root overwrite a root file), and
# no tool writes a fixed name in /tmp (tools/rar-judge.sh's 2>/tmp/rarcheck.err). Needs root (the
# other user's directories are made for it) and no prefix; nothing it runs measures anything.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/tap.sh

[ "$(id -u)" -eq 0 ] || {
	echo "needs root # SKIP"
	exit 77
}
need runuser unshare stat jq
other=nobody
ouid=$(id -u "$other")
work=$(mktemp -d /var/tmp/rarperf-it-rootw-XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 0755 "$work"
. tools/lib/keepdir.sh

# --- the helper itself --------------------------------------------------------------------------
d=$(keepdir_make X "$work/new/deeper" 2>"$work/err")
check "keepdir_make: a missing path is made, each new directory 0700 and root's" \
	sh -c "[ '$d' = '$work/new/deeper' ] && [ \"\$(stat -c '%a %u' '$work/new' '$work/new/deeper' | sort -u)\" = '700 0' ]"
install -d -m 0755 "$work/rootdir"
check "keepdir_make: an existing directory root's along its whole path is taken" \
	sh -c ". tools/lib/keepdir.sh && [ \"\$(keepdir_make X '$work/rootdir')\" = '$work/rootdir' ]"
install -d -o "$other" -m 0755 "$work/theirs"
keepdir_make X_KEEP "$work/theirs" >/dev/null 2>"$work/err"
rc=$?
check "keepdir_make: another user's directory: exit 1, one line naming the variable and the owner" \
	sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q '^X_KEEP: $work/theirs: is owned by uid $ouid' '$work/err'"
keepdir_make X_KEEP "$work/theirs/sub" >/dev/null 2>"$work/err"
check "keepdir_make: a new directory under another user's: refused, nothing made" \
	sh -c "[ ! -e '$work/theirs/sub' ] && grep -q 'theirs: is owned by uid $ouid' '$work/err'"
ln -s "$work/rootdir" "$work/link"
check "keepdir_make: a symbolic link on the way: refused" \
	sh -c ". tools/lib/keepdir.sh; ! keepdir_make X '$work/link/a' 2>'$work/err' && grep -q 'link: is a symbolic link' '$work/err' && [ ! -e '$work/rootdir/a' ]"
install -d -m 0775 "$work/groupw"
check "keepdir_make: a group-writable directory: refused" \
	sh -c ". tools/lib/keepdir.sh; ! keepdir_make X '$work/groupw' 2>'$work/err' && grep -q 'writable by group or others (mode 775)' '$work/err'"
check "keepdir_make: /tmp itself (sticky, open to all): refused; a new name in it is made" \
	sh -c ". tools/lib/keepdir.sh; ! keepdir_make X /tmp 2>/dev/null && n=\$(keepdir_make X /tmp/rarperf-it-rootw-\$\$) && [ \"\$(stat -c %U \"\$n\")\" = root ] && rmdir \"\$n\""
check "keepdir_make: a path with '..': refused" \
	sh -c ". tools/lib/keepdir.sh; ! keepdir_make X '$work/rootdir/../theirs' 2>'$work/err' && grep -q \"holds '..'\" '$work/err'"

# --- the recipe: REG_KEEP, another user's directory with links to root's files ------------------
printf 'root secret\n' >"$work/rootfile" && chmod 0600 "$work/rootfile"
install -d -o "$other" -m 0755 "$work/vd-aa"
runuser -u "$other" -- ln -s "$work/rootfile" "$work/vd-aa/aa.json"
runuser -u "$other" -- ln -s "$work/created-by-root" "$work/vd-aa/aa-1.log"
# REG_REPEATS=0: no sweep runs whatever the build; the manifest is written first (before c521d07's
# fix, through the link).
REG_MODES=aa REG_REPEATS=0 REG_KEEP=$work/vd-aa bash selfbench/regression.sh >"$work/reg.out" 2>"$work/reg.err"
rc=$?
check "REG_KEEP another user's directory: exit 2, one line naming REG_KEEP and the owner" \
	sh -c "[ $rc -eq 2 ] && [ \$(cat '$work/reg.out' '$work/reg.err' | wc -l) -eq 1 ] && grep -q '^REG_KEEP: $work/vd-aa: is owned by uid $ouid' '$work/reg.err'" ||
	sed 's/^/    /' "$work/reg.err"
check "REG_KEEP: root's 0600 file behind the link is unchanged, nothing created through a link" \
	sh -c "[ \"\$(cat '$work/rootfile')\" = 'root secret' ] && [ ! -e '$work/created-by-root' ]"

# RAR_BISECT_KEEP the same (no argument: before the fix, a usage message after the mkdir).
RAR_BISECT_KEEP=$work/vd-aa bash tools/rar-bisect.sh >"$work/bis.out" 2>"$work/bis.err"
rc=$?
check "RAR_BISECT_KEEP another user's directory: exit 2, one line naming RAR_BISECT_KEEP" \
	sh -c "[ $rc -eq 2 ] && [ \$(cat '$work/bis.out' '$work/bis.err' | wc -l) -eq 1 ] && grep -q '^RAR_BISECT_KEEP: $work/vd-aa: is owned by uid' '$work/bis.err'" ||
	sed 's/^/    /' "$work/bis.err"

# rar-judge.sh: SETTINGS in another user's directory (confgen --force writes it as root).
BENCH_USER=$other bash tools/rar-judge.sh /bin/true json "$work/theirs/rar.json" - 3.3.4 >"$work/judge.out" 2>"$work/judge.err"
rc=$?
check "rar-judge.sh SETTINGS in another user's directory: exit 2, one line naming SETTINGS" \
	sh -c "[ $rc -eq 2 ] && [ \$(cat '$work/judge.out' '$work/judge.err' | wc -l) -eq 1 ] && grep -q '^SETTINGS: $work/theirs: is owned by uid' '$work/judge.err'" ||
	sed 's/^/    /' "$work/judge.err"
# ... and in a directory of root's: it writes no fixed name in /tmp (a private, empty one here).
if [ -x bin/confgen ]; then
	BENCH_USER=$other unshare --mount --propagation private -- sh -c '
		mount -t tmpfs -o mode=1777 rp42 /tmp || exit 99
		bash tools/rar-judge.sh /bin/true json "$1/rootdir/rar.json" - 3.3.4 >/dev/null 2>&1
		ls -A /tmp' rp42 "$work" >"$work/judge.tmp"
	check "rar-judge.sh: nothing left in /tmp (its stderr file is in a directory it made)" \
		sh -c "[ ! -s '$work/judge.tmp' ]" || sed 's/^/    left: /' "$work/judge.tmp"
else
	ok "rar-judge.sh's /tmp: bin/confgen not built # SKIP"
fi

# --- every KEEP variable of the shell tools goes through the helper -----------------------------
missing=
for f in selfbench/*.sh tools/*.sh; do
	for v in $(grep -o '\b[A-Z_]*_KEEP\b' "$f" | sort -u); do
		# read as ${V:-} or $V somewhere: the script must hand it to keepdir_make by name
		grep -q "\\\${\\?$v\\b" "$f" || continue
		grep -q "keepdir_make $v " "$f" || missing="$missing $f:$v"
	done
done
check "every *_KEEP directory of selfbench/ and tools/ is checked by keepdir_make (R34)" \
	[ -z "$missing" ] || echo "    not checked:$missing"
tap_status
