/* policy_doas: writes a policy as an OpenDoas doas.conf (one permit rule per user and command). */
#include "policy_doas.h"

#include "policy_file.h"

/* Root-owned and not writable by group or others, as doas checks; readable so `doas -C` works. */
#define POLICY_DOAS_MODE 0644

int policy_doas_validate(const struct policy_shape *shape, struct errbuf *eb)
{
	unsigned long long rules =
	    (unsigned long long)shape->roles * shape->users * shape->tasks * shape->commands;

	if (rules > POLICY_DOAS_RULES_MAX)
		return errbuf_set(
		    eb, "--doas: roles*users*tasks*commands = %llu rules, the limit is %llu", rules,
		    POLICY_DOAS_RULES_MAX);
	return 0;
}

int policy_stage_doas(struct policy_txn *txn, const struct policy *p, const char *path,
		      struct errbuf *eb)
{
	const struct policy_shape *s = policy_get_shape(p);
	struct policy_file f;
	char line[64 + POLICY_NAME_LEN_MAX];

	/* No policy_doas_validate here: the shape was checked once, where it was decided. */
	if (policy_file_open(&f, txn, path, POLICY_DOAS_MODE, eb) != 0)
		return -1;
	fprintf(f.out,
		"# rarperf confgen: roles=%u users=%u tasks=%u commands=%u uid=%u match=%s%s\n",
		s->roles, s->users, s->tasks, s->commands, s->uid, policy_match_label(s),
		s->seed_compat ? " seed-compat (sudo side)" : "");
	/* Deny-all: no rule at all (doas denies what no rule permits). */
	for (uint32_t r = 0; r < s->roles && !s->deny_all; r++) {
		for (uint32_t u = 0; u < s->users; u++) {
			/* Each rule is one write: the user's prefix is built once, then the name.
			 */
			int plen = snprintf(line, sizeof(line), "permit nopass %u as root cmd ",
					    policy_actor_uid(p, POLICY_SIDE_SUDO, r, u));
			for (uint32_t t = 0; t < s->tasks; t++) {
				for (uint32_t c = 0; c < s->commands; c++) {
					size_t n = policy_command_name(
					    p, POLICY_SIDE_SUDO, r, t, c, line + plen,
					    sizeof(line) - (size_t)plen - 1);
					line[(size_t)plen + n] = '\n';
					policy_file_put(&f, line, (size_t)plen + n + 1);
				}
			}
		}
	}
	return policy_file_finish(&f, eb);
}
