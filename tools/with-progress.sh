#!/bin/sh
# with-progress.sh: runs ansible-playbook ARGS... and, on a terminal, turns its task headers into
# one progress bar (tasks started / tasks listed, elapsed time) above which each task (or loop
# item) that took 5 s or more leaves a line with its time: the compiles, apt, the downloads;
# elsewhere the output passes through.
# The full log goes to $PROGRESS_LOG (default build/provision.log); a failure prints its tail.
# Usage: tools/with-progress.sh ansible-playbook -i inventory/local.ini install.yml [-e ...]
set -u
log=${PROGRESS_LOG:-build/provision.log}
mkdir -p "$(dirname "$log")"
status_file=$(mktemp)
trap 'rm -f "$status_file"' EXIT

bar() { # reads ansible-playbook's output, draws the bar
	# mawk (Debian's awk) reads a pipe in blocks unless told otherwise: the bar would lag.
	interactive=
	awk -W interactive 'BEGIN {}' </dev/null >/dev/null 2>&1 && interactive="-W interactive"
	# shellcheck disable=SC2086
	awk $interactive -v total="$1" -v start="$(date +%s)" -v long=5 '
	function clock(   t) { "date +%s" | getline t; close("date +%s"); return t }
	function lap(what,   now) { # a task or an item ended: its line when it was long
		now = clock()
		if (name != "" && now - mark >= long)
			printf "\r\033[K  %s%s: %d s\n", name, what, now - mark
		mark = now
		return now
	}
	/^TASK \[|^PLAY RECAP/ {
		now = lap("")
		if ($0 ~ /^PLAY RECAP/) { name = ""; next }
		n++
		name = $0; sub(/^TASK \[/, "", name); sub(/\] \**$/, "", name)
		pct = int(100 * n / total); if (pct > 99) pct = 99
		w = 30; f = int(w * pct / 100)
		s = ""; for (i = 0; i < w; i++) s = s (i < f ? "#" : "-")
		printf "\r\033[K[%s] %3d%% %4ds  %.60s", s, pct, now - start, name
		fflush()
	}
	/^(ok|changed|failed|fatal|skipping): .*\(item=/ {
		item = $0; sub(/.*\(item=/, "", item); sub(/\)[^)]*$/, "", item)
		lap(" (" item ")")
		printf "[%s] %3d%% %4ds  %.60s", s, pct, mark - start, name
		fflush()
	}
	END { printf "\r\033[K" }'
}

if [ -t 1 ]; then
	# Included or looped tasks may add a few to the listed ones: the bar caps at 99% until done.
	total=$("$@" --list-tasks 2>/dev/null | grep -c 'TAGS:')
	[ "$total" -gt 0 ] || total=1
	{ "$@" 2>&1; echo $? >"$status_file"; } | tee "$log" | bar "$total"
else
	{ "$@" 2>&1; echo $? >"$status_file"; } | tee "$log"
fi
status=$(cat "$status_file")
if [ "$status" -ne 0 ]; then
	echo "provisioning failed (exit $status); the end of $log:" >&2
	tail -25 "$log" >&2
	exit "$status"
fi
[ -t 1 ] && grep -A3 '^PLAY RECAP' "$log"
exit 0
