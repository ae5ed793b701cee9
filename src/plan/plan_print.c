/* plan_print: what a manifest run would do (--dry-run), and how long it would take (with a
 * pilot's costs; without, plan_estimate.c). */
#include "plan_print.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "policy_size.h"
#include "plan_estimate.h"
#include "sanitize.h"

/* What the printing reads: the plan, and the pilot's two ends (NULL: no pilot). */
struct plan_view {
	const struct plan *p;
	const struct plan_pilot *pilot;
};

/* The size the pilot interpolates along: the policy's commands, R*T*C (and actors). */
static double point_size(const struct sweep_point *pt)
{
	return plan_point_entries(pt);
}

void plan_pilot_points(const struct plan *p, size_t *lo, size_t *hi)
{
	size_t n = sweep_count(p->sweep), i;

	*lo = *hi = 0;
	for (i = 1; i < n; i++) {
		double s = point_size(sweep_at(p->sweep, i));

		if (s < point_size(sweep_at(p->sweep, *lo)))
			*lo = i;
		if (s > point_size(sweep_at(p->sweep, *hi)))
			*hi = i;
	}
}

/* Pilot value v (per end) interpolated linearly along point_size at pt. */
static double interpolate(const struct plan_view *pl, const struct sweep_point *pt, double lo,
			  double hi)
{
	double s0 = point_size(sweep_at(pl->p->sweep, pl->pilot[0].point));
	double s1 = point_size(sweep_at(pl->p->sweep, pl->pilot[1].point));

	if (s1 <= s0)
		return (lo + hi) / 2;
	return lo + (hi - lo) * (point_size(pt) - s0) / (s1 - s0);
}

/* The estimated wall time of the whole sweep, in seconds, from the pilot. */
static double estimate_seconds(const struct plan_view *pl)
{
	const struct manifest *m = pl->p->m;
	double total = 0, warm = ceil((double)m->warmup / m->rounds);
	size_t i, k;

	for (i = 0; i < sweep_count(pl->p->sweep); i++) {
		const struct sweep_point *pt = sweep_at(pl->p->sweep, i);
		double step = interpolate(pl, pt, pl->pilot[0].write_s, pl->pilot[1].write_s);

		for (k = 0; k < pl->p->nactive; k++) {
			double t =
			    interpolate(pl, pt, pl->pilot[0].run_s[k], pl->pilot[1].run_s[k]);

			/* warmup, the grant check, and the runs */
			step += (warm + 1 + plan_runs_per_round(m, t)) * t;
		}
		total += step * m->rounds;
	}
	return total;
}

/* The plan's subjects: each one's format, command, policy files and PAM files, or why it is
 * skipped; the reference. */
static void print_subjects(const struct plan_view *pl, FILE *out)
{
	const struct manifest *m = pl->p->m;
	size_t i;

	fprintf(out, "\nSubjects (%zu measured):\n", pl->p->nactive);
	for (i = 0; i < pl->p->nsubjects; i++) {
		const struct plan_subject *s = &pl->p->subjects[i];

		if (s->skip_reason != NULL) {
			fprintf(out, "  %-14s skipped: %s\n", s->ms->id, s->skip_reason);
			continue;
		}
		fprintf(out, "  %-14s %-8s %s\n", s->ms->id, policy_format_name(s->ms->format),
			s->command_line);
		fprintf(out, "  %-14s          policy %s%s%s%s%s\n", "", s->policy,
			s->policy_data ? ", data " : "", s->policy_data ? s->policy_data : "",
			s->ms->policy_mount_at ? ", shown at " : "",
			s->ms->policy_mount_at ? s->ms->policy_mount_at : "");
		if (s->pam_dir != NULL)
			fprintf(out,
				"  %-14s          PAM service files of %s shown at /etc/pam.d\n",
				"", s->pam_dir);
	}
	if (m->reference)
		fprintf(out,
			"  %-14s rarref %u, beside rarbench: the calibration workload, run in "
			"every step beside the subjects\n",
			MANIFEST_REFERENCE_ID, m->reference_units);
	if (m->kernel_reference)
		fprintf(
		    out,
		    "  %-14s rarkref, beside rarbench: the kernel's prices (exec and reap, execve, "
		    "page faults, %d kinds of call), run in every step beside the subjects\n",
		    MANIFEST_KERNEL_PREFIX "*", MANIFEST_KERNEL_KINDS - 3);
}

