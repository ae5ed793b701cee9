/* sitetsv: a published TSV read by its header (sitetsv.h). */
#include "sitetsv.h"

#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "growbuf.h"

void sitetsv_free(struct sitetsv *t)
{
	if (t == NULL)
		return;
	for (size_t i = 0; i < t->n_cols; i++)
		free(t->cols[i]);
	for (size_t i = 0; i < t->n_cols * t->n_rows; i++)
		free(t->cells[i]);
	free(t->cols);
	free(t->cells);
	free(t);
}

/* Splits line (n bytes, no newline) at tabs into out[0..got), each a new string. */
static int split(const char *line, size_t n, char **out, size_t max, size_t *got, struct errbuf *eb)
{
	size_t start = 0, k = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && line[i] != '\t')
			continue;
		if (k == max) {
			*got = k + 1; /* too many: the caller words it */
			return 0;
		}
		out[k] = strndup(line + start, i - start);
		if (out[k] == NULL) {
			*got = k;
			return errbuf_set(eb, "out of memory");
		}
		k++;
		start = i + 1;
	}
	*got = k;
	return 0;
}

static void free_fields(char **f, size_t n)
{
	for (size_t i = 0; i < n && f != NULL; i++)
		free(f[i]);
}

struct sitetsv *sitetsv_parse(const char *text, size_t len, const char *name, struct errbuf *eb)
{
	struct sitetsv *t = calloc(1, sizeof(*t));
	char *row[SITETSV_COLS_MAX];
	size_t cap = 0, lineno = 0, got = 0;
	const char *p = text, *end = text + len;

	if (t == NULL) {
		errbuf_set(eb, "out of memory");
		return NULL;
	}
	if (memchr(text, '\0', len) != NULL) {
		errbuf_set(eb, "%s: a NUL byte: not a text table", name);
		goto fail;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl != NULL ? nl : end) - p);
		const char *line = p;

		p = nl != NULL ? nl + 1 : end;
		lineno++;
		if (n > 0 && line[n - 1] == '\r')
			n--;
		if (n == 0 || line[0] == '#')
			continue;
		if (split(line, n, row, SITETSV_COLS_MAX, &got, eb) != 0) {
			free_fields(row, got);
			errbuf_prefix(eb, "%s:%zu", name, lineno);
			goto fail;
		}
		if (got > SITETSV_COLS_MAX) {
			free_fields(row, SITETSV_COLS_MAX);
			errbuf_set(eb, "%s:%zu: more than %d columns", name, lineno,
				   SITETSV_COLS_MAX);
			goto fail;
		}
		if (t->cols == NULL) {
			for (size_t i = 0; i < got; i++)
				if (row[i][0] == '\0') {
					free_fields(row, got);
					errbuf_set(eb,
						   "%s:%zu: column %zu of the header has no name",
						   name, lineno, i + 1);
					goto fail;
				}
			t->cols = malloc(got * sizeof(*t->cols));
			if (t->cols == NULL) {
				free_fields(row, got);
				errbuf_set(eb, "out of memory");
				goto fail;
			}
			memcpy(t->cols, row, got * sizeof(*row));
			t->n_cols = got;
			continue;
		}
		if (got != t->n_cols) {
			free_fields(row, got);
			errbuf_set(
			    eb,
			    "%s:%zu: expected %zu tab-separated fields (as the header), got %zu",
			    name, lineno, t->n_cols, got);
			goto fail;
		}
		if (t->n_rows == SITETSV_ROWS_MAX) {
			free_fields(row, got);
			errbuf_set(eb, "%s:%zu: more than %d rows", name, lineno, SITETSV_ROWS_MAX);
			goto fail;
		}
		if (growarray(&t->cells, &cap, (t->n_rows + 1) * t->n_cols, sizeof(*t->cells),
			      (size_t)SITETSV_ROWS_MAX * SITETSV_COLS_MAX, eb) != 0) {
			free_fields(row, got);
			goto fail;
		}
		memcpy(t->cells + t->n_rows * t->n_cols, row, got * sizeof(*row));
		t->n_rows++;
	}
	if (t->cols == NULL) {
		errbuf_set(eb, "%s: no header line", name);
		goto fail;
	}
	return t;
fail:
	sitetsv_free(t);
	return NULL;
}

struct sitetsv *sitetsv_load(const char *path, struct errbuf *eb)
{
	char *text = NULL;
	size_t len = 0;
	struct sitetsv *t;

	if (fileio_read(path, SITETSV_FILE_MAX, NULL, &text, &len, eb) != 0)
		return NULL;
	t = sitetsv_parse(text, len, path, eb);
	free(text);
	return t;
}

int sitetsv_col(const struct sitetsv *t, const char *name)
{
	for (size_t i = 0; i < t->n_cols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return (int)i;
	return -1;
}

const char *sitetsv_cell(const struct sitetsv *t, size_t r, int c)
{
	if (c < 0 || (size_t)c >= t->n_cols || r >= t->n_rows)
		return "";
	return t->cells[r * t->n_cols + (size_t)c];
}
