/* policy: the shape of one benchmark policy and the names every format writer draws from it. */
#ifndef RARPERF_POLICY_H
#define RARPERF_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
/* The four output formats, named the same everywhere (CLI, manifests, results). */
#include "policy_format.h"

/*
 * The model is a shape plus naming functions: nothing per command is
 * materialised, so a policy of 100 M commands costs a few bytes until a
 * writer walks it. Indices passed to the accessors count from 0; the names
 * written into files count from 1, as the original generator did.
 *
 * Naming scheme (outside --seed-compat), the same in every format:
 * - the benchmark user is the actor at the match position; every other actor
 *   of role r, slot u is uid POLICY_FILLER_UID_BASE + r*users + u, a uid in
 *   the range systemd documents as never allocated (2^31 and above);
 * - the matching command sits once, at the match position; every other
 *   command is POLICY_FILLER_DIR "/<basename of command>.<r>.<t>.<c>"
 *   (1-based), under a directory Debian reserves as never existing.
 */

#define POLICY_DEFAULT_COMMAND "/usr/bin/true"
/* Filler uids start at 2^31; the benchmark uid must lie below. */
#define POLICY_FILLER_UID_BASE 2147483648u
#define POLICY_UID_MAX 2147483647u
#define POLICY_FILLER_DIR "/nonexistent"
/* Limits: roles*tasks*commands, roles*users, bytes of the matching command. */
#define POLICY_COMMANDS_MAX 100000000ull
#define POLICY_ACTORS_MAX 10000000ull
#define POLICY_COMMAND_LEN_MAX 1024
/* Bytes of the benchmark user's name (shape.user), as useradd allows. */
#define POLICY_USER_LEN_MAX 32
/* Room for any generated command name, with its NUL. */
#define POLICY_NAME_LEN_MAX (POLICY_COMMAND_LEN_MAX + 64)
/* The RootAsRole version the files claim by default (spec §1). */
#define POLICY_RAR_VERSION "3.3.4"
/* The longest RootAsRole version string accepted ("65535.65535.65535"). */
#define POLICY_RAR_VERSION_LEN_MAX 17

/* Where the matching rule sits; named by policy_match_name. */
enum policy_match { POLICY_MATCH_LAST, POLICY_MATCH_FIRST, POLICY_MATCH_MIDDLE };
#define POLICY_MATCH_COUNT 3
/* How a sudoers file groups its user specs; named by policy_sudoers_layout_name. */
enum sudoers_layout { SUDOERS_LAYOUT_PER_ROLE, SUDOERS_LAYOUT_PER_TASK };
#define SUDOERS_LAYOUT_COUNT 2

/*
 * Which side of the policy a writer asks for. Outside seed-compat both sides
 * are identical; with seed_compat the original generator wrote different
 * actors and commands for sudo than for RootAsRole, and doas follows sudo.
 */
enum policy_side { POLICY_SIDE_SUDO, POLICY_SIDE_RAR };

struct policy_shape {
	uint32_t roles, users, tasks, commands; /* each >= 1 */
	uint32_t uid;                           /* the benchmark user's uid */
	const char *command;                    /* matching command, default "/usr/bin/true" */
	enum policy_match match;
	bool seed_compat; /* reproduce the original RaR-perf output */
	/*
	 * Grant nothing: sudoers and doas.conf hold their header and no rule;
	 * RootAsRole's files keep the shape's roles and tasks, but no actor is
	 * uid and no command is the matching one (every actor a filler uid,
	 * every command under POLICY_FILLER_DIR). What rarbench leaves between
	 * points and after a sweep, so the prefix's tools honour no standing
	 * grant. Not with seed_compat. The headers say "match=none".
	 */
	bool deny_all;
	/*
	 * The benchmark user's name (uid's). Only please matches users by name
	 * (its ini has no uid syntax): its writer needs it unless deny_all, and
	 * refuses a policy without it; the other formats ignore it. NULL: none.
	 * Letters, digits and ._- only, at most POLICY_USER_LEN_MAX bytes.
	 */
	const char *user;
};

struct policy;

