/* Tests for policy_rar_cbor: the CBOR, decoded by libcbor, holds field for field what the JSON
 * holds. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <unistd.h>

#include "confgen_testutil.h"
#include "harness.h"
#include "policy.h"
#include "policy_rar_cbor.h"
#include "policy_rar_json.h"

#define SET_ALL 181786330u /* RootAsRole's SetBehavior::All in CBOR */

static char dir[] = "/tmp/rarperf-test-policy-rar-cbor-XXXXXX";

/* The value under text key in an indefinite CBOR map (checked), or NULL. Not incref'd. */
static cbor_item_t *cmap_get(const cbor_item_t *map, const char *key)
{
	struct cbor_pair *pairs;
	size_t n, klen = strlen(key);

	if (map == NULL || !cbor_isa_map(map))
		return NULL;
	CHECK(cbor_map_is_indefinite(map)); /* RootAsRole emits every map indefinite */
	pairs = cbor_map_handle(map);
	n = cbor_map_size(map);
	for (size_t i = 0; i < n; i++) {
		CHECK(cbor_isa_string(pairs[i].key)); /* keys must be text */
		if (cbor_isa_string(pairs[i].key) && cbor_string_length(pairs[i].key) == klen &&
		    memcmp(cbor_string_handle(pairs[i].key), key, klen) == 0)
			return pairs[i].value;
	}
	return NULL;
}

static int ctext_eq(const cbor_item_t *item, const char *s)
{
	return item != NULL && cbor_isa_string(item) && cbor_string_is_definite(item) &&
	       cbor_string_length(item) == strlen(s) &&
	       memcmp(cbor_string_handle(item), s, strlen(s)) == 0;
}

static int cuint_eq(const cbor_item_t *item, uint64_t v)
{
	return item != NULL && cbor_isa_uint(item) && cbor_get_int(item) == v;
}

/* A JSON name (string or number) equals the CBOR name (text or uint). */
static void check_name(const cJSON *j, const cbor_item_t *c)
{
	CHECK(j != NULL && c != NULL);
	if (j == NULL || c == NULL)
		return;
	if (cJSON_IsString(j))
		CHECK(ctext_eq(c, j->valuestring));
	else
		CHECK(cJSON_IsNumber(j) && cuint_eq(c, (uint64_t)j->valuedouble));
}

/* {"default": "all", "fallback": 0} against {_ "d": SET_ALL, "f": 0}. */
static void check_chooser(const cJSON *j, const cbor_item_t *c)
{
	const cJSON *def = cJSON_GetObjectItemCaseSensitive(j, "default");
	const cJSON *fb = cJSON_GetObjectItemCaseSensitive(j, "fallback");

	CHECK(cJSON_IsString(def) && strcmp(def->valuestring, "all") == 0);
	CHECK(cuint_eq(cmap_get(c, "d"), SET_ALL));
	CHECK(cJSON_IsNumber(fb) && cuint_eq(cmap_get(c, "f"), (uint64_t)fb->valuedouble));
	CHECK_INT_EQ(cJSON_GetArraySize(j), 2);
	CHECK_INT_EQ(cbor_map_size(c), 2);
}

