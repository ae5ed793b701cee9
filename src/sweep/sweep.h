/* sweep: the folder header of src/sweep, the privileged run of a plan. */
/*
 * Layer src/sweep (libsweep.a): the run of a manifest's plan (src/plan, read
 * as const): the prefix locked and its policies written and undone, every
 * point measured, the journal and the results. It uses src/common, confgen
 * (the policy writers), src/bench (measured runs) and src/plan (Makefile
 * sweep_USES); src/lab and the programs use it.
 *
 * Modules, one line each:
 *   journal       the append-only, fsync'd record of finished points, and its reader
 *                 (journal_read.c)
 *   progress      the writer of the one event protocol (JSON events or a bar; its event
 *                 names are src/common/events.h's, the reader's)
 *   prefixlock    one sweep at a time per prefix, and the record of what it must undo (and
 *                 whose: prefix, boot, pid and start time)
 *   sweepcg       the cgroup (v2) that holds a sweep and everything it starts
 *   runner        a manifest run: open, plan (dry run), run, close (runner.h; what it is
 *                 asked: runner_config.h)
 *   runner_setup  the run's whole state (struct runner), made and freed; seen by runner.c
 *                 and the passes after it (runner_profile.c, runner_counts.c) only
 *   runner_guard  the lock, the guard record, the marker and the deny-all
 *   runner_fault  the deny-all again from a fatal signal's handler, from bytes the guard kept
 *   runner_env    the pinned environment and limits of every run
 *   runner_point  the step: write, check the grant, measure, record, one outcome, over what
 *                 a step measures (runner_subjects.h) and what changes (runstate)
 *   runner_pilot  the dry run's pilot: a few measured runs at the sweep's two ends
 *   runstate      what changes during a run (hung subjects, refusals, points left unmeasured,
 *                 steps journalled, each point's runs so far, the profile's budget) and the
 *                 step's decisions over it
 *   refusal       a tool's refusal of a policy classified (limit, parse, crash, timeout), its
 *                 error line made safe; pure
 *   runner_refusal  a refusal said: its words, its line, its entry in results.json's meta
 *   runner_target the policy set a step writes
 *   runner_polkit pkexec's private bus and polkitd per step, polkitd's CPU time and memory
 *   runner_precision  the precision accumulator, fed one step's results at a time
 *   runner_reference  the calibration workload's runs
 *   runner_refcount   rarref counted beside the subjects: the host's price of an instruction
 *   runner_kernel     the kernel-side calibration (rarkref) and its unit prices
 *   runner_output results.json and results.tsv from the journal
 *   runner_profile    the profile pass
 *   runner_profile_files  what the profile pass leaves in OUT/profile/, read back
 *   runner_counts     the counted pass: each subject's instructions per point (callgrind)
 *   runner_passfile   a pass's point file (OUT/profile, OUT/counts) written whole
 */
#ifndef RARPERF_SWEEP_H
#define RARPERF_SWEEP_H

#include "plan.h"

#endif
