# tap.sh: the TAP helpers every integration test sources; tests/run.sh counts their lines.
# ok/notok print one case; check runs a command and reports it; tap_status is the exit status.
fails=0
ok() { echo "ok - $*"; }
notok() {
	echo "not ok - $*"
	fails=$((fails + 1))
}
check() { # check "what" command...: reports the case; returns 1 when it failed
	tap_what=$1
	shift
	if "$@"; then ok "$tap_what"; else
		notok "$tap_what"
		return 1
	fi
}
tap_status() { [ "$fails" -eq 0 ]; }

# need CMD...: each CMD must be on PATH (or an absolute path that exists). On Debian as root,
# where make check installs every prerequisite (tools/debian-deps.sh), a missing one is a failure
# that says how to fix it; elsewhere the script is skipped (exit 77), the closing line says so.
need() {
	for tap_cmd in "$@"; do
		command -v "$tap_cmd" >/dev/null 2>&1 && continue
		tap_missing "$tap_cmd"
	done
}
# need_python_module MOD: Debian's python3 can import MOD (python3-MOD in tools/debian-packages).
need_python_module() {
	/usr/bin/python3 -c "import $1" 2>/dev/null || tap_missing "Debian's python3-$1"
}
tap_missing() {
	if [ "$(id -u)" -eq 0 ] && [ -f /etc/debian_version ]; then
		notok "$1 is missing: run sh tools/debian-deps.sh as root (make check does it first)"
		exit 1
	fi
	echo "$1 is missing, and make check installs it only as root on Debian"
	exit 77
}

# prefix_lock PREFIX WHAT: holds PREFIX's lock (PREFIX/run/lock, the flock rarbench --manifest
# takes for a whole sweep) on descriptor 9 until prefix_unlock, so that a test writing the
# prefix's policies directly never interleaves with a sweep; waits for one in progress (at most
# 30 min). rarbench --manifest called while it is held would exit 3: unlock first.
prefix_lock() {
	[ -d "$1/run" ] || mkdir -m 0700 "$1/run" || return 1
	(umask 077 && : >>"$1/run/lock") || return 1 # root's alone, as rarbench makes it
	exec 9>>"$1/run/lock"
	if ! flock -w 1800 9; then
		notok "$1 stayed locked 30 min by $(cat "$1/run/holder" 2>/dev/null)"
		exit 1
	fi
	(umask 077 && printf 'pid %s since %s (make check: %s)\n' "$$" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$2" >"$1/run/holder")
}
prefix_unlock() { # PREFIX
	rm -f "$1/run/holder"
	exec 9>&-
}

# need_prefix PREFIX: the provisioned prefix (facts.json, sudo, doas) and bin/rarbench are there;
# else one failing case that says how to get them, and exit.
need_prefix() {
	if [ ! -r "$1/facts.json" ] || [ ! -e "$1/bin/sudo" ] || [ ! -e "$1/bin/doas" ]; then
		notok "provisioned prefix $1 is missing: run 'make provision' first"
		exit 1
	fi
	if [ ! -x bin/rarbench ]; then
		notok "bin/rarbench is not built: run make"
		exit 1
	fi
}
