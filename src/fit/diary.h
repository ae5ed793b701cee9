/* diary: each quantitative sentence of a project's own performance diary, matched to the release
 * pair whose measured ratio it describes best, or to none (rarplot --history --diary). */
#ifndef RARPERF_DIARY_H
#define RARPERF_DIARY_H

#include <stdbool.h>
#include <stddef.h>

#include "claims.h"
#include "errbuf.h"
#include "fit.h"

/*
 * A diary file is read as a claims file is (claims_read_lines), one sentence a line:
 *
 *   ID  KIND  QUANTITY  STATED  STORAGE  SOURCE
 *
 * KIND is change (between two builds of RootAsRole), versus-sudo (one build against the anchor)
 * or crossover (the size where a build's line meets the anchor's); QUANTITY raw_pct, slope_pct
 * (as in claims.h: 100 (x - base) / |base| of the intercepts or slopes; "X % better" is -X) or,
 * for crossover only, crossover; STATED a finite number. STORAGE says which builds are
 * candidates: json or cbor (that storage's releases), any (both); for a change also release (an
 * older release to a newer one of the same storage, either storage) and storage (one release's
 * JSON build to its CBOR build); any, for a change, is release and storage together. SOURCE is
 * the sentence's words (data, shown only through sanitize). Errors name FILE:LINE.
 */
#define DIARY_MAX 64
#define DIARY_FILE_MAX (256 * 1024)

enum diary_kind { DIARY_CHANGE, DIARY_VERSUS, DIARY_CROSSOVER };
enum diary_storage { DIARY_ANY, DIARY_JSON, DIARY_CBOR, DIARY_RELEASE, DIARY_SWITCH };

struct diary_entry {
	char *id, *source;
	enum diary_kind kind;
	enum claims_quantity quantity;
	enum diary_storage storage;
	double stated;
};

struct diary {
	struct diary_entry *items;
	size_t n;
};

struct diary *diary_parse(const char *text, size_t len, const char *name, struct errbuf *eb);
void diary_free(struct diary *d);
const char *diary_kind_name(enum diary_kind k);
const char *diary_storage_name(enum diary_storage s);

/*
 * One build of one release, fitted: storage "json" or "cbor" (any other is never a candidate),
 * ver its three numbers (the order of releases), line the fitted line with intercept and slope
 * in one unit of time (ms) per run and per unit of the axis; fits.tsv carries no covariance of
 * intercept and slope, so line.cov is 0 there.
 */
struct diary_build {
	const char *name; /* the line's, for reports: "sr-cbor" */
	const char *storage, *version;
	unsigned ver[3];
	struct fit_line line;
};

/*
 * The best candidate for one sentence. A candidate is a pair (from -> to) of builds, or a build
 * against the anchor (from NULL); its measured value is fit_compare(to, from or anchor)'s, with
 * its 95 % interval [lo, hi]. It matches when the stated value lies in that interval. Its score
 * is the distance from the stated value to the interval's far end, |measured - stated| +
 * (hi - lo) / 2, in the quantity's unit. The best candidate is a matching one if any matches,
 * and of those the one with the smallest score; of equal scores the narrower interval, then the
 * first in candidate order (builds in the order given, each from before its to). A candidate
 * whose value or interval is not finite (a base of 0, parallel lines) is no candidate.
 */
struct diary_match {
	const struct diary_entry *entry;
	const struct diary_build *from, *to; /* to NULL: no candidate at all */
	struct fit_estimate measured;
	double score; /* |measured - stated| + half the interval */
	bool matches; /* stated in [measured.lo, measured.hi] */
	size_t n_candidates, n_matching;
};

/*
 * Matches e against builds (n of them, each storage's in version order) and anchor (NULL: no
 * versus-sudo nor crossover candidate). Pure.
 */
void diary_match(const struct diary_entry *e, const struct diary_build *builds, size_t n,
		 const struct fit_line *anchor, struct diary_match *out);

#endif
