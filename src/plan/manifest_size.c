/* manifest_size: the bytes of each subject's policy files at each point, and max_policy_bytes. */
#include "manifest_impl.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The shape the runner writes at the point with axis values value (runner_point.c). */
static void point_shape(const struct manifest *m, const uint32_t value[MANIFEST_AXIS_COUNT],
			struct policy_shape *shape)
{
	policy_shape_init(shape);
	shape->roles = value[MANIFEST_AXIS_ROLES];
	shape->users = value[MANIFEST_AXIS_USERS];
	shape->tasks = value[MANIFEST_AXIS_TASKS];
	shape->commands = value[MANIFEST_AXIS_COMMANDS];
	shape->uid = (uint32_t)m->bench_uid;
	shape->command = m->command;
	shape->match = m->match;
	shape->seed_compat = m->seed_compat;
	shape->user = m->bench_user; /* please matches the user by name */
}

/*
 * path made absolute against the working directory, its directory resolved
 * when it exists (the writer names the file by the directory it opened);
 * malloc'd, NULL with eb filled.
 */
static char *absolute_resolved(const char *path, struct errbuf *eb)
{
	char cwd[PATH_MAX], *abs = NULL, *dir = NULL, *resolved = NULL, *out = NULL;
	const char *base;
	size_t len;

	if (path[0] == '/') {
		abs = strdup(path);
	} else if (getcwd(cwd, sizeof(cwd)) == NULL) {
		errbuf_set_errno(eb, errno, "getcwd");
		return NULL;
	} else if ((abs = malloc(strlen(cwd) + 1 + strlen(path) + 1)) != NULL) {
		/* lint: sized to fit (the malloc above) */
		snprintf(abs, strlen(cwd) + 1 + strlen(path) + 1, "%s/%s", cwd, path);
	}
	if (abs == NULL)
		goto oom;
	base = strrchr(abs, '/') + 1;
	dir = base - 1 == abs ? strdup("/") : strndup(abs, (size_t)(base - 1 - abs));
	if (dir == NULL)
		goto oom;
	resolved = realpath(dir, NULL);
	if (resolved == NULL) { /* not there (yet): the path as given */
		out = abs;
		abs = NULL;
		goto out;
	}
	len = strlen(resolved) + 1 + strlen(base) + 1;
	out = malloc(len);
	if (out == NULL)
		goto oom;
	snprintf(out, len, "%s%s%s", resolved, strcmp(resolved, "/") == 0 ? "" : "/", base);
	goto out;
oom:
	errbuf_set(eb, "out of memory");
out:
	free(resolved);
	free(dir);
	free(abs);
	return out;
}

/*
 * The path subject's RootAsRole settings name (rar-json: its policy file,
 * rar-cbor: its data file), as manifest_policy_bytes describes; *out NULL
 * for sudoers and doas. 0, or -1 with eb filled.
 */
static int named_path(const struct manifest *m, const struct manifest_subject *s,
		      const char *prefix, char **out, struct errbuf *eb)
{
	const char *tmpl = s->format == POLICY_FORMAT_RAR_CBOR ? s->policy_data : s->policy;
	char *expanded;

	*out = NULL;
	if (s->format != POLICY_FORMAT_RAR_JSON && s->format != POLICY_FORMAT_RAR_CBOR)
		return 0;
	if (tmpl == NULL)
		return errbuf_set(eb, "no policy path");
	expanded = manifest_expand(tmpl, prefix != NULL ? prefix : "", m->command, eb);
	if (expanded == NULL || prefix == NULL) {
		*out = expanded;
		return expanded == NULL ? -1 : 0;
	}
	*out = absolute_resolved(expanded, eb);
	free(expanded);
	return *out == NULL ? -1 : 0;
}

/* policy_size for subject s of m on the point's policy p. */
static int subject_bytes(const struct manifest *m, const struct manifest_subject *s,
			 const struct policy *p, const char *path, struct policy_size_bytes *out,
			 struct errbuf *eb)
{
	enum sudoers_layout layout = s->has_sudoers_layout ? s->sudoers_layout : m->sudoers_layout;

	return policy_size(p, s->format, layout, s->rar_version, path, out, eb);
}

int manifest_policy_bytes(const struct manifest *m, const uint32_t value[MANIFEST_AXIS_COUNT],
			  size_t subject, const char *prefix, struct policy_size_bytes *out,
			  struct errbuf *eb)
{
	struct policy_shape shape;
	struct policy *p = NULL;
	char *path = NULL;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (subject >= m->nsubjects)
		return errbuf_set(eb, "subject %zu: the manifest has %zu", subject, m->nsubjects);
	point_shape(m, value, &shape);
	if (named_path(m, &m->subjects[subject], prefix, &path, eb) != 0)
		goto out;
	p = policy_build(&shape, eb);
	if (p == NULL)
		goto out;
	rc = subject_bytes(m, &m->subjects[subject], p, path, out, eb);
out:
	if (rc != 0) {
		char b[48];

		errbuf_prefix(eb, "subject %s", manifest_shown(m->subjects[subject].id, b));
	}
	policy_free(p);
	free(path);
	return rc;
}

