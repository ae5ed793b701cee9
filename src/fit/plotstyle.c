/* plotstyle: each subject's look in every figure (colour, point, line), its legend name, and when
 * a figure also needs log axes (pure, no I/O). */
#include "plotstyle.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "policy_format.h"

/* The Okabe-Ito palette (Okabe and Ito 2008, "Color Universal Design"), in its usual order. */
enum {
	OI_BLACK,
	OI_ORANGE,
	OI_SKY_BLUE,
	OI_GREEN,
	OI_YELLOW,
	OI_BLUE,
	OI_VERMILLION,
	OI_PURPLE,
};
static const struct {
	const char *hex, *name;
} plotstyle_palette[] = {
    {"#000000", "black"},        {"#E69F00", "orange"},         {"#56B4E9", "sky blue"},
    {"#009E73", "bluish green"}, {"#F0E442", "yellow"},         {"#0072B2", "blue"},
    {"#D55E00", "vermillion"},   {"#CC79A7", "reddish purple"},
};

/*
 * The subjects of the shipped manifests, each with its policy format: one colour each (sudo
 * black as the usual baseline; RootAsRole's JSON storage in the warm colours, its CBOR in the
 * blues), a filled point, and the open point its variants draw.
 */
static const struct {
	const char *subject;
	enum policy_format format;
	int color, point, open_point;
} plotstyle_known[] = {
    {"sudo", POLICY_FORMAT_SUDOERS, OI_BLACK, 7, 6},
    {"sudo-rs", POLICY_FORMAT_SUDOERS, OI_ORANGE, 5, 4},
    {"doas", POLICY_FORMAT_DOAS, OI_GREEN, 9, 8},
    {"sr-json", POLICY_FORMAT_RAR_JSON, OI_VERMILLION, 11, 10},
    {"sr-cbor", POLICY_FORMAT_RAR_CBOR, OI_BLUE, 13, 12},
    {"sr-json-4.0.3", POLICY_FORMAT_RAR_JSON, OI_PURPLE, 15, 14},
    {"sr-cbor-4.0.3", POLICY_FORMAT_RAR_CBOR, OI_SKY_BLUE, 3, 2},
    /* The last colour of the palette; a point no other subject of the table draws. */
    {"please", POLICY_FORMAT_PLEASE, OI_YELLOW, 1, 2},
};

/* A subject id with one of these suffixes is a variant of the subject without it. */
static const char *const plotstyle_variant_suffixes[] = {"-pam"};

/*
 * The pool for every other subject: slot c * PLOTSTYLE_POOL_WIDTH + k is colour k of
 * plotstyle_pool_colors (yellow first, the colour of please, the table's last), open point k, and
 * line plotstyle_pool_dashes[c] (solid first; dashed is kept for variants).
 */
#define PLOTSTYLE_POOL_WIDTH 8
#define PLOTSTYLE_POOL_CYCLES 4
static const int plotstyle_pool_colors[PLOTSTYLE_POOL_WIDTH] = {
    OI_YELLOW, OI_BLACK, OI_ORANGE, OI_SKY_BLUE, OI_GREEN, OI_BLUE, OI_VERMILLION, OI_PURPLE};
static const int plotstyle_pool_points[PLOTSTYLE_POOL_WIDTH] = {6, 4, 8, 10, 12, 14, 1, 2};
static const int plotstyle_pool_dashes[PLOTSTYLE_POOL_CYCLES] = {1, 4, 5, 3};

/* The length of subject's id without its variant suffix, and whether it had one. */
static size_t plotstyle_base_len(const char *subject, bool *variant)
{
	size_t len = strlen(subject), i;

	for (i = 0; i < sizeof(plotstyle_variant_suffixes) / sizeof(plotstyle_variant_suffixes[0]);
	     i++) {
		size_t n = strlen(plotstyle_variant_suffixes[i]);

		if (len > n && strcmp(subject + len - n, plotstyle_variant_suffixes[i]) == 0) {
			*variant = true;
			return len - n;
		}
	}
	*variant = false;
	return len;
}

static void plotstyle_set(struct plotstyle *st, int color, int point, int dash, bool known,
			  bool variant)
{
	snprintf(st->color, sizeof(st->color), "%s", plotstyle_palette[color].hex);
	st->color_name = plotstyle_palette[color].name;
	st->point = point;
	st->dash = dash;
	st->known = known;
	st->variant = variant;
}

