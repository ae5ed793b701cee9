# keepdir.sh: where a script running as root may write (doc/security.md R34). Sourced (POSIX sh).
#
# A directory a script writes in as root is either one it made itself (keepdir_temp: mktemp -d;
# keepdir_make on a missing path: each missing component made with mkdir -m 0700, which fails on
# a name someone else took first), or one that is root's along its whole path (R18's rule, as
# src/common/trustpath.h has it for rarbench): every component from / is a directory, not a
# symbolic link, owned by root (or by the caller, when the caller is not root) and writable by
# neither its group nor others; a root-owned sticky directory (/tmp) passes on the way, since a
# name in it is its owner's alone, but never as the directory itself. Anything else is refused
# with one line naming the variable, the component at fault and why. Once every component is
# root's, nobody but root can change what the path names, so the check holds after it is made.
#
#   keepdir_make NAME PATH   prints PATH made absolute, after making what is missing of it;
#                            NAME (the variable or argument, e.g. REG_KEEP) names it in errors
#   keepdir_check NAME PATH  the same check of an existing directory, nothing made
#   keepdir_temp PREFIX      mktemp -d /tmp/PREFIX.XXXXXX (0700, new), printed

# The components' owner may be root, or the caller when the caller is not root.
keepdir_uid=$(id -u)

# keepdir_fail NAME PATH WHY: the one line, on stderr; returns 1.
keepdir_fail() {
	printf '%s: %s: %s\n' "$1" "$2" "$3" >&2
	return 1
}

# keepdir_abs PATH: PATH made absolute from the physical working directory; refuses "..".
keepdir_abs() {
	case /$1/ in
	*/../*) return 1 ;;
	esac
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s/%s\n' "$(pwd -P)" "$1" ;;
	esac
}

# keepdir_component NAME PATH LAST: one existing component checked; LAST=1 for the directory
# itself (no sticky exception). 0, or 1 with the line said.
keepdir_component() {
	if [ -L "$2" ]; then
		keepdir_fail "$1" "$2" "is a symbolic link (give the path it leads to, root's along its whole path)"
		return 1
	fi
	[ -d "$2" ] || {
		keepdir_fail "$1" "$2" "is not a directory"
		return 1
	}
	# uid and octal mode; a failed stat reads as another owner.
	set -- "$1" "$2" "$3" $(stat -c '%u %a' -- "$2" 2>/dev/null || echo "? 0")
	if [ "$4" != 0 ] && [ "$4" != "$keepdir_uid" ]; then
		keepdir_fail "$1" "$2" "is owned by uid $4, not root: another user could put links in it (use a new directory, or none: a temporary one)"
		return 1
	fi
	# group or other write (POSIX ACLs granting a named user write show in the group bits)
	if [ $((0$5 & 022)) -ne 0 ]; then
		if [ "$3" = 0 ] && [ "$4" = 0 ] && [ $((0$5 & 01000)) -ne 0 ]; then
			return 0 # a root-owned sticky directory on the way: the next name is its owner's
		fi
		keepdir_fail "$1" "$2" "is writable by group or others (mode $5): use a new directory, or none (a temporary one)"
		return 1
	fi
	return 0
}

# keepdir_walk NAME ABS MAKE: checks each component of ABS from /, making the missing ones
# (0700) when MAKE=1. 0, or 1 with the line said.
keepdir_walk() {
	kw_name=$1 kw_path=$2 kw_make=$3
	kw_cur=
	kw_rest=${kw_path#/}
	keepdir_component "$kw_name" / 0 || return 1
	while [ -n "$kw_rest" ]; do
		kw_comp=${kw_rest%%/*}
		case $kw_rest in
		*/*) kw_rest=${kw_rest#*/} ;;
		*) kw_rest= ;;
		esac
		[ -z "$kw_comp" ] || [ "$kw_comp" = . ] && continue
		kw_cur=$kw_cur/$kw_comp
		kw_last=0
		[ -n "$(printf '%s' "$kw_rest" | tr -d '/.')" ] || kw_last=1
		if [ ! -e "$kw_cur" ] && [ ! -L "$kw_cur" ]; then
			if [ "$kw_make" != 1 ]; then
				keepdir_fail "$kw_name" "$kw_cur" "does not exist"
				return 1
			fi
			# No -p: a name someone else took meanwhile makes mkdir fail, and the check below
			# then judges what is there.
			mkdir -m 0700 -- "$kw_cur" 2>/dev/null || true
		fi
		keepdir_component "$kw_name" "$kw_cur" "$kw_last" || return 1
	done
	return 0
}

keepdir_make() {
	km_abs=$(keepdir_abs "$2") || {
		keepdir_fail "$1" "$2" "holds '..': give the path without it"
		return 1
	}
	keepdir_walk "$1" "$km_abs" 1 || return 1
	printf '%s\n' "$km_abs"
}

keepdir_check() {
	kc_abs=$(keepdir_abs "$2") || {
		keepdir_fail "$1" "$2" "holds '..': give the path without it"
		return 1
	}
	keepdir_walk "$1" "$kc_abs" 0
}

keepdir_temp() {
	mktemp -d "/tmp/$1.XXXXXX"
}
