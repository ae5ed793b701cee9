/* confgen: the folder header of confgen/ — what the policy library is for, what it may use. */
/*
 * confgen (libconfgen.a, and bin/confgen from main.c): the policy library.
 * Model, validate, serialise: build one struct policy, then hand it to one
 * thin writer per format. It is the source of the policy vocabulary (match
 * positions, sudoers layouts; the format names come from src/common's
 * policy_format, which results readers share) that manifests and results
 * spell. It uses src/common only (Makefile confgen_USES); src/sweep and
 * rarbench link it to regenerate policies at every sweep point.
 *
 * Modules, one line each:
 *   policy          the shape of one policy and the names every writer draws from it
 *   policy_sudoers  a sudoers file (Cmnd_Alias per task, user specs per role or task)
 *   policy_doas     an OpenDoas doas.conf (one permit rule per user and command)
 *   policy_please   please's please.ini (one section per task, anchored regex rules)
 *   policy_rar_json RootAsRole's single-file JSON (settings and policy together)
 *   policy_rar_cbor RootAsRole's CBOR data file plus its settings file
 *   policy_polkit   polkit JavaScript rules for pkexec (one rule per task, then a refusal)
 *   policy_size     the bytes each file of a format would have, computed without writing
 *   policyset       one shape written in several formats as one transaction (CLI, runner)
 *   policy_file     where a policy file may be written, with which owner, mode, attributes
 *   policy_txn      several policy files written to temporary siblings, renamed together
 *   policy_split    a sudoers policy split over a main file and a directory of parts
 *
 * This header declares nothing: include the module's own header.
 */
#ifndef RARPERF_CONFGEN_H
#define RARPERF_CONFGEN_H
#endif