/* "12.3 MiB": bytes in binary units for a message. */
static const char *human_bytes(uint64_t bytes, char buf[32])
{
	static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, 32, "%llu bytes", (unsigned long long)bytes);
	else
		snprintf(buf, 32, "%.1f %s", v, units[u]);
	return buf;
}

/*
 * Checks every subject at the point with axis values value against
 * m->max_policy_bytes (paths: each subject's named path). Returns 0 when all
 * fit, 1 when one does not (c->eb names it), -1 on another error (c->eb).
 */
static int check_point(struct manifest_ctx *c, const struct manifest *m,
		       const uint32_t value[MANIFEST_AXIS_COUNT], char *const *paths)
{
	struct policy_shape shape;
	struct errbuf eb = {0};
	struct policy *p;
	int rc = 0;

	point_shape(m, value, &shape);
	p = policy_build(&shape, &eb);
	if (p == NULL)
		return manifest_fail(c, "$.axes",
				     "nb_roles=%u,nb_users=%u,nb_tasks=%u,nb_commands=%u: %s",
				     value[0], value[1], value[2], value[3], eb.msg);
	for (size_t i = 0; i < m->nsubjects && rc == 0; i++) {
		const struct manifest_subject *s = &m->subjects[i];
		struct policy_size_bytes sz;
		uint64_t total;
		char h[32], hc[32], b[48];

		if (subject_bytes(m, s, p, paths[i], &sz, &eb) != 0) {
			rc = manifest_fail(c, "$.axes",
					   "nb_roles=%u,nb_users=%u,nb_tasks=%u,nb_commands=%u: "
					   "subject \"%s\": %s",
					   value[0], value[1], value[2], value[3],
					   manifest_shown(s->id, b), eb.msg);
			break;
		}
		total = sz.policy_bytes + sz.data_bytes;
		if (total <= m->max_policy_bytes)
			continue;
		manifest_fail(c, "$.axes",
			      "nb_roles=%u,nb_users=%u,nb_tasks=%u,nb_commands=%u: subject \"%s\" "
			      "(%s) would write %llu bytes of policy (%s), over max_policy_bytes "
			      "%llu (%s); shrink the axes or raise max_policy_bytes (at most %llu)",
			      value[0], value[1], value[2], value[3], manifest_shown(s->id, b),
			      policy_format_name(s->format), (unsigned long long)total,
			      human_bytes(total, h), (unsigned long long)m->max_policy_bytes,
			      human_bytes(m->max_policy_bytes, hc),
			      (unsigned long long)MANIFEST_POLICY_BYTES_MAX);
		rc = 1;
	}
	policy_free(p);
	return rc;
}

/*
 * Every size grows with every count: more roles, users, tasks or commands
 * only add bytes (the match moving costs a digit or two against a whole name
 * added; tests/unit/test_policy_size.c checks it). So a point is over the cap
 * only if the point with the same values on some axes and the largest on
 * the others is. The first point over in sweep order (nb_roles slowest,
 * nb_commands fastest, as sweep.c) is then found axis by axis: the first
 * roles value whose point with the largest users, tasks and commands is
 * over, then within it the first users value, and so on. At most the sum of
 * the axis lengths (+1) points are sized, not their product.
 */

/* Contract in manifest_impl.h. */
void manifest_largest_values(const struct manifest *m, uint32_t value[MANIFEST_AXIS_COUNT])
{
	for (int a = 0; a < MANIFEST_AXIS_COUNT; a++) {
		value[a] = 0;
		for (size_t k = 0; k < m->axes[a].n; k++)
			if (m->axes[a].values[k] > value[a])
				value[a] = m->axes[a].values[k];
	}
}

int manifest_check_policy_bytes(struct manifest_ctx *c, const struct manifest *m)
{
	char *paths[MANIFEST_SUBJECTS_MAX] = {NULL};
	uint32_t largest[MANIFEST_AXIS_COUNT], value[MANIFEST_AXIS_COUNT];
	struct errbuf eb = {0};
	size_t i, k, since = 0;
	int a, rc = -1;

	for (i = 0; i < m->nsubjects; i++)
		if (named_path(m, &m->subjects[i], NULL, &paths[i], &eb) != 0) {
			char p[MANIFEST_PATH_MAX_CHARS];

			manifest_index_path(p, "$.subjects", i);
			manifest_fail(c, p, "%s", eb.msg);
			goto out;
		}
	manifest_largest_values(m, largest);
	memcpy(value, largest, sizeof(value));
	since = c->nproblems;
	rc = check_point(c, m, value, paths);
	for (a = 0; rc == 1 && a < MANIFEST_AXIS_COUNT; a++) {
		for (k = 0; k < m->axes[a].n; k++) {
			value[a] = m->axes[a].values[k];
			memcpy(value + a + 1, largest + a + 1,
			       sizeof(value[0]) * (size_t)(MANIFEST_AXIS_COUNT - a - 1));
			rc = check_point(c, m, value, paths);
			if (rc != 0)
				break; /* over (c->eb names this point) or an error */
		}
		if (rc == 0) /* no value over after all: name the largest point */
			rc = check_point(c, m, largest, paths) == 0 ? 0 : 1;
	}
	rc = rc == 0 ? 0 : -1;
	manifest_keep_last_problem(c, since); /* the first point over, not each one tried */
out:
	for (i = 0; i < m->nsubjects; i++)
		free(paths[i]);
	return rc;
}
