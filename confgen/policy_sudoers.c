/* policy_sudoers: writes a policy as a sudoers file (Cmnd_Alias per task, user specs per role or
 * task). */
#include "policy_sudoers.h"

#include <string.h>

#include "policy_file.h"

#define POLICY_SUDOERS_MODE 0440

/* "R<r>T<t>" with 1-based indices. */
static void policy_sudoers_alias(struct policy_file *f, uint32_t r, uint32_t t)
{
	policy_file_put(f, "R", 1);
	policy_file_put_uint(f, r + 1);
	policy_file_put(f, "T", 1);
	policy_file_put_uint(f, t + 1);
}

/* "#uid, #uid ALL = " for the users of role r. */
static void policy_sudoers_users(const struct policy *p, struct policy_file *f, uint32_t r)
{
	const struct policy_shape *s = policy_get_shape(p);

	for (uint32_t u = 0; u < s->users; u++) {
		if (u > 0)
			policy_file_put(f, ", ", 2);
		policy_file_put(f, "#", 1);
		policy_file_put_uint(f, policy_actor_uid(p, POLICY_SIDE_SUDO, r, u));
	}
	policy_file_puts(f, " ALL = ");
}

void policy_sudoers_write_tasks(const struct policy *p, struct policy_file *f, uint32_t r,
				uint32_t t0, uint32_t t1, enum sudoers_layout layout)
{
	const struct policy_shape *s = policy_get_shape(p);
	char cmd[POLICY_NAME_LEN_MAX];

	for (uint32_t t = t0; t < t1; t++) {
		policy_file_puts(f, "Cmnd_Alias ");
		policy_sudoers_alias(f, r, t);
		policy_file_puts(f, " = ");
		for (uint32_t c = 0; c < s->commands; c++) {
			size_t n =
			    policy_command_name(p, POLICY_SIDE_SUDO, r, t, c, cmd, sizeof(cmd));
			if (c > 0)
				policy_file_put(f, ", ", 2);
			policy_file_put(f, cmd, n);
		}
		policy_file_put(f, "\n", 1);
	}
	if (layout == SUDOERS_LAYOUT_PER_TASK) {
		for (uint32_t t = t0; t < t1; t++) {
			policy_sudoers_users(p, f, r);
			policy_file_puts(f, POLICY_SUDOERS_GRANT);
			policy_sudoers_alias(f, r, t);
			policy_file_put(f, "\n", 1);
		}
		return;
	}
	policy_sudoers_users(p, f, r);
	for (uint32_t t = t0; t < t1; t++) {
		if (t > t0)
			policy_file_put(f, ", ", 2);
		policy_file_puts(f, POLICY_SUDOERS_GRANT);
		policy_sudoers_alias(f, r, t);
	}
	policy_file_put(f, "\n", 1);
}

int policy_stage_sudoers(struct policy_txn *txn, const struct policy *p, const char *path,
			 enum sudoers_layout layout, struct errbuf *eb)
{
	const struct policy_shape *s = policy_get_shape(p);
	struct policy_file f;

	if (layout != SUDOERS_LAYOUT_PER_ROLE && layout != SUDOERS_LAYOUT_PER_TASK)
		return errbuf_set(eb, "%s: unknown sudoers layout %d", path, (int)layout);
	if (policy_file_open(&f, txn, path, POLICY_SUDOERS_MODE, eb) != 0)
		return -1;
	if (!s->seed_compat) {
		/* "# " then text: a comment, never a "#uid" user. */
		fprintf(f.out,
			"# rarperf confgen: roles=%u users=%u tasks=%u commands=%u uid=%u "
			"match=%s layout=%s\n",
			s->roles, s->users, s->tasks, s->commands, s->uid, policy_match_label(s),
			policy_sudoers_layout_name(layout));
	}
	/* The original joined roles with "\n": one blank line between roles. Deny-all: no user
	 * spec at all, only the header (sudo denies what no rule allows). */
	for (uint32_t r = 0; r < s->roles && !s->deny_all; r++) {
		if (r > 0)
			policy_file_put(&f, "\n", 1);
		policy_sudoers_write_tasks(p, &f, r, 0, s->tasks, layout);
	}
	return policy_file_finish(&f, eb);
}
