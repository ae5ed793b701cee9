/* Tests for sweep: product size, order (last axis fastest, repetition slowest), stable ids,
 * policy sizes per point. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "manifest.h"
#include "plan_testutil.h"
#include "policy_doas.h"
#include "policy_please.h"
#include "policy_polkit.h"
#include "policy_rar_cbor.h"
#include "policy_rar_json.h"
#include "policy_sudoers.h"
#include "policy_txn.h"
#include "points.h"

static void test_product_and_order(void)
{
	const char *text = "{\"name\":\"s\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
			   "\"format\":\"doas\"}],\"axes\":{\"nb_roles\":[1,2],\"nb_tasks\":[10,20,"
			   "30]},\"repetitions\":2}";
	struct errbuf eb = {0};
	struct manifest *m = manifest_parse_all(text, strlen(text), "s.json", 0, NULL, &eb);
	struct sweep *s = NULL;
	const struct sweep_point *p;

	CHECK(m != NULL);
	if (m == NULL)
		return;
	s = sweep_new(m, &eb);
	CHECK(s != NULL);
	if (s != NULL) {
		CHECK_INT_EQ(sweep_count(s), 12);
		p = sweep_at(s, 0);
		CHECK_STR_EQ(p->id, "nb_roles=1,nb_users=1,nb_tasks=10,nb_commands=1,repetition=1");
		p = sweep_at(s, 1);
		CHECK_INT_EQ(p->value[MANIFEST_AXIS_TASKS], 20);
		CHECK_INT_EQ(p->value[MANIFEST_AXIS_ROLES], 1);
		p = sweep_at(s, 3);
		CHECK_INT_EQ(p->value[MANIFEST_AXIS_ROLES], 2);
		CHECK_INT_EQ(p->value[MANIFEST_AXIS_TASKS], 10);
		p = sweep_at(s, 11);
		CHECK_STR_EQ(p->id, "nb_roles=2,nb_users=1,nb_tasks=30,nb_commands=1,repetition=2");
		CHECK_INT_EQ(p->index, 11);
		CHECK(sweep_at(s, 12) == NULL);
		CHECK_INT_EQ(sweep_find(s, "nb_roles=2,nb_users=1,nb_tasks=30,nb_commands=1,"
					   "repetition=2"),
			     11);
		CHECK_INT_EQ(sweep_find(s, "nope"), -1);
	}
	sweep_free(s);
	manifest_free(m);
}

/* A swept limit multiplies the points; it varies slower than the axes, and names each id. */
static void test_swept_limit(void)
{
	const char *text = "{\"name\":\"s\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
			   "\"format\":\"doas\"}],\"axes\":{\"nb_tasks\":[1,10]},"
			   "\"limits\":{\"nofile\":[1024,1048576]}}";
	struct errbuf eb = {0};
	struct manifest *m = NULL;
	struct sweep *s = testutil_sweep_of(text, "s.json", &m, &eb);

	CHECK(s != NULL);
	if (s != NULL) {
		CHECK_INT_EQ(sweep_count(s), 4);
		CHECK_INT_EQ(sweep_at(s, 0)->limit, 1024);
		CHECK_INT_EQ(sweep_at(s, 1)->limit, 1024);
		CHECK_INT_EQ(sweep_at(s, 1)->value[MANIFEST_AXIS_TASKS], 10);
		CHECK_INT_EQ(sweep_at(s, 2)->limit, 1048576);
		CHECK_STR_EQ(sweep_at(s, 3)->id, "nb_roles=1,nb_users=1,nb_tasks=10,nb_commands=1,"
						 "repetition=1,nofile=1048576");
		CHECK_INT_EQ(sweep_find(s, sweep_at(s, 2)->id), 2);
	}
	sweep_free(s);
	manifest_free(m);
}

static void test_ids_unique(void)
{
	const char *text =
	    "{\"name\":\"s\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
	    "\"format\":\"doas\"}],\"axes\":{\"nb_roles\":[1,2,3],\"nb_users\":[1,2],"
	    "\"nb_tasks\":{\"logspace\":[1,100,5]},\"nb_commands\":[1,3]}}";
	struct errbuf eb = {0};
	struct manifest *m = NULL;
	struct sweep *s = testutil_sweep_of(text, "s.json", &m, &eb);
	size_t i, k, dup = 0;

	CHECK(s != NULL);
	if (s != NULL) {
		CHECK_INT_EQ(sweep_count(s), 3 * 2 * 5 * 2);
		for (i = 0; i < sweep_count(s); i++)
			for (k = 0; k < i; k++)
				if (strcmp(sweep_at(s, i)->id, sweep_at(s, k)->id) == 0)
					dup++;
		CHECK_INT_EQ(dup, 0);
	}
	sweep_free(s);
	manifest_free(m);
}

