/* policy_rar_cbor: writes a policy as RootAsRole's CBOR data file plus its settings file. */
#include "policy_rar_cbor.h"

#include <cbor.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "policy_file.h"
#include "policy_rar_json.h"

#define POLICY_RAR_CBOR_DATA_MODE 0400 /* what RootAsRole's own saver creates */
#define POLICY_RAR_CBOR_SETTINGS_MODE 0644
/* RootAsRole's hardened SetBehavior::All (spec §2 note 3), and 3.1.0-3.1.1's u8 (None 0, All 1). */
#define POLICY_RAR_CBOR_SET_ALL 181786330u
#define POLICY_RAR_CBOR_SET_ALL_3_1 1u

/* The longest head libcbor emits: one initial byte and an 8-byte argument. */
#define POLICY_RAR_CBOR_HEAD_MAX 9

static void policy_rar_cbor_head(FILE *out, const unsigned char *buf, size_t n)
{
	/* n == 0 means libcbor found the buffer too small: impossible at 9 bytes. Most heads
	 * are one byte (short text, small numbers, a map's start and end): putc_unlocked
	 * stores it inline, where fwrite_unlocked is a call through libio's jump table. */
	if (n == 1)
		putc_unlocked(buf[0], out);
	else
		fwrite_unlocked(buf, 1, n, out);
}

static void policy_rar_cbor_uint(FILE *out, uint64_t v)
{
	unsigned char buf[POLICY_RAR_CBOR_HEAD_MAX];

	/* cbor_encode_uint picks the shortest form, as cbor4ii does. */
	policy_rar_cbor_head(out, buf, cbor_encode_uint(v, buf, sizeof(buf)));
}

static void policy_rar_cbor_text_len(FILE *out, const char *s, size_t len)
{
	unsigned char buf[POLICY_RAR_CBOR_HEAD_MAX];

	policy_rar_cbor_head(out, buf, cbor_encode_string_start(len, buf, sizeof(buf)));
	fwrite_unlocked(s, 1, len, out);
}

static void policy_rar_cbor_text(FILE *out, const char *s)
{
	policy_rar_cbor_text_len(out, s, strlen(s));
}

static void policy_rar_cbor_map_begin(FILE *out)
{
	unsigned char buf[POLICY_RAR_CBOR_HEAD_MAX];

	policy_rar_cbor_head(out, buf, cbor_encode_indef_map_start(buf, sizeof(buf)));
}

static void policy_rar_cbor_map_end(FILE *out)
{
	unsigned char buf[POLICY_RAR_CBOR_HEAD_MAX];

	policy_rar_cbor_head(out, buf, cbor_encode_break(buf, sizeof(buf)));
}

static void policy_rar_cbor_array_begin(FILE *out, size_t n)
{
	unsigned char buf[POLICY_RAR_CBOR_HEAD_MAX];

	policy_rar_cbor_head(out, buf, cbor_encode_array_start(n, buf, sizeof(buf)));
}

/* A chooser {_ "d": All, "f": 0} under key; set_all is All's integer in the version written. */
static void policy_rar_cbor_chooser(FILE *out, const char *key, uint32_t set_all)
{
	policy_rar_cbor_text(out, key);
	policy_rar_cbor_map_begin(out);
	policy_rar_cbor_text(out, "d");
	policy_rar_cbor_uint(out, set_all);
	policy_rar_cbor_text(out, "f");
	policy_rar_cbor_uint(out, 0);
	policy_rar_cbor_map_end(out);
}

