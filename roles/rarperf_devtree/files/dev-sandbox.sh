#!/bin/bash
# dev-sandbox.sh: runs a command on a copy of a developer's source tree as a throwaway account,
# never as root. A tree is untrusted (doc/security.md, "A developer's tree never runs as root"):
# its .git/config (core.fsmonitor, filters, hooks), its build.rs, .cargo/config.toml, configure
# and Makefile are the tree owner's code.
#
#   dev-sandbox.sh [--rust] [--keep DIR] SRC WORK -- COMMAND [ARG...]
#
# WORK (made afresh, root's, 0711) gets src/: SRC's directories, regular files and symbolic links
# (never a device, FIFO or socket; without SRC's top-level target/), and home/, the account's
# HOME. The copy is read by SRC's owner, never by root in a tree someone else may change (R29):
# SRC's owner lists and reads it (root only for a tree that is root's throughout, as the
# probe's sealed copies are), and the account writes it. Every path from / to SRC is its
# owner's or root's (else exit 125, one line).
# COMMAND runs as that account in src/ with a fixed environment (PATH, HOME, LANG=C, and the
# DEV_SANDBOX_* variables given to this script), in a private mount, PID (its own /proc) and IPC
# namespace, so nothing it starts outlives it and it sees no process but its own; there every
# mount is read-only but WORK, DIR and a private /tmp, /var/tmp and /dev/shm (R30): the account
# leaves nothing anywhere but WORK and DIR. --keep DIR: DIR (a directory root made) is given to
# the account for the command (a cache kept between builds of the same tree).
# --rust: the account sees /root/.rustup read-only and a private copy of /root/.cargo at the same
# paths (tmpfs over /root): its registry cache works offline, and the paths cargo bakes into a
# binary are those of a release built by root, so the two builds differ only in their sources.
# The account (rarperf-sb-PID, its own group, no supplementary group, no shell, no home, no sudo)
# is created for the command and removed after it, on every path; its uid and gid were never
# handed out before (R30: a counter of root's that only increases, /var/lib/rarperf/sandbox-ids).
# Then WORK, and DIR, are made root's (chown -h: links are not followed; the chown clears set-ID
# bits) and nobody else's to write, so root copies what was built from a tree nobody else can
# change. Exit: COMMAND's status; 125 when the sandbox could not be set up (one line on stderr).
set -euo pipefail
rust=false keep=''
while [ $# -gt 0 ]; do
	case $1 in
	--rust) rust=true; shift ;;
	--keep) keep=$2; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 4 ] && [ "$3" = -- ] || { echo "usage: dev-sandbox.sh [--rust] [--keep DIR] SRC WORK -- COMMAND..." >&2; exit 125; }
