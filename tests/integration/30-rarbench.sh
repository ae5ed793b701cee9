#!/bin/sh
# rarbench against real commands: hyperfine-compatible exports (compared key by key with Debian's
# hyperfine), exit codes, signal deaths, a missing program, --as-user with a throwaway account,
# each --order, SIGINT handling, and the seed's command line read by a hyperfine-style script, and
# run as the original README writes it, with relative bin/sudo and bin/sr.
set -u
cd "$(dirname "$0")/../.." || exit 2
RB=$PWD/bin/rarbench
PY=/usr/bin/python3
. tests/lib/tap.sh
[ -x "$RB" ] || make -s bin/rarbench >/dev/null || {
	echo "not ok - build bin/rarbench"
	exit 1
}
need jq hyperfine
need_python_module numpy
T=$(mktemp -d /tmp/rarperf-it30-XXXXXX)
chmod 0755 "$T"
user=rbt$$
group=rbg$$
cleanup() {
	[ -n "${rbpid:-}" ] && kill "$rbpid" 2>/dev/null
	# The seed's line granted root in the prefix's policies: deny again on every path.
	[ -n "${seed_granted:-}" ] && policies --uid "$bench_uid" --deny-all >/dev/null 2>&1
	if id "$user" >/dev/null 2>&1; then userdel "$user" 2>/dev/null; fi
	if getent group "$group" >/dev/null 2>&1; then groupdel "$group" 2>/dev/null; fi
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

jqt() { jq -e "$@" >/dev/null 2>&1; }
# with_fds FILE CMD...: runs CMD with fds 7 (appending to FILE) and 251 open, as a script's
# `exec 7>>FILE` leaves them (bash: dash knows only fds 0-9).
with_fds() {
	bash -c 'exec 7>>"$1" 251>/dev/null && shift && exec "$@"' _ "$@"
}

# --- true: hyperfine's schema, run count, rarbench key -------------------------------------
"$RB" -N --style basic --runs 5 --export-json "$T/true.json" --export-csv "$T/true.csv" \
	--export-markdown "$T/true.md" true >"$T/true.out" 2>&1
check "true: exit 0" [ $? -eq 0 ]
check "true: 5 times, exit codes 0, stddev a number" jqt '.results[0] | (.times|length)==5
	and .exit_codes==[0,0,0,0,0] and (.stddev|type)=="number" and .command=="true"' "$T/true.json"
check "true: min <= median <= max, all under 1 s" jqt '.results[0] | .min <= .median and .median <= .max
	and .max < 1' "$T/true.json"
check "true: rarbench key beside results" jqt '.rarbench.order=="sequential" and .rarbench.seed==null
	and (keys==["rarbench","results"])' "$T/true.json"
check "true: summary printed" grep -q 'Time (mean ± σ):' "$T/true.out"
check "true: csv header" grep -qx 'command,mean,stddev,median,user,system,min,max' "$T/true.csv"
check "true: markdown row" grep -q '^| `true` | ' "$T/true.md"

# --- default run count: at least 10 runs and about 3 s ----------------------------------------
"$RB" -N --style none --export-json "$T/sleep.json" 'sleep 0.01' >/dev/null 2>&1
check "sleep 0.01: exit 0" [ $? -eq 0 ]
check "sleep 0.01: mean in [10 ms, 1 s), 10..300 runs (3 s budget)" jqt '.results[0] |
	.mean >= 0.01 and .mean < 1 and (.times|length) >= 10 and (.times|length) <= 300' "$T/sleep.json"
check "sleep 0.01: one run gives stddev null" sh -c "'$RB' -N --style none --runs 1 \
	--export-json '$T/one.json' 'sleep 0.01' && jq -e '.results[0].stddev==null' '$T/one.json' >/dev/null"

# --- non-zero exit codes and signal deaths ------------------------------------------------------
"$RB" -N --style none --runs 3 --export-json "$T/fail.json" "sh -c 'exit 3'" >"$T/fail.out" 2>&1
rc=$?
check "exit 3 without -i: exit status 1" [ "$rc" -eq 1 ]
check "exit 3 without -i: hyperfine's message" grep -q "Command terminated with non-zero exit code: 3" "$T/fail.out"
"$RB" -N --style basic -i --runs 3 --export-json "$T/ign.json" "sh -c 'exit 3'" >"$T/ign.out" 2>&1
check "exit 3 with -i: exit 0, exit_codes [3,3,3]" sh -c "[ $? -eq 0 ] && jq -e '.results[0].exit_codes==[3,3,3]' '$T/ign.json' >/dev/null"
check "exit 3 with -i: warning" grep -q "Ignoring non-zero exit code" "$T/ign.out"
"$RB" -N --style none -i --runs 2 --export-json "$T/sig.json" "sh -c 'kill -KILL \$\$'" >/dev/null 2>&1
check "killed by SIGKILL: exit_codes 128+9" jqt '.results[0].exit_codes==[137,137]' "$T/sig.json"
"$RB" -N --style none --runs 2 "sh -c 'kill -TERM \$\$'" >"$T/sig.out" 2>&1
check "killed by a signal without -i: exit 1 and a message" sh -c "[ $? -eq 1 ] && grep -q 'terminated by a signal' '$T/sig.out'"

# --- a missing program is reported before anything runs -----------------------------------------
"$RB" -N --style none --runs 1 "sh -c 'echo ran >> $T/marker'" "rarperf-no-such-program --x" >"$T/miss.out" 2>&1
rc=$?
check "missing program: exit 2" [ "$rc" -eq 2 ]
check "missing program: names it" grep -q "cannot find program 'rarperf-no-such-program'" "$T/miss.out"
check "missing program: nothing ran" [ ! -e "$T/marker" ]
"$RB" --style none --runs 1 -n a -n b -n c true >/dev/null 2>&1
check "too many names: exit 2" [ $? -eq 2 ]

# --- orders ------------------------------------------------------------------------------------
for order in sequential interleaved random; do
	rm -f "$T/log"
	"$RB" -N --style none --runs 3 --order "$order" --seed 7 --export-json "$T/o-$order.json" \
		-L x 1,2 "sh -c 'printf A{x} >> $T/log'" "sh -c 'printf B{x} >> $T/log'" >/dev/null 2>&1
	check "--order $order: exit 0" [ $? -eq 0 ]
	eval "log_$order=\$(cat \"$T/log\")"
	check "--order $order: recorded" jqt ".rarbench.order==\"$order\" and .rarbench.seed==7" "$T/o-$order.json"
done
check "sequential: A1 A1 A1 B1 B1 B1 A2 ..." [ "$log_sequential" = "A1A1A1B1B1B1A2A2A2B2B2B2" ]
check "interleaved: A1 B1 alternate, then A2 B2" [ "$log_interleaved" = "A1B1A1B1A1B1A2B2A2B2A2B2" ]
check "random: each round holds both commands of one combination" sh -c "echo '$log_random' |
	grep -Eq '^((A1B1|B1A1){3})((A2B2|B2A2){3})\$'"
rm -f "$T/log"
"$RB" -N --style none --runs 3 --order random --seed 7 -L x 1,2 "sh -c 'printf A{x} >> $T/log'" \
	"sh -c 'printf B{x} >> $T/log'" >/dev/null 2>&1
check "random: same seed, same order" [ "$(cat "$T/log")" = "$log_random" ]
check "random: the export keeps hyperfine's benchmark order" sh -c "[ \"\$(jq -c '[.results[]|[.command,.parameters.x]]' '$T/o-random.json')\" = \"\$(jq -c '[.results[]|[.command,.parameters.x]]' '$T/o-sequential.json')\" ]"

# --- --as-user with a throwaway account ----------------------------------------------------------
if [ "$(id -u)" -eq 0 ] && command -v useradd >/dev/null; then
	groupadd "$group" && useradd -M -d /nonexistent -s /bin/sh -G "$group" "$user"
	uid=$(id -u "$user")
	gid=$(getent group "$group" | cut -d: -f3)
	mkdir -p "$T/as" && chmod 1777 "$T/as"
	TERM=xterm-test "$RB" -N --style none --runs 2 --as-user "$user" --export-json "$T/as.json" \
		--setup "sh -c 'id -u > $T/as/setup_uid'" \
		"sh -c 'id -u > $T/as/uid; id -G > $T/as/groups; env | sort > $T/as/env'" >"$T/as.out" 2>&1
	check "--as-user: exit 0" [ $? -eq 0 ]
	check "--as-user: timed runs ran as $user" [ "$(cat "$T/as/uid" 2>/dev/null)" = "$uid" ]
	check "--as-user: with its supplementary group" grep -qw "$gid" "$T/as/groups"
	check "--as-user: root's groups dropped" sh -c "! grep -qw 0 '$T/as/groups'"
	check "--as-user: setup ran as root" [ "$(cat "$T/as/setup_uid" 2>/dev/null)" = 0 ]
	check "--as-user: clean environment" sh -c "grep -qx 'USER=$user' '$T/as/env' &&
		grep -qx 'PATH=/usr/local/bin:/usr/bin:/bin' '$T/as/env' && grep -qx 'LANG=C' '$T/as/env' &&
		grep -qx 'TERM=xterm-test' '$T/as/env' && [ \$(wc -l < '$T/as/env') -le 8 ]"
	check "--as-user: recorded in the export" jqt ".rarbench.as_user==\"$user\"" "$T/as.json"
	"$RB" -N --style none --runs 1 --as-user "$user" --show-output "id -u" >"$T/as2.out" 2>&1
	check "--as-user --show-output: id -u prints the uid" grep -qx "$uid" "$T/as2.out"
	setpriv --reuid="$uid" --regid="$uid" --clear-groups "$RB" -N --runs 1 --as-user nobody true \
		>"$T/as3.out" 2>&1
	rc=$?
	check "--as-user refused when not root (exit 2)" sh -c "[ $rc -eq 2 ] && grep -q 'needs root' '$T/as3.out'"
	"$RB" -N --runs 1 --as-user rarperf-no-such-user true >"$T/as4.out" 2>&1
	check "--as-user unknown user: exit 2" sh -c "[ $? -eq 2 ] && grep -q 'no such user' '$T/as4.out'"
	# Descriptors the caller left open (a root-owned 0600 file on 7, 251) must not cross over.
	printf 'secret\n' >"$T/secret" && chmod 0600 "$T/secret"
	{
		with_fds "$T/secret" "$RB" -N --style none --runs 2 --as-user "$user" \
			"sh -c 'ls /proc/self/fd >> $T/as/fds'"
		with_fds "$T/secret" "$RB" -N --style none --runs 1 -i --as-user "$user" \
			'sh -c "echo leaked >&7"'
	} >"$T/as5.out" 2>&1
	check "--as-user: only fds 0 1 2 reach the command (and ls's own 3)" \
		[ "$(sort -u "$T/as/fds" 2>/dev/null | tr '\n' ' ')" = "0 1 2 3 " ]
	check "--as-user: fd 7 on a root-owned file is not writable by the command" \
		[ "$(cat "$T/secret")" = secret ]
else
	echo "ok - --as-user # SKIP not root"
fi

# --- each run's own peak memory (issue 34), GNU time's %M as the independent instrument -------------
# Runs start from rarlaunch, never inside rarbench's memory, whose high-water mark every run used to
# report as its own (7 MiB for /usr/bin/true).
if [ -x /usr/bin/time ]; then
	dd64='dd if=/dev/zero of=/dev/null bs=64M count=1'
	"$RB" -N --style none --runs 5 --export-json "$T/mem.json" "$dd64" /usr/bin/true >/dev/null 2>&1
	check "memory: exit 0" [ $? -eq 0 ]
	check "memory: a program that touches 64 MiB peaks at 64-66 MiB in every run" jqt '.results[0] |
		(.memory_usage_byte|length)==5 and (.memory_usage_byte|min) >= 64*1048576
		and (.memory_usage_byte|max) <= 66*1048576' "$T/mem.json"
	check "memory: /usr/bin/true under 2 MiB in every run" jqt '.results[1].memory_usage_byte |
		length==5 and max < 2*1048576' "$T/mem.json"
	check "memory: rusage.maxrss_kib is the same peak in KiB" jqt '[.results[] |
		.memory_usage_byte == [.rusage.maxrss_kib[] * 1024]] | all' "$T/mem.json"
	# Median of five GNU time runs, in KiB.
	gnu_peak() {
		for _ in 1 2 3 4 5; do /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; done | sort -n | sed -n 3p
	}
	# shellcheck disable=SC2086 # dd's words
	gdd=$(gnu_peak $dd64)
	gtrue=$(gnu_peak /usr/bin/true)
	near='def near(a; b): (a - b | fabs) <= ([b * 0.1, 256] | max);'
	check "memory: each median within 10 % or 256 KiB of GNU time's %M ($gdd, $gtrue KiB)" jqt \
		--argjson d "$gdd" --argjson t "$gtrue" "$near"' def med: sort | .[length/2|floor] / 1024;
		near(.results[0].memory_usage_byte | med; $d) and near(.results[1].memory_usage_byte | med; $t)' \
		"$T/mem.json"