static void policy_rar_cbor_task(const struct policy *p, FILE *out, uint32_t r, uint32_t t,
				 uint32_t set_all)
{
	const struct policy_shape *s = policy_get_shape(p);
	char cmd[POLICY_NAME_LEN_MAX];

	policy_rar_cbor_map_begin(out);
	policy_rar_cbor_text(out, "n");
	if (s->seed_compat) {
		policy_rar_cbor_uint(out, 0);
	} else {
		snprintf(cmd, sizeof(cmd), "R%uT%u", r + 1, t + 1);
		policy_rar_cbor_text(out, cmd);
	}
	policy_rar_cbor_text(out, "i"); /* cred */
	policy_rar_cbor_map_begin(out);
	policy_rar_cbor_chooser(out, "u", set_all);
	policy_rar_cbor_chooser(out, "g", set_all);
	policy_rar_cbor_map_end(out);
	policy_rar_cbor_text(out, "c"); /* commands: default none, so a plain array */
	policy_rar_cbor_array_begin(out, s->commands);
	for (uint32_t c = 0; c < s->commands; c++) {
		size_t n = policy_command_name(p, POLICY_SIDE_RAR, r, t, c, cmd, sizeof(cmd));
		policy_rar_cbor_text_len(out, cmd, n);
	}
	policy_rar_cbor_map_end(out);
}

static void policy_rar_cbor_role(const struct policy *p, FILE *out, uint32_t r, uint32_t set_all)
{
	const struct policy_shape *s = policy_get_shape(p);
	char name[32];

	policy_rar_cbor_map_begin(out);
	policy_rar_cbor_text(out, "n");
	if (s->seed_compat) {
		policy_rar_cbor_text(out, "");
	} else {
		snprintf(name, sizeof(name), "R%u", r + 1);
		policy_rar_cbor_text(out, name);
	}
	policy_rar_cbor_text(out, "a");
	policy_rar_cbor_array_begin(out, s->users);
	for (uint32_t u = 0; u < s->users; u++) {
		policy_rar_cbor_map_begin(out);
		policy_rar_cbor_text(out, "type");
		policy_rar_cbor_text(out, "user");
		policy_rar_cbor_text(out, "id");
		policy_rar_cbor_uint(out, policy_actor_uid(p, POLICY_SIDE_RAR, r, u));
		policy_rar_cbor_map_end(out);
	}
	policy_rar_cbor_text(out, "t");
	policy_rar_cbor_array_begin(out, s->tasks);
	for (uint32_t t = 0; t < s->tasks; t++)
		policy_rar_cbor_task(p, out, r, t, set_all);
	policy_rar_cbor_map_end(out);
}

int policy_rar_cbor_stream(const struct policy *p, FILE *out, const char *rar_version,
			   struct errbuf *eb)
{
	const struct policy_shape *s = policy_get_shape(p);
	uint32_t set_all = policy_rar_hardened_enums(rar_version) ? POLICY_RAR_CBOR_SET_ALL
								  : POLICY_RAR_CBOR_SET_ALL_3_1;

	/* Top level keys are long: RootAsRole's flatten wrapper is human-readable (spec §2 note 1).
	 */
	policy_rar_cbor_map_begin(out);
	policy_rar_cbor_text(out, "version");
	policy_rar_cbor_text(out, rar_version != NULL ? rar_version : POLICY_RAR_VERSION);
	policy_rar_cbor_text(out, "options");
	policy_rar_cbor_map_begin(out);
	policy_rar_cbor_text(out, "authentication");
	policy_rar_cbor_text(out, "skip");
	policy_rar_cbor_map_end(out);
	policy_rar_cbor_text(out, "roles");
	policy_rar_cbor_array_begin(out, s->roles);
	for (uint32_t r = 0; r < s->roles && !ferror(out); r++)
		policy_rar_cbor_role(p, out, r, set_all);
	policy_rar_cbor_map_end(out);
	if (ferror(out))
		return errbuf_set_errno(eb, errno, "write");
	return 0;
}

/*
 * RootAsRole 4's settings file in CBOR: the members of the JSON one (version,
 * storage.method, storage.settings.immutable and .path) in one indefinite map,
 * as its serializer writes maps.
 */
