/* growbuf: capped byte buffers and arrays that double. */
#include "growbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void growbuf_init(struct growbuf *b, size_t max)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
}

int growbuf_reserve(struct growbuf *b, size_t extra, struct errbuf *eb)
{
	size_t need, cap;
	char *grown;

	if (extra > b->max || b->len > b->max - extra)
		return errbuf_set(eb, "larger than %zu bytes", b->max);
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap == 0 ? 256 : b->cap;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	if (cap > b->max + 1)
		cap = b->max + 1;
	if ((grown = realloc(b->data, cap)) == NULL)
		return errbuf_set(eb, "out of memory (%zu bytes)", cap);
	b->data = grown;
	b->cap = cap;
	return 0;
}

int growbuf_append(struct growbuf *b, const void *bytes, size_t n, struct errbuf *eb)
{
	if (growbuf_reserve(b, n, eb) < 0)
		return -1;
	if (n > 0)
		memcpy(b->data + b->len, bytes, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int growbuf_puts(struct growbuf *b, const char *s, struct errbuf *eb)
{
	return growbuf_append(b, s, strlen(s), eb);
}

int growbuf_vprintf(struct growbuf *b, struct errbuf *eb, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		return errbuf_set(eb, "cannot format \"%s\"", fmt);
	if (growbuf_reserve(b, (size_t)n, eb) < 0)
		return -1;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int growbuf_printf(struct growbuf *b, struct errbuf *eb, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = growbuf_vprintf(b, eb, fmt, ap);
	va_end(ap);
	return rc;
}

char *growbuf_release(struct growbuf *b, size_t *len)
{
	char *data = b->data;

	if (len != NULL)
		*len = b->len;
	if (data == NULL)
		data = calloc(1, 1);
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
	return data;
}

void growbuf_free(struct growbuf *b)
{
	free(b->data);
	growbuf_init(b, b->max);
}

int growarray(void *array, size_t *cap, size_t need, size_t elem, size_t max, struct errbuf *eb)
{
	void **arr = array;
	size_t ncap;
	void *grown;

	if (need <= *cap)
		return 0;
	if (need > max)
		return errbuf_set(eb, "more than %zu entries", max);
	ncap = *cap < 8 ? 8 : *cap;
	while (ncap < need)
		ncap = ncap > max / 2 ? max : ncap * 2;
	if (ncap > max)
		ncap = max;
	if (elem != 0 && ncap > SIZE_MAX / elem)
		return errbuf_set(eb, "more than %zu entries", max);
	if ((grown = realloc(*arr, ncap * elem)) == NULL)
		return errbuf_set(eb, "out of memory (%zu entries)", ncap);
	*arr = grown;
	*cap = ncap;
	return 0;
}