/* Walks both documents; returns how many times (uid, command) is granted in the JSON. */
static unsigned compare(const cJSON *json, const cbor_item_t *cbor, uint32_t uid, const char *cmd)
{
	const cJSON *jroles = cJSON_GetObjectItemCaseSensitive(json, "roles");
	const cbor_item_t *croles = cmap_get(cbor, "roles");
	const cJSON *jauth = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(json, "options"), "authentication");
	const cJSON *jver = cJSON_GetObjectItemCaseSensitive(json, "version");
	unsigned grants = 0;
	int nroles;

	CHECK(cJSON_IsString(jver) && ctext_eq(cmap_get(cbor, "version"), jver->valuestring));
	CHECK(cJSON_IsString(jauth) &&
	      ctext_eq(cmap_get(cmap_get(cbor, "options"), "authentication"), jauth->valuestring));
	CHECK(cmap_get(cbor, "storage") == NULL); /* the .bin holds no settings */
	CHECK(cJSON_IsArray(jroles) && croles != NULL && cbor_isa_array(croles));
	if (!cJSON_IsArray(jroles) || croles == NULL || !cbor_isa_array(croles))
		return 0;
	nroles = cJSON_GetArraySize(jroles);
	CHECK_INT_EQ(cbor_array_size(croles), nroles);
	for (int r = 0; r < nroles && (size_t)r < cbor_array_size(croles); r++) {
		const cJSON *jr = cJSON_GetArrayItem(jroles, r);
		cbor_item_t *cr = cbor_array_get(croles, (size_t)r);
		const cJSON *jactors = cJSON_GetObjectItemCaseSensitive(jr, "actors");
		const cJSON *jtasks = cJSON_GetObjectItemCaseSensitive(jr, "tasks");
		const cbor_item_t *cactors = cmap_get(cr, "a");
		const cbor_item_t *ctasks = cmap_get(cr, "t");
		bool caller_in_role = false;

		check_name(cJSON_GetObjectItemCaseSensitive(jr, "name"), cmap_get(cr, "n"));
		CHECK(cactors != NULL && ctasks != NULL);
		if (cactors == NULL || ctasks == NULL) {
			cbor_decref(&cr);
			continue;
		}
		CHECK_INT_EQ(cbor_array_size(cactors), cJSON_GetArraySize(jactors));
		for (int u = 0; u < cJSON_GetArraySize(jactors); u++) {
			const cJSON *ja = cJSON_GetArrayItem(jactors, u);
			cbor_item_t *ca = cbor_array_get(cactors, (size_t)u);
			const cJSON *jtype = cJSON_GetObjectItemCaseSensitive(ja, "type");
			const cJSON *jid = cJSON_GetObjectItemCaseSensitive(ja, "id");

			CHECK(cJSON_IsString(jtype) && strcmp(jtype->valuestring, "user") == 0);
			CHECK(ctext_eq(cmap_get(ca, "type"), "user"));
			CHECK(cJSON_IsNumber(jid) &&
			      cuint_eq(cmap_get(ca, "id"), (uint64_t)jid->valuedouble));
			if (cJSON_IsNumber(jid) && (uint64_t)jid->valuedouble == uid)
				caller_in_role = true;
			cbor_decref(&ca);
		}
		CHECK_INT_EQ(cbor_array_size(ctasks), cJSON_GetArraySize(jtasks));
		for (int t = 0; t < cJSON_GetArraySize(jtasks); t++) {
			const cJSON *jt = cJSON_GetArrayItem(jtasks, t);
			cbor_item_t *ct = cbor_array_get(ctasks, (size_t)t);
			const cJSON *jcred = cJSON_GetObjectItemCaseSensitive(jt, "cred");
			const cJSON *jcmds = cJSON_GetObjectItemCaseSensitive(jt, "commands");
			const cbor_item_t *ccred = cmap_get(ct, "i");
			const cbor_item_t *ccmds = cmap_get(ct, "c");

			check_name(cJSON_GetObjectItemCaseSensitive(jt, "name"), cmap_get(ct, "n"));
			check_chooser(cJSON_GetObjectItemCaseSensitive(jcred, "setuid"),
				      cmap_get(ccred, "u"));
			check_chooser(cJSON_GetObjectItemCaseSensitive(jcred, "setgid"),
				      cmap_get(ccred, "g"));
			CHECK(ccmds != NULL && cbor_isa_array(ccmds) &&
			      cbor_array_is_definite(ccmds));
			if (ccmds != NULL && cbor_isa_array(ccmds)) {
				CHECK_INT_EQ(cbor_array_size(ccmds), cJSON_GetArraySize(jcmds));
				for (int c = 0; c < cJSON_GetArraySize(jcmds); c++) {
					const cJSON *jc = cJSON_GetArrayItem(jcmds, c);
					cbor_item_t *cc = cbor_array_get(ccmds, (size_t)c);
					CHECK(cJSON_IsString(jc) && ctext_eq(cc, jc->valuestring));
					if (caller_in_role && cJSON_IsString(jc) &&
					    strcmp(jc->valuestring, cmd) == 0)
						grants++;
					cbor_decref(&cc);
				}
			}
			cbor_decref(&ct);
		}
		cbor_decref(&cr);
	}
	return grants;
}

