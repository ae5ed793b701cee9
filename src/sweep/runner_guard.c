/* runner_guard: the privileged state of a manifest run (lock, grants, namespaces, processes),
 * made on record and undone on every path. */
/*
 * What a sweep makes that outlives a mistake: policies in PREFIX/etc that
 * grant the bench user a command as root (honoured by the prefix's setuid
 * and capability tools), private mount namespaces with a directory under
 * /tmp, and measured processes. The order (STYLE 20):
 *   runner_guard_begin  lock the prefix; undo a dead run's record (kill what
 *                       its cgroup holds, policies deny-all, namespace
 *                       directories removed); make this run's cgroup
 *                       (sweepcg.h), record it, then move rarbench into it:
 *                       everything measured from here on is born in it;
 *   runner_guard_arm    record the policies and namespaces (a namespace's
 *                       directory before it is made), then write every
 *                       policy deny-all; from here a grant exists only
 *                       between runner_point_write_policies and the
 *                       runner_guard_deny that ends each step, and
 *                       runner_guard_point_end kills whatever a grant
 *                       started that outlived its step;
 *   runner_guard_end    deny-all, processes killed, namespaces removed,
 *                       record cleared, lock released — on success, error
 *                       and signal alike (runner_clear calls it).
 * A SIGKILL'd run skips the last step: its record (with its cgroup) is what
 * the next runner_guard_begin on the prefix undoes. Without a writable
 * cgroup2, processes are found by the environment string their runs start
 * with (RUNNER_MARKER_NAME): a setuid tool's command, which gets a fresh
 * environment, then escapes (the notice says so).
 */
#include "runner_guard.h"

#include <errno.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fileio.h"
#include "growbuf.h"
#include "jsonget.h"
#include "plan_prefix.h"
#include "prefixlock.h"
#include "runner_fault.h"
#include "proc.h"
#include "sweepcg.h"

/* notices kept for the summary; more are dropped (a runaway would fill memory) */
#define NOTICES_MAX 4096

void runner_notes_add(struct runner_notes *notes, const char *fmt, ...)
{
	char line[ERRBUF_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (growarray(&notes->line, &notes->cap, notes->n + 1, sizeof(*notes->line), NOTICES_MAX,
		      NULL) < 0)
		return;
	if ((notes->line[notes->n] = strdup(line)) != NULL)
		notes->n++;
}

void runner_notes_clear(struct runner_notes *notes)
{
	for (size_t i = 0; i < notes->n; i++)
		free(notes->line[i]);
	free(notes->line);
	memset(notes, 0, sizeof(*notes));
}

/* The name of the environment string that marks a run's measured processes. */
#define RUNNER_MARKER_NAME "RARBENCH_PREFIX"

struct runner_guard {
	const char *prefix; /* as given (messages) */
	char prefix_real[PATH_MAX];
	char etc_real[PATH_MAX];
	char marker[PATH_MAX + 32];
	const char *manifest;
	struct prefixlock *lock;
	cJSON *record;
	struct sweepcg *cgroup; /* holds rarbench and all it starts; NULL: no cgroup2 */
	struct runner_guard_policies armed;
};

const char *runner_guard_prefix(const struct runner_guard *g)
{
	return g->prefix_real;
}

const char *runner_guard_etc(const struct runner_guard *g)
{
	return g->etc_real;
}

const char *runner_guard_marker(const struct runner_guard *g)
{
	return g->marker;
}

static const char *record_string(const cJSON *o, const char *key)
{
	const cJSON *j = jsonget_member(o, key);

	return cJSON_IsString(j) ? j->valuestring : NULL;
}

int runner_guard_record_targets(const char *etc_real, const cJSON *record, struct runner_target *t,
				size_t *n, struct errbuf *eb)
{
	const cJSON *list = jsonget_member(record, "policies"), *e;

	*n = 0;
	if (list != NULL && !cJSON_IsArray(list))
		return errbuf_set(eb, "policies: not an array");
	cJSON_ArrayForEach(e, list)
	{
		const char *format = record_string(e, "format"), *layout;
		size_t k = *n;

		if (k == MANIFEST_SUBJECTS_MAX)
			return errbuf_set(eb, "more than %d policies", MANIFEST_SUBJECTS_MAX);
		memset(&t[k], 0, sizeof(t[k]));
		t[k].id = record_string(e, "id");
		t[k].policy = record_string(e, "policy");
		t[k].policy_data = record_string(e, "policy_data");
		t[k].rar_version = record_string(e, "rar_version");
		layout = record_string(e, "sudoers_layout");
		if (t[k].id == NULL || format == NULL || t[k].policy == NULL ||
		    policy_format_parse(format, &t[k].format) != 0)
			return errbuf_set(eb, "policy %zu: incomplete", k + 1);
		if (layout != NULL && policy_sudoers_layout_parse(layout, &t[k].layout) != 0)
			return errbuf_set(eb, "policy %zu: unknown layout", k + 1);
		if (t[k].rar_version != NULL && policy_rar_version_check(t[k].rar_version, eb) != 0)
			return errbuf_prefix(eb, "policy %zu", k + 1);
		/* A record is a file on disk: what it names is written as root, so only in etc. */
		if (plan_prefix_confine(etc_real, t[k].policy, eb) < 0 ||
		    (t[k].policy_data != NULL &&
		     plan_prefix_confine(etc_real, t[k].policy_data, eb) < 0))
			return -1;
		(*n)++;
	}
	return 0;
}

/* Writes the policies a dead run's record lists deny-all. */
static int undo_policies(const struct runner_guard *g, const cJSON *record, struct errbuf *eb)
{
	struct runner_target t[MANIFEST_SUBJECTS_MAX];
	struct policy_shape shape;
	size_t n, i;
	int rc = 0;

	if (runner_guard_record_targets(g->etc_real, record, t, &n, eb) < 0)
		return -1;
	policy_shape_init(&shape);
	shape.deny_all = true;
	/* Each on its own, every one tried (runner_guard_deny); the first error kept. */
	for (i = 0; i < n; i++) {
		struct errbuf one = {{0}};

		if (runner_write_targets(&shape, &t[i], 1, &one) < 0 && rc == 0) {
			*eb = one;
			rc = -1;
		}
	}
	return rc;
}

/* Removes the namespace directories a dead run's record lists. */
static void undo_namespaces(const cJSON *record)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, jsonget_member(record, "mntns"))
	{
		if (cJSON_IsString(e))
			mntns_remove_leftover(e->valuestring);
	}
}