static void test_rounds_order_and_step_ids(void)
{
	const char *text = "{\"name\":\"s\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
			   "\"format\":\"doas\"}],\"axes\":{\"nb_tasks\":{\"range\":[1,20,1]}},"
			   "\"min_runs\":3,\"rounds\":3}";
	struct errbuf eb = {0};
	struct manifest *m = NULL;
	struct sweep *s = testutil_sweep_of(text, "s.json", &m, &eb);
	size_t a[20], b[20], seen[20] = {0}, i, idx = 0, moved = 0;
	uint32_t round = 0;
	char id[SWEEP_ID_MAX];

	CHECK(s != NULL);
	if (s == NULL) {
		manifest_free(m);
		return;
	}
	CHECK_INT_EQ(m->rounds, 3);
	sweep_round_order(s, 2, 3, 7, a);
	sweep_round_order(s, 2, 3, 7, b);
	for (i = 0; i < 20; i++) {
		CHECK_INT_EQ(a[i], b[i]); /* reproducible */
		CHECK(a[i] < 20);
		if (a[i] < 20)
			seen[a[i]]++;
		moved += a[i] != i;
	}
	for (i = 0; i < 20; i++)
		CHECK_INT_EQ(seen[i], 1); /* a permutation */
	CHECK(moved > 0);                 /* and shuffled */
	sweep_round_order(s, 1, 1, 7, a);
	for (i = 0; i < 20; i++)
		CHECK_INT_EQ(a[i], i); /* one round: sweep order */

	sweep_step_id(sweep_at(s, 4), 3, 3, id, sizeof(id));
	CHECK_STR_EQ(id, "nb_roles=1,nb_users=1,nb_tasks=5,nb_commands=1,repetition=1;round=3");
	CHECK_INT_EQ(sweep_parse_step_id(s, id, 3, &idx, &round), 0);
	CHECK_INT_EQ(idx, 4);
	CHECK_INT_EQ(round, 3);
	CHECK_INT_EQ(sweep_parse_step_id(s, id, 2, &idx, &round), -1); /* round out of range */
	CHECK_INT_EQ(sweep_parse_step_id(s, id, 1, &idx, &round), -1); /* rounds changed */
	CHECK_INT_EQ(sweep_parse_step_id(s, "nb_roles=9;round=1", 3, &idx, &round), -1);
	sweep_step_id(sweep_at(s, 4), 1, 1, id, sizeof(id));
	CHECK_INT_EQ(sweep_parse_step_id(s, id, 1, &idx, &round), 0);
	CHECK_INT_EQ(round, 1);
	sweep_free(s);
	manifest_free(m);
}

/* Writes subject i's files at point pt as the runner does (runner_point.c); 0 or -1. */
static int write_point(const struct manifest *m, const struct sweep_point *pt, size_t i,
		       const char *prefix, char **policy, char **data)
{
	const struct manifest_subject *ms = &m->subjects[i];
	struct policy_shape shape;
	struct errbuf eb = {0};
	struct policy_txn *txn = NULL;
	struct policy *p;
	int rc = -1;

	policy_shape_init(&shape);
	shape.roles = pt->value[MANIFEST_AXIS_ROLES];
	shape.users = pt->value[MANIFEST_AXIS_USERS];
	shape.tasks = pt->value[MANIFEST_AXIS_TASKS];
	shape.commands = pt->value[MANIFEST_AXIS_COMMANDS];
	shape.uid = (uint32_t)m->bench_uid;
	shape.command = m->command;
	shape.match = m->match;
	shape.seed_compat = m->seed_compat;
	shape.user = m->bench_user;
	*policy = manifest_expand(ms->policy, prefix, m->command, &eb);
	*data = ms->policy_data ? manifest_expand(ms->policy_data, prefix, m->command, &eb) : NULL;
	p = policy_build(&shape, &eb);
	if (p == NULL || *policy == NULL || (txn = policy_txn_new(&eb)) == NULL)
		goto out;
	switch (ms->format) {
	case POLICY_FORMAT_SUDOERS:
		rc = policy_stage_sudoers(
		    txn, p, *policy,
		    ms->has_sudoers_layout ? ms->sudoers_layout : m->sudoers_layout, &eb);
		break;
	case POLICY_FORMAT_DOAS:
		rc = policy_stage_doas(txn, p, *policy, &eb);
		break;
	case POLICY_FORMAT_RAR_JSON:
		rc = policy_stage_rar_json(txn, p, *policy, ms->rar_version, &eb);
		break;
	case POLICY_FORMAT_RAR_CBOR:
		rc = policy_stage_rar_cbor(txn, p, *policy, *data, ms->rar_version, &eb);
		break;
	case POLICY_FORMAT_PLEASE:
		rc = policy_stage_please(txn, p, *policy, &eb);
		break;
	case POLICY_FORMAT_POLKIT:
		rc = policy_stage_polkit(txn, p, *policy, &eb);
		break;
	}
	/* The commit frees txn; a failed stage leaves it to the abort below. */
	if (rc == 0) {
		rc = policy_txn_commit(txn, &eb);
		txn = NULL;
	}
out:
	policy_txn_abort(txn);
	if (rc != 0)
		fprintf(stderr, "  write: %s\n", eb.msg);
	policy_free(p);
	return rc;
}

