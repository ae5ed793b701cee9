/* policy_rar_json: writes a policy as RootAsRole's single-file JSON (settings and policy together).
 */
#include "policy_rar_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "policy_file.h"

#define POLICY_RAR_JSON_MODE 0644

void policy_rar_json_settings_members(struct jsonw *w, const char *method, const char *data_abspath,
				      const char *rar_version)
{
	jsonw_key(w, "version");
	jsonw_string(w, rar_version != NULL ? rar_version : POLICY_RAR_VERSION);
	jsonw_key(w, "storage");
	jsonw_object_begin(w);
	jsonw_key(w, "method");
	jsonw_string(w, method);
	jsonw_key(w, "settings");
	jsonw_object_begin(w);
	jsonw_key(w, "immutable");
	jsonw_bool(w, false);
	jsonw_key(w, "path");
	jsonw_string(w, data_abspath);
	jsonw_object_end(w);
	jsonw_object_end(w);
}

/* A setuid or setgid chooser: default all, fallback root. */
static void policy_rar_json_chooser(struct jsonw *w, const char *key)
{
	jsonw_key(w, key);
	jsonw_object_begin(w);
	jsonw_key(w, "default");
	jsonw_string(w, "all");
	jsonw_key(w, "fallback");
	jsonw_uint(w, 0);
	jsonw_object_end(w);
}

/* Role name: "" as the original wrote, "R<r>" (1-based) otherwise. */
static void policy_rar_json_role_name(const struct policy *p, struct jsonw *w, uint32_t r)
{
	char name[32];

	if (policy_get_shape(p)->seed_compat)
		jsonw_string(w, "");
	else {
		snprintf(name, sizeof(name), "R%u", r + 1);
		jsonw_string(w, name);
	}
}

/* Task name: 0 as the original wrote, "R<r>T<t>" (the sudoers alias) otherwise. */
static void policy_rar_json_task_name(const struct policy *p, struct jsonw *w, uint32_t r,
				      uint32_t t)
{
	char name[32];

	if (policy_get_shape(p)->seed_compat)
		jsonw_uint(w, 0);
	else {
		snprintf(name, sizeof(name), "R%uT%u", r + 1, t + 1);
		jsonw_string(w, name);
	}
}

void policy_rar_json_policy_members(const struct policy *p, struct jsonw *w)
{
	const struct policy_shape *s = policy_get_shape(p);
	char cmd[POLICY_NAME_LEN_MAX];

	jsonw_key(w, "options");
	jsonw_object_begin(w);
	jsonw_key(w, "authentication");
	jsonw_string(w, "skip");
	jsonw_object_end(w);
	jsonw_key(w, "roles");
	jsonw_array_begin(w);
	for (uint32_t r = 0; r < s->roles && !w->failed; r++) {
		jsonw_object_begin(w);
		jsonw_key(w, "name");
		policy_rar_json_role_name(p, w, r);
		jsonw_key(w, "actors");
		jsonw_array_begin(w);
		for (uint32_t u = 0; u < s->users; u++) {
			jsonw_object_begin(w);
			jsonw_key(w, "type");
			jsonw_string(w, "user");
			jsonw_key(w, "id");
			jsonw_uint(w, policy_actor_uid(p, POLICY_SIDE_RAR, r, u));
			jsonw_object_end(w);
		}
		jsonw_array_end(w);
		jsonw_key(w, "tasks");
		jsonw_array_begin(w);
		for (uint32_t t = 0; t < s->tasks; t++) {
			jsonw_object_begin(w);
			jsonw_key(w, "name");
			policy_rar_json_task_name(p, w, r, t);
			jsonw_key(w, "cred");
			jsonw_object_begin(w);
			policy_rar_json_chooser(w, "setuid");
			policy_rar_json_chooser(w, "setgid");
			jsonw_object_end(w);
			jsonw_key(w, "commands");
			jsonw_array_begin(w);
			for (uint32_t c = 0; c < s->commands; c++) {
				size_t n = policy_command_name(p, POLICY_SIDE_RAR, r, t, c, cmd,
							       sizeof(cmd));
				jsonw_string_len(w, cmd, n);
			}
			jsonw_array_end(w);
			jsonw_object_end(w);
		}
		jsonw_array_end(w);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
}

int policy_stage_rar_json(struct policy_txn *txn, const struct policy *p, const char *path,
			  const char *rar_version, struct errbuf *eb)
{
	struct policy_file f = {0};
	struct jsonw w;
	int rc = -1;

	if (policy_file_open(&f, txn, path, POLICY_RAR_JSON_MODE, eb) != 0)
		goto out;
	jsonw_init(&w, f.out);
	jsonw_object_begin(&w);
	/* The path of the directory the file is written in, not the path string resolved again. */
	policy_rar_json_settings_members(&w, "json", f.abspath, rar_version);
	policy_rar_json_policy_members(p, &w);
	jsonw_object_end(&w);
	fputc('\n', f.out);
	if (jsonw_finish(&w) != 0) {
		errbuf_set_errno(eb, errno, "%s: write", path);
		goto out;
	}
	rc = policy_file_finish(&f, eb);
out:
	policy_file_abort(&f);
	return rc;
}
