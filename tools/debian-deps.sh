#!/bin/sh
# debian-deps.sh: installs the Debian packages listed in tools/debian-packages when any is missing,
# adding a deb-src entry for Debian's archive first when apt has none (the playbook builds sudo and
# OpenDoas from Debian's source packages). make check runs it first; cheap when nothing is missing.
#
# Exit 0 when every package is installed (or was just installed); 1 when apt-get failed; 77 when
# this is not a Debian host run as root: then it prints why and installs nothing.
set -u
cd "$(dirname "$0")/.." || exit 2
list=tools/debian-packages
pkgs=$(grep -v '^[[:space:]]*#' "$list" | tr -s ' \n' ' ')

missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) || st=
	case $st in ii*) ;; *) missing="$missing $p" ;; esac
done
[ -n "$missing" ] || exit 0

if [ ! -f /etc/debian_version ] || ! command -v apt-get >/dev/null; then
	echo "not a Debian host: install the equivalents of$missing yourself ($list)"
	exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "not root: as root, run sh $0 (missing:$missing)"
	exit 77
fi

echo "== installing Debian packages ($list):$missing"
if ! grep -Eqs -e '^[[:space:]]*deb-src' -e '^[[:space:]]*Types:.*deb-src' \
	/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; then
	# The same entry as the playbook's rarperf_packages role writes, so a later converge is a no-op.
	cat >/etc/apt/sources.list.d/rarperf-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # one word per package
if ! { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >build-deps.log 2>&1; then
	echo "apt-get failed installing$missing; the end of build-deps.log:" >&2
	tail -15 build-deps.log >&2
	exit 1
fi
rm -f build-deps.log
echo "== installed:$missing"
