/* plan_build: a plan built in two calls (the manifest, then the prefix, read only) and freed in
 * one. */
#include "plan.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fileio.h"
#include "jsonget.h"
#include "plan_env.h"
#include "policy_size.h"
#include "countrun.h"
#include "straceprof.h"
#include "trustpath.h"
#include "runfiles.h"

#define PLAN_FACTS_MAX_BYTES (1024 * 1024)
#define PLAN_TRACER "/usr/bin/strace"
/* Names another strace (an absolute path): the tests point it at one that is missing. */
#define PLAN_TRACER_ENV "RARPERF_STRACE"
#define PLAN_TRACER_PACKAGE "strace"
#define PLAN_TRACER_ROLE "rarperf_packages"

/* --out's default: results/<name>, the name reduced to characters safe in a path. */
static void default_out(struct plan *p)
{
	size_t n;

	/* lint: sized to fit (at most 208 bytes of 256) */
	snprintf(p->out_default, sizeof(p->out_default), "results/%.200s", p->m->name);
	for (n = 8; p->out_default[n] != '\0'; n++) {
		char ch = p->out_default[n];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.'))
			p->out_default[n] = '_';
	}
	if (p->out_default[8] == '.')
		p->out_default[8] = '_'; /* never "results/.." */
	p->out = p->out_default;
}

/* Marks the failure in eb as the user's input (exit 2) and returns -1. */
static int bad_input(struct plan *p)
{
	p->bad_input = true;
	return -1;
}

int plan_open(const struct plan_config *cfg, struct plan **pp, struct errbuf *eb)
{
	struct manifest_problems problems;
	struct plan *p = calloc(1, sizeof(*p));

	*pp = p;
	if (p == NULL)
		return errbuf_set(eb, "out of memory");
	p->cfg = *cfg;
	p->manifest = cfg->manifest;
	p->prefix = cfg->prefix;
	p->out = cfg->out;
	p->m = manifest_load_all(cfg->manifest, 0, &problems, eb);
	if (p->m == NULL && problems.n > 1) {
		/* Every problem, one line each (main prints them), then how many. */
		p->problems = problems.line;
		p->nproblems = p->cap_problems = problems.n;
		errbuf_set(eb, "%s: %zu problems (above)", cfg->manifest, problems.n);
		return bad_input(p);
	}
	manifest_problems_clear(&problems);
	if (p->m == NULL)
		return bad_input(p); /* the message already starts with the file's name */
	digest_sha256_hex(p->m->text, p->m->text_len, p->manifest_sha);
	if (p->out == NULL)
		default_out(p);
	p->sweep = sweep_new(p->m, eb);
	if (p->sweep == NULL) {
		errbuf_prefix(eb, "%s", cfg->manifest);
		return bad_input(p);
	}
	return 0;
}

/*
 * A prefix is where it was provisioned (issue 46): its tools were configured
 * with the path facts.json records ("prefix", written by every provisioning),
 * so a copy's sudo still reads the original's sudoers. A copy elsewhere is
 * refused, saying how to make one's own; a facts.json without the key is
 * taken as it is. A copy bind-mounted at the original's path passes (its
 * tools read it there); prefixlock tells it from the original by its
 * directory's identity. 0, or -1 (exit 2: the caller's input).
 */
static int check_provisioned_here(const cJSON *facts, const char *prefix, const char *path,
				  struct errbuf *eb)
{
	const cJSON *rec = jsonget_member(facts, "prefix");
	char here[PATH_MAX], there[PATH_MAX];

	if (!cJSON_IsString(rec))
		return 0;
	if (realpath(prefix, here) == NULL)
		return errbuf_set_errno(eb, errno, "%s", prefix);
	if (realpath(rec->valuestring, there) == NULL &&
	    fileio_fmt(there, sizeof(there), "%s", rec->valuestring) < 0)
		return errbuf_set(eb, "%s: prefix: path too long", path);
	if (strcmp(here, there) == 0)
		return 0;
	return errbuf_set(eb,
			  "%s: prefix: provisioned as %s, not %s (a copy: its tools read their "
			  "policies there): provision a prefix of your own with make provision "
			  "RARPERF_PREFIX=%s",
			  path, rec->valuestring, here, here);
}

/* Reads PREFIX/facts.json (doc/interfaces.md §1); one that cannot be read is the prefix's
 * fault (exit 1), a copy of a prefix the user's (exit 2). */
static int load_facts(struct plan *p, struct errbuf *eb)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;

	if (fileio_fmt(path, sizeof(path), "%s/" RUNFILES_FACTS, p->prefix) < 0)
		return errbuf_set(eb, "%s: path too long", p->prefix);
	if (fileio_read(path, PLAN_FACTS_MAX_BYTES,
			"cannot open (provision the prefix first: make provision)", &buf, &len,
			eb) < 0)
		return -1;
	p->facts = cJSON_ParseWithLength(buf, len);
	free(buf);
	if (!cJSON_IsObject(p->facts))
		return errbuf_set(eb, "%s: not a JSON object", path);
	if (check_provisioned_here(p->facts, p->prefix, path, eb) < 0)
		return bad_input(p);
	return 0;
}

