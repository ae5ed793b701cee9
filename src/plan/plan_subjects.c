/* plan_subjects: a manifest's subjects resolved against the prefix and checked against its
 * facts.json, every problem found in one pass. */
#include "plan.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binhint.h"
#include "fileio.h"
#include "growbuf.h"
#include "jsonget.h"

/* What builds a RootAsRole version the prefix lacks (make demo: the pinned one and the newest). */
#define RAR_VERSIONS_HINT                                                                          \
	"make provision builds those of rarperf_rootasrole_extra_versions, 4.0.3 and 4.2.0 by "    \
	"default; make provision-history RAR_RELEASES=V any other release"

static char *join_words(char *const *words, size_t n)
{
	size_t len = 1, i, off = 0, w;
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	s = calloc(1, len);
	if (s == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		if (i > 0)
			s[off++] = ' ';
		w = strlen(words[i]);
		memcpy(s + off, words[i], w);
		off += w;
	}
	return s;
}

/* A problem with subject i's key ("" for the subject itself). 0, or -1 out of memory. */
static int problem(struct plan *pl, struct errbuf *eb, size_t i, const char *key, const char *fmt,
		   ...)
{
	char path[64 + 64], what[2 * PATH_MAX - 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	/* lint: not a path (a JSON path, sized for its %.60s) */
	snprintf(path, sizeof(path), "$.subjects[%zu]%s%.60s", i, key[0] ? "." : "", key);
	return plan_problem(pl, eb, path, "%s", what);
}

static const char *json_string(const cJSON *o, const char *key)
{
	const cJSON *j = jsonget_member(o, key);

	return cJSON_IsString(j) ? j->valuestring : NULL;
}

/* Whether a and b name the same file: the same string, or the same resolved path. */
static bool same_path(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	if (strcmp(a, b) == 0)
		return true;
	return realpath(a, ra) != NULL && realpath(b, rb) != NULL && strcmp(ra, rb) == 0;
}

/* The facts.json entry of the tool at program (PREFIX/bin/<key>), or NULL. */
static const cJSON *tool_of(const struct plan *pl, const char *program)
{
	const cJSON *tools = jsonget_member(pl->facts, "tools"), *t;
	char bin[PATH_MAX];
	size_t len;

	cJSON_ArrayForEach(t, tools)
	{
		const char *path = json_string(t, "path");

		if (path != NULL && same_path(path, program))
			return t;
	}
	if (fileio_fmt(bin, sizeof(bin), "%s/bin/", pl->prefix) < 0)
		return NULL;
	len = strlen(bin);
	if (strncmp(program, bin, len) != 0)
		return NULL;
	return jsonget_member(tools, program + len);
}

/* The RootAsRole versions the prefix has, "3.3.4, 4.0.3" (for a message). */
static void rar_versions(const struct plan *pl, char *buf, size_t len)
{
	const cJSON *tools = jsonget_member(pl->facts, "tools"), *t;
	size_t off = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(t, tools)
	{
		const char *f = json_string(t, "format"), *v = json_string(t, "version");

		/* An absent build (make provision-history records why) is no version the prefix
		 * has. */
		if (f == NULL || v == NULL || strncmp(f, "rar-", 4) != 0 ||
		    strstr(buf, v) != NULL || cJSON_IsFalse(jsonget_member(t, "present")))
			continue;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s",
					off ? ", " : "", v);
		if (off >= len)
			break;
	}
	if (buf[0] == '\0')
		snprintf(buf, len, "none");
}

/* Whether the prefix holds a RootAsRole build of version. */
static bool has_rar_version(const struct plan *pl, const char *version)
{
	const cJSON *tools = jsonget_member(pl->facts, "tools"), *t;

	cJSON_ArrayForEach(t, tools)
	{
		const char *f = json_string(t, "format"), *v = json_string(t, "version");

		if (f != NULL && v != NULL && strncmp(f, "rar-", 4) == 0 &&
		    strcmp(v, version) == 0 && !cJSON_IsFalse(jsonget_member(t, "present")))
			return true;
	}
	return false;
}

/*
 * The checks against facts.json of a subject whose tool is known: its format,
 * its RootAsRole version, and the files it was built to read.
 */
