#!/bin/bash
# dev-sandbox.sh: runs a command on a copy of a developer's source tree as a throwaway account,
# never as root. A tree is untrusted (doc/security.md, "A developer's tree never runs as root"):
# its .git/config (core.fsmonitor, filters, hooks), its build.rs, .cargo/config.toml, configure
# and Makefile are the tree owner's code.
#
#   dev-sandbox.sh [--rust] [--keep DIR] SRC WORK -- COMMAND [ARG...]
#
# WORK (made afresh, root's, 0711) gets src/: SRC's directories, regular files and symbolic links
# (never a device, FIFO or socket; without SRC's top-level target/), written by the account, and
# home/, the account's HOME. COMMAND runs as that account in src/ with a fixed environment (PATH,
# HOME, LANG=C, and the DEV_SANDBOX_* variables given to this script), in a private mount and
# PID namespace, so nothing it starts outlives it. --keep DIR: DIR (a directory root made) is
# given to the account for the command (a cache kept between builds of the same tree).
# --rust: the account sees /root/.rustup read-only and a private copy of /root/.cargo at the same
# paths (tmpfs over /root): its registry cache works offline, and the paths cargo bakes into a
# binary are those of a release built by root, so the two builds differ only in their sources.
# The account (rarperf-sb-PID, its own group, no supplementary group, no shell, no home, no sudo)
# is created for the command and removed after it, on every path; then WORK, and DIR, are made
# root's (chown -h: links are not followed) and nobody else's to write, so root copies what was
# built from a tree nobody else can change. Exit: COMMAND's status; 125 when the sandbox could not
# be set up (one line on stderr).
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
[ "$(id -u)" -eq 0 ] || { echo "dev-sandbox.sh: needs root (it creates the account)" >&2; exit 125; }
[ -d "$src" ] || { echo "dev-sandbox.sh: $src: no such directory" >&2; exit 125; }
case $work in /*) ;; *) echo "dev-sandbox.sh: $work: an absolute path" >&2; exit 125 ;; esac

user=rarperf-sb-$$
# Accounts a killed run left (their creator's pid gone): removed first.
for u in $(getent passwd | cut -d: -f1 | grep '^rarperf-sb-[0-9]*$' || true); do
	kill -0 "${u#rarperf-sb-}" 2>/dev/null || userdel "$u" 2>/dev/null || true
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
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	if getent passwd "$user" >/dev/null; then
		# The PID namespace died with its first process: nothing of the account is left to run.
		userdel "$user" 2>/dev/null || { sleep 1; userdel "$user"; } || echo "dev-sandbox.sh: could not remove the account $user" >&2
	fi
	seal "$work" "$keep"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tries=0
until useradd --system --user-group --no-create-home --home-dir /nonexistent \
	--shell /usr/sbin/nologin "$user" 2>/dev/null; do
	# /etc/passwd is locked by another useradd: a bounded wait.
	tries=$((tries + 1))
	[ "$tries" -lt 20 ] || { echo "dev-sandbox.sh: could not create the account $user" >&2; exit 125; }
	sleep 0.5
done
uid=$(id -u "$user") gid=$(id -g "$user")

rm -rf "$work"
mkdir -p "$(dirname "$work")"
mkdir -m 0711 "$work"
install -d -m 0700 -o "$uid" -g "$gid" "$work/src" "$work/home"
[ -z "$keep" ] || { mkdir -p "$keep" && chown -R -h "$uid:$gid" "$keep"; }

as_user() { setpriv --reuid="$uid" --regid="$gid" --clear-groups --no-new-privs \
	--inh-caps=-all --bounding-set=-all -- "$@"; }

# The copy: root reads (tar never follows a link, and reads only what find listed as a directory,
# a file or a link; a timeout for a file swapped for a FIFO meanwhile), the account writes.
(cd "$src" && find . -path ./target -prune -o \( -type d -o -type f -o -type l \) -print0 |
	timeout 600 tar --null --no-recursion -T - -cf -) |
	as_user tar -C "$work/src" --no-same-owner --no-same-permissions -xf - ||
	{ echo "dev-sandbox.sh: could not copy $src" >&2; exit 125; }

if $rust; then
	# Without the extracted sources (cargo unpacks them again from its cache) and without
	# root's registry tokens.
	install -d -m 0700 -o "$uid" -g "$gid" "$work/cargo"
	if [ -d /root/.cargo ]; then
		(cd /root/.cargo && tar --exclude=./registry/src --exclude='./credentials*' -cf - .) |
			as_user tar -C "$work/cargo" -xf - ||
			{ echo "dev-sandbox.sh: could not copy /root/.cargo" >&2; exit 125; }
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
# The namespace's script runs as root until setpriv: it mounts only inside the namespace.
DS_WORK=$work DS_RUST=$rust DS_UID=$uid DS_GID=$gid \
	unshare --mount --propagation private --pid --fork --kill-child -- bash -c '
	set -eu
	if [ "$DS_RUST" = true ]; then
		[ ! -d /root/.rustup ] || mount --bind -o ro /root/.rustup "$DS_WORK/rustup"
		mount -t tmpfs -o mode=0755,size=1m tmpfs /root
		mkdir /root/.cargo /root/.rustup
		mount --bind "$DS_WORK/rustup" /root/.rustup
		mount --bind "$DS_WORK/cargo" /root/.cargo
	fi
	cd "$DS_WORK/src"
	exec setpriv --reuid="$DS_UID" --regid="$DS_GID" --clear-groups --no-new-privs \
		--inh-caps=-all --bounding-set=-all -- env -i "$@"' dev-sandbox "${env_args[@]}" "$@" || rc=$?
exit "$rc"
