/* policy: the shape of one benchmark policy and the names every format writer draws from it. */
#include "numarg.h"
#include "policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The original generator's filler uids (spec §4): 5000 + j on the RootAsRole side. */
#define POLICY_SEED_RAR_UID_BASE 5000u
/* ... and u + 1000 * roles on the sudo side. */
#define POLICY_SEED_SUDO_UID_STEP 1000u

struct policy {
	struct policy_shape shape;
	char *command; /* owned copy of shape.command */
	char *user;    /* owned copy of shape.user, or NULL */
	size_t command_len;
	char *filler_prefix; /* POLICY_FILLER_DIR "/<basename>." */
	size_t filler_prefix_len;
	struct policy_position match;
};

void policy_shape_init(struct policy_shape *shape)
{
	memset(shape, 0, sizeof(*shape));
	shape->roles = shape->users = shape->tasks = shape->commands = 1;
	shape->command = POLICY_DEFAULT_COMMAND;
	shape->match = POLICY_MATCH_LAST;
}

/* Bytes a command may hold: what sudoers, doas and JSON all carry without quoting. */
static bool policy_command_byte_ok(unsigned char ch)
{
	if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'))
		return true;
	return strchr("/._+-@~", ch) != NULL && ch != '\0';
}

/* NULL, or a user name of letters, digits and ._- that does not start with '-'. 0 or -1 (eb). */
static int policy_user_validate(const char *user, struct errbuf *eb)
{
	size_t len;

	if (user == NULL)
		return 0;
	len = strlen(user);
	if (len == 0 || len > POLICY_USER_LEN_MAX || user[0] == '-')
		return errbuf_set(eb,
				  "--user: \"%.40s\" is not a user name (1 to %d bytes, not "
				  "starting with '-')",
				  user, POLICY_USER_LEN_MAX);
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)user[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-'))
			return errbuf_set(eb,
					  "--user: byte %zu (0x%02x) is not allowed; use letters, "
					  "digits and ._-",
					  i, ch);
	}
	return 0;
}

int policy_shape_validate(const struct policy_shape *shape, struct errbuf *eb)
{
	const char *cmd = shape->command;
	size_t len;

	if (shape->roles < 1)
		return errbuf_set(eb, "--roles: must be at least 1");
	if (shape->users < 1)
		return errbuf_set(eb, "--users: must be at least 1");
	if (shape->tasks < 1)
		return errbuf_set(eb, "--tasks: must be at least 1");
	if (shape->commands < 1)
		return errbuf_set(eb, "--commands: must be at least 1");
	if ((uint64_t)shape->roles * shape->tasks * shape->commands > POLICY_COMMANDS_MAX)
		return errbuf_set(
		    eb, "--roles * --tasks * --commands: %llu commands, the limit is %llu",
		    (unsigned long long)shape->roles * shape->tasks * shape->commands,
		    POLICY_COMMANDS_MAX);
	if ((uint64_t)shape->roles * shape->users > POLICY_ACTORS_MAX)
		return errbuf_set(eb, "--roles * --users: %llu actors, the limit is %llu",
				  (unsigned long long)shape->roles * shape->users,
				  POLICY_ACTORS_MAX);
	if (shape->uid > POLICY_UID_MAX)
		return errbuf_set(eb, "--uid: %u is out of range (0..%u)", shape->uid,
				  POLICY_UID_MAX);
	if (shape->match != POLICY_MATCH_LAST && shape->match != POLICY_MATCH_FIRST &&
	    shape->match != POLICY_MATCH_MIDDLE)
		return errbuf_set(eb, "--match: unknown position %d", (int)shape->match);
	if (shape->seed_compat && shape->match != POLICY_MATCH_LAST)
		return errbuf_set(eb, "--match: --seed-compat places the match last only");
	if (shape->seed_compat && shape->deny_all)
		return errbuf_set(eb, "--deny-all: not with --seed-compat");
	if (cmd == NULL)
		return errbuf_set(eb, "--command: missing");
	len = strlen(cmd);
	if (len < 2 || cmd[0] != '/' || cmd[len - 1] == '/')
		return errbuf_set(eb, "--command: \"%.64s\" is not an absolute file path", cmd);
	if (len > POLICY_COMMAND_LEN_MAX)
		return errbuf_set(eb, "--command: longer than %d bytes", POLICY_COMMAND_LEN_MAX);
	for (size_t i = 0; i < len; i++)
		if (!policy_command_byte_ok((unsigned char)cmd[i]))
			return errbuf_set(
			    eb,
			    "--command: byte %zu (0x%02x) is not allowed; use letters, "
			    "digits and /._+-@~",
			    i, (unsigned char)cmd[i]);
	return policy_user_validate(shape->user, eb);
}

/* The middle of n items (0-based), rounding down: 0 for 1 and 2, 1 for 3 and 4. */
static uint32_t policy_middle(uint32_t n)
{
	return (n - 1) / 2;
}

struct policy *policy_build(const struct policy_shape *shape, struct errbuf *eb)
{
	struct policy *p = NULL;
	const char *base;

