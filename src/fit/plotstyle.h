/* plotstyle: each subject's look in every figure (colour, point, line), its legend name, and when
 * a figure also needs log axes (pure, no I/O). */
/*
 * Design note. One table in plotstyle.c gives each subject id of the shipped manifests
 * (the manifests of experiments/: sudo, sudo-rs, doas, sr-json, sr-cbor, sr-json-4.0.3,
 * sr-cbor-4.0.3) a colour of the Okabe-Ito palette (colour-blind safe), a filled point and a solid
 * line. The key is the subject id (with its format: a known id drawn with another format is not
 * that subject), so the demo's figure, the published ones and a plain hyperfine export of "bin/sudo
 * ..." draw sudo alike. A variant of a subject, the id plus a suffix such as "-pam" (sudo-pam,
 * doas-pam), keeps its subject's colour with the open point and a dashed line. Any other subject
 * gets a look from the pool (every Okabe-Ito colour, open points, solid then dash-dot, dash-dot-dot
 * and dotted lines): the slot its key hashes to, or the next one whose colour and line no other
 * subject of the run has; keys are served in byte order, so a run's looks depend only on the set
 * of subjects, never on the order of the inputs. rarplot assigns the looks once per run, over
 * every subject of its inputs, and passes them to gnuplot with -e (the scripts of plots/).
 */
#ifndef RARPERF_PLOTSTYLE_H
#define RARPERF_PLOTSTYLE_H

#include <stdbool.h>
#include <stddef.h>

/* A figure also gets log-log axes when its steepest fitted slope is more than this many times
 * its shallowest (positive) one: one line then squeezes the others against the x axis. */
#define PLOTSTYLE_LOG_SPAN 10.0

/* gnuplot dash types: 1 solid, 2 dashed (variants), 3 dotted, 4 dash-dot, 5 dash-dot-dot. */
#define PLOTSTYLE_DASH_SOLID 1
#define PLOTSTYLE_DASH_VARIANT 2

/* One look. color is "#RRGGBB", color_name its Okabe-Ito name; point and dash are gnuplot's
 * point type (pt) and dash type (dt). known: from the table (or a variant of a table entry). */
struct plotstyle {
	char color[8];
	const char *color_name;
	int point;
	int dash;
	bool known;
	bool variant;
};

/* A subject x format to style; the strings are borrowed. */
struct plotstyle_entry {
	const char *subject, *format;
	struct plotstyle style;
};

/*
 * Fills the style of each of the n entries (subject and format set by the caller: every series
 * of a run; repeated pairs, e.g. one per host, get the same look). A format "-" (a plain
 * hyperfine export) matches any. The result depends only on the set of pairs, not their order.
 */
void plotstyle_assign(struct plotstyle_entry *entries, size_t n);

/* The style of subject x format among entries, or NULL when plotstyle_assign did not see it. */
const struct plotstyle *plotstyle_find(const struct plotstyle_entry *entries, size_t n,
				       const char *subject, const char *format);

/* "filled circle", "open square", ... for a point type; "point N" for others. */
const char *plotstyle_point_name(int point);

/* "solid", "dashed", "dotted", "dash-dot", "dash-dot-dot"; "dash N" for others. */
const char *plotstyle_dash_name(int dash);

/*
 * A series' legend name into buf (size bytes, truncated, NUL-terminated): with its tool known
 * (results_tool: "RootAsRole 3.3.4") the tool and the policy format when the tool has several
 * ("RootAsRole 3.3.4 JSON", "sudo 1.9.13p3"), then the tool's authentication when it says it
 * ("RootAsRole 4.0.3 CBOR, PAM": what follows ", " in tool) and a swept limit's value when the
 * subject has one ("... (nofile 65536)"); else "subject/format", or the subject alone for a
 * plain hyperfine export (format "-"). tool may be NULL.
 */
void plotstyle_legend_name(const char *subject, const char *format, const char *tool, char *buf,
			   size_t size);

/*
 * How far apart the n slopes are: the largest positive slope over the smallest positive one,
 * their indices in *steep and *shallow (may be NULL). NaN when fewer than two are positive (a
 * flat or falling line has no span to squeeze). Compare with PLOTSTYLE_LOG_SPAN.
 */
double plotstyle_slope_span(const double *slopes, size_t n, size_t *steep, size_t *shallow);

#endif
