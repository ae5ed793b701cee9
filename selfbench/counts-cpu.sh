#!/bin/bash
# counts-cpu.sh: can a count depend on the machine's CPU? glibc chooses its string functions
# (memcpy, strlen, ...) by CPUID at load time, so a program executes other instructions on
# another CPU. Under valgrind the client does not see the host's CPUID but the one valgrind
# synthesises for the host's class (with AVX2: always "Intel(R) Core(TM) i7-4910MQ", Haswell's
# features, whatever the maker). This prints what a program sees natively and under callgrind,
# and how much a copy of sudo's count (`sudo -V`, as root, no set-ID bit) moves when glibc is told
# to ignore AVX2 and its friends (GLIBC_TUNABLES: what a host of a lower class would give):
# the size of the difference a held-out machine of another class would show (doc/counts.md,
# "Across machines"). Needs cc and valgrind; RARPERF_PREFIX (default /opt/rarperf) for sudo.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${RARPERF_PREFIX:-/opt/rarperf}
for tool in cc valgrind; do
	command -v "$tool" >/dev/null || { echo "counts-cpu: $tool is missing" >&2; exit 2; }
done
work=$(mktemp -d /tmp/rarperf-bench-cpu-XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O1 -o "$work/cpuid_seen" selfbench/cpuid_seen.c
echo "native:          $("$work/cpuid_seen")"
echo "under callgrind: $(valgrind -q --tool=callgrind --callgrind-out-file=/dev/null "$work/cpuid_seen")"
count() { # TUNABLES: callgrind's count of sudo -V
	env ${1:+GLIBC_TUNABLES=$1} valgrind --tool=callgrind --callgrind-out-file="$work/cg" \
		"$work/sudo" -V 2>&1 >/dev/null | awk '/Collected/ {print $4}'
}
if [ -x "$prefix/bin/sudo" ]; then
	install -m 0755 "$prefix/bin/sudo" "$work/sudo"
	a=$(count "")
	b=$(count "")
	c=$(count "glibc.cpu.hwcaps=-AVX2,-AVX,-ERMS,-FSRM,-BMI2")
	echo "sudo -V: $a and $b instructions as valgrind's CPU is; $c with AVX2, AVX, ERMS, FSRM and BMI2 masked"
	awk -v a="$a" -v c="$c" 'BEGIN { printf "a lower CPU class moves this count by %+.2f %%\n", 100 * (c - a) / a }'
else
	echo "counts-cpu: no $prefix/bin/sudo: the count's sensitivity not measured"
fi