src=$1 work=$2
shift 3
die() { echo "dev-sandbox.sh: $*" >&2; exit 125; }
[ "$(id -u)" -eq 0 ] || die "needs root (it creates the account)"
[ -d "$src" ] || die "$src: no such directory"
case $work in /*) ;; *) die "$work: an absolute path" ;; esac
# A hard link the account made to a file of root's would be chowned by the seal below.
[ "$(cat /proc/sys/fs/protected_hardlinks 2>/dev/null)" = 1 ] ||
	die "fs.protected_hardlinks is not 1: the account could link root's files into its copy"

# Descriptors the caller holds (a lock, a log) are not the account's nor the reader's: only 0, 1
# and 2 go on (bash's own script descriptor closes at exec).
for fd in $(ls /proc/$$/fd); do
	case $fd in 0 | 1 | 2 | 255) ;; *) eval "exec $fd>&-" 2>/dev/null || true ;; esac
done

# Who reads SRC (R29): its owner; root only when SRC is root's throughout. Every directory on the
# way from / is root's or the owner's and, if others may write it, sticky (a name in it is then
# its owner's to rename): nobody else can put another directory at SRC's path.
src=$(realpath -e -- "$src")
read -r ouid ogid devino < <(stat -c '%u %g %d:%i' -- "$src")
p=$src
while [ "$p" != / ]; do
	p=$(dirname -- "$p")
	read -r u m < <(stat -c '%u %a' -- "$p")
	[ "$u" -eq 0 ] || [ "$u" -eq "$ouid" ] ||
		die "$src: $p is owned by uid $u, neither root nor the tree's owner (uid $ouid)"
	if (((8#$m & 8#022) != 0 && (8#$m & 8#1000) == 0)); then
		die "$src: $p is writable by others"
	fi
done
if [ "$ouid" -eq 0 ]; then
	# Root reads it: only if nobody else may change a directory in it (a directory swapped for a
	# link between find and tar would make root read through it).
	bad=$(find "$src" -path "$src/target" -prune -o -type d \( ! -uid 0 -o -perm /022 \) -print -quit)
	[ -z "$bad" ] || die "$src: $bad is not root's alone (owned by uid $(stat -c %u -- "$bad"), mode $(stat -c %a -- "$bad")): give the tree to its developer (chown -R) or make it root's throughout"
	reader=()
else
	groups=--clear-groups
	[ -z "$(getent passwd "$ouid" | cut -d: -f1)" ] || groups=--init-groups
	reader=(setpriv --reuid="$ouid" --regid="$ogid" "$groups" --no-new-privs --inh-caps=-all --bounding-set=-all --)
fi

user=rarperf-sb-$$
# Accounts a killed run left (their creator's pid gone): removed first.
for u in $(getent passwd | cut -d: -f1 | grep '^rarperf-sb-[0-9]*$' || true); do
	kill -0 "${u#rarperf-sb-}" 2>/dev/null || { userdel "$u" 2>/dev/null; groupdel "$u" 2>/dev/null; } || true
done

# seal DIR...: root's, nobody else's to write; links themselves, never what they name.
seal() {
	local d
	for d in "$@"; do
		[ -n "$d" ] && [ -d "$d" ] || continue
		chown -R -h root:root "$d"
		find "$d" ! -type l -perm /022 -exec chmod go-w {} +
	done
}
created=false
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if $created; then
		# The PID namespace died with its first process: nothing of the account is left to run.
		if getent passwd "$user" >/dev/null; then
			userdel "$user" 2>/dev/null || { sleep 1; userdel "$user"; } || echo "dev-sandbox.sh: could not remove the account $user" >&2
		fi
		! getent group "$user" >/dev/null || groupdel "$user" 2>/dev/null || true
	fi
	seal "$work" "$keep"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The account's id (R30): never one handed out before. The next of a counter of root's that only
# increases, in a range of its own (0x70000000-0x7ffdffff: above systemd-nspawn's and below
# systemd's "foreign" range and the sign bit), skipping any id /etc/passwd, /etc/group, a
# subordinate range (/etc/subuid, /etc/subgid) or a file on the root file system has. The file
# system is searched 256 ids at a time (3.4 s on the bench machine), the counter file keeping how
# far: "LAST SEARCHED".
id_min=1879048192 id_max=2147352575
ids=/var/lib/rarperf/sandbox-ids
in_subids() { # ID FILE: ID lies in one of FILE's ranges
	[ -r "$2" ] || return 1
	awk -F: -v id="$1" '$2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+$/ && id >= $2 && id < $2 + $3 { f = 1 } END { exit !f }' "$2"
}
owners='' # the ids of the searched block that own a file (uid or gid)
taken() {
	if [ "$1" -gt "$searched" ]; then
		owners=$(find / -xdev \( \( -uid +$(($1 - 1)) -uid -$(($1 + 256)) \) -o \
			\( -gid +$(($1 - 1)) -gid -$(($1 + 256)) \) \) -printf '%U\n%G\n' 2>/dev/null | sort -un)
		searched=$(($1 + 255))
	fi
	getent passwd "$1" >/dev/null || getent group "$1" >/dev/null || in_subids "$1" /etc/subuid ||
		in_subids "$1" /etc/subgid || grep -qx "$1" <<<"$owners"
}
install -d -m 0755 -o root -g root /var/lib/rarperf
[ ! -L /var/lib/rarperf ] && [ "$(stat -c '%u %a' /var/lib/rarperf)" = '0 755' ] || die "/var/lib/rarperf is not root's alone"
exec 7>>"$ids.lock"
flock -w 120 7 || die "$ids.lock: held for 2 minutes"
line=$(cat "$ids" 2>/dev/null || echo $((id_min - 1)))
read -r last searched <<<"$line"
searched=${searched:-$last}
[[ $last =~ ^[0-9]{1,10}$ ]] && [[ $searched =~ ^[0-9]{1,10}$ ]] && [ "$last" -ge $((id_min - 1)) ] ||
	die "$ids: '$line' is not the last id of the range handed out"
id=$((last + 1))
while [ "$id" -le "$id_max" ] && taken "$id"; do id=$((id + 1)); done
[ "$id" -le "$id_max" ] || die "$ids: the range of throwaway ids is used up"
printf '%s %s\n' "$id" "$searched" >"$ids.new" && mv -f "$ids.new" "$ids"
created=true
groupadd --system -g "$id" "$user" 2>/dev/null &&
	useradd --system -l -u "$id" -g "$id" --no-create-home --home-dir /nonexistent \
		--shell /usr/sbin/nologin "$user" 2>/dev/null || die "could not create the account $user (id $id)"
exec 7>&-
uid=$id gid=$id

rm -rf "$work"
mkdir -p "$(dirname "$work")"
mkdir -m 0711 "$work"
install -d -m 0700 -o "$uid" -g "$gid" "$work/src" "$work/home"
[ -z "$keep" ] || { mkdir -p "$keep" && chown -R -h "$uid:$gid" "$keep"; }

# in_sandbox COMMAND...: COMMAND as the account, in src/, in its namespaces (R30): every mount
# read-only but WORK, DIR and private tmpfs at /tmp, /var/tmp and /dev/shm (nosuid, nodev); for
# --rust, /root a tmpfs with the toolchains read-only and the private cargo home. Root only
# mounts, inside the namespace, until setpriv.
ns_rust=false # the cargo home and toolchains exist for the command only
in_sandbox() {
	DS_WORK=$work DS_KEEP=$keep DS_RUST=$ns_rust DS_UID=$uid DS_GID=$gid \
		unshare --mount --propagation private --pid --fork --kill-child --mount-proc --ipc -- bash -c '
	set -eu
	exec 3<"$DS_WORK"
	[ -z "$DS_KEEP" ] || exec 4<"$DS_KEEP"
	# Every mount read-only (those that are stay as they are; an automount point is never
	# touched, which would mount it).
	while read -r -a f; do
		i=6
		while [ "${f[i]}" != - ]; do i=$((i + 1)); done
		case ,${f[5]},:${f[i+1]} in *,ro,*:* | *:autofs) continue ;; esac
		mp=$(printf "%b" "${f[4]//\\/\\0}")
		mount -o remount,bind,ro -- "$mp"
	done </proc/self/mountinfo
	for d in /tmp /var/tmp /dev/shm; do
		[ ! -d "$d" ] || mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$d"
	done
	# WORK and DIR again where they were, writable (they may lie under /tmp).
	rw() { mkdir -p -- "$2" 2>/dev/null || true
		mount --no-canonicalize --bind "/proc/self/fd/$1" "$2"
		mount -o remount,bind,rw,nosuid,nodev -- "$2"; }
	rw 3 "$DS_WORK"
	[ -z "$DS_KEEP" ] || rw 4 "$DS_KEEP"
	exec 3<&- 4<&-
	if [ "$DS_RUST" = true ]; then
		[ ! -d /root/.rustup ] || mount --bind -o ro /root/.rustup "$DS_WORK/rustup"
		mount -t tmpfs -o mode=0755,size=1m,nosuid,nodev tmpfs /root
		mkdir /root/.cargo /root/.rustup
		mount --bind "$DS_WORK/rustup" /root/.rustup
		mount -o remount,bind,ro /root/.rustup
		mount --bind "$DS_WORK/cargo" /root/.cargo
	fi
	cd "$DS_WORK/src"
	exec setpriv --reuid="$DS_UID" --regid="$DS_GID" --clear-groups --no-new-privs \
		--inh-caps=-all --bounding-set=-all -- env -i "$@"' dev-sandbox "$@"
}

# The copy (R29): SRC's owner reads (after checking it reads the directory root resolved; tar
# never follows a link, and reads only what find listed as a directory, a file or a link; a
# timeout for a file swapped for a FIFO meanwhile), the account writes, in its sandbox.
"${reader[@]}" env -i PATH=/usr/bin:/bin LC_ALL=C bash -c '
	set -euo pipefail
	cd -- "$1"
	[ "$(stat -c %d:%i .)" = "$2" ] || { echo "dev-sandbox.sh: $1 changed while it was copied" >&2; exit 1; }
	find . -path ./target -prune -o \( -type d -o -type f -o -type l \) -print0 |
		timeout 600 tar --null --no-recursion -T - -cf -' dev-sandbox-reader "$src" "$devino" </dev/null |
	in_sandbox PATH=/usr/bin:/bin tar -C "$work/src" --no-same-owner --no-same-permissions -xf - ||
	die "could not copy $src"

if $rust; then
	# Without the extracted sources (cargo unpacks them again from its cache) and without
	# root's registry tokens.
	install -d -m 0700 -o "$uid" -g "$gid" "$work/cargo"
	if [ -d /root/.cargo ]; then
		(cd /root/.cargo && tar --exclude=./registry/src --exclude='./credentials*' -cf - .) |
			in_sandbox PATH=/usr/bin:/bin tar -C "$work/cargo" -xf - ||
			die "could not copy /root/.cargo"
	fi
	mkdir -m 0755 "$work/rustup"
fi

env_args=(PATH=/usr/local/bin:/usr/bin:/bin HOME="$work/home" LANG=C)
while IFS= read -r v; do env_args+=("$v"); done < <(env | grep '^DEV_SANDBOX_[A-Z_]*=' || true)
if $rust; then
	env_args+=(CARGO_HOME=/root/.cargo RUSTUP_HOME=/root/.rustup PATH=/root/.cargo/bin:/usr/local/bin:/usr/bin:/bin)
	[ -z "${RUSTUP_TOOLCHAIN:-}" ] || env_args+=(RUSTUP_TOOLCHAIN="$RUSTUP_TOOLCHAIN")
fi

rc=0
ns_rust=$rust
in_sandbox "${env_args[@]}" "$@" || rc=$?
exit "$rc"
