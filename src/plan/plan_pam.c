/* plan_pam: which PAM service files a subject's runs see at /etc/pam.d (manifest key "pam"),
 * the files a private mount namespace shows for them, and what a failed stack lacks. */
#include "plan.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "jsonget.h"
#include "mntns.h"
#include "pamstack.h"

#define PAM_ETC "/etc/pam.d"
/* Service files shown per subject; includes followed when looking for a missing module. */
#define PAM_FILES_MAX PLAN_PAM_FILES_MAX
#define PAM_INCLUDE_DEPTH 8
#define PAM_FILE_MAX_BYTES (64 * 1024)

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int plan_pam_resolve(struct plan *pl, size_t i, const cJSON *tool, struct errbuf *eb)
{
	struct plan_subject *s = &pl->subjects[i];
	const struct manifest_subject *ms = s->ms;
	const cJSON *service = jsonget_member(tool, "pam_service");
	const cJSON *stack = jsonget_member(tool, "pam_stack");
	char path[64];
	bool pam = cJSON_IsTrue(jsonget_member(tool, "pam"));

	if (pam && cJSON_IsString(service) &&
	    (s->pam_service = strdup(service->valuestring)) == NULL)
		return errbuf_set(eb, "out of memory");
	if (ms->pam == MANIFEST_PAM_OFF)
		return 0;
	/* AUTO: only a tool that facts.json says opens PAM, with a stack the playbook stored. */
	if (ms->pam == MANIFEST_PAM_AUTO && !(pam && cJSON_IsString(stack)))
		return 0;
	s->pam_dir = manifest_expand(ms->pam_dir != NULL ? ms->pam_dir : MANIFEST_PAM_DIR_DEFAULT,
				     pl->prefix, pl->m->command, eb);
	if (s->pam_dir == NULL)
		return -1;
	snprintf(path, sizeof(path), "$.subjects[%zu].pam", i); /* lint: not a path */
	/* The tool resolves /etc/pam.d's links to it from the manifest's cwd, not rarbench's. */
	if (s->pam_dir[0] != '/')
		return plan_problem(pl, eb, path,
				    "%s: expected an absolute directory ({prefix}/... with an "
				    "absolute --prefix)",
				    s->pam_dir);
	if (!is_dir(s->pam_dir))
		return plan_problem(pl, eb, path,
				    "%s: no such directory (make provision stores Debian's PAM "
				    "service files there)",
				    s->pam_dir);
	if (ms->pam == MANIFEST_PAM_ON && tool != NULL && !pam)
		return plan_problem(pl, eb, path,
				    "%s never opens PAM (facts.json: \"pam\": false): say "
				    "\"pam\": false or leave it out",
				    s->program);
	return 0;
}

/* The regular files of dir, sorted, as names into names[0..*n). 0 or -1 with eb. */
static int list_services(const char *dir, char names[][NAME_MAX + 1], size_t *n, struct errbuf *eb)
{
	struct dirent **ents = NULL;
	int count = scandir(dir, &ents, NULL, alphasort), k;
	char path[PATH_MAX];
	struct stat st;

	if (count < 0)
		return errbuf_set_errno(eb, errno, "%s", dir);
	*n = 0;
	for (k = 0; k < count; k++) {
		if (*n < PAM_FILES_MAX && ents[k]->d_name[0] != '.' &&
		    fileio_fmt(path, sizeof(path), "%s/%s", dir, ents[k]->d_name) == 0 &&
		    stat(path, &st) == 0 && S_ISREG(st.st_mode))
			snprintf(names[(*n)++], NAME_MAX + 1, "%s", ents[k]->d_name);
		free(ents[k]);
	}
	free(ents);
	if (*n == 0)
		return errbuf_set(eb, "%s: holds no PAM service file", dir);
	return 0;
}

int plan_pam_files(const struct plan_subject *s, const char *policy_abs, struct plan_pam_files *out,
		   struct errbuf *eb)
{
	static char names[PAM_FILES_MAX][NAME_MAX + 1];
	size_t k, count = 0;

	out->n = 0;
	/* /etc's overlay (the policy) before /etc/pam.d's, which lies inside it. */
	if (policy_abs != NULL)
		out->file[out->n++] =
		    (struct mntns_file){.target = s->ms->policy_mount_at, .source = policy_abs};
	if (s->pam_dir == NULL)
		return 0;
	if (list_services(s->pam_dir, names, &count, eb) < 0)
		return -1;
	for (k = 0; k < count; k++) {
		if (fileio_fmt(out->target[k], PATH_MAX, "%s/%s", PAM_ETC, names[k]) < 0 ||
		    fileio_fmt(out->source[k], PATH_MAX, "%s/%s", s->pam_dir, names[k]) < 0)
			return errbuf_set(eb, "%s/%s: path too long", s->pam_dir, names[k]);
		out->file[out->n++] =
		    (struct mntns_file){.target = out->target[k], .source = out->source[k]};
	}
	return 0;
}

