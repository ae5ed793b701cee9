/* policy_size: the bytes each policy file of a format would have, computed without writing it. */
/*
 * Design. Each writer's output is a sum of fixed strings, decimal numbers
 * and command names over the shape's indices. Every variable part is the
 * decimal (or CBOR head) length of an index, a uid or a name whose length is
 * a constant plus the digit counts of up to three indices. Sums of such
 * lengths over 1..n are closed forms over digit classes (the numbers with k
 * digits), so nothing here loops over roles, tasks or commands: at most over
 * the digit classes of three indices (10 x 10 x 10, usually far fewer).
 * The single match (one actor, one command) is a filler taken out and the
 * real thing put in. The functions below mirror the writers' structure, one
 * helper per nesting level; tests/unit/test_policy_size.c checks them byte
 * for byte against the writers.
 */
#include "policy_size.h"

#include <stdio.h>
#include <string.h>

#include "jsonw.h"
#include "policy_doas.h"
#include "policy_please.h"
#include "policy_polkit.h"
#include "policy_sudoers.h"

/* What the writers use and this file must agree with (policy_rar_cbor.c, policy.c). */
#define POLICY_SIZE_CBOR_SET_ALL 181786330u
#define POLICY_SIZE_SEED_RAR_UID_BASE 5000u
#define POLICY_SIZE_SEED_SUDO_UID_STEP 1000u
/* Decimal digits of a uint64_t, at most. */
#define POLICY_SIZE_DIGITS_MAX 20

