/* manifest_subject: a manifest's "subjects": each subject's keys checked, its defaults filled. */
#include "jsonget.h"
#include "manifest.h"
#include "manifest_impl.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The format names' owner (confgen), indexed for manifest_get_enum. */
static const char *format_name(int i)
{
	return policy_format_name((enum policy_format)i);
}

/* Checks a template's placeholders by expanding it with dummy values. */
static int check_template(struct manifest_ctx *c, const char *tmpl, const char *p)
{
	struct errbuf eb = {0};
	char *s = manifest_expand(tmpl, "/p", "/c", &eb);

	if (s == NULL)
		return manifest_fail(c, p, "%s", eb.msg);
	free(s);
	return 0;
}

/* *out becomes the boolean at obj.key (absent: false). 0, or -1 with c->eb filled. */
static int get_bool(struct manifest_ctx *c, const cJSON *obj, const char *p, const char *key,
		    bool *out)
{
	const cJSON *it = jsonget_member(obj, key);
	char q[MANIFEST_PATH_MAX_CHARS];

	*out = false;
	if (it == NULL)
		return 0;
	if (!cJSON_IsBool(it)) {
		manifest_child_path(q, p, key);
		return manifest_fail(c, q, "expected a boolean, got %s", manifest_type_name(it));
	}
	*out = cJSON_IsTrue(it);
	return 0;
}

/* "pam": true (the prefix's files), false (the host's), or a directory; absent: AUTO. */
static int parse_subject_pam(struct manifest_ctx *c, const cJSON *j, const char *p,
			     struct manifest_subject *s)
{
	const cJSON *it = jsonget_member(j, "pam");
	char q[MANIFEST_PATH_MAX_CHARS], b[48];

	s->pam = MANIFEST_PAM_AUTO;
	if (it == NULL)
		return 0;
	manifest_child_path(q, p, "pam");
	if (cJSON_IsFalse(it)) {
		s->pam = MANIFEST_PAM_OFF;
		return 0;
	}
	if (!cJSON_IsTrue(it) && !cJSON_IsString(it))
		return manifest_fail(c, q, "expected true, false or a directory, got %s",
				     manifest_type_name(it));
	s->pam = MANIFEST_PAM_ON;
	s->pam_dir = strdup(cJSON_IsTrue(it) ? MANIFEST_PAM_DIR_DEFAULT : it->valuestring);
	if (s->pam_dir == NULL)
		return manifest_fail(c, q, "out of memory");
	if (s->pam_dir[0] != '/' && strncmp(s->pam_dir, "{prefix}", 8) != 0)
		return manifest_fail(c, q, "\"%s\": expected an absolute directory or {prefix}/...",
				     manifest_shown(s->pam_dir, b));
	return check_template(c, s->pam_dir, q);
}

/* A subject id names files and columns: letters, digits, '-', '_' and '.' only. */
static int check_subject_id(struct manifest_ctx *c, const char *id, const char *p)
{
	char q[MANIFEST_PATH_MAX_CHARS], b[48];
	size_t i;

	for (i = 0; id[i] != '\0'; i++) {
		char ch = id[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.')) {
			manifest_child_path(q, p, "id");
			return manifest_fail(c, q,
					     "\"%s\": use only letters, digits, '-', '_' and '.'",
					     manifest_shown(id, b));
		}
	}
	return 0;
}

/*
 * please acts on its options before it reads its policy: -c FILE parses any file as root and
 * says how it fails, -w and -p make and remove token files as root. So a please subject's
 * arguments before the command may only be -n: the policy, not the manifest, decides what the
 * bench user gets (doc/security.md R43). please stops at the first argument that is not an
 * option, and the command is an absolute path.
 */
static int check_please_args(struct manifest_ctx *c, const char *q, const struct manifest_subject *s)
{
	char r[MANIFEST_PATH_MAX_CHARS];

	for (size_t i = 0; i < s->nargs; i++) {
		if (strstr(s->args[i], "{command}") != NULL)
			return 0;
		if (strcmp(s->args[i], "-n") != 0) {
			manifest_index_path(r, q, i);
			return manifest_fail(c, r,
					     "\"%s\": before {command} a please subject takes only "
					     "-n (please -c reads any file as root; doc/security.md "
					     "R43)",
					     s->args[i]);
		}
	}
	return manifest_fail(c, q, "a please subject's arguments must hold {command}");
}

/* "args", each a template; absent: "-n" (sudo, doas) then "{command}". */
static int parse_subject_args(struct manifest_ctx *c, const cJSON *j, const char *p,
			      struct manifest_subject *s)
{
	const cJSON *args, *it;
	char q[MANIFEST_PATH_MAX_CHARS], r[MANIFEST_PATH_MAX_CHARS];
	size_t i;

