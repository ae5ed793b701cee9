/* policy_polkit: writes a policy as polkit JavaScript rules for pkexec (one rule per task). */
#include "policy_polkit.h"

#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "policy_file.h"

/* Root-owned, not writable by others (polkitd refuses nothing, but the rules grant root). */
#define POLICY_POLKIT_MODE 0644

size_t policy_polkit_user_name(uint32_t uid, char *buf, size_t len)
{
	struct passwd *pw = uid < POLICY_FILLER_UID_BASE ? getpwuid(uid) : NULL;
	int n;

	if (len == 0)
		return 0;
	if (pw != NULL && pw->pw_name != NULL && pw->pw_name[0] != '\0' &&
	    strcspn(pw->pw_name, "\"\\") == strlen(pw->pw_name))
		n = snprintf(buf, len, "%s", pw->pw_name);
	else
		n = snprintf(buf, len, "%u", uid);
	if (n < 0)
		n = 0;
	return (size_t)n < len ? (size_t)n : len - 1;
}

int policy_polkit_validate(const struct policy_shape *shape, struct errbuf *eb)
{
	if (shape->seed_compat)
		return errbuf_set(
		    eb, "--polkit: not with --seed-compat (the seed wrote no polkit rules)");
	if (shape->command != NULL && strcspn(shape->command, "\"\\") != strlen(shape->command))
		return errbuf_set(eb, "--polkit: the command holds '\"' or '\\\\', which a rule "
				      "cannot compare without escaping");
	return 0;
}

/* "s.user == \"<name>\"" for each user of role r, joined by " || ". */
static void policy_polkit_users(const struct policy *p, struct policy_file *f, uint32_t r)
{
	const struct policy_shape *s = policy_get_shape(p);
	char name[POLICY_NAME_LEN_MAX];

	for (uint32_t u = 0; u < s->users; u++) {
		size_t n = policy_polkit_user_name(policy_actor_uid(p, POLICY_SIDE_SUDO, r, u),
						   name, sizeof(name));
		if (u > 0)
			policy_file_puts(f, " || ");
		policy_file_puts(f, "s.user == \"");
		policy_file_put(f, name, n);
		policy_file_put(f, "\"", 1);
	}
}

int policy_stage_polkit(struct policy_txn *txn, const struct policy *p, const char *path,
			struct errbuf *eb)
{
	const struct policy_shape *s = policy_get_shape(p);
	struct policy_file f;
	char cmd[POLICY_NAME_LEN_MAX];

	if (policy_polkit_validate(s, eb) != 0)
		return -1;
	if (policy_file_open(&f, txn, path, POLICY_POLKIT_MODE, eb) != 0)
		return -1;
	fprintf(f.out,
		POLICY_POLKIT_HEADER " roles=%u users=%u tasks=%u commands=%u uid=%u match=%s\n",
		s->roles, s->users, s->tasks, s->commands, s->uid, policy_match_label(s));
	for (uint32_t r = 0; r < s->roles && !s->deny_all; r++) {
		for (uint32_t t = 0; t < s->tasks; t++) {
			policy_file_puts(
			    &f,
			    "polkit.addRule(function(a, s) { if (a.id == \"" POLICY_POLKIT_ACTION
			    "\" && (");
			policy_polkit_users(p, &f, r);
			policy_file_puts(&f, ") && (");
			for (uint32_t c = 0; c < s->commands; c++) {
				size_t n = policy_command_name(p, POLICY_SIDE_SUDO, r, t, c, cmd,
							       sizeof(cmd));
				if (c > 0)
					policy_file_puts(&f, " || ");
				policy_file_puts(&f, "a.lookup(\"program\") == \"");
				policy_file_put(&f, cmd, n);
				policy_file_put(&f, "\"", 1);
			}
			policy_file_puts(&f, ")) return polkit.Result.YES; });\n");
		}
	}
	policy_file_puts(&f, "polkit.addRule(function(a, s) { if (a.id == \"" POLICY_POLKIT_ACTION
			     "\") return polkit.Result.NO; });\n");
	return policy_file_finish(&f, eb);
}