/* Decimal digits of v. */
static unsigned dec_len(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Bytes of a CBOR head (major type and argument) for argument v, shortest form. */
static unsigned cbor_head_len(uint64_t v)
{
	if (v < 24)
		return 1;
	if (v <= 0xff)
		return 2;
	if (v <= 0xffff)
		return 3;
	if (v <= 0xffffffffu)
		return 5;
	return 9;
}

/* A CBOR text string of len bytes: head and bytes. */
static uint64_t cbor_text_len(uint64_t len)
{
	return cbor_head_len(len) + len;
}

static uint64_t cbor_str(const char *s)
{
	return cbor_text_len(strlen(s));
}

/*
 * Digit classes of [lo, hi]: cnt[k] = how many of them have k decimal
 * digits (k = 1..POLICY_SIZE_DIGITS_MAX); all zero when lo > hi.
 */
static void digit_classes(uint64_t lo, uint64_t hi, uint64_t cnt[POLICY_SIZE_DIGITS_MAX + 1])
{
	uint64_t first = 0; /* the smallest number with k digits */

	memset(cnt, 0, sizeof(cnt[0]) * (POLICY_SIZE_DIGITS_MAX + 1));
	for (unsigned k = 1; k <= POLICY_SIZE_DIGITS_MAX && lo <= hi; k++) {
		uint64_t last =
		    k < POLICY_SIZE_DIGITS_MAX ? (first == 0 ? 9 : first * 10 - 1) : UINT64_MAX;
		uint64_t a = lo > first ? lo : first, b = hi < last ? hi : last;

		if (a <= b)
			cnt[k] = b - a + 1;
		first = first == 0 ? 10 : first * 10;
	}
}

/* Sum of the decimal lengths of lo..hi (0 when lo > hi). */
static uint64_t dec_sum(uint64_t lo, uint64_t hi)
{
	uint64_t cnt[POLICY_SIZE_DIGITS_MAX + 1], sum = 0;

	digit_classes(lo, hi, cnt);
	for (unsigned k = 1; k <= POLICY_SIZE_DIGITS_MAX; k++)
		sum += k * cnt[k];
	return sum;
}

/* Sum of the CBOR unsigned integer lengths of lo..hi (0 when lo > hi). */
static uint64_t cbor_uint_sum(uint64_t lo, uint64_t hi)
{
	static const uint64_t band_last[] = {23, 0xff, 0xffff, 0xffffffffu, UINT64_MAX};
	uint64_t first = 0, sum = 0;

	for (size_t i = 0; i < sizeof(band_last) / sizeof(band_last[0]) && lo <= hi; i++) {
		uint64_t a = lo > first ? lo : first, b = hi < band_last[i] ? hi : band_last[i];

		if (a <= b)
			sum += (b - a + 1) * cbor_head_len(a);
		if (band_last[i] == UINT64_MAX)
			break;
		first = band_last[i] + 1;
	}
	return sum;
}

/* Decimal and CBOR lengths of a set of uids, summed. */
struct uid_sums {
	uint64_t dec, cbor;
};

static void uid_sums_add_range(struct uid_sums *s, uint64_t lo, uint64_t hi, uint64_t times)
{
	s->dec += times * dec_sum(lo, hi);
	s->cbor += times * cbor_uint_sum(lo, hi);
}

static void uid_sums_add(struct uid_sums *s, uint64_t v, int64_t times)
{
	s->dec += (uint64_t)((int64_t)dec_len(v) * times);
	s->cbor += (uint64_t)((int64_t)cbor_head_len(v) * times);
}

/*
 * n uint32 values first, first + 1, ... counted modulo 2^32, as the writers'
 * uint32 arithmetic makes them, each range added times times.
 */
static void uid_sums_add_run32(struct uid_sums *s, uint32_t first, uint64_t n, uint64_t times)
{
	uint64_t room = (uint64_t)UINT32_MAX - first + 1;

	if (n == 0)
		return;
	if (n <= room) {
		uid_sums_add_range(s, first, first + n - 1, times);
		return;
	}
	uid_sums_add_range(s, first, UINT32_MAX, times);
	uid_sums_add_range(s, 0, n - room - 1, times);
}

/* The lengths of every actor's uid on side, over all roles and users (policy_actor_uid). */
static struct uid_sums actor_uid_sums(const struct policy *p, enum policy_side side)
{
	const struct policy_shape *s = policy_get_shape(p);
	struct policy_position m = policy_match_position(p);
	struct uid_sums sum = {0, 0};
	uint64_t roles = s->roles, users = s->users;

	if (!s->seed_compat) {
		/* Fillers BASE + r*users + u for every actor, the match's swapped for the uid. */
		uid_sums_add_range(&sum, POLICY_FILLER_UID_BASE,
				   POLICY_FILLER_UID_BASE + roles * users - 1, 1);
		uid_sums_add(&sum, POLICY_FILLER_UID_BASE + (uint64_t)m.role * users + m.user, -1);
	} else if (side == POLICY_SIDE_SUDO) {
		/* Every role: (u + 1) + 1000 * roles for u < users - 1 (uint32), then the uid. */
		uint32_t first = POLICY_SIZE_SEED_SUDO_UID_STEP * s->roles + 1u;

		uid_sums_add_run32(&sum, first, users - 1, roles);
		uid_sums_add(&sum, s->uid, (int64_t)roles - 1);
	} else {
		/* 5000 + u + 1 everywhere but the last user of the last role, who is the uid. */
		uid_sums_add_range(&sum, POLICY_SIZE_SEED_RAR_UID_BASE + 1,
				   POLICY_SIZE_SEED_RAR_UID_BASE + users, roles);
		uid_sums_add(&sum, POLICY_SIZE_SEED_RAR_UID_BASE + users, -1);
	}
	uid_sums_add(&sum, s->uid, 1);
	return sum;
}

/*
 * Strings whose length is base plus the decimal lengths of up to three
 * 1-based indices: index i runs over 1..n[i], and counts in the length when
 * digits[i]. E.g. a filler command (r, t, c all counted), the task name
 * "R<r>T<t>" (c absent: n[2] = 1, not counted).
 */
struct digit_form {
	uint64_t base;
	uint64_t n[3];
	bool digits[3];
};

/* The total of len over the form's strings (len: identity or a CBOR text). */
enum form_measure { FORM_BYTES, FORM_CBOR_TEXT };

static uint64_t form_measure_one(enum form_measure how, uint64_t len)
{
	return how == FORM_BYTES ? len : cbor_text_len(len);
}

/* The length of the form's string at 0-based indices idx. */
static uint64_t form_len_at(const struct digit_form *f, const uint32_t idx[3])
{
	uint64_t len = f->base;

	for (int i = 0; i < 3; i++)
		if (f->digits[i])
			len += dec_len((uint64_t)idx[i] + 1);
	return len;
}

/*
 * The sum of how(len) over every string of the form. FORM_BYTES is the
 * closed form n0*n1*n2*base + sum over counted i of S(n_i) * prod(other n);
 * FORM_CBOR_TEXT walks the digit classes, since the head's length steps at
 * 24 and 256 bytes.
 */
static uint64_t form_sum(const struct digit_form *f, enum form_measure how)
{
	uint64_t cnt[3][POLICY_SIZE_DIGITS_MAX + 1], total = 0, minlen = f->base, maxlen = f->base;
	uint64_t all = f->n[0] * f->n[1] * f->n[2];
	unsigned kmin[3], kmax[3];

	if (how == FORM_BYTES) {
		total = all * f->base;
		for (int i = 0; i < 3; i++)
			if (f->digits[i])
				total += dec_sum(1, f->n[i]) * (all / f->n[i]);
		return total;
	}
	for (int i = 0; i < 3; i++) {
		if (f->digits[i]) {
			digit_classes(1, f->n[i], cnt[i]);
			kmin[i] = 1;
			kmax[i] = dec_len(f->n[i]);
		} else {
			memset(cnt[i], 0, sizeof(cnt[i]));
			cnt[i][0] = f->n[i];
			kmin[i] = kmax[i] = 0;
		}
		minlen += kmin[i];
		maxlen += kmax[i];
	}
	/* One head length for all: no need to split by classes. */
	if (cbor_head_len(minlen) == cbor_head_len(maxlen))
		return all * cbor_head_len(minlen) + form_sum(f, FORM_BYTES);
	for (unsigned a = kmin[0]; a <= kmax[0]; a++)
		for (unsigned b = kmin[1]; b <= kmax[1]; b++)
			for (unsigned c = kmin[2]; c <= kmax[2]; c++)
				total += cnt[0][a] * cnt[1][b] * cnt[2][c] *
					 cbor_text_len(f->base + a + b + c);
	return total;
}

/* The form of the command names on side (policy_command_name); index order r, t, c. */
static struct digit_form command_form(const struct policy *p, enum policy_side side)
{
	const struct policy_shape *s = policy_get_shape(p);
	const char *base = strrchr(s->command, '/') + 1;
	struct digit_form f = {.n = {s->roles, s->tasks, s->commands},
			       .digits = {true, true, true}};

	if (!s->seed_compat) {
		/* POLICY_FILLER_DIR "/<basename>.<r>.<t>.<c>" */
		f.base = strlen(POLICY_FILLER_DIR) + 1 + strlen(base) + 3;
	} else {
		/* "<command><c><r><t>", or "<command><c>" on the RootAsRole side. */
		f.base = strlen(s->command);
		f.digits[0] = f.digits[1] = side == POLICY_SIDE_SUDO;
	}
	return f;
}

/* The sum of how(name length) over every command of side, the match included. */
static uint64_t command_names_sum(const struct policy *p, enum policy_side side,
				  enum form_measure how)
{
	struct digit_form f = command_form(p, side);
	struct policy_position m = policy_match_position(p);
	const uint32_t idx[3] = {m.role, m.task, m.command};

	/* The filler at the match position is the command itself. */
	return form_sum(&f, how) - form_measure_one(how, form_len_at(&f, idx)) +
	       form_measure_one(how, strlen(policy_get_shape(p)->command));
}

/* --- sudoers (policy_sudoers.c) ------------------------------------------------ */

static uint64_t size_sudoers(const struct policy *p, enum sudoers_layout layout)
{
	const struct policy_shape *s = policy_get_shape(p);
	uint64_t R = s->roles, U = s->users, T = s->tasks, C = s->commands, total = 0;
	/* "R<r>T<t>" over every role and task. */
	struct digit_form alias = {.base = 2, .n = {R, T, 1}, .digits = {true, true, false}};
	uint64_t aliases = form_sum(&alias, FORM_BYTES);
	/* Per role "#uid, #uid ALL = ", summed over the roles. */
	uint64_t users =
	    R * (U + 2 * (U - 1) + strlen(" ALL = ")) + actor_uid_sums(p, POLICY_SIDE_SUDO).dec;

	if (!s->seed_compat)
		total += (uint64_t)snprintf(NULL, 0,
					    "# rarperf confgen: roles=%u users=%u tasks=%u "
					    "commands=%u uid=%u match=%s layout=%s\n",
					    s->roles, s->users, s->tasks, s->commands, s->uid,
					    policy_match_name(s->match),
					    policy_sudoers_layout_name(layout));
	total += R - 1; /* the blank line between roles */
	/* "Cmnd_Alias <alias> = <c>, <c>\n" per task. */
	total += R * T * (strlen("Cmnd_Alias ") + strlen(" = ") + 2 * (C - 1) + 1) + aliases +
		 command_names_sum(p, POLICY_SIDE_SUDO, FORM_BYTES);
	if (layout == SUDOERS_LAYOUT_PER_TASK)
		/* "<users>(root) NOPASSWD: <alias>\n" per task. */
		total += T * users + R * T * (strlen(POLICY_SUDOERS_GRANT) + 1) + aliases;
	else
		/* "<users>(root) NOPASSWD: <alias>, (root) NOPASSWD: <alias>\n" per role. */
		total +=
		    users + R * T * strlen(POLICY_SUDOERS_GRANT) + R * 2 * (T - 1) + aliases + R;
	return total;
}

/* --- doas (policy_doas.c) ---------------------------------------------------- */

static uint64_t size_doas(const struct policy *p)
{
	const struct policy_shape *s = policy_get_shape(p);
	uint64_t R = s->roles, U = s->users, T = s->tasks, C = s->commands;
	uint64_t header = (uint64_t)snprintf(
	    NULL, 0,
	    "# rarperf confgen: roles=%u users=%u tasks=%u commands=%u uid=%u match=%s%s\n",
	    s->roles, s->users, s->tasks, s->commands, s->uid, policy_match_name(s->match),
	    s->seed_compat ? " seed-compat (sudo side)" : "");
	/* "permit nopass <uid> as root cmd <name>\n" per user and command. */
	uint64_t fixed = strlen("permit nopass ") + strlen(" as root cmd ") + 1;

	return header + T * C * (R * U * fixed + actor_uid_sums(p, POLICY_SIDE_SUDO).dec) +
	       U * command_names_sum(p, POLICY_SIDE_SUDO, FORM_BYTES);
}

/* --- polkit rules (policy_polkit.c) ------------------------------------------ */

static uint64_t size_polkit(const struct policy *p)
{
	const struct policy_shape *s = policy_get_shape(p);
	uint64_t R = s->roles, U = s->users, T = s->tasks, C = s->commands;
	char name[POLICY_NAME_LEN_MAX];
	uint64_t total = (uint64_t)snprintf(
	    NULL, 0,
	    POLICY_POLKIT_HEADER " roles=%u users=%u tasks=%u commands=%u uid=%u match=%s\n",
	    s->roles, s->users, s->tasks, s->commands, s->uid, policy_match_label(s));
	uint64_t users;

	total += strlen("polkit.addRule(function(a, s) { if (a.id == \"" POLICY_POLKIT_ACTION
			"\") return polkit.Result.NO; });\n");
	if (s->deny_all)
		return total;
	/* Every actor's name in each of its role's T rules: decimal uids but the bench user's. */
	users = actor_uid_sums(p, POLICY_SIDE_SUDO).dec - dec_len(s->uid) +
		policy_polkit_user_name(s->uid, name, sizeof(name));
	total += T * (users + R * U * strlen("s.user == \"\"") + R * (U - 1) * strlen(" || "));
	total += R * T *
		 (strlen("polkit.addRule(function(a, s) { if (a.id == \"" POLICY_POLKIT_ACTION
			 "\" && (") +
		  strlen(") && (") + C * strlen("a.lookup(\"program\") == \"\"") +
		  (C - 1) * strlen(" || ") + strlen(")) return polkit.Result.YES; });\n"));
	return total + command_names_sum(p, POLICY_SIDE_SUDO, FORM_BYTES);
}

/* --- RootAsRole JSON (policy_rar_json.c, jsonw.c) ------------------------------- */

/*
 * A jsonw container of n items, the items at depth (the container's own
 * depth + 1): the brackets, each item's newline and indentation, the commas
 * and the newline and indentation before the closing bracket.
 */
static uint64_t json_container(uint64_t n, uint64_t depth)
{
	if (n == 0)
		return 2;
	return 2 + n * (1 + 2 * depth) + (n - 1) + 1 + 2 * (depth - 1);
}

/* "\"key\": " */
static uint64_t json_key(const char *key)
{
	return jsonw_quoted_len(key, strlen(key)) + 2;
}

static uint64_t json_str(const char *s)
{
	return jsonw_quoted_len(s, strlen(s));
}

/* policy_rar_json_settings_members: version and storage, members of a depth-1 object. */
static uint64_t json_settings_members(const char *method, const char *path, const char *version)
{
	return json_key("version") + json_str(version) + json_key("storage") +
	       json_container(2, 2) + json_key("method") + json_str(method) + json_key("settings") +
	       json_container(2, 3) + json_key("immutable") + strlen("false") + json_key("path") +
	       json_str(path);
}

/* policy_rar_json_policy_members: options and roles, members of a depth-1 object. */
static uint64_t json_policy_members(const struct policy *p)
{
	const struct policy_shape *s = policy_get_shape(p);
	uint64_t R = s->roles, U = s->users, T = s->tasks, C = s->commands, total;
	struct digit_form role_name = {.base = 3, .n = {R, 1, 1}, .digits = {true}};
	struct digit_form task_name = {.base = 4, .n = {R, T, 1}, .digits = {true, true}};
	/* A chooser: {"default": "all", "fallback": 0} at depth 6, its members at 7. */
	uint64_t chooser =
	    json_container(2, 7) + json_key("default") + json_str("all") + json_key("fallback") + 1;
	/* A task without its name and command strings, members at depth 5. */
	uint64_t task = json_container(3, 5) + json_key("name") + json_key("cred") +
			json_container(2, 6) + json_key("setuid") + json_key("setgid") +
			2 * chooser + json_key("commands") + json_container(C, 6);
	/* An actor {"type": "user", "id": <uid>} without the uid, members at 5. */
	uint64_t actor =
	    json_container(2, 5) + json_key("type") + json_str("user") + json_key("id");
	/* A role without its name, actors and tasks, members at 3. */
	uint64_t role = json_container(3, 3) + json_key("name") + json_key("actors") +
			json_container(U, 4) + json_key("tasks") + json_container(T, 4);

	total = json_key("options") + json_container(1, 2) + json_key("authentication") +
		json_str("skip") + json_key("roles") + json_container(R, 2);
	total += R * role + R * U * actor + actor_uid_sums(p, POLICY_SIDE_RAR).dec + R * T * task;
	if (s->seed_compat) /* role "" and task 0 */
		total += R * 2 + R * T * 1;
	else /* "R<r>" and "R<r>T<t>", quoted */
		total += form_sum(&role_name, FORM_BYTES) + form_sum(&task_name, FORM_BYTES);
	/* Each command quoted (no name needs an escape: policy_shape_validate). */
	total += R * T * C * 2 + command_names_sum(p, POLICY_SIDE_RAR, FORM_BYTES);
	return total;
}

static uint64_t size_rar_json(const struct policy *p, const char *path, const char *version)
{
	/* { version, storage, options, roles } then "\n". */
	return json_container(4, 1) + json_settings_members("json", path, version) +
	       json_policy_members(p) + 1;
}

/* --- RootAsRole CBOR (policy_rar_cbor.c) ---------------------------------------- */

static uint64_t size_rar_cbor_data(const struct policy *p, const char *version)
{
	const struct policy_shape *s = policy_get_shape(p);
	uint64_t R = s->roles, U = s->users, T = s->tasks, C = s->commands, total;
	struct digit_form role_name = {.base = 1, .n = {R, 1, 1}, .digits = {true}};
	struct digit_form task_name = {.base = 2, .n = {R, T, 1}, .digits = {true, true}};
	/* A chooser under its key: {_ "d": All, "f": 0}. */
	uint64_t chooser = cbor_str("u") + 1 + cbor_str("d") +
			   cbor_head_len(POLICY_SIZE_CBOR_SET_ALL) + cbor_str("f") + 1 + 1;
	/* A task without its name and command strings. */
	uint64_t task = 1 + cbor_str("n") + cbor_str("i") + 1 + 2 * chooser + 1 + cbor_str("c") +
			cbor_head_len(C) + 1;
	/* An actor {_ "type": "user", "id": <uid>} without the uid. */
	uint64_t actor = 1 + cbor_str("type") + cbor_str("user") + cbor_str("id") + 1;
	/* A role without its name, actors and tasks. */
	uint64_t role = 1 + cbor_str("n") + cbor_str("a") + cbor_head_len(U) + cbor_str("t") +
			cbor_head_len(T) + 1;

	total = 1 + cbor_str("version") + cbor_str(version) + cbor_str("options") + 1 +
		cbor_str("authentication") + cbor_str("skip") + 1 + cbor_str("roles") +
		cbor_head_len(R) + 1;
	total += R * role + R * U * actor + actor_uid_sums(p, POLICY_SIDE_RAR).cbor + R * T * task;
	if (s->seed_compat) /* role "" and task 0 */
		total += R * cbor_text_len(0) + R * T * cbor_head_len(0);
	else
		total +=
		    form_sum(&role_name, FORM_CBOR_TEXT) + form_sum(&task_name, FORM_CBOR_TEXT);
	return total + command_names_sum(p, POLICY_SIDE_RAR, FORM_CBOR_TEXT);
}

static uint64_t size_rar_cbor_settings(const char *data_path, const char *version)
{
	if (!policy_rar_settings_follow_storage(version))
		/* { version, storage } then "\n", as JSON. */
		return json_container(2, 1) + json_settings_members("cbor", data_path, version) + 1;
	/* {_ version, storage: {_ method, settings: {_ immutable, path}}} */
	return 1 + cbor_str("version") + cbor_str(version) + cbor_str("storage") + 1 +
	       cbor_str("method") + cbor_str("cbor") + cbor_str("settings") + 1 +
	       cbor_str("immutable") + 1 + cbor_str("path") + cbor_str(data_path) + 3;
}

/* --- please (policy_please.c) ---------------------------------------------------- */

static uint64_t size_please(const struct policy *p)
{
	const struct policy_shape *s = policy_get_shape(p);
	uint64_t R = s->roles, U = s->users, T = s->tasks, C = s->commands;
	const char *base = strrchr(s->command, '/') + 1;
	/* "[R<r>T<t>]\n" over every role and task. */
	struct digit_form section = {.base = 5, .n = {R, T, 1}, .digits = {true, true, false}};
	uint64_t total, names, rules;

	total = (uint64_t)snprintf(NULL, 0,
				   "# rarperf confgen: roles=%u users=%u tasks=%u commands=%u "
				   "uid=%u user=%s match=%s\n",
				   s->roles, s->users, s->tasks, s->commands, s->uid,
				   s->user != NULL ? s->user : "-", policy_match_label(s));
	if (s->deny_all)
		return total;
	/* Per role "name = ^(?:n|n)$\n": every actor "#<uid>" but the benchmark user's
	 * escaped name (the one actor that is uid); written once per task. */
	names = R * ((U > 1 ? 11 : 8) + (U > 1 ? 3 : 2) + (U - 1)) + R * U +
		actor_uid_sums(p, POLICY_SIDE_SUDO).dec - 1 - dec_len(s->uid) + strlen(s->user) +
		policy_please_escape_extra(s->user);
	/* Per task "rule = ^(?:c|c)$\n": the names, each filler's dots escaped (its prefix's
	 * and the two between the indices), the command's own escapes once. */
	rules = R * T * ((C > 1 ? 11 : 8) + (C > 1 ? 3 : 2) + (C - 1)) +
		command_names_sum(p, POLICY_SIDE_SUDO, FORM_BYTES) +
		(R * T * C - 1) * (policy_please_escape_extra(POLICY_FILLER_DIR) +
				   policy_please_escape_extra(base) + 1 + 2) +
		policy_please_escape_extra(s->command);
	return total + form_sum(&section, FORM_BYTES) + T * names + rules +
	       R * T * (strlen("target = ^root$\n") + strlen("require_pass = false\n"));
}

int policy_size(const struct policy *p, enum policy_format f, enum sudoers_layout layout,
		const char *rar_version, const char *named_path, struct policy_size_bytes *out,
		struct errbuf *eb)
{
	const char *version = rar_version != NULL ? rar_version : POLICY_RAR_VERSION;

	memset(out, 0, sizeof(*out));
	switch (f) {
	case POLICY_FORMAT_SUDOERS:
		if (layout != SUDOERS_LAYOUT_PER_ROLE && layout != SUDOERS_LAYOUT_PER_TASK)
			return errbuf_set(eb, "unknown sudoers layout %d", (int)layout);
		out->policy_bytes = size_sudoers(p, layout);
		return 0;
	case POLICY_FORMAT_DOAS:
		if (policy_doas_validate(policy_get_shape(p), eb) != 0)
			return -1;
		out->policy_bytes = size_doas(p);
		return 0;
	case POLICY_FORMAT_PLEASE:
		if (policy_please_validate(policy_get_shape(p), eb) != 0)
			return -1;
		out->policy_bytes = size_please(p);
		return 0;
	case POLICY_FORMAT_POLKIT:
		if (policy_polkit_validate(policy_get_shape(p), eb) != 0)
			return -1;
		out->policy_bytes = size_polkit(p);
		return 0;
	case POLICY_FORMAT_RAR_JSON:
	case POLICY_FORMAT_RAR_CBOR:
		if (policy_rar_version_check(rar_version, eb) != 0)
			return -1;
		if (named_path == NULL)
			return errbuf_set(eb, "%s: the size needs the path the settings name",
					  policy_format_name(f));
		if (f == POLICY_FORMAT_RAR_JSON) {
			out->policy_bytes = size_rar_json(p, named_path, version);
		} else {
			out->policy_bytes = size_rar_cbor_settings(named_path, version);
			out->data_bytes = size_rar_cbor_data(p, version);
		}
		return 0;
	}
	return errbuf_set(eb, "unknown policy format %d", (int)f);
}