/* The plan's points, runs per point and subject, each run's environment and the profile pass. */
static void print_runs(const struct plan_view *pl, FILE *out)
{
	const struct manifest *m = pl->p->m;
	size_t n = sweep_count(pl->p->sweep), i;

	fprintf(out, "\nPoints: %zu (", n);
	for (int a = 0; a < MANIFEST_AXIS_COUNT; a++)
		fprintf(out, "%s%s %zu value%s", a ? ", " : "", manifest_axis_name(a), m->axes[a].n,
			m->axes[a].n == 1 ? "" : "s");
	if (m->files.n > 0)
		fprintf(out, ", %s %zu value%s", MANIFEST_FILES_AXIS, m->files.n,
			m->files.n == 1 ? "" : "s");
	if (m->env.nlimit_values > 0)
		fprintf(out, ", %s %zu values", m->env.limits[m->env.limit_axis].name,
			m->env.nlimit_values);
	fprintf(out, ", repetitions %u), %u round%s each%s\n", m->repetitions, m->rounds,
		m->rounds == 1 ? "" : "s", m->rounds > 1 ? ", points shuffled per round" : "");
	fprintf(out, "Runs per point and subject: %u warmup, ", m->warmup);
	if (m->precision > 0)
		fprintf(out, "%u to %u runs (precision %.3g %%, at most %u rounds)", m->min_runs,
			m->max_runs, m->precision * 100, m->max_rounds);
	else {
		fprintf(out, "at least %u runs", m->min_runs);
		if (m->min_time_ns > 0)
			fprintf(out, ", more to fill %.3g s", (double)m->min_time_ns / 1e9);
		if (m->max_runs)
			fprintf(out, ", at most %u", m->max_runs);
	}
	fprintf(out, "; a run is killed after %u s\n", m->run_timeout_ms / 1000u);

	fputs("Each run's environment:", out);
	for (i = 0; i < m->env.nlimits; i++) {
		if (m->env.limits[i].unlimited)
			fprintf(out, " %s unlimited,", m->env.limits[i].name);
		else
			fprintf(out, " %s %" PRIu64 ",", m->env.limits[i].name,
				m->env.limits[i].value);
	}
	fprintf(out, " umask %03o, cwd %s, CPUs ", m->env.umask, m->env.cwd);
	if (m->env.ncpus == 0)
		fputs("any", out);
	for (i = 0; i < m->env.ncpus; i++)
		fprintf(out, "%s%u", i ? "," : "", m->env.cpus[i]);
	if (m->env.has_env) {
		fputs("; env", out);
		for (i = 0; i < m->env.nenv; i++)
			fprintf(out, " %.*s", (int)strcspn(m->env.env[i], "="), m->env.env[i]);
	} else {
		fputs("; env PATH, LANG=C", out);
	}
	fputs(" and the bench user's HOME, USER, LOGNAME, SHELL (nothing inherited)\n", out);
	fputs(
	    m->env.page_cache_as_found
		? "Page cache: each program as found (page_cache \"as_found\", rarperf 0.6's "
		  "method)\n"
	    : m->env.page_cache_each_round
		? "Page cache: every measured program evicted before each round and read back "
		  "from disk by its first run of the round (page_cache \"evict_each_round\")\n"
		: "Page cache: every measured program evicted before the sweep and read back from "
		  "disk by its first run\n",
	    out);
	if (m->profile && m->profile_budget_pct > 0)
		fprintf(
		    out,
		    "Profile: after the timed steps, each subject traced once per point by "
		    "strace while that costs at most %u %% of the timed runs' time "
		    "(profile_budget), and run once more for its rusage (doc/profile.md; not in "
		    "the estimate)\n",
		    m->profile_budget_pct);
	else if (m->profile)
		fputs(
		    "Profile: after the timed steps, each subject traced once per point by strace "
		    "and run once more for its rusage (doc/profile.md; not in the estimate)\n",
		    out);
	if (m->counts)
		fputs("Counts: after those, each subject run once per point under valgrind's "
		      "callgrind with the bench user's set-ID identity, its instructions counted up "
		      "to the exec of the command (doc/counts.md; not in the estimate)\n",
		      out);
}

/* The policy bytes of every point and subject (computed, not written) and the disk the largest
 * point needs. 0 or -1 (a policy that cannot be sized). */