/* The table row of the base id (its first base_len bytes) in format, or -1. */
static int plotstyle_known_row(const char *subject, size_t base_len, const char *format)
{
	size_t i;

	for (i = 0; i < sizeof(plotstyle_known) / sizeof(plotstyle_known[0]); i++)
		if (strlen(plotstyle_known[i].subject) == base_len &&
		    strncmp(subject, plotstyle_known[i].subject, base_len) == 0 &&
		    (strcmp(format, policy_format_name(plotstyle_known[i].format)) == 0 ||
		     strcmp(format, "-") == 0))
			return (int)i;
	return -1;
}

/* Orders two (base id, format) keys: the base ids' bytes, then the formats'. */
static int plotstyle_key_cmp(const struct plotstyle_entry *a, size_t alen,
			     const struct plotstyle_entry *b, size_t blen)
{
	int c = strncmp(a->subject, b->subject, alen < blen ? alen : blen);

	if (c != 0)
		return c;
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return strcmp(a->format, b->format);
}

/* FNV-1a over the base id, a tab and the format. */
static uint32_t plotstyle_hash(const char *subject, size_t base_len, const char *format)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < base_len; i++)
		h = (h ^ (unsigned char)subject[i]) * 16777619u;
	h = (h ^ '\t') * 16777619u;
	for (; *format != '\0'; format++)
		h = (h ^ (unsigned char)*format) * 16777619u;
	return h;
}

/* Whether some entry already has this colour with this line. */
static bool plotstyle_used(const struct plotstyle_entry *entries, size_t n, int color, int dash)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (entries[i].style.color[0] != '\0' && entries[i].style.dash == dash &&
		    strcmp(entries[i].style.color, plotstyle_palette[color].hex) == 0)
			return true;
	return false;
}

/* Gives the pool slot of one unknown base key (entry k's) to every entry with that key. */
static void plotstyle_assign_pool(struct plotstyle_entry *entries, size_t n, size_t k)
{
	bool variant, plain = false, variants = false;
	size_t klen = plotstyle_base_len(entries[k].subject, &variant), i, len;
	uint32_t h = plotstyle_hash(entries[k].subject, klen, entries[k].format);
	size_t first = h % PLOTSTYLE_POOL_WIDTH, slot = first, c, j;
	bool found = false;

	for (i = 0; i < n; i++) {
		len = plotstyle_base_len(entries[i].subject, &variant);
		if (entries[i].style.color[0] == '\0' &&
		    plotstyle_key_cmp(&entries[i], len, &entries[k], klen) == 0) {
			plain |= !variant;
			variants |= variant;
		}
	}
	/* The hashed colour, else the next free one, on solid lines first, then the other dashes.
	 */
	for (c = 0; c < PLOTSTYLE_POOL_CYCLES && !found; c++)
		for (j = 0; j < PLOTSTYLE_POOL_WIDTH && !found; j++) {
			int color = plotstyle_pool_colors[(first + j) % PLOTSTYLE_POOL_WIDTH];

			if ((plain &&
			     plotstyle_used(entries, n, color, plotstyle_pool_dashes[c])) ||
			    (variants && plotstyle_used(entries, n, color, PLOTSTYLE_DASH_VARIANT)))
				continue;
			slot = c * PLOTSTYLE_POOL_WIDTH + (first + j) % PLOTSTYLE_POOL_WIDTH;
			found = true;
		}
	/* Every slot taken (more than 32 other subjects): looks repeat, from the hashed slot. */
	for (i = 0; i < n; i++) {
		len = plotstyle_base_len(entries[i].subject, &variant);
		if (entries[i].style.color[0] != '\0' ||
		    plotstyle_key_cmp(&entries[i], len, &entries[k], klen) != 0)
			continue;
		plotstyle_set(&entries[i].style, plotstyle_pool_colors[slot % PLOTSTYLE_POOL_WIDTH],
			      plotstyle_pool_points[slot % PLOTSTYLE_POOL_WIDTH],
			      variant ? PLOTSTYLE_DASH_VARIANT
				      : plotstyle_pool_dashes[slot / PLOTSTYLE_POOL_WIDTH],
			      false, variant);
	}
}

