/* manifest_axis: the values of a manifest axis (a list, logspace or range) and the axes object. */
#include "jsonget.h"
#include "manifest_impl.h"
#include "policy_doas.h"
#include "policy_split.h"
#include "suggest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const axis_names[] = {"nb_roles", "nb_users", "nb_tasks", "nb_commands"};

const char *manifest_axis_name(enum manifest_axis_id a)
{
	return (unsigned)a < MANIFEST_AXIS_COUNT ? axis_names[a] : "?";
}

size_t manifest_logspace(uint32_t start, uint32_t stop, uint32_t n, uint32_t *out, size_t cap)
{
	double a, b, step;
	size_t count = 0;
	uint32_t i, v;

	if (n == 0 || cap == 0 || start == 0 || stop < start)
		return 0;
	a = log10((double)start);
	b = log10((double)stop);
	/* numpy.logspace: linspace over the exponents, last one exactly stop. */
	step = n > 1 ? (b - a) / (double)(n - 1) : 0.0;
	for (i = 0; i < n; i++) {
		double e = (i == n - 1 && n > 1) ? b : a + (double)i * step;
		double d = pow(10.0, e);

		v = d >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)d;
		/* The sequence is non-decreasing, so duplicates are adjacent. */
		if (count > 0 && out[count - 1] == v)
			continue;
		out[count++] = v;
		if (count == cap)
			break;
	}
	return count;
}

/* An axis given as a list of values: [1, 10, 100]. */
static int parse_axis_list(struct manifest_ctx *c, const cJSON *j, const char *p,
			   struct manifest_axis *axis)
{
	char q[MANIFEST_PATH_MAX_CHARS];
	uint64_t v;
	size_t i, n = (size_t)cJSON_GetArraySize(j);
	const cJSON *it;

	if (n == 0)
		return manifest_fail(c, p, "empty axis (give at least one value)");
	if (n > MANIFEST_AXIS_VALUES_MAX)
		return manifest_fail(c, p, "more than %d values", MANIFEST_AXIS_VALUES_MAX);
	axis->values = calloc(n, sizeof(*axis->values));
	if (axis->values == NULL)
		return manifest_fail(c, p, "out of memory");
	i = 0;
	cJSON_ArrayForEach(it, j)
	{
		manifest_index_path(q, p, i);
		if (manifest_as_uint(c, it, q, 1, MANIFEST_AXIS_VALUE_MAX, &v) < 0)
			return -1;
		axis->values[i++] = (uint32_t)v;
	}
	axis->n = n;
	return 0;
}

/* The values of {"logspace":[start,stop,n]} or {"range":[start,stop,step]} (v, checked), at q. */
static int fill_axis(struct manifest_ctx *c, const char *q, bool is_log, const uint64_t v[3],
		     struct manifest_axis *axis)
{
	size_t n;

	if (is_log) {
		axis->values = calloc(v[2], sizeof(*axis->values));
		if (axis->values == NULL)
			return manifest_fail(c, q, "out of memory");
		axis->n = manifest_logspace((uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2],
					    axis->values, v[2]);
		return 0;
	}
	n = (size_t)((v[1] - v[0]) / v[2] + 1);
	if (n > MANIFEST_AXIS_VALUES_MAX)
		return manifest_fail(c, q, "more than %d values", MANIFEST_AXIS_VALUES_MAX);
	axis->values = calloc(n, sizeof(*axis->values));
	if (axis->values == NULL)
		return manifest_fail(c, q, "out of memory");
	for (size_t i = 0; i < n; i++)
		axis->values[i] = (uint32_t)(v[0] + i * v[2]);
	axis->n = n;
	return 0;
}

/* An axis given as {"logspace":[start,stop,n]} or {"range":[start,stop,step]}. */
static int parse_axis_spec(struct manifest_ctx *c, const cJSON *j, const char *p,
			   struct manifest_axis *axis)
{
	char q[MANIFEST_PATH_MAX_CHARS];
	uint64_t v[3];
	const cJSON *spec = j->child;
	bool is_log;