static void check_shape(uint32_t r, uint32_t u, uint32_t t, uint32_t c, enum policy_match m,
			bool seed)
{
	struct policy_shape s;
	struct errbuf eb = {{0}};
	struct policy *p;
	char jpath[512], spath[512], bpath[512];
	char *jtext = NULL, *btext = NULL;
	size_t blen = 0;
	cJSON *json = NULL;
	cbor_item_t *cbor = NULL;
	struct cbor_load_result res;

	policy_shape_init(&s);
	s.roles = r;
	s.users = u;
	s.tasks = t;
	s.commands = c;
	s.uid = seed ? 1000 : 4242;
	s.match = m;
	s.seed_compat = seed;
	p = policy_build(&s, &eb);
	CHECK(p != NULL);
	if (p == NULL)
		return;
	snprintf(jpath, sizeof(jpath), "%s/p.json", dir);
	snprintf(spath, sizeof(spath), "%s/s.json", dir);
	snprintf(bpath, sizeof(bpath), "%s/s.bin", dir);
	CHECK_INT_EQ(
	    testutil_txn_end(policy_stage_rar_json(testutil_txn_fresh(), p, jpath, NULL, &eb), &eb),
	    0);
	CHECK_INT_EQ(
	    testutil_txn_end(policy_stage_rar_cbor(testutil_txn_fresh(), p, spath, NULL, NULL, &eb),
			     &eb),
	    0);
	jtext = testutil_read_file(jpath, NULL);
	btext = testutil_read_file(bpath, &blen);
	CHECK(jtext != NULL && btext != NULL);
	if (jtext != NULL)
		json = cJSON_Parse(jtext);
	if (btext != NULL)
		cbor = cbor_load((const unsigned char *)btext, blen, &res);
	CHECK(json != NULL);
	CHECK(cbor != NULL);
	if (json != NULL && cbor != NULL) {
		unsigned grants = compare(json, cbor, s.uid, "/usr/bin/true");
		/* The caller holds the matching command exactly once on the RootAsRole side. */
		CHECK_INT_EQ(grants, 1);
		CHECK_INT_EQ(res.read, blen);
	}
	/* The settings file of the CBOR layout points at the .bin, absolutely. */
	free(jtext);
	jtext = testutil_read_file(spath, NULL);
	cJSON_Delete(json);
	json = jtext != NULL ? cJSON_Parse(jtext) : NULL;
	CHECK(json != NULL);
	if (json != NULL) {
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(json, "storage");
		const cJSON *method = cJSON_GetObjectItemCaseSensitive(st, "method");
		const cJSON *path = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(st, "settings"), "path");
		CHECK(cJSON_IsString(method) && strcmp(method->valuestring, "cbor") == 0);
		CHECK(cJSON_IsString(path) && strcmp(path->valuestring, bpath) == 0);
		CHECK(cJSON_GetObjectItemCaseSensitive(json, "roles") == NULL);
	}
	cJSON_Delete(json);
	if (cbor != NULL)
		cbor_decref(&cbor);
	free(jtext);
	free(btext);
	policy_free(p);
}

static void test_cbor_matches_json_small(void)
{
	check_shape(2, 2, 3, 2, POLICY_MATCH_LAST, false);
}

static void test_cbor_matches_json_each_match(void)
{
	check_shape(2, 2, 50, 3, POLICY_MATCH_LAST, false);
	check_shape(2, 2, 50, 3, POLICY_MATCH_FIRST, false);
	check_shape(3, 3, 7, 5, POLICY_MATCH_MIDDLE, false);
}

static void test_cbor_matches_json_seed_compat(void)
{
	check_shape(1, 1, 2, 1, POLICY_MATCH_LAST, true);
	check_shape(3, 2, 4, 3, POLICY_MATCH_LAST, true);
}

static void test_cbor_matches_json_wide(void)
{
	/* Past 23 and 255 elements: arrays with 1- and 2-byte lengths. */
	check_shape(1, 300, 24, 256, POLICY_MATCH_MIDDLE, false);
}