/* A shape with the defaults: 1 role, 1 user, 1 task, 1 command, uid 0, last. */
void policy_shape_init(struct policy_shape *shape);

/*
 * Checks every field of shape: counts >= 1, roles*tasks*commands <=
 * POLICY_COMMANDS_MAX, roles*users <= POLICY_ACTORS_MAX, uid <=
 * POLICY_UID_MAX, command absolute, at most POLICY_COMMAND_LEN_MAX bytes and
 * free of bytes that no format can carry (whitespace, control characters,
 * sudoers and doas specials), seed_compat only with POLICY_MATCH_LAST,
 * user (when set) a name of letters, digits and ._- not starting with '-'.
 * Returns 0, or -1 with eb naming the field ("--tasks: must be at least 1").
 */
int policy_shape_validate(const struct policy_shape *shape, struct errbuf *eb);

/*
 * Validates shape and returns a policy that owns a copy of it (including the
 * command and user strings). NULL on error with eb filled. Free with policy_free.
 */
struct policy *policy_build(const struct policy_shape *shape, struct errbuf *eb);

/* Frees p; NULL is a no-op. */
void policy_free(struct policy *p);

/* The shape p was built from (owned by p). */
const struct policy_shape *policy_get_shape(const struct policy *p);

/* "none" for a deny-all shape, else policy_match_name(shape->match): what headers print. */
const char *policy_match_label(const struct policy_shape *shape);

/* The match position as 0-based role, user slot, task and command indices
 * (UINT32_MAX in each for a deny-all policy: nothing matches). */
struct policy_position {
	uint32_t role, user, task, command;
};
struct policy_position policy_match_position(const struct policy *p);

/* The uid of the actor in role r, slot u (0-based) on side. */
uint32_t policy_actor_uid(const struct policy *p, enum policy_side side, uint32_t r, uint32_t u);

/*
 * Writes the name of command c of task t of role r (0-based) on side into
 * buf (NUL-terminated; POLICY_NAME_LEN_MAX bytes always suffice) and returns
 * its length. Never fails for in-range indices.
 */
size_t policy_command_name(const struct policy *p, enum policy_side side, uint32_t r, uint32_t t,
			   uint32_t c, char *buf, size_t len);

/*
 * True when command c of task t of role r is the matching command on side
 * (once in the whole policy outside seed-compat).
 */
bool policy_is_match_command(const struct policy *p, enum policy_side side, uint32_t r, uint32_t t,
			     uint32_t c);

/* The name of a match position ("last", "first", "middle"). */
const char *policy_match_name(enum policy_match m);

/* Parses "last", "first" or "middle" into *m. Returns 0 or -1. */
int policy_match_parse(const char *s, enum policy_match *m);

/* The name of a sudoers layout ("per-role", "per-task"). */
const char *policy_sudoers_layout_name(enum sudoers_layout l);

/* Parses "per-role" or "per-task" into *layout. Returns 0 or -1. */
int policy_sudoers_layout_parse(const char *s, enum sudoers_layout *layout);

/*
 * RootAsRole's policy dialects, by the version the files are written for:
 * 3.x reads its settings file as JSON whatever the storage; 4.x reads the
 * settings file in the encoding its build chose (RAR_CFG_TYPE), so the
 * settings file of a CBOR build is itself CBOR. The policy (options, roles)
 * is the same in both. NULL means POLICY_RAR_VERSION.
 *
 * policy_rar_version_check: 0 when version is MAJOR.MINOR.PATCH (decimal,
 * each at most 65535) of a series confgen writes (3.1 to 4.2), else -1 with
 * eb saying so and listing the series it writes.
 */
int policy_rar_version_check(const char *version, struct errbuf *eb);
/* Whether version (checked, or NULL) writes SetBehavior as the hardened integers in CBOR (3.1.3
 * and later: rootasrole-core 3.1.3); 3.1.0 and 3.1.1 write a u8 (None 0, All 1). */
bool policy_rar_hardened_enums(const char *version);
/* Whether version (checked, or NULL) reads a CBOR build's settings file as CBOR (4.0 and later). */
bool policy_rar_settings_follow_storage(const char *version);

#endif
