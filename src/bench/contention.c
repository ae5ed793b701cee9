/* contention: contended runs (from their off-CPU time), the estimate over the others, and the
 * host's CPU steal and load over a window. */
#include "contention.h"
#include "numarg.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* /proc/stat is a few KiB on a small host; its first lines are all this needs. */
#define CONTENTION_PROC_BYTES 8192

int64_t contention_offcpu_ns(uint64_t wall_ns, uint64_t user_ns, uint64_t system_ns)
{
	return (int64_t)wall_ns - (int64_t)user_ns - (int64_t)system_ns;
}

int64_t contention_baseline_ns(const struct measure_result *r)
{
	int64_t best = 0;

	for (size_t i = 0; i < r->n; i++) {
		int64_t off = contention_offcpu_ns(r->wall_ns[i], r->user_ns[i], r->system_ns[i]);

		if (i == 0 || off < best)
			best = off;
	}
	return best;
}

static int contention_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int64_t contention_reference_ns(int64_t *baselines, size_t n)
{
	if (n == 0)
		return INT64_MAX;
	qsort(baselines, n, sizeof(*baselines), contention_cmp_i64);
	/* The lower middle for an even count: a reference never above half the points. */
	return baselines[(n - 1) / 2];
}

bool contention_stall_known(const struct measure_result *r, size_t i)
{
	return r->stall_ns != NULL && r->stall_ns[i] >= 0;
}

bool contention_stall_contended(int64_t stall_ns, uint64_t wall_ns)
{
	int64_t limit = (int64_t)(CONTENTION_STALL_REL * (double)wall_ns);

	if (limit < CONTENTION_STALL_MIN_NS)
		limit = CONTENTION_STALL_MIN_NS;
	return stall_ns > limit;
}

bool contention_run_contended(const struct measure_result *r, size_t i, int64_t baseline_ns)
{
	int64_t off, slack;

	if (contention_stall_known(r, i))
		return contention_stall_contended(r->stall_ns[i], r->wall_ns[i]);
	/* No stall (a journal from before it, a kernel without schedstat): the off-CPU rule. */
	off = contention_offcpu_ns(r->wall_ns[i], r->user_ns[i], r->system_ns[i]);
	slack = (int64_t)(CONTENTION_SLACK_REL * (double)r->wall_ns[i]);

	if (slack < CONTENTION_SLACK_NS)
		slack = CONTENTION_SLACK_NS;
	return off - baseline_ns > slack;
}

size_t contention_count(const struct measure_result *r, int64_t baseline_ns)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += contention_run_contended(r, i, baseline_ns);
	return n;
}

size_t contention_preempted(const struct measure_result *r)
{
	int64_t base = contention_baseline_ns(r);
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++) {
		if (contention_stall_known(r, i))
			n += r->stall_ns[i] >= CONTENTION_PREEMPT_MIN_NS;
		else if (r->nivcsw != NULL)
			n += r->nivcsw[i] > 0 && contention_run_contended(r, i, base);
	}
	return n;
}

bool contention_estimate(const struct measure_result *r, enum estimate_kind k,
			 enum estimate_contended treat, int64_t baseline_ns, double *scratch,
			 struct estimate *out, size_t *contended)
{
	bool fell_back = false;
	size_t m = 0;

	*contended = 0;
	if (k == ESTIMATE_CPU_MEDIAN) {
		/* CPU time holds no wait: every run as it is, whatever treat says. */
		for (size_t i = 0; i < r->n; i++) {
			*contended += contention_run_contended(r, i, baseline_ns);
			scratch[i] = (double)r->user_ns[i] + (double)r->system_ns[i];
		}
		estimate_of(scratch, r->n, k, scratch + r->n, out);
		return false;
	}
	for (size_t i = 0; i < r->n; i++) {
		if (contention_run_contended(r, i, baseline_ns)) {
			(*contended)++;
			if (treat == ESTIMATE_CONTENDED_DROP)
				continue;
			if (treat == ESTIMATE_CONTENDED_CORRECT && contention_stall_known(r, i)) {
				/* The run without the time it waited for a CPU. */
				scratch[m++] = (double)r->wall_ns[i] - (double)r->stall_ns[i];
				continue;
			}
			if (treat == ESTIMATE_CONTENDED_CORRECT) {
				/* The run without its wait: its CPU time and the baseline off-CPU.
				 */
				scratch[m++] = (double)r->user_ns[i] + (double)r->system_ns[i] +
					       (double)baseline_ns;
				continue;
			}
		}
		scratch[m++] = (double)r->wall_ns[i];
	}
	if (m < ESTIMATE_PRECISION_MIN_RUNS && m < r->n) {
		/* Too few clean runs to say anything: every run, and the caller sees used == n. */
		m = 0;
		for (size_t i = 0; i < r->n; i++)
			scratch[m++] = (double)r->wall_ns[i];
		fell_back = true;
	}
	estimate_of(scratch, m, k, scratch + r->n, out);
	return fell_back;
}

