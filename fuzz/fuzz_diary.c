/* fuzz_diary: libFuzzer target feeding arbitrary bytes to rarplot's diary-file parser; each
 * sentence parsed is matched against a few fixed builds and sudo, and the report's table written
 * for it must hold no control, bidi control, invalid UTF-8 nor unescaped '<'. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diary.h"
#include "history_impl.h"
#include "fuzz_markdown.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A release of line (sr-json, sr-cbor) with intercept ms and slope us per task, 7 points. */
static void release(struct history_line *l, const char *version, double i, double s)
{
	struct history_release *r = &l->rel[l->n++];

	memset(r, 0, sizeof(*r));
	if (sscanf(version, "%u.%u.%u", &r->ver[0], &r->ver[1], &r->ver[2]) != 3)
		abort();
	snprintf(r->version, sizeof(r->version), "%s", version);
	snprintf(r->fit.subject, sizeof(r->fit.subject), "%s-%s", l->name, version);
	r->fit.v[0] = i;
	r->fit.se[0] = i / 20;
	r->fit.v[1] = s;
	r->fit.se[1] = s / 10;
	r->fit.n = 7;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct history h;
	struct errbuf eb = {{0}};
	struct diary *d = diary_parse((const char *)data, size, "fuzz", &eb);
	struct history_opts o = {.anchor = "sudo"};
	char *out = NULL;
	size_t out_len = 0;
	FILE *f;

	if (d == NULL) {
		/* Every refusal is one line. */
		if (eb.msg[0] == '\0' || strchr(eb.msg, '\n') != NULL)
			__builtin_trap();
		return 0;
	}
	memset(&h, 0, sizeof(h));
	snprintf(h.axis, sizeof(h.axis), "nb_tasks");
	snprintf(h.lines[0].name, sizeof(h.lines[0].name), "sr-json");
	snprintf(h.lines[1].name, sizeof(h.lines[1].name), "sr-cbor");
	h.n_lines = 2;
	release(&h.lines[0], "3.3.4", 4.9, 200);
	release(&h.lines[0], "4.0.3", 6.7, 4);
	release(&h.lines[1], "3.3.4", 3.2, 6);
	release(&h.lines[1], "4.2.0", 6.1, 4.5);
	h.anchor = h.lines[1].rel[0].fit;
	h.anchor.v[1] = 4.1;
	h.has_anchor = true;
	o.diary = d;
	if (history_diary_match(&h, &o, &eb) != 0)
		goto out;
	for (size_t i = 0; i < h.n_diary; i++) {
		const struct diary_match *m = &h.diary[i];

		if (m->entry != &d->items[i] || m->n_matching > m->n_candidates ||
		    (m->to == NULL) != (m->n_candidates == 0) || (m->matches && m->n_matching == 0))
			__builtin_trap();
	}
	f = open_memstream(&out, &out_len);
	if (f != NULL) {
		history_diary_markdown(&h, &o, f);
		fclose(f);
		if (!fuzz_markdown_inert(out, out_len))
			__builtin_trap();
		free(out);
	}
out:
	free(h.diary_builds);
	free(h.diary);
	diary_free(d);
	return 0;
}