	args = jsonget_member(j, "args");
	manifest_child_path(q, p, "args");
	if (args == NULL) {
		/* sudo, doas and please get -n: a policy that asks for a password fails instead of
		 * hanging. */
		bool nonint = s->format == POLICY_FORMAT_SUDOERS ||
			      s->format == POLICY_FORMAT_DOAS || s->format == POLICY_FORMAT_PLEASE;

		s->args = calloc(2, sizeof(*s->args));
		if (s->args == NULL)
			return manifest_fail(c, q, "out of memory");
		if (nonint && (s->args[s->nargs++] = strdup("-n")) == NULL)
			return manifest_fail(c, q, "out of memory");
		if ((s->args[s->nargs++] = strdup("{command}")) == NULL)
			return manifest_fail(c, q, "out of memory");
		return 0;
	}
	if (!cJSON_IsArray(args))
		return manifest_fail(c, q, "expected an array of strings, got %s",
				     manifest_type_name(args));
	if (cJSON_GetArraySize(args) > 64)
		return manifest_fail(c, q, "more than 64 arguments");
	s->args = calloc((size_t)cJSON_GetArraySize(args) + 1, sizeof(*s->args));
	if (s->args == NULL)
		return manifest_fail(c, q, "out of memory");
	i = 0;
	cJSON_ArrayForEach(it, args)
	{
		manifest_index_path(r, q, i++);
		if (!cJSON_IsString(it))
			return manifest_fail(c, r, "expected a string, got %s",
					     manifest_type_name(it));
		if (strlen(it->valuestring) > MANIFEST_STRING_MAX)
			return manifest_fail(c, r, "longer than %d bytes", MANIFEST_STRING_MAX);
		if (check_template(c, it->valuestring, r) < 0)
			return -1;
		if ((s->args[s->nargs++] = strdup(it->valuestring)) == NULL)
			return manifest_fail(c, r, "out of memory");
	}
	if (s->format == POLICY_FORMAT_PLEASE)
		return check_please_args(c, q, s);
	return 0;
}

/* The keys only some formats have: rar_version (RootAsRole's), sudoers_layout (sudoers'). */
static int parse_subject_format_keys(struct manifest_ctx *c, const cJSON *j, const char *p,
				     struct manifest_subject *s)
{
	char q[MANIFEST_PATH_MAX_CHARS];

	manifest_child_path(q, p, "rar_version");
	if (s->rar_version != NULL) {
		struct errbuf veb = {0};

		if (s->format != POLICY_FORMAT_RAR_JSON && s->format != POLICY_FORMAT_RAR_CBOR)
			return manifest_fail(c, q, "only a rar-json or rar-cbor subject has one");
		if (policy_rar_version_check(s->rar_version, &veb) != 0)
			return manifest_fail(c, q, "%s", veb.msg);
	}
	if (jsonget_member(j, "sudoers_layout") != NULL) {
		int e = 0;

		manifest_child_path(q, p, "sudoers_layout");
		if (s->format != POLICY_FORMAT_SUDOERS)
			return manifest_fail(c, q, "only a sudoers subject has one");
		if (manifest_get_enum(c, j, p, "sudoers_layout", manifest_layout_name,
				      SUDOERS_LAYOUT_COUNT, &e) < 0)
			return -1;
		s->has_sudoers_layout = true;
		s->sudoers_layout = (enum sudoers_layout)e;
	}
	return 0;
}

static int parse_subject(struct manifest_ctx *c, const cJSON *j, const char *p,
			 struct manifest_subject *s)
{
	static const char *const keys[] = {
	    "id",          "format",      "program",         "args",           "policy",
	    "policy_data", "rar_version", "policy_mount_at", "sudoers_layout", "optional",
	    "build",       "pam",         "unsafe_program",  "unsafe_pam",     NULL};
	char q[MANIFEST_PATH_MAX_CHARS], b[48];
	int fmt = -1;