	if (spec == NULL || spec->next != NULL)
		return manifest_fail(c, p,
				     "expected {\"logspace\":[start,stop,n]} or "
				     "{\"range\":[start,stop,step]}");
	is_log = strcmp(spec->string, "logspace") == 0;
	manifest_child_path(q, p, spec->string);
	if (!is_log && strcmp(spec->string, "range") != 0) {
		char b[48];

		const char *near =
		    suggest_nearest(spec->string, (const char *const[]){"logspace", "range", NULL});

		if (near != NULL)
			return manifest_fail(c, q, "unknown key \"%s\" (did you mean \"%s\"?)",
					     manifest_shown(spec->string, b), near);
		return manifest_fail(c, q, "unknown key \"%s\" (expected logspace or range)",
				     manifest_shown(spec->string, b));
	}
	if (!cJSON_IsArray(spec) || cJSON_GetArraySize(spec) != 3)
		return manifest_fail(c, q, "expected an array of 3 integers");
	for (size_t i = 0; i < 3; i++) {
		char r[MANIFEST_PATH_MAX_CHARS];

		manifest_index_path(r, q, i);
		if (manifest_as_uint(c, cJSON_GetArrayItem(spec, (int)i), r, 1,
				     i == 2 && is_log ? MANIFEST_AXIS_VALUES_MAX
						      : MANIFEST_AXIS_VALUE_MAX,
				     &v[i]) < 0)
			return -1;
	}
	if (v[1] < v[0])
		return manifest_fail(c, q, "stop (%llu) is below start (%llu)",
				     (unsigned long long)v[1], (unsigned long long)v[0]);
	return fill_axis(c, q, is_log, v, axis);
}

/*
 * One axis at path p: a list of integers, {"logspace":[start,stop,n]} or
 * {"range":[start,stop,step]}; fills axis (freed by manifest_free).
 */
static int parse_axis(struct manifest_ctx *c, const cJSON *j, const char *p,
		      struct manifest_axis *axis)
{
	if (cJSON_IsArray(j))
		return parse_axis_list(c, j, p, axis);
	if (cJSON_IsObject(j))
		return parse_axis_spec(c, j, p, axis);
	return manifest_fail(
	    c, p,
	    "expected an array of integers, {\"logspace\":[...]} or {\"range\":[...]}, "
	    "got %s",
	    manifest_type_name(j));
}

/* Contract in manifest_impl.h. */
int manifest_parse_axes(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	const cJSON *axes = jsonget_member(root, "axes");
	char p[MANIFEST_PATH_MAX_CHARS];
	uint64_t total = 1;
	int a;

	if (axes != NULL) {
		if (!cJSON_IsObject(axes))
			return manifest_fail(c, "$.axes", "expected an object, got %s",
					     manifest_type_name(axes));
		if (manifest_check_keys(c, axes, "$.axes",
					(const char *const[]){"nb_roles", "nb_users", "nb_tasks",
							      "nb_commands", MANIFEST_FILES_AXIS,
							      NULL}) < 0)
			return -1;
	}
	if (axes != NULL && jsonget_member(axes, MANIFEST_FILES_AXIS) != NULL) {
		manifest_child_path(p, "$.axes", MANIFEST_FILES_AXIS);
		if (parse_axis(c, jsonget_member(axes, MANIFEST_FILES_AXIS), p, &m->files) < 0)
			return -1;
		total *= m->files.n;
	}
	for (a = 0; a < MANIFEST_AXIS_COUNT; a++) {
		const cJSON *j = axes ? jsonget_member(axes, axis_names[a]) : NULL;

		manifest_child_path(p, "$.axes", axis_names[a]);
		if (j == NULL) {
			m->axes[a].values = calloc(1, sizeof(uint32_t));
			if (m->axes[a].values == NULL)
				return manifest_fail(c, p, "out of memory");
			m->axes[a].values[0] = 1;
			m->axes[a].n = 1;
		} else if (parse_axis(c, j, p, &m->axes[a]) < 0) {
			return -1;
		}
		total *= m->axes[a].n;
		if (total > MANIFEST_POINTS_MAX)
			return manifest_fail(c, "$.axes", "more than %u points",
					     MANIFEST_POINTS_MAX);
	}
	return 0;
}

static uint32_t axis_max(const struct manifest *m, enum manifest_axis_id a)
{
	uint32_t v = 0;

	for (size_t i = 0; i < m->axes[a].n; i++)
		if (m->axes[a].values[i] > v)
			v = m->axes[a].values[i];
	return v;
}

static uint32_t axis_min(const struct manifest *m, enum manifest_axis_id a)
{
	uint32_t v = UINT32_MAX;

	for (size_t i = 0; i < m->axes[a].n; i++)
		if (m->axes[a].values[i] < v)
			v = m->axes[a].values[i];
	return v;
}

/*
 * The files axis: only sudoers subjects (doas.conf has no include, RootAsRole
 * reads one data file), and every point's policy splittable (policy_split_validate
 * at the fewest tasks and the most files).
 */
