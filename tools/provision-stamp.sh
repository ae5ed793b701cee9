#!/bin/sh
# provision-stamp.sh: what a full `make provision` was made from, so `make check` provisions again
# exactly when the playbook or the C tools it installs changed since the prefix was last provisioned
# (a list of files to test for goes stale as roles add tools: the PAM builds, strace).
# `make demo` keeps a second stamp for its smaller variant (make provision-demo), so a second demo
# runs no Ansible at all; a full provision counts for the demo too (it builds a superset).
# Usage: tools/provision-stamp.sh current   prints the hash of this tree's provisioning inputs
#        tools/provision-stamp.sh write PREFIX   records it in PREFIX (after a full provision)
#        tools/provision-stamp.sh fresh PREFIX   exit 0 when PREFIX was provisioned from this tree,
#                                                there (not a copy: facts.json's "prefix" is PREFIX),
#                                                and no converge since changed its facts
#        tools/provision-stamp.sh write-demo PREFIX   records it after make provision-demo
#        tools/provision-stamp.sh fresh-demo PREFIX   exit 0 when PREFIX was provisioned from this
#                                                     tree by make provision-demo or make provision
set -eu
cd "$(dirname "$0")/.."
# The commit too: rarperf_tools bakes it into every program it installs (rarbench --version), so a
# new commit with the same files still reinstalls them, and the converge after it is not a no-op.
current() {
	{
		find install.yml ansible.cfg roles group_vars inventory/local.ini src confgen plots man Makefile \
			-type f ! -name '*.o' ! -name '*.d' -print | LC_ALL=C sort | xargs sha256sum
		git rev-parse HEAD 2>/dev/null || :
	} | sha256sum | cut -c1-64
}
stamp() { echo "$1/share/rarperf/provisioned-from"; }
demo_stamp() { echo "$1/share/rarperf/provisioned-from-demo"; }
# The prefix's facts as a converge left them. Another converge of the same prefix (a dev tree,
# a release from the history, other variables) rewrites them, and the next plain converge rewrites
# them back: a stamp alone would then call the prefix "as make provision left it" while the next
# converge still changes it (it-10's changed=0 run failed so after make check's own dev trees).
facts_digest() {
	find "$1/facts.json" "$1/share/rarperf/facts.d" -type f -print 2>/dev/null | LC_ALL=C sort |
		xargs -r cat | sha256sum | cut -c1-64
}
write() { # FILE [PREFIX]: the current hash (and PREFIX's facts), whole or not at all
	mkdir -p "$(dirname "$1")"
	{ current && if [ $# -gt 1 ]; then facts_digest "$2"; fi; } >"$1.tmp" && mv "$1.tmp" "$1"
}
same() { # FILE [FILE]: one of them was written from this tree (its first line)
	now=$(current)
	for f; do
		[ -f "$f" ] && [ "$(head -n 1 "$f")" = "$now" ] && return 0
	done
	return 1
}
unchanged() { # FILE PREFIX: the facts PREFIX had when FILE was written (its second line)
	[ "$(sed -n 2p "$1" 2>/dev/null)" = "$(facts_digest "$2")" ]
}
# here PREFIX: PREFIX's facts.json records PREFIX itself (a copy of another prefix, cp -a with
# its stamps, records the original's path and its tools read the original's files: not fresh).
here() {
	[ -r "$1/facts.json" ] || return 0
	rec=$(sed -n 's/^ *"prefix": *"\(.*\)",\{0,1\}$/\1/p' "$1/facts.json" | head -n 1)
	[ -z "$rec" ] || [ "$(realpath -m "$rec")" = "$(realpath -m "$1")" ]
}
case ${1:-}/$# in
current/1) current ;;
write/2) write "$(stamp "$2")" "$2" ;;
fresh/2) here "$2" && same "$(stamp "$2")" && unchanged "$(stamp "$2")" "$2" ;;
write-demo/2) write "$(demo_stamp "$2")" ;;
fresh-demo/2) here "$2" && same "$(stamp "$2")" "$(demo_stamp "$2")" ;;
*)
	echo "usage: $0 current | write PREFIX | fresh PREFIX | write-demo PREFIX | fresh-demo PREFIX" >&2
	exit 2
	;;
esac
