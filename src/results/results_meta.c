/* results_meta: what a document's "meta" says beside its points: each subject's tool and
 * version, the hosts that ran emulated, the estimator, the contended treatment and what judged
 * a run contended (results.h). */
#include <cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "growbuf.h"
#include "jsonget.h"
#include "policy_format.h"
#include "results.h"

/* The program a manifest subject runs, as the facts file names it ("dosr-cbor"). */
static const char *results_program_name(const cJSON *subject, char *buf, size_t size)
{
	const cJSON *program = jsonget_member(subject, "program");
	const cJSON *format = jsonget_member(subject, "format");
	const cJSON *rar = jsonget_member(subject, "rar_version");
	enum policy_format f;
	bool known = cJSON_IsString(format) && policy_format_parse(format->valuestring, &f) == 0;

	if (cJSON_IsString(program)) {
		const char *slash = strrchr(program->valuestring, '/');

		snprintf(buf, size, "%s", slash != NULL ? slash + 1 : program->valuestring);
		return buf;
	}
	/* Another RootAsRole version's build, as rarbench names it by default (dosr-4.0.3-cbor);
	 * 3.3.4's is the plain dosr-<storage>. */
	if (cJSON_IsString(rar) && strcmp(rar->valuestring, "3.3.4") != 0 && known &&
	    policy_format_rar_storage(f) != NULL) {
		snprintf(buf, size, "dosr-%.32s-%.8s", rar->valuestring,
			 policy_format_rar_storage(f));
		return buf;
	}
	return known ? policy_format_program(f) : NULL;
}

/* Whether program is name or one of its builds, name-SOMETHING ("doas-dev-it27"). */
static bool results_build_of(const char *program, const char *name)
{
	size_t len = strlen(name);

	return strncmp(program, name, len) == 0 && (program[len] == '\0' || program[len] == '-');
}

/* The family a facts.json tool name belongs to: dosr-* is RootAsRole, doas and doas-* (doas-pam,
 * a dev build doas-dev-NAME) are OpenDoas, sudo-pam is sudo (its PAM build, which the tool's
 * "pam" says), and so is a dev build sudo-dev[-NAME]; sudo-rs and please are tools of their own.
 * results_different_tools compares these names. */
static const char *results_family(const char *program)
{
	if (strncmp(program, "dosr", 4) == 0)
		return "RootAsRole";
	if (results_build_of(program, "doas"))
		return "OpenDoas";
	if (strcmp(program, "sudo-pam") == 0 || results_build_of(program, "sudo-dev"))
		return "sudo";
	return program;
}

/* Records what each subject of one rarbench meta is (first file to say it wins). */
static void results_read_tools(struct results *res, const cJSON *meta)
{
	const cJSON *subjects = jsonget_member(jsonget_member(meta, "manifest"), "subjects");
	const cJSON *tools = jsonget_member(jsonget_member(meta, "prefix_facts"), "tools");
	const cJSON *s;
	struct errbuf unread;

	if (!cJSON_IsArray(subjects) || !cJSON_IsObject(tools))
		return;
	cJSON_ArrayForEach(s, subjects)
	{
		const cJSON *id = jsonget_member(s, "id"), *version, *pam;
		char buf[RESULTS_TOOL_MAX];
		const char *program = results_program_name(s, buf, sizeof(buf));
		struct results_tool *t;

		if (!cJSON_IsString(id) || program == NULL || results_tool(res, id->valuestring) ||
		    res->n_tools == RESULTS_TOOLS_MAX ||
		    strlen(id->valuestring) >= RESULTS_TOOL_MAX)
			continue;
		version = jsonget_member(jsonget_member(tools, program), "version");
		pam = jsonget_member(jsonget_member(tools, program), "pam");
		if (!cJSON_IsString(version))
			continue;
		if (growarray(&res->tools, &res->cap_tools, res->n_tools + 1, sizeof(*res->tools),
			      RESULTS_TOOLS_MAX, &unread) != 0)
			return; /* out of memory: the tools known so far */
		t = &res->tools[res->n_tools++];
		snprintf(t->subject, sizeof(t->subject), "%s", id->valuestring);
		/* Its authentication configuration, when the facts say it: "sudo 1.9.13p3, PAM". */
		snprintf(t->tool, sizeof(t->tool), "%.40s %.40s%s", results_family(program),
			 version->valuestring,
			 cJSON_IsTrue(pam)    ? ", PAM"
			 : cJSON_IsFalse(pam) ? ", no PAM"
					      : "");
		/* Bytes from a file: only what a legend and a Markdown cell can carry. */
		for (char *q = t->tool; *q != '\0'; q++)
			if ((unsigned char)*q < 0x20 || (unsigned char)*q > 0x7e || *q == '"' ||
			    *q == '\'' || *q == '\\' || *q == '|')
				*q = '?';
	}
}

