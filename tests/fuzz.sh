#!/bin/sh
# Runs each libFuzzer target for a bounded time on its seed corpus (fuzz/corpus/<name>/).
# Usage: tests/fuzz.sh SECONDS FUZZER...
set -u
seconds=$1
shift
status=0
for f in "$@"; do
	name=$(basename "$f")
	corpus=build/fuzz/corpus-$name
	mkdir -p "$corpus"
	[ -d "fuzz/corpus/$name" ] && cp -n fuzz/corpus/"$name"/* "$corpus"/ 2>/dev/null
	echo "fuzz $name: ${seconds}s"
	if ! ASAN_OPTIONS=detect_leaks=1 "$f" -max_total_time="$seconds" -rss_limit_mb=2048 \
		-timeout=10 -print_final_stats=0 "$corpus" >"build/fuzz/$name.log" 2>&1; then
		echo "fuzz $name: FAILED (see build/fuzz/$name.log)"
		tail -30 "build/fuzz/$name.log"
		status=1
	else
		echo "fuzz $name: ok ($(ls "$corpus" | wc -l) corpus entries)"
	fi
done
exit $status