struct runner_guard *runner_guard_locate(const struct plan_prefix *where, struct errbuf *eb)
{
	struct runner_guard *g = calloc(1, sizeof(*g));

	if (g == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	g->prefix = where->given;
	memcpy(g->prefix_real, where->real, sizeof(g->prefix_real));
	memcpy(g->etc_real, where->etc, sizeof(g->etc_real));
	/* The directory's identity too: hosts in mount namespaces (tests/lib/nshosts.sh) each see
	 * their own prefix at the same path, and must never end each other's runs. */
	if (fileio_fmt(g->marker, sizeof(g->marker), "%s=%s:%ju:%ju", RUNNER_MARKER_NAME,
		       g->prefix_real, (uintmax_t)where->dev, (uintmax_t)where->ino) < 0) {
		errbuf_set(eb, "%s: path too long", g->prefix_real);
		free(g);
		return NULL;
	}
	return g;
}

static int runner_guard_save(struct runner_guard *g, struct errbuf *eb);

/* Kills what a dead run's cgroup still holds and removes it; *killed grows. 0 or -1. */
static int undo_cgroup(const cJSON *record, size_t *killed, struct errbuf *eb)
{
	const char *path = record_string(record, "cgroup");
	size_t n = 0;
	int rc;

	if (path == NULL)
		return 0;
	rc = sweepcg_remove_leftover(path, &n, eb);
	*killed += n;
	return rc;
}

/*
 * This run's cgroup: made, recorded (the record saved), and only then
 * entered, so that no measured process exists that the record cannot find.
 * Without cgroup2 the run goes on with the environment marker (a notice
 * says what that cannot find). 0 or -1.
 */
static int enter_cgroup(struct runner_guard *g, struct runner_notes *notes, struct errbuf *eb)
{
	struct errbuf ceb = {{0}};

	g->cgroup = sweepcg_create(&ceb);
	if (g->cgroup == NULL) {
		runner_notes_add(
		    notes,
		    "warning: no cgroup for this sweep (%s): what a setuid tool starts "
		    "cannot be found after a crash",
		    ceb.msg);
		return 0;
	}
	if (runner_guard_save(g, eb) < 0)
		return -1;
	return sweepcg_enter(g->cgroup, eb);
}

int runner_guard_begin(struct runner_guard *g, const char *manifest, bool wait,
		       const volatile sig_atomic_t *stop, const struct runner_guard_policies *p,
		       struct runner_notes *notes, bool *busy, struct errbuf *eb)
{
	const char *real_prefix = g->prefix_real;
	char what[PATH_MAX + 32], why[ERRBUF_MSG_MAX];
	enum prefixlock_record_owner owner;
	char *stale = NULL;
	cJSON *record = NULL;
	size_t killed;
	enum prefixlock_outcome rc;
	int ok;