/* Adds name to res->emulated when meta's facts say the host ran under TCG. */
static void results_read_virt(struct results *res, const cJSON *meta, const char *name)
{
	const cJSON *virt = jsonget_member(jsonget_member(meta, "prefix_facts"), "virtualisation");
	size_t len = strlen(res->emulated);
	const char *ell = ", ...";

	if (!cJSON_IsString(virt) || strcmp(virt->valuestring, "tcg") != 0 || name == NULL)
		return;
	res->n_emulated++;
	if (len >= strlen(ell) && strcmp(res->emulated + len - strlen(ell), ell) == 0)
		return;
	if (len + strlen(name) + 2 + strlen(ell) + 1 > sizeof(res->emulated))
		snprintf(res->emulated + len, sizeof(res->emulated) - len, "%s", ell);
	else
		snprintf(res->emulated + len, sizeof(res->emulated) - len, "%s%s", len ? ", " : "",
			 name);
}

/* A refusal's "at" (the point's axes by name) into k->refused_at; NAN where absent. */
static void results_read_refused_at(struct results_skipped *k, const cJSON *at)
{
	static const char *const axes[] = RESULTS_REFUSAL_AXES;

	for (size_t a = 0; a < sizeof(axes) / sizeof(axes[0]); a++) {
		const cJSON *v = jsonget_member(at, axes[a]);

		k->refused_at[a] = cJSON_IsNumber(v) && v->valuedouble >= 1 ? v->valuedouble : NAN;
	}
}

double results_refused_at(const struct results *res, const char *subject, const char *axis)
{
	static const char *const axes[] = RESULTS_REFUSAL_AXES;
	double best = NAN;

	for (size_t i = 0; res != NULL && i < res->n_skipped; i++) {
		const struct results_skipped *k = &res->skipped[i];

		if (!k->refused || strcmp(k->id, subject) != 0)
			continue;
		/* Several files (hosts) may refuse at different sizes: the smallest ends the line.
		 */
		for (size_t a = 0; a < sizeof(axes) / sizeof(axes[0]); a++)
			if (strcmp(axes[a], axis) == 0 && !isnan(k->refused_at[a]) &&
			    (isnan(best) || k->refused_at[a] < best))
				best = k->refused_at[a];
	}
	return best;
}

/* Records the subjects one rarbench meta says it skipped, and why (each id and reason once). */
static void results_read_skipped(struct results *res, const cJSON *meta, size_t source)
{
	const cJSON *skipped = jsonget_member(meta, "skipped_subjects"), *s;
	struct errbuf unread;

	cJSON_ArrayForEach(s, skipped)
	{
		const cJSON *id = jsonget_member(s, "id");
		const cJSON *reason = jsonget_member(s, "reason");
		struct results_skipped *k;
		size_t i;

		if (!cJSON_IsString(id) || strlen(id->valuestring) >= RESULTS_TOOL_MAX)
			continue;
		for (i = 0; i < res->n_skipped; i++)
			if (strcmp(res->skipped[i].id, id->valuestring) == 0 &&
			    strncmp(res->skipped[i].reason,
				    cJSON_IsString(reason) ? reason->valuestring : "",
				    sizeof(res->skipped[i].reason) - 1) == 0)
				break;
		if (i < res->n_skipped)
			continue;
		if (growarray(&res->skipped, &res->cap_skipped, res->n_skipped + 1,
			      sizeof(*res->skipped), RESULTS_SKIPPED_MAX, &unread) != 0)
			return; /* more than the cap, or out of memory: those known so far */
		k = &res->skipped[res->n_skipped++];
		snprintf(k->id, sizeof(k->id), "%s", id->valuestring);
		/* A long reason is cut: the report names the file, which has it whole. */
		snprintf(k->reason, sizeof(k->reason), "%s",
			 cJSON_IsString(reason) ? reason->valuestring : "");
		k->source = source;
		k->refused = cJSON_IsObject(jsonget_member(s, "refusal"));
		results_read_refused_at(k, jsonget_member(jsonget_member(s, "refusal"), "at"));
	}
}

/* A rarbench results.json has meta; a rarlab merged.json has one meta per host. */
static void results_read_all_tools(struct results *res, const cJSON *root, const char *name,
				   size_t source)
{
	const cJSON *meta = jsonget_member(root, "meta"), *h;
	const cJSON *hosts = jsonget_member(meta, "hosts");

	results_read_tools(res, meta);
	results_read_virt(res, meta, name);
	results_read_skipped(res, meta, source);
	cJSON_ArrayForEach(h, hosts)
	{
		results_read_tools(res, h);
		results_read_virt(res, h, h->string);
		results_read_skipped(res, h, source);
	}
}

/* Folds one more say into what is known: the first sets it, a different one makes it mixed. */
static void results_method_fold(char *known, const char *more)
{
	if (known[0] == '\0')
		snprintf(known, RESULTS_METHOD_MAX, "%s", more);
	else if (strcmp(known, more) != 0)
		snprintf(known, RESULTS_METHOD_MAX, "%s", RESULTS_MIXED);
}