static int check_against_tool(struct plan *pl, size_t i, const cJSON *tool, struct errbuf *eb)
{
	const struct plan_subject *s = &pl->subjects[i];
	const struct manifest_subject *ms = s->ms;
	const char *format = json_string(tool, "format"), *version = json_string(tool, "version");
	const char *settings = json_string(tool, "settings"), *policy = json_string(tool, "policy");
	const char *want = ms->rar_version != NULL ? ms->rar_version : POLICY_RAR_VERSION;
	bool rar = ms->format == POLICY_FORMAT_RAR_JSON || ms->format == POLICY_FORMAT_RAR_CBOR;

	if (format != NULL && strcmp(format, policy_format_name(ms->format)) != 0)
		return problem(pl, eb, i, "format", "%s reads %s policies, not %s", s->program,
			       format, policy_format_name(ms->format));
	if (rar && version != NULL && strcmp(version, want) != 0)
		return problem(pl, eb, i, "rar_version",
			       "%s is RootAsRole %s%s, the subject's files are for %s%s",
			       s->program, version, ms->build != NULL ? " (a source tree's)" : "",
			       want,
			       ms->build != NULL ? ": give the subject that \"rar_version\"" : "");
	/* RootAsRole reads the files baked into it; the others, the policy facts name. */
	if (rar && settings != NULL && !same_path(settings, s->policy))
		return problem(pl, eb, i, "policy", "%s reads %s, not %s", s->program, settings,
			       s->policy);
	if (ms->format == POLICY_FORMAT_RAR_CBOR && policy != NULL && s->policy_data != NULL &&
	    !same_path(policy, s->policy_data))
		return problem(pl, eb, i, "policy_data", "%s reads %s, not %s", s->program, policy,
			       s->policy_data);
	if (!rar && policy != NULL && !same_path(policy, s->policy))
		return problem(pl, eb, i, "policy", "%s reads %s, not %s", s->program, policy,
			       s->policy);
	return 0;
}

/* Subject i's program, policy files, argv and command line, expanded against the prefix.
 * 0 or -1. */
static int expand_strings(struct plan *pl, size_t i, struct errbuf *eb)
{
	const char *prefix = pl->prefix, *cmd = pl->m->command;
	const struct manifest_subject *ms = &pl->m->subjects[i];
	struct plan_subject *s = &pl->subjects[i];

	s->ms = ms;
	s->program = manifest_expand(ms->program, prefix, cmd, eb);
	s->policy = s->program ? manifest_expand(ms->policy, prefix, cmd, eb) : NULL;
	if (s->policy == NULL)
		return -1;
	if (ms->policy_data != NULL &&
	    (s->policy_data = manifest_expand(ms->policy_data, prefix, cmd, eb)) == NULL)
		return -1;
	s->argv = calloc(ms->nargs + 2, sizeof(*s->argv));
	if (s->argv == NULL || (s->argv[0] = strdup(s->program)) == NULL)
		return errbuf_set(eb, "out of memory");
	s->argc = 1;
	for (size_t k = 0; k < ms->nargs; k++) {
		s->argv[s->argc] = manifest_expand(ms->args[k], prefix, cmd, eb);
		if (s->argv[s->argc] == NULL)
			return -1;
		s->argc++;
	}
	s->command_line = join_words(s->argv, s->argc);
	if (s->command_line == NULL)
		return errbuf_set(eb, "out of memory");
	return 0;
}

