#!/bin/sh
# provision-stamp.sh: what a full `make provision` was made from, so `make check` provisions again
# exactly when the playbook or the C tools it installs changed since the prefix was last provisioned
# (a list of files to test for goes stale as roles add tools: the PAM builds, strace).
# Usage: tools/provision-stamp.sh current   prints the hash of this tree's provisioning inputs
#        tools/provision-stamp.sh write PREFIX   records it in PREFIX (after a full provision)
#        tools/provision-stamp.sh fresh PREFIX   exit 0 when PREFIX was provisioned from this tree
set -eu
cd "$(dirname "$0")/.."
current() {
	find install.yml ansible.cfg roles group_vars inventory/local.ini src confgen plots man Makefile \
		-type f ! -name '*.o' ! -name '*.d' -print | LC_ALL=C sort | xargs sha256sum | sha256sum |
		cut -c1-64
}
stamp() { echo "$1/share/rarperf/provisioned-from"; }
case ${1:-} in
current) current ;;
write)
	f=$(stamp "$2")
	current >"$f.tmp" && mv "$f.tmp" "$f"
	;;
fresh)
	f=$(stamp "$2")
	[ -f "$f" ] && [ "$(cat "$f")" = "$(current)" ]
	;;
*)
	echo "usage: $0 current | write PREFIX | fresh PREFIX" >&2
	exit 2
	;;
esac