static int check_files_axis(struct manifest_ctx *c, const struct manifest *m)
{
	struct policy_shape shape;
	struct errbuf eb = {0};
	uint32_t most = 0;
	char b[48];

	if (m->files.n == 0)
		return 0;
	/* Their per-point files (profiles, counts) name the four axes only: two points that differ
	 * in files alone would be one. */
	if (m->profile || m->counts)
		return manifest_fail(c, "$.axes." MANIFEST_FILES_AXIS,
				     "not with \"%s\" yet (its per-point files name the four axes "
				     "only)",
				     m->profile ? "profile" : "counts");
	for (size_t i = 0; i < m->nsubjects; i++)
		if (!policy_split_supported(m->subjects[i].format))
			return manifest_fail(c, "$.axes." MANIFEST_FILES_AXIS,
					     "subject \"%s\" (%s) cannot be split over files: only "
					     "sudoers offers an include (doc/tools.md)",
					     manifest_shown(m->subjects[i].id, b),
					     policy_format_name(m->subjects[i].format));
	for (size_t i = 0; i < m->files.n; i++)
		if (m->files.values[i] > most)
			most = m->files.values[i];
	policy_shape_init(&shape);
	shape.roles = axis_min(m, MANIFEST_AXIS_ROLES);
	shape.tasks = axis_min(m, MANIFEST_AXIS_TASKS);
	shape.seed_compat = m->seed_compat;
	if (policy_split_validate(&shape, most, &eb) != 0)
		return manifest_fail(c, "$.axes." MANIFEST_FILES_AXIS,
				     "nb_files=%u at nb_roles=%u nb_tasks=%u: %s", most,
				     shape.roles, shape.tasks, eb.msg);
	return 0;
}

/* Contract in manifest_impl.h. */
int manifest_check_sizes(struct manifest_ctx *c, const struct manifest *m)
{
	uint64_t r = axis_max(m, MANIFEST_AXIS_ROLES), u = axis_max(m, MANIFEST_AXIS_USERS),
		 t = axis_max(m, MANIFEST_AXIS_TASKS), n = axis_max(m, MANIFEST_AXIS_COMMANDS);
	struct policy_shape shape;
	struct errbuf eb = {0};
	bool doas = false;

	for (size_t i = 0; i < m->nsubjects; i++)
		doas = doas || m->subjects[i].format == POLICY_FORMAT_DOAS;
	if (check_files_axis(c, m) < 0)
		return -1;
	/* Each value is at most MANIFEST_AXIS_VALUE_MAX (10^6): no product below overflows. */
	if (r * t * n > POLICY_COMMANDS_MAX)
		return manifest_fail(c, "$.axes",
				     "nb_roles=%llu * nb_tasks=%llu * nb_commands=%llu = %llu "
				     "commands at the largest point; confgen's limit is %llu",
				     (unsigned long long)r, (unsigned long long)t,
				     (unsigned long long)n, (unsigned long long)(r * t * n),
				     POLICY_COMMANDS_MAX);
	if (r * u > POLICY_ACTORS_MAX)
		return manifest_fail(c, "$.axes",
				     "nb_roles=%llu * nb_users=%llu = %llu users at the largest "
				     "point; confgen's limit is %llu",
				     (unsigned long long)r, (unsigned long long)u,
				     (unsigned long long)(r * u), POLICY_ACTORS_MAX);
	if (doas && r * u * t * n > POLICY_DOAS_RULES_MAX)
		return manifest_fail(
		    c, "$.axes",
		    "nb_roles=%llu * nb_users=%llu * nb_tasks=%llu * nb_commands=%llu = %llu doas "
		    "rules at the largest point; confgen's limit is %llu",
		    (unsigned long long)r, (unsigned long long)u, (unsigned long long)t,
		    (unsigned long long)n, (unsigned long long)(r * u * t * n),
		    POLICY_DOAS_RULES_MAX);
	/* And whatever else confgen refuses in a shape, in its own words. */
	policy_shape_init(&shape);
	shape.roles = (uint32_t)r;
	shape.users = (uint32_t)u;
	shape.tasks = (uint32_t)t;
	shape.commands = (uint32_t)n;
	if (policy_shape_validate(&shape, &eb) != 0 ||
	    (doas && policy_doas_validate(&shape, &eb) != 0))
		return manifest_fail(c, "$.axes",
				     "nb_roles=%u nb_users=%u nb_tasks=%u nb_commands=%u: %s",
				     shape.roles, shape.users, shape.tasks, shape.commands, eb.msg);
	return 0;
}
