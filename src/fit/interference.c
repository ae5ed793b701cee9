/* interference: the host's interference from the calibration workload's spread (interference.h). */
#include "interference.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void interference_of(const struct results *res, size_t source, struct interference *out)
{
	double steal = 0, load = 0;
	size_t said = 0, loads = 0;

	memset(out, 0, sizeof(*out));
	out->stall_known = true;
	for (size_t i = 0; res != NULL && i < res->n_refs; i++) {
		const struct results_point *p = &res->refs[i];

		if (source != SIZE_MAX && p->source != source)
			continue;
		if (p->n_runs < 2)
			continue; /* no runs said: nothing to judge the spread by */
		out->points++;
		out->runs += p->n_runs;
		out->slow += p->ref_slow;
		out->unseen += p->ref_unseen;
		out->stall_known &= p->ref_stall_known;
		if (isfinite(p->ref_steal)) {
			steal += p->ref_steal;
			said++;
		}
		if (isfinite(p->ref_load1)) {
			load += p->ref_load1;
			loads++;
		}
		if (p->ref_cpus > out->cpus)
			out->cpus = p->ref_cpus;
	}
	if (out->points == 0) {
		out->stall_known = false;
		return;
	}
	out->steal = said > 0 ? steal / (double)said : 0;
	out->load1 = loads > 0 ? load / (double)loads : NAN;
	out->busy = out->cpus > 0 && isfinite(out->load1) && out->load1 > (double)out->cpus;
	if (!((double)out->slow > INTERFERENCE_SLOW_SHARE * (double)out->runs))
		out->cause = INTERFERENCE_NONE;
	else if (out->steal > INTERFERENCE_STEAL_LIMIT)
		out->cause = INTERFERENCE_STEAL;
	else if (out->stall_known ? 3 * (out->slow - out->unseen) >= out->slow : out->busy)
		out->cause = INTERFERENCE_LOCAL;
	else
		/* Without the stall, nothing in the guest accounts for it: say what it looks like.
		 */
		out->cause = INTERFERENCE_UNSEEN;
}

bool interference_named(const struct interference *in)
{
	return in->cause != INTERFERENCE_NONE;
}

const char *interference_remedy(const struct interference *in)
{
	if (in->cause == INTERFERENCE_LOCAL)
		return "measure time when the machine is quiet or on another machine, or compare "
		       "counts (manifest \"counts\"); more runs would measure the other work";
	return "compare counts (manifest \"counts\": instructions, which no host moves), or "
	       "measure time on another machine; more runs would measure the host";
}

void interference_sentence(const struct interference *in, char *buf, size_t size)
{
	double share = in->runs > 0 ? 100.0 * (double)in->slow / (double)in->runs : 0;
	char cause[512];

	if (size == 0)
		return;
	buf[0] = '\0';
	if (in->points == 0)
		return;
	if (in->cause == INTERFERENCE_NONE) {
		snprintf(buf, size,
			 "The host was quiet: the calibration workload (rarref, the same work at "
			 "every point) ran past %g times its fastest tenth in %.1f %% of its runs "
			 "(%zu of %zu; above %g %% names a host that interferes)",
			 INTERFERENCE_SLOW_FACTOR, share, in->slow, in->runs,
			 100 * INTERFERENCE_SLOW_SHARE);
		return;
	}
	if (in->cause == INTERFERENCE_STEAL)
		snprintf(cause, sizeof(cause),
			 "the hypervisor gave %.1f %% of the CPU time to others (steal)",
			 100 * in->steal);
	else if (in->cause == INTERFERENCE_LOCAL && in->cpus > 0 && isfinite(in->load1))
		snprintf(
		    cause, sizeof(cause),
		    "other work on this machine held the CPU (load %.1f on %u CPUs; %zu of the "
		    "%zu slow runs waited for it on this machine's run queue)",
		    in->load1, in->cpus, in->slow - in->unseen, in->slow);
	else if (in->cause == INTERFERENCE_LOCAL)
		snprintf(cause, sizeof(cause),
			 "other work on this machine held the CPU (%zu of the %zu slow runs waited "
			 "for it on this machine's run queue)",
			 in->slow - in->unseen, in->slow);
	else if (in->stall_known && in->busy)
		snprintf(cause, sizeof(cause),
			 "the host took the CPU away from this machine and the guest could not see "
			 "it (steal %.1f %%; %zu of the %zu slow runs did not wait on this "
			 "machine's run queue), while this machine was busy too (load %.1f on %u "
			 "CPUs)",
			 100 * in->steal, in->unseen, in->slow, in->load1, in->cpus);
	else if (in->stall_known)
		snprintf(cause, sizeof(cause),
			 "the host took the CPU away from this machine and the guest could not see "
			 "it (steal %.1f %%; %zu of the %zu slow runs did not wait on this "
			 "machine's run queue)",
			 100 * in->steal, in->unseen, in->slow);
	else
		snprintf(cause, sizeof(cause),
			 "the host took the CPU away from this machine, or other work did (steal "
			 "%.1f %%; the files do not say whether the runs waited on this machine's "
			 "run queue)",
			 100 * in->steal);
	snprintf(buf, size,
		 "The host interfered: the calibration workload (rarref, the same work at every "
		 "point) ran past %g times its fastest tenth in %.1f %% of its runs (%zu of %zu; "
		 "above %g %% names a host that interferes): %s. Wall times here are not the "
		 "tools' cost; counts are. Remedy: %s",
		 INTERFERENCE_SLOW_FACTOR, share, in->slow, in->runs, 100 * INTERFERENCE_SLOW_SHARE,
		 cause, interference_remedy(in));
}

void interference_figure_line(const struct interference *in, char *buf, size_t size)
{
	static const char *const why[] = {
	    [INTERFERENCE_NONE] = "",
	    [INTERFERENCE_UNSEEN] = "the guest could not see it",
	    [INTERFERENCE_STEAL] = "the hypervisor took it",
	    [INTERFERENCE_LOCAL] = "other work on this machine",
	};

	if (size == 0)
		return;
	buf[0] = '\0';
	if (!interference_named(in))
		return;
	snprintf(buf, size,
		 "The host interfered (rarref past %g× its floor in %.0f %% of its runs, steal "
		 "%.1f %%: %s): wall times here are not the tools' cost; counts are",
		 INTERFERENCE_SLOW_FACTOR, 100.0 * (double)in->slow / (double)in->runs,
		 100 * in->steal, why[in->cause]);
}
