/* Tests for sweep: product size, order (last axis fastest, repetition slowest), stable ids. */
#include "harness.h"
#include "manifest.h"
#include "sweep.h"

static void test_product_and_order(void)
{
	const char *text = "{\"name\":\"s\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
			   "\"format\":\"doas\"}],\"axes\":{\"nb_roles\":[1,2],\"nb_tasks\":[10,20,"
			   "30]},\"repetitions\":2}";
	struct errbuf eb = {0};
	struct manifest *m = manifest_parse(text, strlen(text), "s.json", &eb);
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

static void test_ids_unique(void)
{
	const char *text =
	    "{\"name\":\"s\",\"bench_user\":\"nobody\",\"subjects\":[{\"id\":\"a\","
	    "\"format\":\"doas\"}],\"axes\":{\"nb_roles\":[1,2,3],\"nb_users\":[1,2],"
	    "\"nb_tasks\":{\"logspace\":[1,100,5]},\"nb_commands\":[1,3]}}";
	struct errbuf eb = {0};
	struct manifest *m = manifest_parse(text, strlen(text), "s.json", &eb);
	struct sweep *s = m ? sweep_new(m, &eb) : NULL;
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
	struct manifest *m = manifest_parse(text, strlen(text), "s.json", &eb);
	struct sweep *s = m ? sweep_new(m, &eb) : NULL;
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

int main(void)
{
	RUN(test_product_and_order);
	RUN(test_ids_unique);
	RUN(test_rounds_order_and_step_ids);
	return HARNESS_EXIT();
}