static int policy_rar_cbor_settings(FILE *out, const char *data_abspath, const char *rar_version)
{
	unsigned char buf[POLICY_RAR_CBOR_HEAD_MAX];

	policy_rar_cbor_map_begin(out);
	policy_rar_cbor_text(out, "version");
	policy_rar_cbor_text(out, rar_version != NULL ? rar_version : POLICY_RAR_VERSION);
	policy_rar_cbor_text(out, "storage");
	policy_rar_cbor_map_begin(out);
	policy_rar_cbor_text(out, "method");
	policy_rar_cbor_text(out, "cbor");
	policy_rar_cbor_text(out, "settings");
	policy_rar_cbor_map_begin(out);
	policy_rar_cbor_text(out, "immutable");
	policy_rar_cbor_head(out, buf, cbor_encode_bool(false, buf, sizeof(buf)));
	policy_rar_cbor_text(out, "path");
	policy_rar_cbor_text(out, data_abspath);
	policy_rar_cbor_map_end(out);
	policy_rar_cbor_map_end(out);
	policy_rar_cbor_map_end(out);
	return ferror(out) ? -1 : 0;
}

char *policy_rar_cbor_default_data_path(const char *settings_path)
{
	const char *slash = strrchr(settings_path, '/');
	const char *base = slash == NULL ? settings_path : slash + 1;
	const char *dot = strrchr(base, '.');
	size_t stem;
	char *out;

	/* Replace the extension of the base name, if it has one (".hidden" has none). */
	if (dot != NULL && dot > base)
		stem = (size_t)(dot - settings_path);
	else
		stem = strlen(settings_path);
	out = malloc(stem + sizeof(".bin"));
	if (out == NULL)
		return NULL;
	memcpy(out, settings_path, stem);
	memcpy(out + stem, ".bin", sizeof(".bin"));
	return out;
}

int policy_stage_rar_cbor(struct policy_txn *txn, const struct policy *p, const char *settings_path,
			  const char *data_path, const char *rar_version, struct errbuf *eb)
{
	struct policy_file f = {0};
	char *default_data = NULL, *data_abs = NULL, *settings_abs = NULL;
	struct jsonw w;
	int rc = -1;

	if (data_path == NULL) {
		default_data = policy_rar_cbor_default_data_path(settings_path);
		if (default_data == NULL) {
			errbuf_set(eb, "%s: out of memory", settings_path);
			goto out;
		}
		data_path = default_data;
	}
	/* Check both before writing either, so a refused settings path leaves no data file. */
	data_abs = policy_file_abspath(data_path, eb);
	settings_abs = data_abs != NULL ? policy_file_abspath(settings_path, eb) : NULL;
	if (settings_abs == NULL)
		goto out;
	if (strcmp(data_abs, settings_abs) == 0) {
		errbuf_set(eb, "%s: the CBOR data file cannot be the settings file", data_path);
		goto out;
	}

	if (policy_file_open(&f, txn, data_path, POLICY_RAR_CBOR_DATA_MODE, eb) != 0)
		goto out;
	/* The settings name the data file by the directory it is written in, opened once. */
	free(data_abs);
	data_abs = strdup(f.abspath);
	if (data_abs == NULL) {
		errbuf_set(eb, "%s: out of memory", data_path);
		goto out;
	}
	if (policy_rar_cbor_stream(p, f.out, rar_version, eb) != 0) {
		errbuf_prefix(eb, "%s", data_path);
		goto out;
	}
	if (policy_file_finish(&f, eb) != 0)
		goto out;

	if (policy_file_open(&f, txn, settings_path, POLICY_RAR_CBOR_SETTINGS_MODE, eb) != 0)
		goto out;
	if (strcmp(f.abspath, data_abs) == 0) {
		errbuf_set(eb, "%s: the CBOR data file cannot be the settings file", data_path);
		goto out;
	}
	if (policy_rar_settings_follow_storage(rar_version)) {
		if (policy_rar_cbor_settings(f.out, data_abs, rar_version) != 0) {
			errbuf_set_errno(eb, errno, "%s: write", settings_path);
			goto out;
		}
	} else {
		jsonw_init(&w, f.out);
		jsonw_object_begin(&w);
		policy_rar_json_settings_members(&w, "cbor", data_abs, rar_version);
		jsonw_object_end(&w);
		fputc('\n', f.out);
		if (jsonw_finish(&w) != 0) {
			errbuf_set_errno(eb, errno, "%s: write", settings_path);
			goto out;
		}
	}
	rc = policy_file_finish(&f, eb);
out:
	policy_file_abort(&f);
	free(settings_abs);
	free(data_abs);
	free(default_data);
	return rc;
}