	g->manifest = manifest;
	g->armed = *p;
	snprintf(what, sizeof(what), "rarbench --manifest %.*s", PATH_MAX, manifest);
	rc = prefixlock_acquire(real_prefix, what, wait, stop, &g->lock, &stale, eb);
	if (rc == PREFIXLOCK_BUSY)
		*busy = true;
	if (rc != PREFIXLOCK_TAKEN)
		return -1;
	if (stale != NULL)
		runner_notes_add(notes, "took over the lock of %s from %s, which is gone",
				 real_prefix, stale);
	free(stale);
	if (prefixlock_take_record(g->lock, &record, &owner, why, sizeof(why), eb) < 0)
		return -1;
	if (owner == PREFIXLOCK_RECORD_LIVE) {
		cJSON_Delete(record);
		return errbuf_set(eb, "%s", why);
	}
	/* A copy's record names the original's cgroup, namespaces and pid, which are alive
	 * (finding 8): said, then dropped; this run's own record replaces it. */
	if (owner == PREFIXLOCK_RECORD_FOREIGN) {
		runner_notes_add(notes, "%s", why);
		cJSON_Delete(record);
		record = NULL;
		if (prefixlock_clear_record(g->lock, eb) < 0)
			return -1;
	}
	/* The processes first: a leftover holds its namespace (and a grant's fruit) alive. A
	 * record of an earlier boot names a cgroup that ended with it (its name may be taken). */
	killed = 0;
	if (record != NULL && owner == PREFIXLOCK_RECORD_DEAD &&
	    undo_cgroup(record, &killed, eb) < 0) {
		cJSON_Delete(record);
		return errbuf_prefix(eb, "%s/run/state.json: cannot undo a dead run's state",
				     real_prefix);
	}
	/* Without a cgroup: by the string their environment carries; under the lock nothing
	 * else on this prefix has it. */
	killed += proc_kill_marked(g->marker);
	if (killed > 0)
		runner_notes_add(notes, "killed %zu process(es) left by an earlier run", killed);
	if (record != NULL) {
		ok = undo_policies(g, record, eb);
		if (ok == 0) {
			undo_namespaces(record);
			ok = prefixlock_clear_record(g->lock, eb);
		}
		if (ok == 0)
			runner_notes_add(notes,
					 "undid what a run that died left on %s (policies written "
					 "deny-all, namespace directories removed)",
					 real_prefix);
		else
			errbuf_prefix(eb, "%s/run/state.json: cannot undo a dead run's state",
				      real_prefix);
		cJSON_Delete(record);
		if (ok != 0)
			return -1;
	}
	return enter_cgroup(g, notes, eb);
}

/* The record of this run's state: its active policies and namespaces. NULL: out of memory. */
static cJSON *build_record(const struct runner_guard *g)
{
	const struct runner_guard_policies *p = &g->armed;
	cJSON *rec = cJSON_CreateObject(), *list, *ns;
	size_t i;

	if (rec == NULL)
		return NULL;
	/* rec adopts every item added below. */
	cJSON_AddNumberToObject(rec, "pid", (double)getpid());
	cJSON_AddStringToObject(rec, "manifest", g->manifest);
	if (g->cgroup != NULL)
		cJSON_AddStringToObject(rec, "cgroup", sweepcg_path(g->cgroup));
	list = cJSON_AddArrayToObject(rec, "policies");
	ns = cJSON_AddArrayToObject(rec, "mntns");
	if (list == NULL || ns == NULL)
		goto oom;
	for (i = 0; i < p->n; i++) {
		const struct runner_target *t = &p->t[i];
		cJSON *e = cJSON_CreateObject();

		if (e == NULL || !cJSON_AddItemToArray(list, e))
			goto oom;
		cJSON_AddStringToObject(e, "id", t->id);
		cJSON_AddStringToObject(e, "format", policy_format_name(t->format));
		cJSON_AddStringToObject(e, "policy", t->policy);
		if (t->policy_data != NULL)
			cJSON_AddStringToObject(e, "policy_data", t->policy_data);
		if (t->rar_version != NULL)
			cJSON_AddStringToObject(e, "rar_version", t->rar_version);
		cJSON_AddStringToObject(e, "sudoers_layout", policy_sudoers_layout_name(t->layout));
		if (p->mntns_dir[i] != NULL)
			cJSON_AddItemToArray(ns, cJSON_CreateString(p->mntns_dir[i]));
	}
	return rec;
oom:
	cJSON_Delete(rec);
	return NULL;
}

/* Builds and saves the record of what this run has (and is about to have). 0 or -1. */
static int runner_guard_save(struct runner_guard *g, struct errbuf *eb)
{
	cJSON_Delete(g->record);
	g->record = build_record(g);
	if (g->record == NULL)
		return errbuf_set(eb, "out of memory");
	return prefixlock_save_record(g->lock, g->record, eb);
}

int runner_guard_deny(const struct runner_guard *g, struct errbuf *eb)
{
	const struct runner_guard_policies *p = &g->armed;
	struct policy_shape shape;
	size_t i;
	int rc = 0;

	policy_shape_init(&shape);
	shape.uid = p->uid;
	shape.command = p->command;
	shape.deny_all = true;
	/* One file at a time, every one tried: a file that cannot be written (another hard link
	 * keeps it immutable) must not leave the others granting. The first error is kept. */
	for (i = 0; i < p->n; i++) {
		struct errbuf one = {{0}};

		if (runner_write_targets(&shape, &p->t[i], 1, &one) < 0 && rc == 0) {
			*eb = one;
			rc = -1;
		}
	}
	return rc;
}

int runner_guard_arm(struct runner_guard *g, const struct runner_guard_policies *p,
		     struct errbuf *eb)
{
	g->armed = *p;
	if (runner_guard_save(g, eb) < 0 || runner_guard_deny(g, eb) < 0)
		return -1;
	/* What a fault's handler writes (runner_fault.c): the deny-all just written. */
	runner_fault_prepare(g->armed.t, g->armed.n);
	return 0;
}

size_t runner_guard_point_end(struct runner_guard *g)
{
	size_t killed;

	/* No run of ours is in progress: rarbench's own children go first, the way proc ends
	 * them; what the cgroup still holds beside rarbench is what a grant started (a root
	 * sleep, a daemon in a session of its own) and would outlive the grant. */
	proc_kill_orphans();
	killed = sweepcg_kill_others(g->cgroup);
	proc_kill_orphans(); /* reaps what the cgroup's kill made of our children */
	return killed;
}

void runner_guard_end(struct runner_guard *g, struct runner_notes *notes)
{
	struct errbuf eb = {{0}};
	bool undone = true;
	size_t i;

	if (g == NULL)
		return;
	if (g->lock == NULL)
		goto out;
	runner_fault_prepare(NULL, 0);
	if (g->record != NULL && runner_guard_deny(g, &eb) < 0) {
		runner_notes_add(notes,
				 "cannot write the policies deny-all (%s): the next run on %s will",
				 eb.msg, g->prefix);
		undone = false;
	}
	/* Nothing of ours runs now: what is left is a measured tool's escaped descendant. */
	sweepcg_free(g->cgroup);
	g->cgroup = NULL;
	proc_kill_orphans();
	proc_kill_marked(g->marker);
	for (i = 0; i < g->armed.n; i++) {
		if (g->armed.ns[i] == NULL)
			continue;
		mntns_free(*g->armed.ns[i]);
		*g->armed.ns[i] = NULL;
	}
	/* Only a record of this run: a dead run's that could not be undone stays for the next. */
	if (undone && g->record != NULL && prefixlock_clear_record(g->lock, &eb) < 0)
		runner_notes_add(notes, "%s", eb.msg);
	cJSON_Delete(g->record);
	g->record = NULL;
	prefixlock_release(g->lock);
	g->lock = NULL;
out:
	free(g);
}