int plan_check_disk(struct plan *p, struct errbuf *eb)
{
	uint32_t value[MANIFEST_AXIS_COUNT];
	struct policy_size_bytes sz;
	uint64_t need = 0;
	struct statvfs vfs;
	char h1[32], h2[32];
	size_t k;

	manifest_largest_values(p->m, value);
	for (k = 0; k < p->nsubjects; k++) {
		if (p->subjects[k].skip_reason != NULL)
			continue;
		if (manifest_policy_bytes(p->m, value, k, p->prefix, &sz, eb) < 0)
			return errbuf_prefix(eb, "subject %s", p->subjects[k].ms->id);
		need += sz.policy_bytes + sz.data_bytes;
	}
	/* The point's files are written whole beside the previous point's before the renames. */
	need *= 2;
	if (statvfs(p->where.etc, &vfs) != 0)
		return 0; /* unknown: the writes will say */
	if ((uint64_t)vfs.f_bavail * vfs.f_frsize < need) {
		p->bad_input = true;
		return errbuf_set(
		    eb,
		    "%s: $.axes: nb_roles=%u,nb_users=%u,nb_tasks=%u,nb_commands=%u needs "
		    "%s in %s while its policies replace the previous point's; %s is free",
		    p->manifest, value[0], value[1], value[2], value[3],
		    plan_bytes_text(need, h1, sizeof(h1)), p->where.etc,
		    plan_bytes_text((uint64_t)vfs.f_bavail * vfs.f_frsize, h2, sizeof(h2)));
	}
	return 0;
}

/* With the manifest's "profile": refuses (exit 2, naming the Debian package and the playbook's
 * role) a host without the tracer. */
static int check_tracer(struct plan *p, struct errbuf *eb)
{
	const char *env = getenv(PLAN_TRACER_ENV);

	p->tracer = p->cfg.tracer != NULL           ? p->cfg.tracer
		    : env != NULL && env[0] != '\0' ? env
						    : PLAN_TRACER;
	if (!p->m->profile)
		return 0;
	if (p->tracer[0] != '/' || access(p->tracer, X_OK) != 0) {
		errbuf_set(eb,
			   "%s: \"profile\" needs %s: install Debian's package %s (the playbook's "
			   "role %s installs it)",
			   p->manifest, p->tracer, PLAN_TRACER_PACKAGE, PLAN_TRACER_ROLE);
		return bad_input(p);
	}
	if (straceprof_check_tracer(p->tracer, eb) < 0)
		return bad_input(p);
	return 0;
}

/*
 * With "counts" (or --counts): the instrument must be one this rarbench has (callgrind; perf's
 * hardware counters are not implemented yet), and valgrind and setpriv root's (they run as
 * root up to the identity switch, and valgrind as the set-ID tool's identity after it).
 */
static int check_counter(struct plan *p, struct errbuf *eb)
{
	const char *const need[] = {countrun_valgrind(), COUNTRUN_SETPRIV};

	if (p->cfg.counts)
		p->m->counts = true;
	if (!p->m->counts)
		return 0;
	if (p->m->counts_instrument == MANIFEST_INSTRUMENT_PERF) {
		errbuf_set(eb,
			   "%s: $.counts.instrument: \"perf\" is not implemented yet (this host's "
			   "hardware counter: %s); use \"callgrind\" or \"auto\"",
			   p->manifest, countrun_pmu_errno() == 0 ? "present" : "none");
		return bad_input(p);
	}
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		if (access(need[i], X_OK) != 0) {
			errbuf_set(eb,
				   "%s: \"counts\" needs %s: install Debian's package %s (the "
				   "playbook's role %s installs it)",
				   p->manifest, need[i], i == 0 ? COUNTRUN_PACKAGE : "util-linux",
				   PLAN_TRACER_ROLE);
			return bad_input(p);
		}
		if (geteuid() == 0 && trustpath_check(need[i], NULL, eb) < 0) {
			errbuf_prefix(eb, "%s: \"counts\": %s is not root's alone", p->manifest,
				      need[i]);
			return bad_input(p);
		}
	}
	return 0;
}

int plan_resolve(struct plan *p, struct errbuf *eb)
{
	if (plan_prefix_locate(&p->where, p->prefix, eb) < 0 || load_facts(p, eb) < 0)
		return -1;
	if (plan_resolve_subjects(p, eb) < 0 || plan_check_disk(p, eb) < 0 ||
	    (p->cfg.this_host && plan_env_check(p, eb) < 0))
		return -1;
	if (check_tracer(p, eb) < 0)
		return -1;
	return check_counter(p, eb);
}

void plan_free(struct plan *p)
{
	if (p == NULL)
		return;
	plan_subjects_clear(p);
	plan_problems_clear(p);
	cJSON_Delete(p->facts);
	sweep_free(p->sweep);
	manifest_free(p->m);
	free(p);
}
