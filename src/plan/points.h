/* points: the points of a manifest's sweep (axes x repetitions) in a fixed order, each with a
 * stable id. Its symbols keep the sweep_ prefix of the sweep they lay out (struct sweep). */
#ifndef RARPERF_POINTS_H
#define RARPERF_POINTS_H

#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "manifest.h"

#define SWEEP_ID_MAX 128

/* One point: the value of every axis and the repetition (1-based). */
struct sweep_point {
	size_t index; /* 0-based position in the sweep */
	/* The four axes, then [MANIFEST_VALUE_FILES]: the files the sudoers policies are split
	 * over (manifest "nb_files"); 0 when the manifest has no such axis (one file; the id
	 * then names none). */
	uint32_t value[MANIFEST_POINT_VALUES];
	uint32_t repetition;
	/* The swept limit's value (manifest_env.limit_values), 0 when no limit is swept. */
	uint64_t limit;
	/* "nb_roles=1,nb_users=1,nb_tasks=10,nb_commands=1,repetition=1" (",nb_files=N" before
	 * ",repetition" with a files axis), then ",nofile=65536" when a limit is swept */
	char id[SWEEP_ID_MAX];
};

struct sweep;

/*
 * The cartesian product of m's axes times its repetitions, times the values
 * of its swept limit if any. Order: the repetition varies slowest, then the
 * limit, nb_roles, nb_users, nb_tasks, nb_commands, and nb_files (when given) fastest; each axis in
 * the manifest's order. m must outlive
 * nothing: the sweep copies what it needs. Returns NULL and fills eb on error.
 */
struct sweep *sweep_new(const struct manifest *m, struct errbuf *eb);

/* The number of points. */
size_t sweep_count(const struct sweep *s);

/* Point i (i < sweep_count), owned by the sweep. */
const struct sweep_point *sweep_at(const struct sweep *s, size_t i);

/* The index of the point whose id is id, or -1 when there is none. */
long sweep_find(const struct sweep *s, const char *id);

/*
 * The order of the points in round (1-based) of rounds: 0, 1, ... when
 * rounds is 1; otherwise a shuffle drawn from seed and round (the same
 * for the same arguments). Fills order[0..sweep_count).
 */
void sweep_round_order(const struct sweep *s, uint32_t round, uint32_t rounds, uint64_t seed,
		       size_t *order);

/*
 * The journal id of point p in round (1-based) of rounds: p->id when
 * rounds is 1, else "<id>;round=<round>". Writes at most len bytes.
 */
void sweep_step_id(const struct sweep_point *p, uint32_t round, uint32_t rounds, char *buf,
		   size_t len);

/*
 * Parses a journal id made by sweep_step_id back into the point's index
 * and its round. Returns 0, or -1 when it names no point of s or a round
 * outside 1..rounds.
 */
int sweep_parse_step_id(const struct sweep *s, const char *id, uint32_t rounds, size_t *index,
			uint32_t *round);

/*
 * The sizes of the policy files subject (an index into m->subjects) gets at
 * point pt, written nothing: manifest_policy_bytes at pt's axis values (the
 * repetition changes nothing). prefix as there: the --prefix directory for
 * exact sizes, NULL for what the manifest alone says. For a dry-run plan:
 * bytes per point and subject, and the disk a point needs while its files
 * are written (the previous point's files are replaced only at the rename).
 * Returns 0, or -1 with eb filled.
 */
int sweep_point_policy_bytes(const struct manifest *m, const struct sweep_point *pt, size_t subject,
			     const char *prefix, struct policy_size_bytes *out, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* Frees s. NULL is a no-op. */
void sweep_free(struct sweep *s);

#endif