	if (policy_shape_validate(shape, eb) != 0)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		goto oom;
	p->shape = *shape;
	p->command_len = strlen(shape->command);
	p->command = strdup(shape->command);
	if (p->command == NULL)
		goto oom;
	p->shape.command = p->command;
	if (shape->user != NULL && (p->user = strdup(shape->user)) == NULL)
		goto oom;
	p->shape.user = p->user;
	base = strrchr(p->command, '/') + 1;
	p->filler_prefix_len = strlen(POLICY_FILLER_DIR) + 1 + strlen(base) + 1;
	p->filler_prefix = malloc(p->filler_prefix_len + 1);
	if (p->filler_prefix == NULL)
		goto oom;
	/* lint: sized to fit (filler_prefix_len above) */
	snprintf(p->filler_prefix, p->filler_prefix_len + 1, "%s/%s.", POLICY_FILLER_DIR, base);

	switch (shape->match) {
	case POLICY_MATCH_FIRST:
		break; /* all zero */
	case POLICY_MATCH_MIDDLE:
		p->match.role = policy_middle(shape->roles);
		p->match.user = policy_middle(shape->users);
		p->match.task = policy_middle(shape->tasks);
		p->match.command = policy_middle(shape->commands);
		break;
	case POLICY_MATCH_LAST:
		p->match.role = shape->roles - 1;
		p->match.user = shape->users - 1;
		p->match.task = shape->tasks - 1;
		p->match.command = shape->commands - 1;
		break;
	}
	if (shape->deny_all) /* beyond every index: no actor is the uid, no command matches */
		p->match.role = p->match.user = p->match.task = p->match.command = UINT32_MAX;
	return p;
oom:
	errbuf_set(eb, "out of memory");
	policy_free(p);
	return NULL;
}

void policy_free(struct policy *p)
{
	if (p == NULL)
		return;
	free(p->filler_prefix);
	free(p->user);
	free(p->command);
	free(p);
}

const struct policy_shape *policy_get_shape(const struct policy *p)
{
	return &p->shape;
}

const char *policy_match_label(const struct policy_shape *shape)
{
	return shape->deny_all ? "none" : policy_match_name(shape->match);
}

struct policy_position policy_match_position(const struct policy *p)
{
	return p->match;
}

uint32_t policy_actor_uid(const struct policy *p, enum policy_side side, uint32_t r, uint32_t u)
{
	const struct policy_shape *s = &p->shape;

	if (s->seed_compat) {
		/* The original: the caller is the last user of every role on the sudo
		 * side, but only of the last role on the RootAsRole side. */
		if (side == POLICY_SIDE_SUDO)
			return u == s->users - 1 ? s->uid
						 : (u + 1) + POLICY_SEED_SUDO_UID_STEP * s->roles;
		if (r == s->roles - 1 && u == s->users - 1)
			return s->uid;
		return POLICY_SEED_RAR_UID_BASE + u + 1;
	}
	if (r == p->match.role && u == p->match.user)
		return s->uid;
	return POLICY_FILLER_UID_BASE + r * s->users + u;
}

bool policy_is_match_command(const struct policy *p, enum policy_side side, uint32_t r, uint32_t t,
			     uint32_t c)
{
	(void)side; /* the match sits at the same place on both sides */
	return r == p->match.role && t == p->match.task && c == p->match.command;
}

/* Appends the decimal digits of v to buf at *pos when they fit. */
static void policy_put_uint(char *buf, size_t len, size_t *pos, uint32_t v)
{
	char tmp[10];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n > 0 && *pos + 1 < len)
		buf[(*pos)++] = tmp[--n];
}

static void policy_put_bytes(char *buf, size_t len, size_t *pos, const char *s, size_t n)
{
	if (*pos + n >= len)
		n = *pos + 1 < len ? len - 1 - *pos : 0;
	memcpy(buf + *pos, s, n);
	*pos += n;
}

size_t policy_command_name(const struct policy *p, enum policy_side side, uint32_t r, uint32_t t,
			   uint32_t c, char *buf, size_t len)
{
	size_t pos = 0;

	if (len == 0)
		return 0;
	if (policy_is_match_command(p, side, r, t, c)) {
		policy_put_bytes(buf, len, &pos, p->command, p->command_len);
	} else if (p->shape.seed_compat && side == POLICY_SIDE_RAR) {
		/* "/usr/bin/true<c>", the same strings in every task and role. */
		policy_put_bytes(buf, len, &pos, p->command, p->command_len);
		policy_put_uint(buf, len, &pos, c + 1);
	} else if (p->shape.seed_compat) {
		/* "/usr/bin/true<c><r><t>", the indices concatenated as decimals. */
		policy_put_bytes(buf, len, &pos, p->command, p->command_len);
		policy_put_uint(buf, len, &pos, c + 1);
		policy_put_uint(buf, len, &pos, r + 1);
		policy_put_uint(buf, len, &pos, t + 1);
	} else {
		policy_put_bytes(buf, len, &pos, p->filler_prefix, p->filler_prefix_len);
		policy_put_uint(buf, len, &pos, r + 1);
		policy_put_bytes(buf, len, &pos, ".", 1);
		policy_put_uint(buf, len, &pos, t + 1);
		policy_put_bytes(buf, len, &pos, ".", 1);
		policy_put_uint(buf, len, &pos, c + 1);
	}
	buf[pos] = '\0';
	return pos;
}

