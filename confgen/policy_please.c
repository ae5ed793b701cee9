/* policy_please: writes a policy as please's please.ini (one section per task, regex rules). */
#include "policy_please.h"

#include <string.h>

#include "policy_file.h"

/* Not writable by group or others, as please checks; readable so `please -c` works. */
#define POLICY_PLEASE_MODE 0644
/* Outside a bracket class and without the x flag, only these are special to Rust's regex. */
#define POLICY_PLEASE_META "\\.+*?()|[]{}^$"

int policy_please_validate(const struct policy_shape *shape, struct errbuf *eb)
{
	if (shape->seed_compat)
		return errbuf_set(eb, "--please: not with --seed-compat (the original generator "
				      "wrote no please.ini)");
	if (!shape->deny_all && shape->user == NULL)
		return errbuf_set(eb, "--please: please matches users by name: give the bench "
				      "user's name (--user)");
	return 0;
}

size_t policy_please_escape(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s != '\0' && n + 2 < len; s++) {
		if (strchr(POLICY_PLEASE_META, *s) != NULL)
			buf[n++] = '\\';
		buf[n++] = *s;
	}
	if (len > 0)
		buf[n] = '\0';
	return n;
}

size_t policy_please_escape_extra(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += strchr(POLICY_PLEASE_META, *s) != NULL;
	return n;
}

/* "name = ^(?:a|b)$\n" for the users of role r (no group for one user). */
static void policy_please_names(const struct policy *p, struct policy_file *f, uint32_t r,
				const char *user_re, size_t user_len)
{
	const struct policy_shape *s = policy_get_shape(p);

	policy_file_puts(f, s->users > 1 ? "name = ^(?:" : "name = ^");
	for (uint32_t u = 0; u < s->users; u++) {
		uint32_t uid = policy_actor_uid(p, POLICY_SIDE_SUDO, r, u);

		if (u > 0)
			policy_file_put(f, "|", 1);
		/* Filler uids lie above POLICY_UID_MAX: only the benchmark user is uid. */
		if (uid == s->uid) {
			policy_file_put(f, user_re, user_len);
		} else {
			policy_file_put(f, "#", 1);
			policy_file_put_uint(f, uid);
		}
	}
	policy_file_puts(f, s->users > 1 ? ")$\n" : "$\n");
}

/* "rule = ^(?:c1|c2)$\n" for the commands of task t of role r, each escaped. */
static void policy_please_rule(const struct policy *p, struct policy_file *f, uint32_t r,
			       uint32_t t)
{
	const struct policy_shape *s = policy_get_shape(p);
	char cmd[POLICY_NAME_LEN_MAX], esc[2 * POLICY_NAME_LEN_MAX + 1];

	policy_file_puts(f, s->commands > 1 ? "rule = ^(?:" : "rule = ^");
	for (uint32_t c = 0; c < s->commands; c++) {
		if (c > 0)
			policy_file_put(f, "|", 1);
		policy_command_name(p, POLICY_SIDE_SUDO, r, t, c, cmd, sizeof(cmd));
		policy_file_put(f, esc, policy_please_escape(cmd, esc, sizeof(esc)));
	}
	policy_file_puts(f, s->commands > 1 ? ")$\n" : "$\n");
}

int policy_stage_please(struct policy_txn *txn, const struct policy *p, const char *path,
			struct errbuf *eb)
{
	const struct policy_shape *s = policy_get_shape(p);
	char user_re[2 * POLICY_USER_LEN_MAX + 1] = "";
	size_t user_len = 0;
	struct policy_file f;

	if (policy_please_validate(s, eb) != 0)
		return errbuf_prefix(eb, "%s", path);
	if (s->user != NULL)
		user_len = policy_please_escape(s->user, user_re, sizeof(user_re));
	if (policy_file_open(&f, txn, path, POLICY_PLEASE_MODE, eb) != 0)
		return -1;
	/* "# " at the line's start: please skips it as a comment. */
	fprintf(f.out,
		"# rarperf confgen: roles=%u users=%u tasks=%u commands=%u uid=%u user=%s "
		"match=%s\n",
		s->roles, s->users, s->tasks, s->commands, s->uid, s->user != NULL ? s->user : "-",
		policy_match_label(s));
	/* Deny-all: no section (please denies what no section permits). */
	for (uint32_t r = 0; r < s->roles && !s->deny_all; r++) {
		for (uint32_t t = 0; t < s->tasks; t++) {
			policy_file_put(&f, "[R", 2);
			policy_file_put_uint(&f, r + 1);
			policy_file_put(&f, "T", 1);
			policy_file_put_uint(&f, t + 1);
			policy_file_put(&f, "]\n", 2);
			policy_please_names(p, &f, r, user_re, user_len);
			policy_file_puts(&f, "target = ^root$\n");
			policy_please_rule(p, &f, r, t);
			policy_file_puts(&f, "require_pass = false\n");
		}
	}
	return policy_file_finish(&f, eb);
}