static long long file_size(const char *path)
{
	struct stat st;

	return path != NULL && stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/*
 * sweep_point_policy_bytes with the prefix equals what the writers write
 * at every point, for every format, with the prefix reached through a
 * symbolic link (the writers name the resolved directory); without a prefix
 * a RootAsRole file is short by the bytes of the resolved prefix.
 */
static void test_point_policy_bytes_exact(void)
{
	char dir[] = "/tmp/rarperf-test-sweep-size-XXXXXX", real[128], link[128], etc[160];
	const char *tmpl =
	    "{\"name\":\"s\",\"bench_user\":\"nobody\",\"match\":\"middle\","
	    "\"axes\":{\"nb_roles\":[2,1],\"nb_users\":[3],\"nb_tasks\":[1,9,10,12],"
	    "\"nb_commands\":[3]},\"subjects\":[{\"id\":\"sudo\",\"format\":\"sudoers\"},"
	    "{\"id\":\"rs\",\"format\":\"sudoers\",\"sudoers_layout\":\"per-task\","
	    "\"policy\":\"{prefix}/etc/sudoers-rs\"},{\"id\":\"doas\",\"format\":\"doas\"},"
	    "{\"id\":\"json\",\"format\":\"rar-json\"},"
	    "{\"id\":\"cbor4\",\"format\":\"rar-cbor\",\"rar_version\":\"4.0.3\","
	    "\"policy\":\"{prefix}/etc/r4.json\",\"policy_data\":\"{prefix}/etc/r4.bin\"},"
	    "{\"id\":\"cbor3\",\"format\":\"rar-cbor\"}]}";
	struct errbuf eb = {0};
	struct manifest *m = NULL;
	struct sweep *s = testutil_sweep_of(tmpl, "s.json", &m, &eb);
	struct policy_size_bytes sz, bare;
	char *resolved = NULL;

	CHECK(s != NULL && mkdtemp(dir) != NULL);
	if (s == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		manifest_free(m);
		return;
	}
	snprintf(real, sizeof(real), "%s/real", dir);
	snprintf(link, sizeof(link), "%s/via-a-link", dir);
	snprintf(etc, sizeof(etc), "%s/etc", real);
	CHECK(mkdir(real, 0755) == 0 && mkdir(etc, 0755) == 0 && symlink("real", link) == 0);
	resolved = realpath(real, NULL);
	CHECK(resolved != NULL);
	for (size_t k = 0; k < sweep_count(s); k++) {
		const struct sweep_point *pt = sweep_at(s, k);

		for (size_t i = 0; i < m->nsubjects; i++) {
			char *policy = NULL, *data = NULL;

			CHECK_INT_EQ(sweep_point_policy_bytes(m, pt, i, link, &sz, &eb), 0);
			CHECK_INT_EQ(write_point(m, pt, i, link, &policy, &data), 0);
			if (file_size(policy) != (long long)sz.policy_bytes ||
			    (data != NULL && file_size(data) != (long long)sz.data_bytes)) {
				fprintf(
				    stderr, "  %s, %s: computed %llu + %llu, wrote %lld + %lld\n",
				    pt->id, m->subjects[i].id, (unsigned long long)sz.policy_bytes,
				    (unsigned long long)sz.data_bytes, file_size(policy),
				    file_size(data));
				harness_failed_checks++;
			}
			CHECK(data == NULL || sz.data_bytes > 0);
			CHECK_INT_EQ(sweep_point_policy_bytes(m, pt, i, NULL, &bare, &eb), 0);
			if (m->subjects[i].format == POLICY_FORMAT_RAR_JSON && resolved != NULL)
				CHECK_INT_EQ(sz.policy_bytes - bare.policy_bytes, strlen(resolved));
			else if (m->subjects[i].format != POLICY_FORMAT_RAR_CBOR)
				CHECK_INT_EQ(sz.policy_bytes, bare.policy_bytes);
			free(policy);
			free(data);
		}
	}
	CHECK_INT_EQ(sweep_point_policy_bytes(m, sweep_at(s, 0), m->nsubjects, NULL, &sz, &eb), -1);
	CHECK(strstr(eb.msg, "the manifest has 6") != NULL);
	free(resolved);
	harness_remove_tree(dir);
	sweep_free(s);
	manifest_free(m);
}

int main(void)
{
	RUN(test_product_and_order);
	RUN(test_swept_limit);
	RUN(test_ids_unique);
	RUN(test_rounds_order_and_step_ids);
	RUN(test_point_policy_bytes_exact);
	return HARNESS_EXIT();
}
