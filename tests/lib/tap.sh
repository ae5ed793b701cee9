# tap.sh: the TAP helpers every integration test sources; tests/run.sh counts their lines.
# ok/notok print one case; check runs a command and reports it; tap_status is the exit status.
fails=0
ok() { echo "ok - $*"; }
notok() {
	echo "not ok - $*"
	fails=$((fails + 1))
}
check() { # check "what" command...
	tap_what=$1
	shift
	if "$@"; then ok "$tap_what"; else notok "$tap_what"; fi
}
tap_status() { [ "$fails" -eq 0 ]; }