/* The search for a missing module through a service's includes. */
struct pam_walk {
	const char *dir; /* the subject's pam directory: its files hide /etc/pam.d's */
	int depth;
	char service[NAME_MAX + 1];
	char missing[PAMSTACK_NAME_MAX];
};

static const char *const pam_module_dirs[] = {"/usr/lib/x86_64-linux-gnu/security",
					      "/lib/x86_64-linux-gnu/security",
					      "/usr/lib/aarch64-linux-gnu/security",
					      "/lib/aarch64-linux-gnu/security",
					      "/usr/lib64/security",
					      "/usr/lib/security",
					      "/lib/security",
					      NULL};

static bool module_exists(const char *name)
{
	char path[PATH_MAX];

	if (name[0] == '/')
		return access(name, F_OK) == 0;
	for (size_t k = 0; pam_module_dirs[k] != NULL; k++)
		if (fileio_fmt(path, sizeof(path), "%s/%s", pam_module_dirs[k], name) == 0 &&
		    access(path, F_OK) == 0)
			return true;
	return false;
}

static int walk_service(struct pam_walk *w, const char *service);

static int walk_entry(enum pamstack_kind kind, const char *name, int optional, void *arg)
{
	struct pam_walk *w = arg;

	if (kind == PAMSTACK_INCLUDE)
		return strchr(name, '/') == NULL ? walk_service(w, name) : 0;
	if (optional || module_exists(name))
		return 0;
	snprintf(w->missing, sizeof(w->missing), "%s", name);
	return 1;
}

/* 1 when the service (or what it includes) names a missing module; 0 otherwise. */
static int walk_service(struct pam_walk *w, const char *service)
{
	char path[PATH_MAX], *text = NULL;
	struct errbuf eb = {{0}};
	size_t len = 0;
	int rc;

	if (w->depth >= PAM_INCLUDE_DEPTH)
		return 0;
	if ((w->dir == NULL || fileio_fmt(path, sizeof(path), "%s/%s", w->dir, service) < 0 ||
	     access(path, F_OK) != 0) &&
	    fileio_fmt(path, sizeof(path), "%s/%.*s", PAM_ETC, NAME_MAX, service) < 0)
		return 0;
	if (fileio_read(path, PAM_FILE_MAX_BYTES, NULL, &text, &len, &eb) < 0)
		return 0;
	w->depth++;
	rc = pamstack_scan(text, len, walk_entry, w);
	w->depth--;
	if (rc != 0 && w->service[0] == '\0')
		snprintf(w->service, sizeof(w->service), "%s", service);
	free(text);
	return rc;
}

void plan_pam_explain(const struct plan_subject *s, char *buf, size_t len)
{
	static char names[PAM_FILES_MAX][NAME_MAX + 1];
	struct pam_walk w = {.dir = s->pam_dir};
	struct errbuf eb = {{0}};
	size_t n = 0, k;

	buf[0] = '\0';
	if (s->pam_service != NULL) {
		snprintf(names[0], sizeof(names[0]), "%s", s->pam_service);
		n = 1;
	} else if (s->pam_dir == NULL || list_services(s->pam_dir, names, &n, &eb) < 0) {
		return;
	}
	for (k = 0; k < n; k++) {
		w.service[0] = '\0';
		if (walk_service(&w, names[k]) != 0) {
			snprintf(buf, len,
				 "; PAM service %s (%s%s): module %s is in none of PAM's module "
				 "directories",
				 names[k], s->pam_dir != NULL ? s->pam_dir : PAM_ETC,
				 strcmp(w.service, names[k]) != 0 ? ", through an include" : "",
				 w.missing);
			return;
		}
	}
}

cJSON *plan_pam_meta(const struct plan *pl)
{
	cJSON *o = cJSON_CreateObject(), *e;

	for (size_t i = 0; o != NULL && i < pl->nsubjects; i++) {
		const struct plan_subject *s = &pl->subjects[i];

		if (s->skip_reason != NULL)
			continue;
		e = cJSON_AddObjectToObject(o, s->ms->id);
		if (s->pam_service != NULL)
			cJSON_AddStringToObject(e, "service", s->pam_service);
		else
			cJSON_AddNullToObject(e, "service");
		if (s->pam_dir != NULL)
			cJSON_AddStringToObject(e, "shown_at_etc_pam_d", s->pam_dir);
		else
			cJSON_AddStringToObject(e, "shown_at_etc_pam_d", "the host's /etc/pam.d");
	}
	return o;
}
