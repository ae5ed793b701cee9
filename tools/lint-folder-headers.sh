#!/bin/sh
# lint-folder-headers: each folder header (src/X/X.h, confgen/confgen.h) lists exactly the folder's
# modules, so that the list a reader trusts is the code's (issue 38).
#
# A folder header's list is the comment block that starts at the line "Modules, one line each:" and
# ends at the comment's close. A module is listed when
#   - a line of the block names it first, after " *" and exactly three spaces
#     (" *   runner_plan   what a manifest run would do"), or
#   - the block names its file anywhere ("proc_user.c: --as-user and its environment").
# A module is a .c file of the folder; main.c (a program's entry) is none. The script fails (exit 1)
# with one line per difference saying which module to add or to remove, and runs from any directory.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
checked=0

for dir in "$root"/src/* "$root"/confgen; do
	[ -d "$dir" ] || continue
	name=$(basename "$dir")
	header="$dir/$name.h"
	[ -f "$header" ] || continue
	rel=${header#"$root"/}
	reldir=${dir#"$root"/}
	checked=$((checked + 1))
	listed=$(awk '
		/Modules, one line each:/ { inblock = 1; next }
		inblock && /\*\// { exit }
		inblock {
			if (match($0, /^ \*   [a-z0-9_]+/))
				print substr($0, 6, RLENGTH - 5)
			line = $0
			while (match(line, /[A-Za-z0-9_]+\.c([^A-Za-z0-9_]|$)/)) {
				tok = substr(line, RSTART, RLENGTH)
				sub(/\.c.*$/, "", tok)
				print tok
				line = substr(line, RSTART + RLENGTH - 1)
			}
		}' "$header" | sort -u)
	if [ -z "$listed" ]; then
		echo "$rel: no \"Modules, one line each:\" block listing the modules of $reldir/" >&2
		status=1
		continue
	fi
	present=$(cd "$dir" && for c in *.c; do
		[ -f "$c" ] && [ "$c" != main.c ] && echo "${c%.c}"
	done | sort -u)
	for m in $listed; do
		if ! printf '%s\n' "$present" | grep -qx "$m"; then
			echo "$rel: lists module $m, but $reldir/$m.c does not exist: remove $m from its Modules block" >&2
			status=1
		fi
	done
	for m in $present; do
		if ! printf '%s\n' "$listed" | grep -qx "$m"; then
			echo "$rel: module $m ($reldir/$m.c) is not listed: add the line \" *   $m  <what it does>\" to its Modules block (or name $m.c in its parent's line)" >&2
			status=1
		fi
	done
done
if [ "$checked" -eq 0 ]; then
	echo "lint-folder-headers: no folder header found under $root/src or $root/confgen" >&2
	exit 1
fi
exit $status
