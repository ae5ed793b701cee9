/* template: expands "{name}" placeholders, left to right, without re-expanding what it inserted. */
#include "template.h"
#include "growbuf.h"

#include <stdlib.h>
#include <string.h>

/* The var whose "{name}" starts at s, or NULL. */
static const struct template_var *template_match(const char *s, const struct template_var *vars,
						 size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t nlen = strlen(vars[i].name);

		if (strncmp(s + 1, vars[i].name, nlen) == 0 && s[1 + nlen] == '}')
			return &vars[i];
	}
	return NULL;
}

char *template_expand(const char *tmpl, const struct template_var *vars, size_t n,
		      const char **unknown, struct errbuf *eb)
{
	struct growbuf out;
	const char *s = tmpl;
	char *text;

	if (unknown != NULL)
		*unknown = NULL;
	growbuf_init(&out, TEMPLATE_MAX_BYTES);
	while (*s != '\0') {
		const struct template_var *v = *s == '{' ? template_match(s, vars, n) : NULL;
		const char *val = v != NULL ? v->value : s;
		size_t vlen = v != NULL ? strlen(v->value) : 1;
		size_t skip = v != NULL ? strlen(v->name) + 2 : 1;

		if (*s == '{' && v == NULL && unknown != NULL) {
			*unknown = s;
			growbuf_free(&out);
			errbuf_set(eb, "unknown placeholder");
			return NULL;
		}
		if (growbuf_append(&out, val, vlen, eb) < 0) {
			growbuf_free(&out);
			return NULL;
		}
		s += skip;
	}
	text = growbuf_release(&out, NULL);
	if (text == NULL)
		errbuf_set(eb, "out of memory");
	return text;
}
