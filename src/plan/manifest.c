/* manifest: an experiment manifest's shared vocabulary (the file behind `rarbench --manifest`):
 * the layouts' names, the commands safe to grant, its placeholders, freeing it. manifest_parse.c
 * reads one whole, with each part's parser (manifest_*.c). */
#include "jsonget.h"
#include "manifest.h"
#include "fileio.h"
#include "manifest_impl.h"
#include "template.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *manifest_layout_name(int i)
{
	return policy_sudoers_layout_name((enum sudoers_layout)i);
}

const char *manifest_after_refusal_name(int i)
{
	static const char *const names[] = {"skip_larger", "try_larger"};

	return i >= 0 && i < MANIFEST_AFTER_REFUSAL_COUNT ? names[i] : NULL;
}

const char *manifest_instrument_name(enum manifest_instrument i)
{
	static const char *const names[] = {"callgrind", "perf", "auto"};

	return (unsigned)i < MANIFEST_INSTRUMENT_COUNT ? names[i] : NULL;
}

bool manifest_command_is_safe(const char *command)
{
	static const char *const dirs[] = {"/usr/bin/", "/bin/"};
	static const char *const names[] = {"true", "false",  "id",   "whoami",
					    "echo", "printf", "sleep"};
	size_t d, k;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		size_t len = strlen(dirs[d]);

		if (strncmp(command, dirs[d], len) != 0)
			continue;
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strcmp(command + len, names[k]) == 0)
				return true;
	}
	return false;
}

void manifest_problems_clear(struct manifest_problems *pr)
{
	if (pr == NULL)
		return;
	for (size_t i = 0; i < pr->n; i++)
		free(pr->line[i]);
	free(pr->line);
	pr->line = NULL;
	pr->n = 0;
}

void manifest_free(struct manifest *m)
{
	size_t i, k;

	if (m == NULL)
		return;
	manifest_env_clear(&m->env);
	for (i = 0; i < m->nsubjects; i++) {
		struct manifest_subject *s = &m->subjects[i];

		free(s->id);
		free(s->program);
		for (k = 0; k < s->nargs; k++)
			free(s->args[k]);
		free(s->args);
		free(s->policy);
		free(s->policy_data);
		free(s->rar_version);
		free(s->build);
		free(s->policy_mount_at);
		free(s->pam_dir);
	}
	free(m->subjects);
	for (i = 0; i < MANIFEST_AXIS_COUNT; i++)
		free(m->axes[i].values);
	free(m->files.values);
	free(m->name);
	free(m->description);
	free(m->command);
	free(m->bench_user);
	free(m->precision_baseline);
	free(m->text);
	free(m);
}

char *manifest_expand(const char *tmpl, const char *prefix, const char *command, struct errbuf *eb)
{
	const struct template_var vars[] = {{"prefix", prefix}, {"command", command}};
	const char *unknown = NULL;
	char *out = template_expand(tmpl, vars, 2, &unknown, eb);
	char b[48];

	if (out == NULL && unknown != NULL)
		errbuf_set(eb, "unknown placeholder in \"%s\" (expected {prefix} or {command})",
			   manifest_shown(tmpl, b));
	return out;
}