/* item's string when it is a short name ([a-z0-9_-], shorter than RESULTS_METHOD_MAX). */
static const char *results_method_name(const cJSON *item)
{
	const char *s = cJSON_IsString(item) ? item->valuestring : NULL;
	size_t i;

	if (s == NULL || s[0] == '\0' || strlen(s) >= RESULTS_METHOD_MAX)
		return RESULTS_UNKNOWN;
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		      s[i] == '-'))
			return RESULTS_UNKNOWN;
	return s;
}

/* The estimator and contended treatment one rarbench meta states, folded into est and cont. */
static void results_read_measure(const cJSON *meta, const struct results *res, size_t first,
				 char *est, char *cont)
{
	const cJSON *m = jsonget_member(meta, "measure"), *drop;
	const char *e = results_method_name(jsonget_member(m, "estimator"));
	char from_points[RESULTS_METHOD_MAX] = "";
	size_t i;

	if (strcmp(e, RESULTS_UNKNOWN) == 0) {
		/* No meta (hyperfine's own, a trimmed file): what the results themselves say. */
		for (i = first; i < res->n_points; i++)
			results_method_fold(from_points, res->points[i].estimator[0] != '\0'
							     ? res->points[i].estimator
							     : RESULTS_UNKNOWN);
		if (from_points[0] != '\0')
			e = from_points;
	}
	results_method_fold(est, e);
	drop = jsonget_member(m, "drop_contended");
	if (cJSON_IsBool(drop))
		results_method_fold(cont, cJSON_IsTrue(drop) ? "drop" : "keep");
	else
		results_method_fold(cont, results_method_name(jsonget_member(m, "contended")));
}

/* What this document (its points from first on) says of the estimator, folded into res. */
static void results_read_method(struct results *res, const cJSON *root, size_t first)
{
	const cJSON *meta = jsonget_member(root, "meta"), *h;
	const cJSON *hosts = jsonget_member(meta, "hosts");
	char est[RESULTS_METHOD_MAX] = "", cont[RESULTS_METHOD_MAX] = "";

	if (cJSON_GetArraySize(hosts) > 0 && jsonget_member(meta, "measure") == NULL) {
		cJSON_ArrayForEach(h, hosts)
		{
			results_read_measure(h, res, first, est, cont);
		}
	} else {
		results_read_measure(meta, res, first, est, cont);
	}
	results_method_fold(res->estimator, est);
	results_method_fold(res->contended, cont);
}

/* What judged this document's runs contended, folded into res (a lab's merged.json: each
 * host's environment). A file from before the key: the off-CPU judge, the only one then. */
static void results_read_judge(struct results *res, const cJSON *root)
{
	const cJSON *meta = jsonget_member(root, "meta"), *h;
	const cJSON *hosts = jsonget_member(meta, "hosts");
	const cJSON *env = jsonget_member(meta, "environment");
	const cJSON *src;
	char judge[RESULTS_METHOD_MAX] = "";

	if (meta == NULL)
		return; /* hyperfine's own: nothing judged its runs */
	if (cJSON_GetArraySize(hosts) > 0 && env == NULL) {
		cJSON_ArrayForEach(h, hosts)
		{
			src = jsonget_member(jsonget_member(h, "environment"), "contention_source");
			results_method_fold(judge,
					    src == NULL ? "off-cpu" : results_method_name(src));
		}
	} else {
		src = jsonget_member(env, "contention_source");
		results_method_fold(judge, src == NULL ? "off-cpu" : results_method_name(src));
	}
	if (judge[0] != '\0')
		results_method_fold(res->contention_source, judge);
}

/* How one meta's sweep found its programs in the page cache: meta.measure.page_cache.method; a
 * rarbench file from before the key measured them as found. */
static const char *results_page_cache_of(const cJSON *meta)
{
	const cJSON *m =
	    jsonget_member(jsonget_member(jsonget_member(meta, "measure"), "page_cache"), "method");

	return m == NULL ? "as_found" : results_method_name(m);
}

/* What this document says of the page cache, folded into res (a lab's merged.json: each host). */
static void results_read_page_cache(struct results *res, const cJSON *root)
{
	const cJSON *meta = jsonget_member(root, "meta"), *h;
	const cJSON *hosts = jsonget_member(meta, "hosts");
	char method[RESULTS_METHOD_MAX] = "";

	if (meta == NULL)
		return; /* hyperfine's own: not said */
	if (cJSON_GetArraySize(hosts) > 0 && jsonget_member(meta, "measure") == NULL) {
		cJSON_ArrayForEach(h, hosts)
		{
			results_method_fold(method, results_page_cache_of(h));
		}
	} else {
		results_method_fold(method, results_page_cache_of(meta));
	}
	if (method[0] != '\0')
		results_method_fold(res->page_cache, method);
}

void results_meta_read(struct results *res, const void *root, const char *name, size_t source,
		       size_t first)
{
	results_read_all_tools(res, root, name, source);
	results_read_method(res, root, first);
	results_read_judge(res, root);
	results_read_page_cache(res, root);
}