/* Expands subject i's strings against the prefix; problems go to pl->problems. */
static int resolve_one(struct plan *pl, size_t i, struct errbuf *eb)
{
	const struct manifest_subject *ms = &pl->m->subjects[i];
	struct plan_subject *s = &pl->subjects[i];
	struct errbuf peb = {{0}};
	const cJSON *tool;
	struct stat st;

	if (expand_strings(pl, i, eb) < 0)
		return -1;
	/* Written as root at every point: only where rarperf's own policies live. */
	if (plan_prefix_confine(pl->where.etc, s->policy, &peb) < 0 &&
	    problem(pl, eb, i, "policy", "%s", peb.msg) < 0)
		return -1;
	if (s->policy_data != NULL &&
	    plan_prefix_confine(pl->where.etc, s->policy_data, &peb) < 0 &&
	    problem(pl, eb, i, "policy_data", "%s", peb.msg) < 0)
		return -1;
	if (ms->rar_version != NULL && !has_rar_version(pl, ms->rar_version)) {
		char have[256];

		rar_versions(pl, have, sizeof(have));
		if (ms->optional) {
			/* make demo provisions only the newest extra version (4.2.0). */
			char reason[512];

			snprintf(reason, sizeof(reason),
				 "the prefix has no RootAsRole %s build (it has %s; %s)",
				 ms->rar_version, have, RAR_VERSIONS_HINT);
			s->skip_reason = strdup(reason);
			return s->skip_reason != NULL ? 0 : errbuf_set(eb, "out of memory");
		}
		return problem(pl, eb, i, "rar_version",
			       "%s: the prefix has no RootAsRole %s build (it has %s; %s)",
			       ms->rar_version, ms->rar_version, have, RAR_VERSIONS_HINT);
	}
	tool = tool_of(pl, s->program);
	if (tool != NULL && cJSON_IsFalse(jsonget_member(tool, "present"))) {
		/* A mixed lab: the host says why it lacks the tool; the others measure it. */
		const char *why = json_string(tool, "reason");
		char reason[PATH_MAX + 128];

		snprintf(reason, sizeof(reason),
			 "%s: absent from this prefix (facts.json: %s; make provision builds every "
			 "tool of the prefix)",
			 s->program, why != NULL ? why : "no reason given");
		s->skip_reason = strdup(reason);
		return s->skip_reason != NULL ? 0 : errbuf_set(eb, "out of memory");
	}
	/* Executable by someone (the prefix's tools are for root and the bench group only, so
	 * the caller's own access(2) would refuse a dry run by another user). */
	if (stat(s->program, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & 0111) == 0) {
		char reason[PATH_MAX + 64];

		snprintf(reason, sizeof(reason), "%s is %s", s->program,
			 access(s->program, F_OK) != 0 ? "missing" : "not an executable file");
		if (!ms->optional) {
			char bin[PATH_MAX], hint[1024] = "";
			bool ours = fileio_fmt(bin, sizeof(bin), "%s/bin/", pl->prefix) == 0 &&
				    strncmp(s->program, bin, strlen(bin)) == 0;

			if (ours) /* a typo of one of the prefix's names: say the name */
				binhint_for(s->program, hint, sizeof(hint));

			/* make demo builds only what quick.json measures: say what builds the rest.
			 */
			return problem(
			    pl, eb, i, "program",
			    "%s (%s%sa subject that may be missing says \"optional\": true)",
			    reason, hint,
			    !ours ? ""
			    : ms->build != NULL
				? "make provision-dev builds a source tree's; "
				: "make provision builds every tool of the prefix; ");
		}
		s->skip_reason = strdup(reason);
		return s->skip_reason != NULL ? 0 : errbuf_set(eb, "out of memory");
	}
	if (plan_trust_mount_at(pl, i, tool, eb) < 0 || plan_pam_resolve(pl, i, tool, eb) < 0 ||
	    plan_trust_subject(pl, i, eb) < 0)
		return -1;
	return tool != NULL ? check_against_tool(pl, i, tool, eb) : 0;
}

int plan_resolve_subjects(struct plan *pl, struct errbuf *eb)
{
	size_t i;

	pl->subjects = calloc(pl->m->nsubjects, sizeof(*pl->subjects));
	if (pl->subjects == NULL)
		return errbuf_set(eb, "out of memory");
	pl->nsubjects = pl->m->nsubjects;
	if (plan_trust_bench_user(pl, eb) < 0)
		return -1;
	for (i = 0; i < pl->nsubjects; i++)
		if (resolve_one(pl, i, eb) < 0)
			return -1;
	for (i = 0; i < pl->nsubjects; i++)
		pl->nactive += pl->subjects[i].skip_reason == NULL;
	return plan_problems_verdict(pl, " with its subjects", eb);
}

void plan_subjects_clear(struct plan *pl)
{
	for (size_t i = 0; i < pl->nsubjects; i++) {
		struct plan_subject *s = &pl->subjects[i];

		for (size_t k = 0; k < s->argc; k++)
			free(s->argv[k]);
		free(s->argv);
		free(s->program);
		free(s->policy);
		free(s->policy_data);
		free(s->command_line);
		free(s->skip_reason);
		free(s->pam_dir);
		free(s->pam_service);
		free(s->unsafe);
	}
	free(pl->subjects);
	pl->subjects = NULL;
	pl->nsubjects = pl->nactive = 0;
}