	if (!cJSON_IsObject(j))
		return manifest_fail(c, p, "expected an object, got %s", manifest_type_name(j));
	if (manifest_check_keys(c, j, p, keys) < 0 ||
	    manifest_get_string(c, j, p, "id", true, &s->id) < 0)
		return -1;
	if (check_subject_id(c, s->id, p) < 0)
		return -1;
	manifest_child_path(q, p, "format");
	if (jsonget_member(j, "format") == NULL)
		return manifest_fail(c, q, "missing (sudoers, doas, rar-json, rar-cbor or please)");
	if (manifest_get_enum(c, j, p, "format", format_name, POLICY_FORMAT_COUNT, &fmt) < 0)
		return -1;
	s->format = (enum policy_format)fmt;
	if (manifest_get_string(c, j, p, "program", false, &s->program) < 0 ||
	    manifest_get_string(c, j, p, "policy", false, &s->policy) < 0 ||
	    manifest_get_string(c, j, p, "policy_data", false, &s->policy_data) < 0)
		return -1;
	if (s->policy_data != NULL && s->format != POLICY_FORMAT_RAR_CBOR) {
		manifest_child_path(q, p, "policy_data");
		return manifest_fail(c, q, "only a rar-cbor subject has a separate data file");
	}
	if (get_bool(c, j, p, "optional", &s->optional) < 0 ||
	    get_bool(c, j, p, "unsafe_program", &s->unsafe_program) < 0 ||
	    get_bool(c, j, p, "unsafe_pam", &s->unsafe_pam) < 0)
		return -1;
	if (parse_subject_pam(c, j, p, s) < 0)
		return -1;
	if (manifest_get_string(c, j, p, "rar_version", false, &s->rar_version) < 0 ||
	    manifest_get_string(c, j, p, "policy_mount_at", false, &s->policy_mount_at) < 0)
		return -1;
	/* pkexec's namespace shows polkit's paths (runner_polkit.h), nothing else. */
	if (s->format == POLICY_FORMAT_POLKIT &&
	    (jsonget_member(j, "pam") != NULL || s->policy_mount_at != NULL)) {
		manifest_child_path(q, p,
				    jsonget_member(j, "pam") != NULL ? "pam" : "policy_mount_at");
		return manifest_fail(
		    c, q,
		    "not for a polkit subject: rarbench shows pkexec's rules at "
		    "/etc/polkit-1/rules.d itself, and pkexec opens the host's PAM "
		    "service polkit-1");
	}
	if (parse_subject_format_keys(c, j, p, s) < 0)
		return -1;
	manifest_child_path(q, p, "policy_mount_at");
	if (s->policy_mount_at != NULL &&
	    (s->policy_mount_at[0] != '/' ||
	     strcspn(s->policy_mount_at, ",:\\") != strlen(s->policy_mount_at)))
		return manifest_fail(c, q,
				     "\"%s\": expected an absolute path without ',', ':' or '\\'",
				     manifest_shown(s->policy_mount_at, b));
	if (manifest_get_string(c, j, p, "build", false, &s->build) < 0)
		return -1;
	manifest_child_path(q, p, "build");
	if (s->build != NULL && manifest_check_build(c, s->build, q) < 0)
		return -1;
	if (s->build != NULL && s->format == POLICY_FORMAT_PLEASE)
		return manifest_fail(c, q,
				     "please has no build from a source tree (make provision-dev "
				     "builds sudo, doas and RootAsRole)");
	if (manifest_subject_defaults(c, s, p) < 0)
		return -1;
	manifest_child_path(q, p, "program");
	if (check_template(c, s->program, q) < 0)
		return -1;
	/* A relative program would be found from the working directory: rarbench's for the
	 * timed runs, the manifest's cwd (maybe the bench user's) for the profile's strace, which
	 * looks it up as root (issue 45). */
	if (s->program[0] != '/' && strncmp(s->program, "{prefix}", 8) != 0 &&
	    strncmp(s->program, "{command}", 9) != 0)
		return manifest_fail(c, q, "\"%s\": expected an absolute path or {prefix}/...",
				     manifest_shown(s->program, b));
	manifest_child_path(q, p, "policy");
	if (check_template(c, s->policy, q) < 0)
		return -1;
	manifest_child_path(q, p, "policy_data");
	if (s->policy_data != NULL && check_template(c, s->policy_data, q) < 0)
		return -1;

	return parse_subject_args(c, j, p, s);
}

int manifest_parse_subjects(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	const cJSON *subj = jsonget_member(root, "subjects"), *it;
	char p[MANIFEST_PATH_MAX_CHARS], b[48];
	size_t i, k, n;
	int bad = 0;

	if (subj == NULL)
		return manifest_fail(c, "$.subjects", "missing (an array of subjects is required)");
	if (!cJSON_IsArray(subj))
		return manifest_fail(c, "$.subjects", "expected an array, got %s",
				     manifest_type_name(subj));
	n = (size_t)cJSON_GetArraySize(subj);
	if (n == 0)
		return manifest_fail(c, "$.subjects", "empty (give at least one subject)");
	if (n > MANIFEST_SUBJECTS_MAX)
		return manifest_fail(c, "$.subjects", "more than %d subjects",
				     MANIFEST_SUBJECTS_MAX);
	m->subjects = calloc(n, sizeof(*m->subjects));
	if (m->subjects == NULL)
		return manifest_fail(c, "$.subjects", "out of memory");
	i = 0;
	cJSON_ArrayForEach(it, subj)
	{
		manifest_index_path(p, "$.subjects", i);
		m->nsubjects = i + 1; /* so manifest_free sees a partly filled subject */
		/* Each subject's problems are its own: the next ones are still read. */
		if (parse_subject(c, it, p, &m->subjects[i]) < 0) {
			bad = -1;
			i++;
			continue;
		}
		for (k = 0; k < i; k++) {
			if (m->subjects[k].id != NULL &&
			    strcmp(m->subjects[k].id, m->subjects[i].id) == 0) {
				char q[MANIFEST_PATH_MAX_CHARS];

				manifest_child_path(q, p, "id");
				bad = manifest_fail(c, q, "duplicate subject id \"%s\"",
						    manifest_shown(m->subjects[i].id, b));
				break;
			}
		}
		i++;
	}
	return bad;
}