else
	echo "ok - memory against GNU time # SKIP /usr/bin/time missing (Debian package time)"
fi

# --- SIGINT: stop, keep the finished benchmarks, nothing half-written ------------------------------
"$RB" -N --style none --runs 3 --export-json "$T/int.json" true "sleep 0.3" "true" >/dev/null 2>"$T/int.err" &
rbpid=$!
i=0
while [ $i -lt 100 ] && ! jq -e '.results|length==1' "$T/int.json" >/dev/null 2>&1; do
	sleep 0.05
	i=$((i + 1))
done
kill -INT "$rbpid"
wait "$rbpid"
rc=$?
rbpid=
check "SIGINT: exit 130" [ "$rc" -eq 130 ]
check "SIGINT: export is valid JSON holding only the finished benchmark" jqt '(.results|length)==1
	and .results[0].command=="true" and (.results[0].times|length)==3' "$T/int.json"
check "SIGINT: no temporary file left" sh -c "! ls -A '$T' | grep -q '^\.int\.json\.'"
check "SIGINT: says so" grep -q interrupted "$T/int.err"

# --- key-by-key comparison with hyperfine's own export --------------------------------------------
if command -v hyperfine >/dev/null && [ -x "$PY" ]; then
	cat >"$T/cmp.py" <<'PYEOF'
