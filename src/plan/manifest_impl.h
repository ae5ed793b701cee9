/* manifest_impl: private to the manifest parser: error context, JSON accessors, axes. */
#ifndef RARPERF_MANIFEST_IMPL_H
#define RARPERF_MANIFEST_IMPL_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "jsonget.h"
#include "manifest.h"

#define MANIFEST_PATH_MAX_CHARS JSONGET_PATH_MAX_CHARS

/* Where errors go: every message names the source file, then the JSON path. */
struct manifest_ctx {
	const char *source;
	struct errbuf *eb;
	bool remote; /* MANIFEST_REMOTE: the bench user is not looked up here */
	/* Every problem, one line each (manifest_fail appends; eb keeps the first). */
	char **problems;
	size_t nproblems, problems_cap;
};

/* Fills c->eb with "SOURCE: PATH: message" on one line and returns -1. */
/* manifest_subject.c: "subjects" into m->subjects; every subject read, each problem kept. 0 or -1.
 */
int manifest_parse_subjects(struct manifest_ctx *c, const cJSON *root, struct manifest *m);

/* manifest.c: a sudoers layout's name by index, for manifest_get_enum. */
const char *manifest_layout_name(int i);

/* manifest_env.c: the keys limits, env, umask, cwd and cpus into m->env. 0 or -1. */
int manifest_parse_env(struct manifest_ctx *c, const cJSON *root, struct manifest *m);
void manifest_env_clear(struct manifest_env *e);

/*
 * Of the problems recorded since there were `since`, keeps only the last
 * (a search that narrowed one problem down), and makes it eb's message.
 */
void manifest_keep_last_problem(struct manifest_ctx *c, size_t since);

int manifest_fail(struct manifest_ctx *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records a problem already worded "PATH: message" (a jsonget error) as manifest_fail does. -1. */
int manifest_problem(struct manifest_ctx *c, const char *line);

/* manifest_defaults.c: build is "dev" or "dev-NAME" (0), else -1 with c->eb filled (path p). */
#define MANIFEST_BUILD_LEN_MAX 40
int manifest_check_build(struct manifest_ctx *c, const char *build, const char *p);

/*
 * manifest_defaults.c: fills s's program, policy and policy_data left unset with those the
 * playbook installs for its format, rar_version and build. 0, or -1 with c->eb filled.
 */
int manifest_subject_defaults(struct manifest_ctx *c, struct manifest_subject *s, const char *p);

/*
 * A user string fit for a message: at most 40 chars of s, control chars as
 * '?', a longer string cut with "...". Writes into buf and returns it.
 */
const char *manifest_shown(const char *s, char buf[48]);

/* "a string", "a number", ... for messages naming what was found instead. */
const char *manifest_type_name(const cJSON *j);

/*
 * Writes "PARENT.KEY" (child_path) or "PARENT[I]" (index_path) into out,
 * which holds MANIFEST_PATH_MAX_CHARS; a longer path is cut.
 */
void manifest_child_path(char *out, const char *parent, const char *key);
void manifest_index_path(char *out, const char *parent, size_t i);

/* Refuses keys of obj not in allowed (NULL-terminated) and duplicate keys: -1, c->eb filled. */
int manifest_check_keys(struct manifest_ctx *c, const cJSON *obj, const char *path,
			const char *const *allowed);

/*
 * *out becomes a new copy (caller frees) of the non-empty string at obj.key
 * of at most MANIFEST_STRING_MAX bytes, or NULL when absent and !required.
 * Returns 0, or -1 with c->eb filled.
 */
int manifest_get_string(struct manifest_ctx *c, const cJSON *obj, const char *path, const char *key,
			bool required, char **out);

/* *out becomes the integer in [lo, hi] at j (path p names j). 0, or -1 with c->eb filled. */
int manifest_as_uint(struct manifest_ctx *c, const cJSON *j, const char *p, double lo, double hi,
		     uint64_t *out);

/* As manifest_as_uint for obj.key; an absent key keeps *out (the default). */
int manifest_get_uint(struct manifest_ctx *c, const cJSON *obj, const char *path, const char *key,
		      double lo, double hi, uint64_t *out);

/* As manifest_get_uint for a finite number in [lo, hi]. */
int manifest_get_double(struct manifest_ctx *c, const cJSON *obj, const char *path, const char *key,
			double lo, double hi, double *out);

/*
 * *out becomes the value i in [0, n) whose name(i) is the string at obj.key
 * (name: the vocabulary owner's name function); absent keeps *out.
 */
int manifest_get_enum(struct manifest_ctx *c, const cJSON *obj, const char *path, const char *key,
		      const char *(*name)(int), int n, int *out);

/*
 * Fills m->axes from root's "axes" object (an absent axis is [1]) and
 * checks the product of their sizes against MANIFEST_POINTS_MAX. Values
 * already stored stay in m for manifest_free on error. 0, or -1 with c->eb filled.
 */
int manifest_parse_axes(struct manifest_ctx *c, const cJSON *root, struct manifest *m);

/*
 * Checks that every point of the sweep is a policy confgen writes: its
 * limits grow with each count, so the point of every axis's largest value
 * decides (roles*tasks*commands, roles*users, and with a doas subject
 * roles*users*tasks*commands). Needs m->axes and m->subjects. 0, or -1 with
 * c->eb naming the axis values and the limit.
 */
int manifest_check_sizes(struct manifest_ctx *c, const struct manifest *m);

/*
 * manifest_size.c. Checks that no subject's policy files exceed
 * m->max_policy_bytes at any point of the sweep (repetitions do not change a
 * policy): sizes grow with every count, so the point of every axis's
 * largest value decides, and when it is over, the first point over in sweep
 * order is named, with the subject, the size and the cap. Needs everything
 * a policy depends on (axes, subjects, command, match, layouts, seed_compat,
 * bench_uid). 0, or -1 with c->eb filled.
 */
int manifest_check_policy_bytes(struct manifest_ctx *c, const struct manifest *m);

/*
 * manifest_precision.c. Reads "precision" (true, false or a percentage) and
 * "estimator", "contended", "contention_limit", "remeasure"; in
 * precision mode it sets the defaults of warmup, min_runs, max_runs, rounds
 * and min_time_s before parse_root reads them. 0, or -1 with c->eb filled.
 */
int manifest_parse_precision(struct manifest_ctx *c, const cJSON *root, struct manifest *m);

/*
 * After every key is read: checks what precision mode needs (max_runs,
 * no min_time_s) and sets m->max_rounds. 0, or -1 with c->eb filled.
 */
int manifest_finish_precision(struct manifest_ctx *c, const cJSON *root, struct manifest *m);

#endif