void plotstyle_assign(struct plotstyle_entry *entries, size_t n)
{
	size_t i, k, len, klen;
	bool variant;
	int row;

	for (i = 0; i < n; i++) {
		memset(&entries[i].style, 0, sizeof(entries[i].style));
		len = plotstyle_base_len(entries[i].subject, &variant);
		row = plotstyle_known_row(entries[i].subject, len, entries[i].format);
		if (row >= 0)
			plotstyle_set(
			    &entries[i].style, plotstyle_known[row].color,
			    variant ? plotstyle_known[row].open_point : plotstyle_known[row].point,
			    variant ? PLOTSTYLE_DASH_VARIANT : PLOTSTYLE_DASH_SOLID, true, variant);
	}
	/* The others, smallest key first, so that the looks do not depend on the inputs' order. */
	for (;;) {
		bool any = false;

		k = 0;
		klen = 0;
		for (i = 0; i < n; i++) {
			if (entries[i].style.color[0] != '\0')
				continue;
			len = plotstyle_base_len(entries[i].subject, &variant);
			if (!any || plotstyle_key_cmp(&entries[i], len, &entries[k], klen) < 0) {
				k = i;
				klen = len;
			}
			any = true;
		}
		if (!any)
			return;
		plotstyle_assign_pool(entries, n, k);
	}
}

const struct plotstyle *plotstyle_find(const struct plotstyle_entry *entries, size_t n,
				       const char *subject, const char *format)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(entries[i].subject, subject) == 0 &&
		    strcmp(entries[i].format, format) == 0)
			return &entries[i].style;
	return NULL;
}

const char *plotstyle_point_name(int point)
{
	static const char *const names[] = {
	    "plus",
	    "cross",
	    "asterisk",
	    "open square",
	    "filled square",
	    "open circle",
	    "filled circle",
	    "open triangle",
	    "filled triangle",
	    "open inverted triangle",
	    "filled inverted triangle",
	    "open diamond",
	    "filled diamond",
	    "open pentagon",
	    "filled pentagon",
	};

	if (point >= 1 && (size_t)point <= sizeof(names) / sizeof(names[0]))
		return names[point - 1];
	return "other point";
}

const char *plotstyle_dash_name(int dash)
{
	static const char *const names[] = {"solid", "dashed", "dotted", "dash-dot",
					    "dash-dot-dot"};

	if (dash >= 1 && (size_t)dash <= sizeof(names) / sizeof(names[0]))
		return names[dash - 1];
	return "other line";
}

/*
 * The words a legend adds after the tool for format: RootAsRole's storage in capitals (" JSON",
 * " CBOR"); nothing for the tools with one policy format (sudoers, doas.conf) or for "-"; an
 * unknown format as given. Points into buf (size bytes) or a constant.
 */
static const char *plotstyle_format_shown(const char *format, char *buf, size_t size)
{
	enum policy_format f;
	const char *storage;
	size_t i;

	if (strcmp(format, "-") == 0)
		return "";
	if (policy_format_parse(format, &f) != 0) {
		snprintf(buf, size, " %s", format);
		return buf;
	}
	storage = policy_format_rar_storage(f);
	if (storage == NULL)
		return "";
	buf[0] = ' ';
	for (i = 0; storage[i] != '\0' && i + 2 < size; i++)
		buf[i + 1] = (char)toupper((unsigned char)storage[i]);
	buf[i + 1] = '\0';
	return buf;
}

void plotstyle_legend_name(const char *subject, const char *format, const char *tool, char *buf,
			   size_t size)
{
	if (tool == NULL) {
		if (strcmp(format, "-") == 0)
			snprintf(buf, size, "%s", subject);
		else
			snprintf(buf, size, "%s/%s", subject, format); /* lint: not a path */
		return;
	}
	const char *auth = strstr(tool, ", ");
	const char *series = strstr(subject, " (");
	int base = auth != NULL ? (int)(auth - tool) : (int)strlen(tool);
	char fmt_buf[40];
	const char *fmt = plotstyle_format_shown(format, fmt_buf, sizeof(fmt_buf));

	/* "RootAsRole 4.0.3" ", PAM" -> "RootAsRole 4.0.3 CBOR, PAM"; a series of a swept limit
	 * keeps its " (nofile 65536)". */
	snprintf(buf, size, "%.*s%s%s%s", base, tool, fmt, auth != NULL ? auth : "",
		 series != NULL ? series : "");
}

double plotstyle_slope_span(const double *slopes, size_t n, size_t *steep, size_t *shallow)
{
	size_t i, hi = 0, lo = 0, positive = 0;

	for (i = 0; i < n; i++) {
		if (!(slopes[i] > 0) || !isfinite(slopes[i]))
			continue;
		if (positive == 0 || slopes[i] > slopes[hi])
			hi = i;
		if (positive == 0 || slopes[i] < slopes[lo])
			lo = i;
		positive++;
	}
	if (positive < 2)
		return NAN;
	if (steep != NULL)
		*steep = hi;
	if (shallow != NULL)
		*shallow = lo;
	return slopes[hi] / slopes[lo];
}
