#!/bin/sh
# Runs every test: unit tests plain, under ASan+UBSan and under valgrind, then
# tests/integration/*.sh. Prints one line per case and ends with
# "N passed, N failed" (", N skipped" when some could not run here).
# RARPERF_ONLY=unit|asan|valgrind|integration runs one stage; RARPERF_TESTS=glob
# limits the integration scripts.
set -u
cd "$(dirname "$0")/.." || exit 2
passed=0 failed=0 skipped=0
only=${RARPERF_ONLY:-all}
log_dir=build/test-logs
mkdir -p "$log_dir"

count_tap() { # $1 label, $2 output file, $3 exit status
	ok=$(grep -c '^ok ' "$2")
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

if [ "$only" = all ] || [ "$only" = unit ]; then
	run_units build unit
fi
if [ "$only" = all ] || [ "$only" = asan ]; then
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		run_units build-asan asan
fi
if [ "$only" = all ] || [ "$only" = valgrind ]; then
	if command -v valgrind >/dev/null; then
		run_units build valgrind valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite --trace-children=no
	fi
fi
if [ "$only" = all ] || [ "$only" = integration ]; then
	for t in tests/integration/${RARPERF_TESTS:-*}.sh; do
		[ -f "$t" ] || continue
		name=$(basename "$t" .sh)
		out="$log_dir/it-$name.log"
		start=$(date +%s)
		sh "$t" >"$out" 2>&1
		rc=$?
		secs=$(( $(date +%s) - start ))
		if [ "$rc" -eq 77 ]; then
			skipped=$((skipped + 1))
			echo "integration $name: skipped ($(tail -1 "$out"))"
		else
			count_tap "integration $name (${secs}s)" "$out" $rc
		fi
	done
fi
if [ "$skipped" -gt 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
