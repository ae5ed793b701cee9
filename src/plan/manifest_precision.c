/* manifest_precision: the keys of precision mode and of the estimate (precision, estimator,
 * contended, contention_limit, remeasure) and the defaults precision mode brings. */
#include "jsonget.h"
#include "manifest_impl.h"

#include <stdio.h>
#include <string.h>

static const char *estimator_name(int i)
{
	return estimate_kind_name((enum estimate_kind)i);
}

static const char *contended_name(int i)
{
	return estimate_contended_name((enum estimate_contended)i);
}

/* "reference": true, false or a number of rarref's work units (manifest.h). */
static int manifest_parse_reference(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	const cJSON *j = jsonget_member(root, "reference");

	m->reference = false;
	m->reference_units = 0;
	if (j == NULL || cJSON_IsFalse(j))
		return 0;
	if (cJSON_IsTrue(j)) {
		m->reference = true;
		m->reference_units = MANIFEST_REFERENCE_UNITS_DEFAULT;
		return 0;
	}
	if (!cJSON_IsNumber(j))
		return manifest_fail(c, "$.reference",
				     "expected true, false or a number of work units, got %s",
				     manifest_type_name(j));
	if (!(j->valuedouble >= 0 && j->valuedouble <= MANIFEST_REFERENCE_UNITS_MAX) ||
	    j->valuedouble != (double)(uint32_t)j->valuedouble)
		return manifest_fail(c, "$.reference", "%g is not a whole number from 0 to %u",
				     j->valuedouble, MANIFEST_REFERENCE_UNITS_MAX);
	m->reference = true;
	m->reference_units = (uint32_t)j->valuedouble;
	return 0;
}

int manifest_parse_precision(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	const cJSON *j = jsonget_member(root, "precision");
	struct errbuf line;
	uint64_t v;
	int e;

	m->estimator = ESTIMATE_MEDIAN;
	m->contended = ESTIMATE_CONTENDED_DEFAULT;
	m->contention_limit = MANIFEST_DEFAULT_CONTENTION_LIMIT;
	if (j != NULL) {
		if (cJSON_IsTrue(j))
			m->precision = MANIFEST_PRECISION_DEFAULT_PCT / 100.0;
		else if (cJSON_IsFalse(j))
			m->precision = 0;
		else if (!cJSON_IsNumber(j))
			return manifest_fail(c, "$.precision",
					     "expected true, false or a percentage, got %s",
					     manifest_type_name(j));
		else if (!(j->valuedouble >= 0 && j->valuedouble < 100))
			return manifest_fail(c, "$.precision",
					     "%g is out of range (a percentage below 100; 0: the "
					     "fixed procedure)",
					     j->valuedouble);
		else
			m->precision = j->valuedouble / 100.0;
	}
	if (m->precision > 0) {
		m->warmup = MANIFEST_PRECISION_WARMUP;
		m->min_runs = MANIFEST_PRECISION_MIN_RUNS;
		m->max_runs = MANIFEST_PRECISION_MAX_RUNS;
		m->rounds = MANIFEST_PRECISION_ROUNDS;
		m->min_time_ns = 0;
		m->remeasure = MANIFEST_PRECISION_REMEASURE;
	}
	j = jsonget_member(root, "kernel_reference");
	m->kernel_reference = false;
	if (j != NULL && !cJSON_IsBool(j))
		return manifest_fail(c, "$.kernel_reference", "expected true or false, got %s",
				     manifest_type_name(j));
	m->kernel_reference = cJSON_IsTrue(j);
	if (manifest_parse_reference(c, root, m) < 0)
		return -1;
	/* Its prices are exported inside "reference" and read beside rarref's units. */
	if (m->kernel_reference && !m->reference)
		return manifest_fail(c, "$.kernel_reference", "needs \"reference\" too");
	if (manifest_get_string(c, root, "$", "precision_baseline", false, &m->precision_baseline) <
	    0)
		return -1;
	e = (int)m->estimator;
	if (manifest_get_enum(c, root, "$", "estimator", estimator_name, ESTIMATE_KIND_COUNT, &e) <
	    0)
		return -1;
	m->estimator = (enum estimate_kind)e;
	e = (int)m->contended;
	if (manifest_get_enum(c, root, "$", "contended", contended_name, ESTIMATE_CONTENDED_COUNT,
			      &e) < 0)
		return -1;
	m->contended = (enum estimate_contended)e;
	if (jsonget_double(root, "$", "contention_limit", JSONGET_OPTIONAL, 0, 1,
			   &m->contention_limit, &line) < 0)
		return manifest_problem(c, line.msg);
	v = m->remeasure;
	if (manifest_get_uint(c, root, "$", "remeasure", 0, 10, &v) < 0)
		return -1;
	m->remeasure = (uint32_t)v;
	return 0;
}

/* precision_baseline names a subject of the manifest, in precision mode, with another subject. */
static int manifest_check_precision_baseline(struct manifest_ctx *c, const struct manifest *m)
{
	size_t i;

	if (m->precision <= 0)
		return manifest_fail(c, "$.precision_baseline",
				     "applies only in precision mode (set \"precision\")");
	for (i = 0; i < m->nsubjects; i++)
		if (strcmp(m->subjects[i].id, m->precision_baseline) == 0)
			break;
	if (i == m->nsubjects)
		return manifest_fail(c, "$.precision_baseline", "\"%s\" is not a subject's id",
				     m->precision_baseline);
	if (m->nsubjects < 2)
		return manifest_fail(c, "$.precision_baseline",
				     "needs another subject to compare with it");
	return 0;
}

int manifest_finish_precision(struct manifest_ctx *c, const cJSON *root, struct manifest *m)
{
	uint32_t per_round = (m->min_runs + m->rounds - 1) / m->rounds;
	uint64_t extra;

	m->max_rounds = m->rounds;
	if (m->precision_baseline != NULL && manifest_check_precision_baseline(c, m) < 0)
		return -1;
	if (m->precision <= 0)
		return 0;
	if (m->max_runs == 0)
		return manifest_fail(c, "$.max_runs", "precision mode needs a bound (default %u)",
				     MANIFEST_PRECISION_MAX_RUNS);
	if (m->min_time_ns != 0 && jsonget_member(root, "min_time_s") != NULL)
		return manifest_fail(c, "$.min_time_s",
				     "does not apply in precision mode, where the precision "
				     "decides how long a point runs (remove it or set it to 0)");
	/* Extra rounds of per_round runs each, while a point has fewer than max_runs. */
	extra = m->max_runs > (uint64_t)per_round * m->rounds
		    ? (m->max_runs - (uint64_t)per_round * m->rounds + per_round - 1) / per_round
		    : 0;
	if (m->rounds + extra > MANIFEST_ROUNDS_MAX)
		return manifest_fail(c, "$.max_runs",
				     "%u runs in rounds of %u would take more than %u rounds",
				     m->max_runs, per_round, MANIFEST_ROUNDS_MAX);
	m->max_rounds = m->rounds + (uint32_t)extra;
	return 0;
}
