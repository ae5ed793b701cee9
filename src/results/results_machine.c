/* results_machine: the machine behind each file (meta.machine), and which files are one host:
 * different machines are different hosts, one machine's files are repetitions (results.h). */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growbuf.h"
#include "jsonbudget.h"
#include "jsonget.h"
#include "results.h"

/* The string at key of o into dst (size bytes; cut), or "" when it is not a string. */
static void machine_string(const cJSON *o, const char *key, char *dst, size_t size)
{
	const cJSON *v = jsonget_member(o, key);

	snprintf(dst, size, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

/* The manifest's name, axes and command as compact JSON: what must match for files to combine.
 */
static void machine_design(const cJSON *meta, char *dst, size_t size)
{
	const cJSON *man = jsonget_member(meta, "manifest");
	cJSON *d = NULL;
	char *text = NULL;
	static const char *const keys[] = {"name", "axes", "command", "match"};

	dst[0] = '\0';
	if (!cJSON_IsObject(man) || (d = cJSON_CreateObject()) == NULL)
		return;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const cJSON *v = jsonget_member(man, keys[i]);

		/* d adopts the duplicate; a NULL one (out of memory) leaves the key out */
		if (v != NULL)
			cJSON_AddItemToObject(d, keys[i], cJSON_Duplicate(v, 1));
	}
	text = cJSON_PrintUnformatted(d);
	if (text != NULL)
		snprintf(dst, size, "%s", text);
	cJSON_free(text);
	cJSON_Delete(d);
}

/* One rarbench meta (a results.json's, or one lab host's) as machine record m. */
static void machine_from_meta(const cJSON *meta, struct results_machine *m)
{
	const cJSON *mach = jsonget_member(meta, "machine");
	const cJSON *cpu = jsonget_member(mach, "cpu");
	const cJSON *kern = jsonget_member(mach, "kernel");
	char name[RESULTS_TOOL_MAX], fam[16], model[16], step[16], ucode[32];
	char rel[RESULTS_TOOL_MAX], build[RESULTS_TOOL_MAX];

	machine_string(mach, "machine_id_sha256", m->machine, sizeof(m->machine));
	machine_string(mach, "boot_id_sha256", m->boot, sizeof(m->boot));
	/* rarbench writes "unknown" for an id it could not read: no identity either */
	if (strcmp(m->machine, "unknown") == 0)
		m->machine[0] = '\0';
	if (strcmp(m->boot, "unknown") == 0)
		m->boot[0] = '\0';
	machine_string(cpu, "model_name", name, sizeof(name));
	if (name[0] == '\0') /* before the key: meta.host's cpu_model */
		machine_string(jsonget_member(meta, "host"), "cpu_model", name, sizeof(name));
	machine_string(cpu, "family", fam, sizeof(fam));
	machine_string(cpu, "model", model, sizeof(model));
	machine_string(cpu, "stepping", step, sizeof(step));
	machine_string(cpu, "microcode", ucode, sizeof(ucode));
	/* Shown in a report only: a description too long is cut. */
	if (fam[0] != '\0' &&
	    snprintf(m->cpu, sizeof(m->cpu), "%s, family %s model %s stepping %s, microcode %s",
		     name, fam, model, step, ucode) >= (int)sizeof(m->cpu))
		m->cpu[sizeof(m->cpu) - 1] = '\0';
	else if (fam[0] == '\0')
		snprintf(m->cpu, sizeof(m->cpu), "%s", name);
	machine_string(kern, "release", rel, sizeof(rel));
	machine_string(kern, "build", build, sizeof(build));
	if (rel[0] != '\0') {
		if (snprintf(m->kernel, sizeof(m->kernel), "%s %s", rel, build) >=
		    (int)sizeof(m->kernel))
			m->kernel[sizeof(m->kernel) - 1] = '\0';
	} else
		machine_string(jsonget_member(meta, "host"), "kernel", m->kernel,
			       sizeof(m->kernel));
	machine_design(meta, m->design, sizeof(m->design));
}

/* A new record for source and host at the end of res->machines; NULL out of memory. */
static struct results_machine *machine_add(struct results *res, size_t source, const char *host)
{
	struct errbuf unused;
	struct results_machine *m;

	if (growarray(&res->machines, &res->cap_machines, res->n_machines + 1,
		      sizeof(*res->machines), RESULTS_MACHINES_MAX, &unused) != 0)
		return NULL;
	m = &res->machines[res->n_machines++];
	memset(m, 0, sizeof(*m));
	m->source = source;
	snprintf(m->host, sizeof(m->host), "%s", host);
	snprintf(m->label, sizeof(m->label), "%s", host);
	return m;
}

int results_machine_read(struct results *res, const void *root, size_t source)
{
	const cJSON *meta = jsonget_member(root, "meta");
	const cJSON *hosts = jsonget_member(meta, "hosts"), *h;
	struct results_machine *m;

	/* A rarlab merged.json: one meta per host, keyed by the host's name. */
	if (cJSON_IsObject(hosts) && jsonget_member(meta, "manifest") == NULL) {
		cJSON_ArrayForEach(h, hosts)
		{
			if (h->string == NULL || (m = machine_add(res, source, h->string)) == NULL)
				return -1;
			machine_from_meta(h, m);
		}
		return 0;
	}
	if ((m = machine_add(res, source, "-")) == NULL)
		return -1;
	/* rarbench's plain mode: the machine in its "rarbench" object, no meta */
	machine_from_meta(meta != NULL ? meta : jsonget_member(root, "rarbench"), m);
	return 0;
}

const struct results_machine *results_machine_of(const struct results *res, const char *host)
{
	for (size_t i = 0; i < res->n_machines; i++)
		if (strcmp(res->machines[i].label, host) == 0)
			return &res->machines[i];
	return NULL;
}

/* The first key of two designs (compact JSON) that differs, for the message. */
static const char *machine_design_diff(const char *a, const char *b)
{
	static const char *const keys[] = {"name", "axes", "command", "match"};
	struct errbuf big = {{0}};
	/* strings of a results file's meta: their trees within 4 times their size (jsonbudget.h) */
	bool fit = jsonbudget_check(a, strlen(a), "design", &big) == 0 &&
		   jsonbudget_check(b, strlen(b), "design", &big) == 0;
	cJSON *ja = fit ? cJSON_Parse(a) : NULL, *jb = fit ? cJSON_Parse(b) : NULL;
	const char *what = "manifest";

	for (size_t i = 0; ja != NULL && jb != NULL && i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!cJSON_Compare(jsonget_member(ja, keys[i]), jsonget_member(jb, keys[i]), 1)) {
			what = keys[i];
			break;
		}
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	return what;
}

/* Whether file source has a point of subject. */
static bool machine_has_subject(const struct results *res, size_t source, const char *subject)
{
	for (size_t i = 0; i < res->n_points; i++)
		if (res->points[i].source == source && strcmp(res->points[i].subject, subject) == 0)
			return true;
	return false;
}

/* Whether files a and b measured one subject in one format (a repetition or another host). */
static bool machine_overlap(const struct results *res, size_t a, size_t b)
{
	for (size_t i = 0; i < res->n_points; i++) {
		const struct results_point *p = &res->points[i];

		if (p->source != a)
			continue;
		for (size_t j = 0; j < res->n_points; j++) {
			const struct results_point *q = &res->points[j];

			if (q->source == b && strcmp(p->subject, q->subject) == 0 &&
			    strcmp(p->format, q->format) == 0)
				return true;
		}
	}
	return false;
}

/* Where the last `skip` components of path start, and (into *from) where the `keep` before them
 * start: the label is path[*from, end). The two are equal when path has too few components. */
static size_t machine_cut(const char *path, size_t skip, size_t keep, size_t *from)
{
	size_t end = strlen(path), k;

	while (end > 0 && path[end - 1] == '/')
		end--;
	for (k = 0; k < skip && end > 0; k++) {
		while (end > 0 && path[end - 1] != '/')
			end--;
		while (end > 0 && path[end - 1] == '/')
			end--;
	}
	*from = end;
	for (k = 0; k<keep && * from> 0; k++) {
		if (k > 0)
			while (*from > 0 && path[*from - 1] == '/')
				(*from)--;
		while (*from > 0 && path[*from - 1] != '/')
			(*from)--;
	}
	return end;
}

/* The last component of path a and of path b, skip components from their ends, are equal. */
static bool machine_same_component(const char *a, const char *b, size_t skip)
{
	size_t fa, fb, ea = machine_cut(a, skip, 1, &fa), eb = machine_cut(b, skip, 1, &fb);

	return ea > fa && ea - fa == eb - fb && memcmp(a + fa, b + fb, ea - fa) == 0;
}

/*
 * Names each host by the part of its first file's path that tells it from the others: the
 * trailing components every file shares are dropped (seed-tasks/results.json), and of what is
 * left, the last component, or as many more as it takes to be unique
 * (doc/results/2026-11-30-debian12-2core/seed-tasks/results.json -> 2026-11-30-debian12-2core).
 */
static void machine_labels(struct results *res, const size_t *key)
{
	size_t common = 0, keep, i, j;
	bool unique = false;

	for (;; common++) {
		bool all = true;

		for (i = 1; i < res->n_sources && all; i++)
			all = machine_same_component(res->sources[0], res->sources[i], common);
		if (!all || res->n_sources < 2)
			break;
	}
	for (keep = 1; keep <= 64 && !unique; keep++) {
		for (i = 0; i < res->n_machines; i++) {
			struct results_machine *m = &res->machines[i];
			const char *path = res->sources[key[m->source]];
			size_t from, end = machine_cut(path, common, keep, &from);

			if (strcmp(m->host, "-") != 0)
				continue;
			if (end > from)
				snprintf(m->label, sizeof(m->label), "%.*s", (int)(end - from),
					 path + from);
			else
				snprintf(m->label, sizeof(m->label), "%s", path);
		}
		unique = true;
		for (i = 0; i < res->n_machines && unique; i++)
			for (j = 0; j < i && unique; j++)
				unique =
				    strcmp(res->machines[i].host, "-") != 0 ||
				    strcmp(res->machines[j].host, "-") != 0 ||
				    key[res->machines[i].source] == key[res->machines[j].source] ||
				    strcmp(res->machines[i].label, res->machines[j].label) != 0;
	}
}

/* The file's design and baseline can join the others'; -1 with the one line otherwise. */
static int machine_check_designs(const struct results *res, struct errbuf *eb)
{
	const struct results_machine *first = NULL;

	for (size_t i = 0; i < res->n_machines; i++) {
		const struct results_machine *m = &res->machines[i];

		if (m->design[0] == '\0')
			continue;
		if (first == NULL) {
			first = m;
			continue;
		}
		if (strcmp(first->design, m->design) != 0)
			return errbuf_set(eb,
					  "%s and %s: different manifests (their %s differs): "
					  "results of different designs are not combined",
					  res->sources[first->source], res->sources[m->source],
					  machine_design_diff(first->design, m->design));
	}
	return 0;
}

/* The line asking which machines files a and b (one without an identity) come from. */
static int machine_ask(const struct results *res, const struct results_machine *a,
		       const struct results_machine *b, struct errbuf *eb)
{
	return errbuf_set(eb,
			  "%s and %s: %s no machine identity (written before rarbench recorded "
			  "it): pass --machines distinct if they come from different machines, "
			  "--machines same if from one",
			  res->sources[b->source], res->sources[a->source],
			  a->machine[0] == '\0' && b->machine[0] == '\0' ? "both have" : "one has");
}

/* The line asking the same of two files that share a machine id but not a boot. */
static int machine_ask_boots(const struct results *res, const struct results_machine *a,
			     const struct results_machine *b, struct errbuf *eb)
{
	return errbuf_set(eb,
			  "%s and %s: one machine id, two boots, the same CPU and kernel: one "
			  "machine rebooted, or two clones of one VM image (clones share "
			  "/etc/machine-id): pass --machines distinct if they come from different "
			  "machines, --machines same if from one",
			  res->sources[b->source], res->sources[a->source]);
}

enum machine_match {
	MACHINE_OTHER,  /* two machines */
	MACHINE_ONE,    /* one machine: repetitions */
	MACHINE_UNSURE, /* one machine rebooted, or clones: only the user knows */
};

/*
 * Whether two files with an identity come from one machine. One machine id and one boot: one
 * machine. One machine id across boots is a machine rebooted or a clone of one VM image: clones
 * share /etc/machine-id (the published runs of 2026-12-02 and 2026-12-03 did, on AMD family 26
 * and family 23 CPUs), so a CPU or a kernel that differs says two machines, and otherwise the
 * files cannot tell.
 */
static enum machine_match machine_match(const struct results_machine *a,
					const struct results_machine *b)
{
	if (strcmp(a->machine, b->machine) != 0)
		return MACHINE_OTHER;
	if (a->boot[0] != '\0' && strcmp(a->boot, b->boot) == 0)
		return MACHINE_ONE;
	if (strcmp(a->cpu, b->cpu) != 0 || strcmp(a->kernel, b->kernel) != 0)
		return MACHINE_OTHER;
	return MACHINE_UNSURE;
}

/*
 * Each file's host into key[source]: the index of the first file of its machine. A lab's
 * merged.json is a host of its own (its points name their hosts). In auto mode a file without an
 * identity that measured a subject alike with an earlier file is an error (a repetition or
 * another machine: only the user knows); one that measured other subjects joins the first file,
 * as every file did before machines were told apart.
 */
static int machine_group(const struct results *res, enum results_machines_mode mode, size_t *key,
			 struct errbuf *eb)
{
	const struct results_machine *first = NULL;
	size_t i, j;

	for (i = 0; i < res->n_sources; i++)
		key[i] = i;
	for (i = 0; i < res->n_machines; i++) {
		const struct results_machine *a = &res->machines[i];
		bool unknown = a->machine[0] == '\0', joined = false;

		if (strcmp(a->host, "-") != 0)
			continue;
		if (first == NULL) {
			first = a;
			continue;
		}
		if (mode == RESULTS_MACHINES_SAME) {
			key[a->source] = key[first->source];
			continue;
		}
		for (j = 0; j < i && !joined; j++) {
			const struct results_machine *b = &res->machines[j];

			if (strcmp(b->host, "-") != 0)
				continue;
			if (mode == RESULTS_MACHINES_AUTO && (unknown || b->machine[0] == '\0') &&
			    machine_overlap(res, a->source, b->source))
				return machine_ask(res, a, b, eb);
			if (unknown || b->machine[0] == '\0')
				continue;
			switch (machine_match(a, b)) {
			case MACHINE_UNSURE:
				if (mode == RESULTS_MACHINES_AUTO &&
				    machine_overlap(res, a->source, b->source))
					return machine_ask_boots(res, a, b, eb);
				joined = mode == RESULTS_MACHINES_AUTO;
				break;
			case MACHINE_ONE:
				joined = true;
				break;
			case MACHINE_OTHER:
				break;
			}
			if (joined)
				key[a->source] = key[b->source];
		}
		if (unknown && mode == RESULTS_MACHINES_AUTO)
			key[a->source] = key[first->source];
	}
	return 0;
}

/* Gives the points (and reference points) of every file of key's hosts their host's label. */
static int machine_relabel(struct results *res, const size_t *key, struct errbuf *eb)
{
	machine_labels(res, key);
	for (int pass = 0; pass < 2; pass++) {
		struct results_point *pts = pass == 0 ? res->points : res->refs;
		size_t n = pass == 0 ? res->n_points : res->n_refs;

		for (size_t i = 0; i < n; i++) {
			char *label;

			if (pts[i].host == NULL || strcmp(pts[i].host, "-") != 0)
				continue;
			for (size_t k = 0; k < res->n_machines; k++)
				if (res->machines[k].source == pts[i].source &&
				    strcmp(res->machines[k].host, "-") == 0) {
					if ((label = strdup(res->machines[k].label)) == NULL)
						return errbuf_set(eb, "out of memory");
					free(pts[i].host);
					pts[i].host = label;
					break;
				}
		}
	}
	return 0;
}

int results_machines_assign(struct results *res, enum results_machines_mode mode,
			    const char *baseline, struct errbuf *eb)
{
	size_t *key = NULL, i, hosts = 0;
	int rc = -1;

	if (res->n_sources == 0)
		return 0;
	if ((key = calloc(res->n_sources, sizeof(*key))) == NULL)
		return errbuf_set(eb, "out of memory");
	if (machine_group(res, mode, key, eb) != 0)
		goto out;
	for (i = 0; i < res->n_sources; i++)
		hosts += key[i] == i;
	rc = 0;
	/* One machine: its files are repetitions (or supplements: seed-both's second manifest),
	 * fitted together as before. */
	if (hosts < 2)
		goto out;
	if (machine_check_designs(res, eb) != 0) {
		rc = -1;
		goto out;
	}
	for (i = 0; i < res->n_sources; i++)
		if (baseline != NULL && !machine_has_subject(res, i, baseline)) {
			rc = errbuf_set(eb,
					"%s: no baseline %s, which the other files have: files of "
					"different baselines are not combined (--baseline)",
					res->sources[i], baseline);
			goto out;
		}
	rc = machine_relabel(res, key, eb);
out:
	free(key);
	return rc;
}
