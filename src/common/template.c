/* template: expands "{name}" placeholders, left to right, without re-expanding what it inserted. */
#include "template.h"

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
	size_t cap = strlen(tmpl) + 1, len = 0;
	char *out = malloc(cap), *grown;
	const char *s = tmpl;

	if (unknown != NULL)
		*unknown = NULL;
	if (out == NULL)
		goto oom;
	while (*s != '\0') {
		const struct template_var *v = *s == '{' ? template_match(s, vars, n) : NULL;
		const char *val = v != NULL ? v->value : s;
		size_t vlen = v != NULL ? strlen(v->value) : 1;
		size_t skip = v != NULL ? strlen(v->name) + 2 : 1;

		if (*s == '{' && v == NULL && unknown != NULL) {
			*unknown = s;
			free(out);
			errbuf_set(eb, "unknown placeholder");
			return NULL;
		}
		if (len + vlen + 1 > cap) {
			cap = (len + vlen + 1) * 2;
			grown = realloc(out, cap);
			if (grown == NULL)
				goto oom;
			out = grown;
		}
		memcpy(out + len, val, vlen);
		len += vlen;
		s += skip;
	}
	out[len] = '\0';
	return out;
oom:
	free(out);
	errbuf_set(eb, "out of memory");
	return NULL;
}