/* The unsigned number after *p (skipping blanks); -1 when there is none. */
static int contention_next_u64(const char **p, uint64_t *out)
{
	const char *end = NULL;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (**p < '0' || **p > '9')
		return -1;
	if (numarg_u64_prefix(*p, 10, out, &end) != NUMARG_OK)
		return -1;
	*p = end;
	return 0;
}

int contention_parse_stat(const char *text, struct contention_host *h)
{
	/* cpu  user nice system idle iowait irq softirq steal guest guest_nice */
	uint64_t v[10] = {0};
	const char *p, *line;
	size_t i, nv = 0;

	if (strncmp(text, "cpu ", 4) != 0)
		return -1;
	p = text + 4;
	for (i = 0; i < 10; i++) {
		if (contention_next_u64(&p, &v[i]) != 0)
			break;
		nv++;
	}
	if (nv < 4)
		return -1;
	/* guest and guest_nice are already counted in user and nice. */
	h->total_ticks = 0;
	for (i = 0; i < nv && i < 8; i++)
		h->total_ticks += v[i];
	h->idle_ticks = v[3] + v[4];
	h->steal_ticks = v[7];
	h->running = 0;
	line = strstr(text, "\nprocs_running ");
	if (line != NULL) {
		uint64_t r;

		p = line + 15;
		if (contention_next_u64(&p, &r) == 0)
			h->running = r > 1000000 ? 1000000 : (unsigned)r;
	}
	return 0;
}

int contention_parse_loadavg(const char *text, struct contention_host *h)
{
	const char *end = NULL;
	double v;

	if (numarg_any_double_prefix(text, &v, &end) != NUMARG_OK || !isfinite(v) || v < 0)
		return -1;
	h->load1 = v;
	return 0;
}

/* Reads the start of a /proc file into buf (NUL-terminated). */
static int contention_slurp(const char *path, char *buf, size_t len, struct errbuf *eb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errbuf_set_errno(eb, errno, "%s", path);
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return errbuf_set_errno(eb, e, "%s", path);
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

int contention_read_host(struct contention_host *h, struct errbuf *eb)
{
	char buf[CONTENTION_PROC_BYTES];

	memset(h, 0, sizeof(*h));
	if (contention_slurp("/proc/stat", buf, sizeof(buf), eb) != 0)
		return -1;
	if (contention_parse_stat(buf, h) != 0)
		return errbuf_set(eb, "/proc/stat: no \"cpu\" line");
	if (contention_slurp("/proc/loadavg", buf, sizeof(buf), eb) != 0)
		return -1;
	if (contention_parse_loadavg(buf, h) != 0)
		return errbuf_set(eb, "/proc/loadavg: not a load average");
	return 0;
}

void contention_window_of(const struct contention_host *a, const struct contention_host *b,
			  struct contention_window *w)
{
	uint64_t total = b->total_ticks > a->total_ticks ? b->total_ticks - a->total_ticks : 0;
	uint64_t idle = b->idle_ticks > a->idle_ticks ? b->idle_ticks - a->idle_ticks : 0;
	uint64_t steal = b->steal_ticks > a->steal_ticks ? b->steal_ticks - a->steal_ticks : 0;

	memset(w, 0, sizeof(*w));
	if (total > 0) {
		w->steal = (double)steal / (double)total;
		w->busy = idle < total ? (double)(total - idle) / (double)total : 0.0;
	}
	w->load1 = b->load1;
	w->running = b->running;
}