/* RootAsRole 4: the settings file of the CBOR storage is CBOR, both files claim the version. */
static void test_rar4_settings_are_cbor(void)
{
	struct policy_shape sh;
	struct errbuf eb = {0};
	struct policy *p;
	char spath[256], bpath[256], *text = NULL;
	size_t len = 0;
	cbor_item_t *settings = NULL, *data = NULL;
	struct cbor_load_result res;

	policy_shape_init(&sh);
	sh.uid = 4242;
	p = policy_build(&sh, &eb);
	CHECK(p != NULL);
	if (p == NULL)
		return;
	snprintf(spath, sizeof(spath), "%s/v4.json", dir);
	snprintf(bpath, sizeof(bpath), "%s/v4.bin", dir);
	CHECK_INT_EQ(
	    testutil_txn_end(
		policy_stage_rar_cbor(testutil_txn_fresh(), p, spath, bpath, "4.0.3", &eb), &eb),
	    0);
	text = testutil_read_file(spath, &len);
	CHECK(text != NULL && len > 0);
	if (text != NULL) {
		settings = cbor_load((const unsigned char *)text, len, &res);
		CHECK(settings != NULL && cbor_isa_map(settings) && res.read == len);
	}
	if (settings != NULL) {
		cbor_item_t *st = cmap_get(settings, "storage");

		CHECK(ctext_eq(cmap_get(settings, "version"), "4.0.3"));
		CHECK(st != NULL && ctext_eq(cmap_get(st, "method"), "cbor"));
		CHECK(st != NULL && ctext_eq(cmap_get(cmap_get(st, "settings"), "path"), bpath));
		cbor_decref(&settings);
	}
	free(text);
	text = testutil_read_file(bpath, &len);
	if (text != NULL)
		data = cbor_load((const unsigned char *)text, len, &res);
	CHECK(data != NULL);
	if (data != NULL) {
		CHECK(ctext_eq(cmap_get(data, "version"), "4.0.3"));
		cbor_decref(&data);
	}
	free(text);
	/* 3.x keeps a JSON settings file, whatever the version it claims. */
	CHECK_INT_EQ(
	    testutil_txn_end(
		policy_stage_rar_cbor(testutil_txn_fresh(), p, spath, bpath, "3.3.3", &eb), &eb),
	    0);
	text = testutil_read_file(spath, NULL);
	CHECK(text != NULL && strstr(text, "\"version\": \"3.3.3\"") != NULL);
	free(text);
	policy_free(p);
}

static void test_rar_version_check(void)
{
	struct errbuf eb = {0};

	CHECK_INT_EQ(policy_rar_version_check("3.3.4", &eb), 0);
	CHECK_INT_EQ(policy_rar_version_check("4.2.0", &eb), 0);
	CHECK_INT_EQ(policy_rar_version_check("3.1.0", &eb), 0);
	CHECK_INT_EQ(policy_rar_version_check("4.1.65535", &eb), 0);
	/* Syntactically fine, but no series confgen writes: refused, with the list. */
	CHECK_INT_EQ(policy_rar_version_check("9.9.9", &eb), -1);
	CHECK(strstr(eb.msg, "9.9.9") != NULL && strstr(eb.msg, "4.2.x") != NULL);
	CHECK_INT_EQ(policy_rar_version_check("3.0.5", &eb), -1);
	CHECK_INT_EQ(policy_rar_version_check("4.3.0", &eb), -1);
	CHECK_INT_EQ(policy_rar_version_check("10.0.65535", &eb), -1);
	CHECK(policy_rar_hardened_enums("3.2.0") && policy_rar_hardened_enums("4.2.0"));
	CHECK(policy_rar_hardened_enums(NULL));
	/* rootasrole-core 3.1.3 took the hardened integers: 3.1.3's dosr refuses the u8 1
	 * ("Invalid value for SetBehavior: 1"). */
	CHECK(!policy_rar_hardened_enums("3.1.0") && !policy_rar_hardened_enums("3.1.1"));
	CHECK(policy_rar_hardened_enums("3.1.3") && policy_rar_hardened_enums("3.1.4"));
	CHECK_INT_EQ(policy_rar_version_check(NULL, &eb), 0);
	CHECK_INT_EQ(policy_rar_version_check("4.0", &eb), -1);
	CHECK_INT_EQ(policy_rar_version_check("v3.3.4", &eb), -1);
	CHECK_INT_EQ(policy_rar_version_check("3.3.4-rc1", &eb), -1);
	CHECK_INT_EQ(policy_rar_version_check("03.3.4", &eb), -1);
	CHECK_INT_EQ(policy_rar_version_check("3.65536.0", &eb), -1);
	CHECK_INT_EQ(policy_rar_version_check("", &eb), -1);
	CHECK(strstr(eb.msg, "expected MAJOR.MINOR.PATCH") != NULL);
	CHECK(!policy_rar_settings_follow_storage(NULL));
	CHECK(!policy_rar_settings_follow_storage("3.3.4"));
	CHECK(policy_rar_settings_follow_storage("4.0.3"));
}

int main(void)
{
	if (mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	RUN(test_cbor_matches_json_small);
	RUN(test_cbor_matches_json_each_match);
	RUN(test_cbor_matches_json_seed_compat);
	RUN(test_cbor_matches_json_wide);
	RUN(test_rar4_settings_are_cbor);
	RUN(test_rar_version_check);
	testutil_rm_dir(dir);
	return HARNESS_EXIT();
}