import json, sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
errs = []
ra, rb = a["results"], b["results"]
if len(ra) != len(rb):
    errs.append("result counts %d != %d" % (len(ra), len(rb)))
# rarbench's additions come after hyperfine's keys, which stay in hyperfine's order; hyperfine
# 1.20's memory_usage_byte (Debian's 1.15 lacks it) comes right after "times", as in 1.20.
# "cpu_stall_ns" after "nivcsw" where the host gives the CPU stall (/proc/PID/schedstat).
for i, (x, y) in enumerate(zip(ra, rb)):
    ADDED = ["nivcsw"] + (["cpu_stall_ns"] if "cpu_stall_ns" in x else []) + ["rusage", "rarbench"]
    keys = list(x.keys())
    if "memory_usage_byte" not in y:
        if keys[keys.index("times") + 1] != "memory_usage_byte":
            errs.append("result %d: memory_usage_byte not after times: %s" % (i, keys))
        keys.remove("memory_usage_byte")
    if keys[:len(y)] != list(y.keys()) or keys[len(y):] != ADDED:
        errs.append("result %d keys %s != %s + %s" % (i, keys, list(y.keys()), ADDED))
    for k in x:
        if k in y and type(x[k]) is not type(y[k]):
            errs.append("result %d key %s: %s != %s" % (i, k, type(x[k]).__name__, type(y[k]).__name__))
    for k in ("command", "exit_codes", "parameters"):
        if x.get(k) != y.get(k):
            errs.append("result %d %s: %r != %r" % (i, k, x.get(k), y.get(k)))
    if len(x["times"]) != len(y["times"]):
        errs.append("result %d: %d times != %d" % (i, len(x["times"]), len(y["times"])))
    for t in x["times"]:
        if type(t) is not float:
            errs.append("result %d: time %r is not a float" % (i, t))