/*
 * The policy vocabulary: one name table per enum, indexed by its value. Every
 * program, manifest and result spells these words through the functions
 * below (the format names through src/common's policy_format, which the
 * readers of results share).
 */
static const char *const policy_match_names[POLICY_MATCH_COUNT] = {"last", "first", "middle"};
static const char *const sudoers_layout_names[SUDOERS_LAYOUT_COUNT] = {"per-role", "per-task"};

/* names[i] for i < n, else "?". */
static const char *policy_name_of(const char *const *names, size_t n, unsigned i)
{
	return i < n ? names[i] : "?";
}

/* The index of s in names[0..n), or -1. */
static int policy_index_of(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return (int)i;
	return -1;
}

const char *policy_match_name(enum policy_match m)
{
	return policy_name_of(policy_match_names, POLICY_MATCH_COUNT, (unsigned)m);
}

int policy_match_parse(const char *s, enum policy_match *m)
{
	int i = policy_index_of(policy_match_names, POLICY_MATCH_COUNT, s);

	if (i < 0)
		return -1;
	*m = (enum policy_match)i;
	return 0;
}

const char *policy_sudoers_layout_name(enum sudoers_layout l)
{
	return policy_name_of(sudoers_layout_names, SUDOERS_LAYOUT_COUNT, (unsigned)l);
}

int policy_sudoers_layout_parse(const char *s, enum sudoers_layout *layout)
{
	int i = policy_index_of(sudoers_layout_names, SUDOERS_LAYOUT_COUNT, s);

	if (i < 0)
		return -1;
	*layout = (enum sudoers_layout)i;
	return 0;
}

/*
 * The RootAsRole series confgen writes, MAJOR.MINOR with any patch, read from each release's
 * source (doc/rootasrole-history.md): 3.1.0 and 3.1.1 keep SetBehavior a u8 in CBOR, 3.1.3 to
 * 3.3 the hardened integers with a JSON settings file, 4.0 to 4.2 read a CBOR build's settings as
 * CBOR (4.1 and 4.2 also refuse a policy file or directory writable by others, which confgen never
 * writes). 3.0 is left out: its dosr (then "sr") reads only /etc/security/rootasrole.json, a
 * path compiled in that rarperf does not own, and a release newer than the last one read may
 * change the schema.
 */
static const struct {
	unsigned major, minor;
} policy_rar_series[] = {{3, 1}, {3, 2}, {3, 3}, {4, 0}, {4, 1}, {4, 2}};

#define POLICY_RAR_WRITABLE "3.1.x, 3.2.x, 3.3.x, 4.0.x, 4.1.x, 4.2.x"

/* Parses MAJOR.MINOR.PATCH (decimal, no leading zero, each at most 65535). Returns 0 or -1. */
static int policy_rar_version_parse(const char *version, unsigned out[3])
{
	const char *c = version;
	int parts = 0;

	while (parts < 3) {
		unsigned long v = 0;
		const char *start = c;

		while (*c >= '0' && *c <= '9' && v <= 65535)
			v = v * 10 + (unsigned long)(*c++ - '0');
		if (c == start || v > 65535 || (c - start > 1 && *start == '0'))
			return -1;
		out[parts++] = (unsigned)v;
		if (parts < 3 && *c++ != '.')
			return -1;
	}
	return *c == '\0' ? 0 : -1;
}

int policy_rar_version_check(const char *version, struct errbuf *eb)
{
	unsigned v[3];

	if (version == NULL)
		return 0;
	if (strlen(version) > POLICY_RAR_VERSION_LEN_MAX)
		return errbuf_set(eb, "RootAsRole version \"%.20s...\": too long", version);
	if (policy_rar_version_parse(version, v) != 0)
		return errbuf_set(
		    eb, "RootAsRole version \"%s\": expected MAJOR.MINOR.PATCH, e.g. 3.3.4",
		    version);
	for (size_t i = 0; i < sizeof(policy_rar_series) / sizeof(policy_rar_series[0]); i++)
		if (v[0] == policy_rar_series[i].major && v[1] == policy_rar_series[i].minor)
			return 0;
	return errbuf_set(eb,
			  "RootAsRole version \"%s\": confgen cannot write its policy format; it "
			  "writes " POLICY_RAR_WRITABLE,
			  version);
}

bool policy_rar_hardened_enums(const char *version)
{
	unsigned v[3];

	if (version == NULL)
		version = POLICY_RAR_VERSION;
	if (policy_rar_version_parse(version, v) != 0)
		return true;
	/* rootasrole-core 3.1.3 (the core of 3.1.3 and 3.1.4) took the hardened integers. */
	return v[0] > 3 || (v[0] == 3 && (v[1] >= 2 || (v[1] == 1 && v[2] >= 3)));
}

bool policy_rar_settings_follow_storage(const char *version)
{
	if (version == NULL)
		version = POLICY_RAR_VERSION;
	return numarg_leading_u64(version) >= 4;
}
