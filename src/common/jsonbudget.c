/* jsonbudget: what a JSON text would cost as a cJSON tree, counted before one is built. */
#include "jsonbudget.h"

#include <string.h>

#define JSONBUDGET_NONE ((size_t)-1)

/* The offset after the closing quote of the string opening at buf[i], JSONBUDGET_NONE when
 * it does not end. */
static size_t string_end(const char *buf, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (buf[i] == '\\')
			i++;
		else if (buf[i] == '"')
			return i + 1;
	}
	return JSONBUDGET_NONE;
}

static bool is_token_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '+' || c == '-' || c == '.';
}

static size_t skip_blanks(const char *buf, size_t len, size_t i)
{
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r'))
		i++;
	return i;
}

/* The '[' of the top-level object's member "results" whose key is the string buf[i..e), or
 * JSONBUDGET_NONE when it is not that key or its value is not an array. */
static size_t results_array_at(const char *buf, size_t len, size_t i, size_t e)
{
	size_t k;

	if (e - i != 9 || memcmp(buf + i, "\"results\"", 9) != 0)
		return JSONBUDGET_NONE;
	k = skip_blanks(buf, len, e);
	if (k >= len || buf[k] != ':')
		return JSONBUDGET_NONE;
	k = skip_blanks(buf, len, k + 1);
	return k < len && buf[k] == '[' ? k : JSONBUDGET_NONE;
}

/* Closes the results element being counted (its cost elem) into b. */
static void close_element(struct jsonbudget *b, bool *open, uint64_t elem)
{
	if (!*open)
		return;
	*open = false;
	b->results_cost += elem;
	if (elem > b->results_max_cost)
		b->results_max_cost = elem;
}

int jsonbudget_scan(const char *buf, size_t len, struct jsonbudget *b)
{
	size_t depth = 0, i = skip_blanks(buf, len, 0), results_at = JSONBUDGET_NONE;
	bool object = i < len && buf[i] == '{', in_results = false, open = false;
	uint64_t elem = 0;

	memset(b, 0, sizeof(*b));
	while (i < len) {
		char c = buf[i];
		size_t next = i + 1;
		uint64_t add = 0;

		if (c == '"' || c == '{' || c == '[' || c == '-' || (c >= '0' && c <= '9') ||
		    c == 't' || c == 'f' || c == 'n') {
			/* a value (or a key): one item; an element of results when directly in it
			 */
			if (in_results && depth == 2 && !open) {
				open = true;
				elem = 0;
				b->nresults++;
			}
			add = JSONBUDGET_ITEM_BYTES;
			b->values++;
		}
		if (c == '"') {
			next = string_end(buf, len, i);
			if (next == JSONBUDGET_NONE)
				return -1;
			add += JSONBUDGET_STRING_BYTES + (next - i);
			if (object && depth == 1 && !b->has_results && !in_results)
				results_at = results_array_at(buf, len, i, next);
		} else if (c == '{' || c == '[') {
			if (++depth > JSONBUDGET_DEPTH_MAX)
				return -1;
			if (i == results_at) {
				in_results = true;
				b->results_open = i;
			}
		} else if (c == '}' || c == ']') {
			if (depth == 0)
				return -1;
			if (in_results && depth == 2)
				close_element(b, &open, elem);
			if (in_results && depth == 2 && c == ']') {
				in_results = false;
				b->has_results = true;
				b->results_close = i;
				results_at = JSONBUDGET_NONE;
			}
			depth--;
		} else if (c == ',' && in_results && depth == 2) {
			close_element(b, &open, elem);
		} else if (add > 0) {
			while (next < len && is_token_char(buf[next]))
				next++;
		}
		b->cost += add;
		if (open)
			elem += add;
		i = next;
	}
	return depth == 0 ? 0 : -1;
}

uint64_t jsonbudget_allowed(size_t len)
{
	return (uint64_t)JSONBUDGET_FACTOR * len + JSONBUDGET_FLOOR_BYTES;
}

int jsonbudget_refuse_over(const char *name, size_t len, uint64_t need, uint64_t values,
			   struct errbuf *eb)
{
	if ((uint64_t)len + need <= jsonbudget_allowed(len))
		return 0;
	return errbuf_set(eb,
			  "%s: refused: reading it would take about %.1f MiB, more than %u times "
			  "its %.1f MiB and %u MiB (%llu values in it; not a file rarperf writes)",
			  name, (double)(len + need) / (1024.0 * 1024.0), JSONBUDGET_FACTOR,
			  (double)len / (1024.0 * 1024.0), JSONBUDGET_FLOOR_BYTES >> 20,
			  (unsigned long long)values);
}

int jsonbudget_check(const char *buf, size_t len, const char *name, struct errbuf *eb)
{
	struct jsonbudget b;

	/* Unbalanced text: cJSON builds the tree up to where it fails, what was counted. */
	(void)jsonbudget_scan(buf, len, &b);
	return jsonbudget_refuse_over(name, len, b.cost, b.values, eb);
}

size_t jsonbudget_value_end(const char *buf, size_t len, size_t start)
{
	size_t depth = 0, i = start;

	if (start >= len)
		return len;
	if (buf[start] != '{' && buf[start] != '[' && buf[start] != '"') {
		while (i < len && is_token_char(buf[i]))
			i++;
		return i;
	}
	while (i < len) {
		char c = buf[i];

		if (c == '"') {
			size_t e = string_end(buf, len, i);

			if (e == JSONBUDGET_NONE)
				return len;
			if (depth == 0)
				return e;
			i = e;
			continue;
		}
		if (c == '{' || c == '[')
			depth++;
		else if ((c == '}' || c == ']') && --depth == 0)
			return i + 1;
		i++;
	}
	return len;
}
