#!/bin/sh
# Runs every test: unit tests plain, under ASan+UBSan and under valgrind, then
# tests/integration/*.sh. Prints one line per case and ends with
# "N passed, N failed" (", N skipped: what and why" when some could not run here: only for
# conditions the project cannot change, such as not running as root or not on Debian).
# RARPERF_ONLY=unit|asan|valgrind|fuzz|integration runs one stage (RARPERF_FUZZ_SECONDS: 5); RARPERF_TESTS=glob
# limits the integration scripts. RARPERF_ONLY=fast (make check-fast) runs what needs no
# provisioning and no root: the unit tests (plain), the conventions' scripts and $fast_scripts.
set -u
cd "$(dirname "$0")/.." || exit 2
passed=0 failed=0 skipped=0 skip_why=
only=${RARPERF_ONLY:-all}
# The integration scripts that need neither a prefix nor root (nor minutes): make check-fast's.
fast_scripts="58-layout 60-rarplot"
log_dir=build/test-logs
mkdir -p "$log_dir"

skip() { # $1 what, $2 why
	skipped=$((skipped + 1))
	skip_why="$skip_why${skip_why:+; }$1 ($2)"
}

count_tap() { # $1 label, $2 output file, $3 exit status
	# "ok - what # SKIP why" ran nothing: it counts as skipped, not passed, and is named at the end.
	grep '^ok .*# SKIP' "$2" | sed 's/^ok - //' >"$log_dir/skips.tmp"
	while IFS= read -r line; do
		skip "$1: ${line%% # SKIP*}" "${line#*# SKIP }"
	done <"$log_dir/skips.tmp"
	ok=$(grep '^ok ' "$2" | grep -vc '# SKIP')
	notok=$(grep -c '^not ok ' "$2")
	passed=$((passed + ok))
	failed=$((failed + notok))
	sed -n 's/^\(not ok .*\)/'"$1"': \1/p' "$2"
	if [ "$3" -ne 0 ] && [ "$notok" -eq 0 ]; then
		echo "$1: exited $3 without a failing case"
		sed 's/^/    /' "$2" | tail -20
		failed=$((failed + 1))
	fi
	[ "$notok" -gt 0 ] && sed 's/^/    /' "$2" | grep -v '^    ok ' | tail -40
	echo "$1: $ok passed, $notok failed"
}

run_units() { # $1 dir, $2 label, $3.. prefix command
	dir=$1 label=$2
	shift 2
	for t in "$dir"/tests/test_*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		out="$log_dir/$label-$name.log"
		"$@" "$t" >"$out" 2>&1
		count_tap "$label $name" "$out" $?
	done
}

# What no test may change: the system's own sudo policy files and PAM configuration.
system_state() {
	for f in /etc/sudoers /etc/sudoers.d /etc/sudoers-rs /etc/doas.conf /etc/pam.d /etc/security/rootasrole.json; do
		[ -e "$f" ] || { echo "absent $f"; continue; }
		find "$f" -printf '%p %y %m %u %g %s\n' 2>/dev/null
		find "$f" -type f -exec sha256sum {} + 2>/dev/null
	done | LC_ALL=C sort
}
system_state >"$log_dir/system.before"

if [ "$only" = all ] || [ "$only" = unit ] || [ "$only" = fast ]; then
	run_units build unit
fi
if [ "$only" = fast ]; then
	# The conventions make lint checks by script (clang-format and cppcheck are lint's own).
	for l in lint-folder-headers lint-paths lint-cloexec lint-no-io lint-cycles; do
		out="$log_dir/fast-$l.log"
		if sh "tools/$l.sh" >"$out.raw" 2>&1; then
			echo "ok - tools/$l.sh" >"$out"
		else
			echo "not ok - tools/$l.sh" >"$out"
			sed 's/^/# /' "$out.raw" >>"$out"
		fi
		count_tap "fast $l" "$out" 0
	done
fi
if [ "$only" = all ] || [ "$only" = asan ]; then
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		run_units build-asan asan
fi
if [ "$only" = all ] || [ "$only" = valgrind ]; then
	if command -v valgrind >/dev/null; then
		run_units build valgrind env RARPERF_UNDER_VALGRIND=1 valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite --trace-children=no
	else
		echo "valgrind: missing: run sh tools/debian-deps.sh as root (make check does it first)"
		failed=$((failed + 1))
	fi
fi
if [ "$only" = all ] || [ "$only" = fuzz ]; then
	# Every parser of outside input, fuzzed briefly on its corpus (make fuzz runs longer).
	for f in build/fuzz/fuzz_*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		name=$(basename "$f")
		out="$log_dir/fuzz-$name.log"
		if sh tests/fuzz.sh "${RARPERF_FUZZ_SECONDS:-5}" "$f" >"$out.raw" 2>&1; then
			echo "ok - $name: ${RARPERF_FUZZ_SECONDS:-5} s without a crash, leak or timeout" >"$out"
		else
			echo "not ok - $name: see build/fuzz/$name.log" >"$out"
			sed 's/^/# /' "$out.raw" >>"$out"
		fi
		count_tap "fuzz $name" "$out" 0
	done
fi
if [ "$only" = fast ]; then
	scripts=$(for s in $fast_scripts; do echo "tests/integration/$s.sh"; done)
elif [ "$only" = all ] || [ "$only" = integration ]; then
	scripts=$(echo tests/integration/${RARPERF_TESTS:-*}.sh)
else
	scripts=
fi
if [ -n "$scripts" ]; then
	for t in $scripts; do
		[ -f "$t" ] || continue
		name=$(basename "$t" .sh)
		out="$log_dir/it-$name.log"
		start=$(date +%s)
		sh "$t" >"$out" 2>&1
		rc=$?
		secs=$(( $(date +%s) - start ))
		if [ "$rc" -eq 77 ]; then
			skip "integration $name" "$(tail -1 "$out")"
			echo "integration $name: skipped ($(tail -1 "$out"))"
		else
			count_tap "integration $name (${secs}s)" "$out" $rc
		fi
	done
fi
system_state >"$log_dir/system.after"
if cmp -s "$log_dir/system.before" "$log_dir/system.after"; then
	passed=$((passed + 1))
else
	echo "not ok - /etc/sudoers*, /etc/doas.conf, /etc/pam.d or /etc/security/rootasrole.json changed during the tests:"
	diff "$log_dir/system.before" "$log_dir/system.after" | head -20
	failed=$((failed + 1))
fi
# /dev/null stays the device: a tool that renamed a file over it would break apt and every shell
if [ -c /dev/null ]; then
	passed=$((passed + 1))
else
	echo "not ok - /dev/null is no longer a character device after the tests"
	failed=$((failed + 1))
fi
echo "system files: $(grep -c . "$log_dir/system.before") entries of /etc/sudoers*, /etc/doas.conf, /etc/pam.d unchanged by the suite: $([ "$(cmp -s "$log_dir/system.before" "$log_dir/system.after"; echo $?)" = 0 ] && echo yes || echo NO)"
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped: $skip_why"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