static int print_bytes(const struct plan_view *pl, FILE *out, struct errbuf *eb)
{
	const struct manifest *m = pl->p->m;
	size_t n = sweep_count(pl->p->sweep), i, k, biggest = 0;
	uint64_t peak = 0, point_bytes[MANIFEST_SUBJECTS_MAX];
	struct policy_size_bytes sz;
	char h1[32], h2[32];
	struct statvfs vfs;

	fprintf(out, "\nPolicy bytes per point and subject:\n  %5s %8s %8s %8s %11s%s%s", "point",
		"nb_roles", "nb_users", "nb_tasks", "nb_commands",
		m->files.n > 0 ? " nb_files" : "", m->repetitions > 1 ? " rep" : "");
	for (i = 0; i < pl->p->nsubjects; i++)
		if (pl->p->subjects[i].skip_reason == NULL)
			fprintf(out, " %12.12s", pl->p->subjects[i].ms->id);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		const struct sweep_point *pt = sweep_at(pl->p->sweep, i);
		uint64_t sum = 0;

		for (k = 0; k < pl->p->nsubjects; k++) {
			if (pl->p->subjects[k].skip_reason != NULL)
				continue;
			if (sweep_point_policy_bytes(pl->p->m, pt, k, pl->p->prefix, &sz, eb) < 0)
				return errbuf_prefix(eb, "point %zu: subject %s", i + 1,
						     pl->p->subjects[k].ms->id);
			point_bytes[k] = sz.policy_bytes + sz.data_bytes;
			sum += point_bytes[k];
		}
		if (sum > peak) {
			peak = sum;
			biggest = i;
		}
		fprintf(out, "  %5zu %8u %8u %8u %11u", i + 1, pt->value[MANIFEST_AXIS_ROLES],
			pt->value[MANIFEST_AXIS_USERS], pt->value[MANIFEST_AXIS_TASKS],
			pt->value[MANIFEST_AXIS_COMMANDS]);
		if (m->files.n > 0)
			fprintf(out, " %8u", pt->value[MANIFEST_VALUE_FILES]);
		if (m->repetitions > 1)
			fprintf(out, " %3u", pt->repetition);
		for (k = 0; k < pl->p->nsubjects; k++)
			if (pl->p->subjects[k].skip_reason == NULL)
				fprintf(out, " %12" PRIu64, point_bytes[k]);
		fputc('\n', out);
	}
	/* A point's files are written beside the previous point's before they replace them. */
	fprintf(out, "\nDisk: at most %s in %s (point %zu, twice while it replaces the one before)",
		plan_bytes_text(2 * peak, h1, sizeof(h1)), pl->p->where.etc, biggest + 1);
	if (statvfs(pl->p->where.etc, &vfs) == 0)
		fprintf(out, "; %s free there",
			plan_bytes_text((uint64_t)vfs.f_bavail * vfs.f_frsize, h2, sizeof(h2)));
	fputc('\n', out);
	return 0;
}

/* The pilot's cost per run and its estimated wall time, then the estimate from the procedure. */
static int print_time(const struct plan_view *pl, FILE *out, struct errbuf *eb)
{
	size_t i, k;

	fputc('\n', out);
	if (pl->pilot != NULL) {
		double est = estimate_seconds(pl);

		fprintf(out, "Pilot (%d runs of each subject at points %zu and %zu):\n",
			PLAN_PILOT_RUNS, pl->pilot[0].point + 1, pl->pilot[1].point + 1);
		for (i = 0, k = 0; i < pl->p->nsubjects; i++) {
			if (pl->p->subjects[i].skip_reason != NULL)
				continue;
			fprintf(out, "  %-14s %10.3f ms  %10.3f ms\n", pl->p->subjects[i].ms->id,
				pl->pilot[0].run_s[k] * 1e3, pl->pilot[1].run_s[k] * 1e3);
			k++;
		}
		fprintf(out,
			"Estimated wall time: %.0f s (%.1f min), linear in the policy size "
			"between the pilot's points\n",
			est, est / 60);
	}
	return plan_estimate_print(pl->p, out, pl->pilot != NULL, eb);
}

/* What the manifest asked to run that root's files alone would not: in plain words, first. */
static void print_unsafe(const struct plan_view *pl, FILE *out)
{
	for (size_t i = 0; i < pl->p->nsubjects; i++)
		if (pl->p->subjects[i].unsafe != NULL)
			fputs(pl->p->subjects[i].unsafe, out);
	if (pl->p->m->unsafe_command)
		fprintf(out,
			"UNSAFE: the command %s is granted to %s as root at every point "
			"(unsafe_command): if it can run another program or write a file, whoever "
			"can act as %s is root while the sweep runs\n",
			pl->p->m->command, pl->p->m->bench_user, pl->p->m->bench_user);
}

static int plan_text(const struct plan_view *pl, FILE *out, struct errbuf *eb)
{
	fprintf(out, "Plan of %s (%s) against %s; nothing was written.\n", pl->p->manifest,
		pl->p->m->name, pl->p->where.real);
	print_unsafe(pl, out);
	print_subjects(pl, out);
	print_runs(pl, out);
	if (print_bytes(pl, out, eb) < 0)
		return -1;
	return print_time(pl, out, eb);
}

int plan_print(const struct plan *p, const struct plan_pilot *pilot, FILE *out, struct errbuf *eb)
{
	const struct plan_view view = {.p = p, .pilot = pilot};
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc = -1;

	/* Written whole, then through the sanitiser: every manifest or facts string of the
	 * plan (name, commands, paths, skip reasons) reaches the terminal escaped. */
	if (mem == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	rc = plan_text(&view, mem, eb);
	if (fclose(mem) != 0 && rc == 0)
		rc = errbuf_set(eb, "out of memory");
	mem = NULL;
	if (rc == 0 && sanitize_write_lines(text, len, out) == EOF)
		rc = errbuf_set(eb, "writing the plan failed");
out:
	free(text);
	return rc;
}