for e in errs:
    print("  " + e)
sys.exit(1 if errs else 0)
PYEOF
	cmpboth() { # description, args...
		d=$1
		shift
		hyperfine --style none --export-json "$T/hf.json" "$@" >/dev/null 2>&1
		"$RB" --style none --export-json "$T/rb.json" "$@" >/dev/null 2>&1
		check "same export as hyperfine: $d" "$PY" "$T/cmp.py" "$T/rb.json" "$T/hf.json"
	}
	cmpboth "-N, -L x 2 values, -L y 2 values, 2 commands" -N --runs 3 -L x 1,2 -L y 'a,b\,c' \
		'echo {x}' 'sh -c ":{y}"'
	cmpboth "-N, one run (stddev null)" -N --runs 1 true
	cmpboth "-N -i, exit 3 and SIGKILL" -N -i --runs 2 "sh -c 'exit 3'" "sh -c 'kill -KILL \$\$'"
	cmpboth "shell mode, -n names, -P scan with -D" --runs 2 -n 'n{t}' -P t 0 1 -D 0.5 'echo {t}'
	cmpboth "shell mode, prepare/setup/cleanup" --runs 2 -s 'true' -p 'true' -c 'true' 'echo hi'
	hyperfine --style none -N --runs 2 --export-csv "$T/hf.csv" -L x 1,2 'echo {x}' >/dev/null 2>&1
	"$RB" --style none -N --runs 2 --export-csv "$T/rb.csv" -L x 1,2 'echo {x}' >/dev/null 2>&1
	check "same CSV header and commands as hyperfine" sh -c "[ \"\$(cut -d, -f1 '$T/hf.csv')\" = \"\$(cut -d, -f1 '$T/rb.csv')\" ] &&
		[ \"\$(head -1 '$T/hf.csv')\" = \"\$(head -1 '$T/rb.csv')\" ] && [ \"\$(cut -d, -f9 '$T/hf.csv')\" = \"\$(cut -d, -f9 '$T/rb.csv')\" ]"
else
	echo "ok - hyperfine comparison # SKIP hyperfine or Debian python3 missing"
fi

# --- the seed's command line, hyperfine replaced by rarbench ---------------------------------------
# The seed benchmarks bin/sudo and bin/sr (absent here); env and nice stand in as the "tool"
# in front of /usr/bin/true, and the setup logs its parameters instead of running the old confgen.
if [ -x "$PY" ]; then
	(cd "$T" && "$RB" -N --warmup 100 -m 100 -L nb_tasks 1,10 -L nb_users 1 -L nb_roles 1 \
		-L nb_commands 1 --setup "sh -c 'echo {nb_roles} {nb_users} {nb_tasks} {nb_commands} 1000 >> setup.log'" \
		--export-json "result_$(date +%y-%m-%d_%H.%M).json" "env /usr/bin/true" "nice /usr/bin/true" \
		--show-output >seed.out 2>&1)
	check "seed command line: exit 0" [ $? -eq 0 ]
	check "seed command line: setup once per benchmark with its parameters" sh -c \
		"[ \"\$(cat '$T/setup.log')\" = \"\$(printf '1 1 1 1 1000\n1 1 1 1 1000\n1 1 10 1 1000\n1 1 10 1 1000')\" ]"
	cat >"$T/read.py" <<'PYEOF'
# Reads a hyperfine export the way hyperfine's scripts and RaR-perf's plot.py do.
import json, sys
import numpy as np
results = json.load(open(sys.argv[1]))["results"]
assert len(results) == 4, len(results)
for r in results:
    ts = r["times"]
    assert len(ts) >= 100, len(ts)
    assert abs(np.mean(ts) - r["mean"]) < 1e-9
    assert abs(np.median(ts) - r["median"]) < 1e-9
    assert abs(np.std(ts, ddof=1) - r["stddev"]) < 1e-9
    assert min(ts) == r["min"] and max(ts) == r["max"]
    assert set(r["parameters"]) == {"nb_tasks", "nb_users", "nb_roles", "nb_commands"}
    assert r["exit_codes"] == [0] * len(ts)
    print(r["command"], int(r["parameters"]["nb_tasks"]), "%.6f" % r["mean"], "%.3f" % np.percentile(ts, 95))
print([r["command"] for r in results])
PYEOF
	check "seed export read by a hyperfine-style script" sh -c "'$PY' '$T/read.py' '$T'/result_*.json > '$T/read.out'"
	check "seed export: hyperfine's benchmark order" grep -qF "['env /usr/bin/true', 'nice /usr/bin/true', 'env /usr/bin/true', 'nice /usr/bin/true']" "$T/read.out"
fi

# --- the seed's line exactly, in a directory holding bin/sudo and bin/sr ---------------------------
# The original README's hyperfine line with rarbench in hyperfine's place, word for word but for
# `$(python3 log.py 1 10000 15)` (15 sizes up to 10 000 tasks, minutes of runs): 1,10. Run as the
# README ran it, from a directory whose bin/ holds the tools by relative path (issue 46: a relative
# program was refused, "cannot start 'bin/sudo': Protocol error"): bin/sudo and bin/sr are the
# prefix's sudo and RootAsRole 3.3.4 JSON build, bin/confgen this tree's confgen (its positional
# form is the seed generator's). The setup writes etc/sudoers and etc/rootasrole.json here, as the
# seed's did; the prefix's tools read the prefix's policies (their paths are built in), which
# grant root /usr/bin/true for the length of the run, under the prefix's lock, then deny again.
prefix=${RARPERF_PREFIX:-/opt/rarperf}
if [ "$(id -u)" -eq 0 ] && [ -x "$prefix/bin/sudo" ] && [ -x "$prefix/bin/dosr-json" ] && [ -x "$PY" ]; then
	S=$T/seed
	mkdir -p "$S/bin" "$S/etc"
	ln -s "$prefix/bin/sudo" "$S/bin/sudo"
	ln -s "$prefix/bin/dosr-json" "$S/bin/sr"
	ln -s "$PWD/bin/confgen" "$S/bin/confgen"
	bench_uid=$(jq -r '.bench_uid // 4242' "$prefix/facts.json" 2>/dev/null)
	policies() { # confgen ARGS for the prefix's sudo and dosr-json policies
		"$PWD/bin/confgen" "$@" --sudoers "$prefix/etc/sudoers" --rar-json "$prefix/etc/rootasrole-json.json"
	}
	prefix_lock "$prefix" "30-rarbench.sh: the seed's line"
	seed_granted=1
	policies --uid 0 >"$T/grant.err" 2>&1
	check "seed's line: the prefix's sudo and dosr-json policies grant root /usr/bin/true" [ $? -eq 0 ] ||
		sed 's/^/    /' "$T/grant.err"
	(cd "$S" && "$RB" -N --warmup 100 -m 100 -L nb_tasks 1,10 -L nb_users 1 -L nb_roles 1 -L nb_commands 1 --setup 'bin/confgen etc/sudoers etc/rootasrole.json {nb_roles} {nb_users} {nb_tasks} {nb_commands} 1000' --export-json result_$(date +%y-%m-%d_%H.%M).json "bin/sudo /usr/bin/true" "bin/sr /usr/bin/true" --show-output \
		>"$T/seedline.out" 2>&1)
	rc=$?
	policies --uid "$bench_uid" --deny-all >/dev/null 2>&1 && seed_granted=
	prefix_unlock "$prefix"
	check "seed's line, relative bin/sudo and bin/sr: exit 0" [ $rc -eq 0 ] || tail -5 "$T/seedline.out"
	check "seed's line: the prefix's policies deny again" [ -z "$seed_granted" ]
	check "seed's line: the setup wrote etc/sudoers and etc/rootasrole.json where the seed's did" \
		grep -q 'tasks=10 commands=1 uid=1000' "$S/etc/sudoers"
	# What the seed's plot.py and reg.py read (github.com/LeChatP/RaR-perf): each result's command
	# through their regex 'bin/(sr|sudo) /usr/bin/true', int() of its nb_roles and nb_tasks, its
	# median and mean in ms; reg.py then fits the median against nb_tasks at nb_roles 1
	# (scipy's linregress). They need pandas, matplotlib and scipy, which Debian's python3 here
	# lacks: this reads the same fields with numpy alone.
	cat >"$T/seedread.py" <<'PYEOF'
import json, re, sys
import numpy as np
data = json.load(open(sys.argv[1]))
regex = re.compile(r"bin/(sr|sudo) /usr/bin/true")
rows = []
for r in data["results"]:
    p = r["parameters"]
    rows.append({"command": regex.sub(r"\1", r["command"]), "nb_roles": int(p["nb_roles"]),
                 "nb_tasks": int(p["nb_tasks"]), "median": r["median"] * 1000, "mean": r["mean"] * 1000})
    assert len(r["times"]) >= 100 and r["exit_codes"] == [0] * len(r["times"])
for tool in ("sudo", "sr"):
    pts = [(x["nb_tasks"], x["median"]) for x in rows if x["command"] == tool and x["nb_roles"] == 1]
    assert [t for t, _ in pts] == [1, 10], pts
    slope = np.polyfit([t for t, _ in pts], [m for _, m in pts], 1)[0]
    assert all(m > 0 for _, m in pts) and np.isfinite(slope)
    print(tool, "%.4f ms/task" % slope)
PYEOF
	check "seed's line: its export read as plot.py and reg.py read it (sudo and sr, a slope each)" \
		sh -c "cd '$S' && '$PY' '$T/seedread.py' result_*.json >'$T/seedread.out' 2>&1 &&
			grep -q '^sudo ' '$T/seedread.out' && grep -q '^sr ' '$T/seedread.out'" ||
		sed 's/^/    /' "$T/seedread.out"
	check "seed's line: a relative program that is not there names itself and the reason" sh -c \
		"cd '$S' && '$RB' -N --runs 1 'bin/nosuch /usr/bin/true' 2>&1 >/dev/null | grep -qF \"cannot execute program 'bin/nosuch': No such file or directory\""
else
	echo "ok - the seed's line with the prefix's sudo and dosr-json # SKIP needs root and a provisioned $prefix"
fi

# --- output routing, shells, units -----------------------------------------------------------------
"$RB" -N --style none --runs 2 --output "$T/cmd.out" "sh -c 'echo out; echo err >&2'" >/dev/null 2>&1
check "--output FILE gets stdout of every run, not stderr" [ "$(cat "$T/cmd.out")" = "$(printf 'out\nout')" ]
"$RB" -N --style basic --runs 2 --show-output "echo shown-$$" >"$T/show.out" 2>&1
check "--show-output lets the command write" [ "$(grep -cx "shown-$$" "$T/show.out")" -eq 2 ]
"$RB" -N --style basic --runs 2 "echo hidden-$$" >"$T/hide.out" 2>&1
check "output hidden by default" sh -c "! grep -qx 'hidden-$$' '$T/hide.out'"
with_fds "$T/fd7" "$RB" -N --style none --runs 2 --show-output "ls /proc/self/fd" >"$T/fds.out" 2>&1
check "no --as-user: the command gets fds 0 1 2 only (and ls's own 3)" \
	[ "$(sort -u "$T/fds.out" | tr '\n' ' ')" = "0 1 2 3 " ]
"$RB" -S 'sh -e' --style basic --runs 2 --export-json "$T/shell.json" 'true' >"$T/shell.out" 2>&1
check "-S 'sh -e': runs through that shell, recorded" jqt '.rarbench.shell=="sh -e" and (.results[0].times|length)==2' "$T/shell.json"
"$RB" -N --style basic --runs 2 --time-unit second 'sleep 0.01' >"$T/unit.out" 2>&1
check "--time-unit second" grep -q 'Time (mean ± σ):  *0\.0[0-9][0-9] s' "$T/unit.out"

# --- run to a precision, and the estimate beside hyperfine's keys ----------------------------------
"$RB" -N --style none --runs 5 --export-json "$T/fixed.json" 'sleep 0.005' >/dev/null 2>&1
# "keep" (the default) uses a contended run as measured: all 5 are used however many were
# contended, which depends on the machine's load (a sum with contended_runs was flaky).
check "fixed count: a median estimate with its interval beside hyperfine's keys, no target" \
	jqt '.results[0] | (.nivcsw|length)==5 and .rarbench.estimator=="median"
	and (.rarbench.ci95|length)==2 and .rarbench.precision==null and .rarbench.precision_met==null
	and .rarbench.contended_treatment=="keep" and .rarbench.runs_used == 5
	and .rarbench.contended_runs >= 0 and .rarbench.contended_runs <= 5' "$T/fixed.json"
# sleep 5 ms is steady: its median is known within 10 % long before the 500-run bound
"$RB" -N --style basic --precision 10 -m 5 -M 500 --export-json "$T/prec.json" 'sleep 0.005' \
	>"$T/prec.out" 2>&1
check "--precision 10: exit 0" [ $? -eq 0 ]
check "--precision 10: stops early on a steady command ($(jq '.results[0].times|length' "$T/prec.json" 2>/dev/null) of at most 500 runs)" \
	jqt '.results[0] | (.times|length) >= 5 and (.times|length) < 500' "$T/prec.json"
check "--precision 10: records the target and what was reached" \
	jqt '.results[0].rarbench | .precision==0.1 and .precision_met==true and .precision_reached <= 0.1
	and .ci95[0] <= .estimate and .estimate <= .ci95[1]' "$T/prec.json"
check "--precision 10: the summary shows the estimate's interval" grep -q 'Estimate (median' "$T/prec.out"
"$RB" -N --style none --precision 1e-6 -m 3 -M 12 --estimator mean --export-json "$T/prec2.json" true \
	>/dev/null 2>&1
check "--precision unreachable: -M bounds the runs, recorded as not met" \
	jqt '.results[0] | (.times|length)==12 and .rarbench.precision_met==false
	and .rarbench.estimator=="mean"' "$T/prec2.json"
"$RB" -N --precision 0 true >/dev/null 2>&1
check "--precision 0: exit 2" [ $? -eq 2 ]
"$RB" -N --estimator mode true >/dev/null 2>&1
check "--estimator mode: exit 2" [ $? -eq 2 ]

# --- misc CLI ---------------------------------------------------------------------------------------
check "--help" sh -c "'$RB' --help | grep -q -- '--as-user'"
"$RB" --runs 0 true >/dev/null 2>&1
check "--runs 0: exit 2" [ $? -eq 2 ]
"$RB" -m 5 -M 3 true >/dev/null 2>&1
check "min > max: exit 2" [ $? -eq 2 ]
# --estimator cpu-median: the estimate is the median of the runs' CPU time (user + system), which
# GNU time's %U + %S checks on the same runs: each measured run is GNU time running rarref, and
# writes its own line (10 ms resolution: a ~0.3 s workload, within 10 %). Timing other runs than
# rarbench's compared two samples of a noisy host, which differed by -8 to +14 % on a busy one.
rm -f "$T/gnutime"
"$RB" -N --style none --warmup 0 --runs 5 --estimator cpu-median --export-json "$T/cpu.json" \
	"/usr/bin/time -f %U_%S -a -o $T/gnutime $PWD/bin/rarref 3000" >"$T/cpu.out" 2>&1
rc=$?
gnu_cpu=$(tr _ ' ' <"$T/gnutime" | awk '{print $1 + $2}' | sort -g | sed -n 3p)
check "--estimator cpu-median: the export names it, its estimate within 10 % of GNU time's median %U + %S of the same 5 runs ($gnu_cpu s)" \
	sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$T/gnutime') -eq 5 ] && jq -e --argjson g '$gnu_cpu' '.results[0].rarbench | .estimator == \"cpu-median\"
		and (.estimate - \$g | fabs) <= 0.1 * \$g' '$T/cpu.json' >/dev/null"
check "--estimator cpu-median: the estimate is not above the wall-time median (CPU time holds no wait)" \
	jqt '.results[0] | .rarbench.estimate <= .median * 1.02' "$T/cpu.json"
"$RB" -N --style none --runs 1 --estimator cpu-mean true >"$T/cpu-bad.out" 2>&1
rc=$?
check "--estimator cpu-mean: exit 2 listing the estimators" \
	sh -c "[ $rc -eq 2 ] && grep -q 'is not median, mean, trimmed, min or cpu-median' '$T/cpu-bad.out'"

"$RB" --manifest /nonexistent >/dev/null 2>&1
rc=$?
check "--manifest is handed to manifest_main (fails cleanly on a missing file)" sh -c "[ $rc -ne 0 ] && [ $rc -lt 128 ]"

tap_status