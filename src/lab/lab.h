/* lab: the folder header of src/lab — what the layer is for, what it may use, its modules. */
/*
 * Layer src/lab (liblab.a): many hosts at once. It uses src/common only
 * (the event reader, the results file's keys: Makefile lab_USES), never a program;
 * rarlab uses it. A host is not trusted: what it sends is bounded, checked,
 * and sanitised before it reaches a terminal or a TSV.
 *
 * Modules, one line each:
 *   inventory   Ansible's INI inventory (groups, children, vars, ranges) and -l patterns
 *               (inventory_range.c: [a:b:step]; inventory_resolve.c: connection variables;
 *               inventory_select.c: the --limit patterns)
 *   sshx        one host over libssh: pinned host key, key auth, SFTP, exec (sshx_sftp.c)
 *   remotecmd   the shell commands sent to a host: run rarbench recording its pid, stop it
 *   host_outcome the one outcome enum: how a host ended (struct host_end)
 *   hostpool    one job per host on worker threads, at most `forks` at once; the
 *               workers end each host
 *   hoststream  one host's event stream: progress, the end checked, files fetched and verified
 *   labident    what a lab host is (facts.json and a live probe), hosts compared
 *   jsonspan    strict JSON checked where it lies: walks and compact copies, no tree
 *   hostresults one host's results.json, checked and rewritten for the merge
 *   merge       merged.json (hyperfine format, "host" in every result) and summary.tsv
 *
 * This header declares nothing: include the module's own header.
 */
#ifndef RARPERF_LAB_H
#define RARPERF_LAB_H
#endif
