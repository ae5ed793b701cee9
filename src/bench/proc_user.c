/* proc_user: the user a command runs as (--as-user) and the environment it gets. */
#include "proc.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "growbuf.h"
#include "numarg.h"

#define PROC_USER_PATH "/usr/local/bin:/usr/bin:/bin"
#define PROC_MAX_GROUPS 65536

int proc_env_append(char ***envp, const char *kv, struct errbuf *eb)
{
	size_t n = 0, cap;
	char *copy;

	while ((*envp)[n] != NULL)
		n++;
	copy = strdup(kv);
	cap = n + 1; /* what *envp holds for sure: n strings and the NULL */
	if (copy == NULL || growarray(envp, &cap, n + 2, sizeof(**envp), SIZE_MAX, eb) < 0) {
		free(copy);
		return errbuf_set(eb, "out of memory");
	}
	(*envp)[n] = copy;
	(*envp)[n + 1] = NULL;
	return 0;
}

int proc_user_lookup(const char *user, struct proc_user *u, struct errbuf *eb)
{
	struct passwd *pw;
	int ngroups = 32;

	memset(u, 0, sizeof(*u));
	errno = 0;
	pw = getpwnam(user);
	if (pw == NULL && user[0] >= '0' && user[0] <= '9') {
		uint64_t id;

		if (numarg_u64(user, 0, UINT32_MAX, &id) == NUMARG_OK)
			pw = getpwuid((uid_t)id);
	}
	if (pw == NULL)
		return errbuf_set(eb, "--as-user: no such user '%s'", user);
	u->name = strdup(pw->pw_name);
	u->home = strdup(pw->pw_dir != NULL ? pw->pw_dir : "/");
	u->shell = strdup(pw->pw_shell != NULL && pw->pw_shell[0] ? pw->pw_shell : "/bin/sh");
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	if (u->name == NULL || u->home == NULL || u->shell == NULL)
		goto oom;
	for (;;) {
		int n = ngroups;
		gid_t *g = realloc(u->groups, (size_t)ngroups * sizeof(gid_t));

		if (g == NULL)
			goto oom;
		u->groups = g;
		if (getgrouplist(u->name, u->gid, u->groups, &n) >= 0) {
			u->n_groups = (size_t)n;
			break;
		}
		if (n <= ngroups)
			n = ngroups * 2;
		if (n > PROC_MAX_GROUPS) {
			proc_user_clear(u);
			return errbuf_set(eb, "--as-user: user '%s' has too many groups", user);
		}
		ngroups = n;
	}
	return 0;
oom:
	proc_user_clear(u);
	return errbuf_set(eb, "out of memory");
}

void proc_user_clear(struct proc_user *u)
{
	if (u == NULL)
		return;
	free(u->name);
	free(u->groups);
	free(u->home);
	free(u->shell);
	memset(u, 0, sizeof(*u));
}

static char *proc_kv(const char *k, const char *v)
{
	size_t len = strlen(k) + strlen(v) + 2;
	char *s = malloc(len);

	if (s != NULL)
		snprintf(s, len, "%s=%s", k, v);
	return s;
}

char **proc_env_for_user(const struct proc_user *u, struct errbuf *eb)
{
	const char *term = getenv("TERM");
	char **env = calloc(8, sizeof(*env));
	size_t i = 0;

	if (env == NULL)
		goto oom;
	env[i++] = proc_kv("PATH", PROC_USER_PATH);
	env[i++] = proc_kv("HOME", u->home);
	env[i++] = proc_kv("USER", u->name);
	env[i++] = proc_kv("LOGNAME", u->name);
	env[i++] = proc_kv("SHELL", u->shell);
	env[i++] = proc_kv("LANG", "C");
	if (term != NULL)
		env[i++] = proc_kv("TERM", term);
	for (size_t j = 0; j < i; j++)
		if (env[j] == NULL)
			goto oom;
	return env;
oom:
	proc_env_free(env);
	errbuf_set(eb, "out of memory");
	return NULL;
}
