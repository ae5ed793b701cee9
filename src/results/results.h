/* results: the results model, and hyperfine-format JSON read into it (plain hyperfine, rarbench
 * results.json, rarlab merged.json). */
/*
 * Layer src/results (libresults.a): reading the results file. It reads files (fileio_read) and
 * writes none; it uses src/common only (Makefile results_USES); src/fit computes over the model,
 * src/fitio and the programs read through it. The model (results.c) calls none of its readers:
 * results_load.c reads a file and calls each part's reader, and each part fills the model, so
 * every dependency points down to results.c (tools/lint-cycles.sh keeps it so).
 *
 * Modules, one line each:
 *   results     the model: the points, what they name, queries, freed (this header)
 *   results_load a file (or a buffer) read: the document, then each part below
 *   results_entry one result: times, intervals, parameters, rarbench's estimate and counts
 *   results_meta what "meta" says beside the points: tools, emulated hosts, estimator, skipped
 *   results_reference the calibration workload's points, and times in its units
 *   results_rounds each round's estimates (rarbench.round_estimates)
 *   results_machine each file's machine, and which files are one host (--machines)
 *   labgroups   a mixed lab's groups of hosts (meta.lab), kept as the text reports print
 *   profileload the results' "profile" objects, handed to a sink (src/fit's profilefit_sink)
 */
#ifndef RARPERF_RESULTS_H
#define RARPERF_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"
#include "resultsfile.h"

/* Hard caps on what one input can make us hold. */
#define RESULTS_FILE_MAX_BYTES RESULTSFILE_MAX_BYTES
#define RESULTS_MAX_POINTS 1000000u
#define RESULTS_MAX_PARAMS 64u
#define RESULTS_MAX_STRING 4096u

/* One parameter of a result, as hyperfine writes them: both strings. */
struct results_param {
	char *key;
	char *value;
};

/*
 * One benchmark (one entry of hyperfine's results array). Times are in seconds
 * as in the file. subject comes from parameters.subject, or else from the
 * basename of the command's first word ("bin/sudo /usr/bin/true" -> "sudo");
 * format and host come from the parameters of those names, or are "-".
 * stddev_s is NaN when the file has null (a single run). q1_s and q3_s are
 * the quartiles of "times" (linear interpolation between order statistics),
 * NaN when the file has no times.
 *
 * The 95 % intervals of the point's statistics: the median's from the order
 * statistics of "times" (distribution-free; NaN with fewer than 6 times),
 * the mean's from Student's t over stddev and the runs (NaN for one run).
 * estimate_s and its interval come from rarbench's per-result "rarbench"
 * object ("estimate", "ci95", "estimator"); NaN and estimator "" in files
 * without it (hyperfine's own, rarbench's before 0.2).
 */
#define RESULTS_ESTIMATOR_MAX 16

/*
 * One round of a point (rarbench manifest mode's rarbench.round_estimates):
 * the round of the step and the estimate over that round's runs alone, NaN
 * when it fell back. The subjects of one point measured in the same round ran
 * in the same step, interleaved: the pairs a comparison is made of.
 */
#define RESULTS_MAX_ROUNDS 4096u
struct results_round {
	unsigned round;
	double estimate_s;
};

struct results_point {
	char *command;
	char *subject;
	char *format;
	char *host;
	struct results_param *params;
	size_t n_params;
	double mean_s, stddev_s, median_s, min_s, max_s;
	double q1_s, q3_s;
	double median_lo_s, median_hi_s, mean_lo_s, mean_hi_s;
	double estimate_s, estimate_lo_s, estimate_hi_s;
	char estimator[RESULTS_ESTIMATOR_MAX];
	struct results_round *rounds; /* NULL when the file has none (results_rounds.c) */
	bool contended;               /* rarbench.contended: most of the point's runs waited */
	double contended_share;       /* rarbench.contended_runs / runs; NaN when not said */
	bool counted;                 /* the counted pass gave the point's instructions */
	double instructions;          /* counts.instructions (with counted) */
	double count_spread; /* counts.repeats.spread: a varying count's (max-min)/median; 0 */
	/* rarbench.daemon: a daemon the runs asked (pkexec's polkitd), its CPU time per run and its
	 * peak resident size; daemon_name "" and NaN when the point has none. */
	char daemon_name[RESULTS_ESTIMATOR_MAX];
	double daemon_cpu_s, daemon_maxrss_kib;
	size_t n_rounds;
	size_t n_runs; /* length of "times", or 1 when absent */
	/* A reference point's runs judged against its floor (results_reference.c,
	 * interference.h): slow, and slow without their CPU stall; whether every run said its
	 * stall (cpu_stall_ns); rarbench.steal (NaN when not said). 0 for a subject's point. */
	size_t ref_slow, ref_unseen;
	bool ref_stall_known;
	double ref_steal;
	double ref_load1;  /* rarbench.load1 at the point (NaN when not said) */
	unsigned ref_cpus; /* the file's meta.host.cpus (0 when not said) */
	size_t source;     /* index of the file it came from, in load order */
	size_t index;      /* its index in that file's results array */
};

/*
 * What a subject measured, read from a rarbench results.json's meta (the
 * manifest's subject, the prefix's facts.json entry of its program) or from
 * each host's meta in a rarlab merged.json: "RootAsRole 3.3.4", "sudo 1.9.13p3".
 */
#define RESULTS_TOOL_MAX 96
#define RESULTS_TOOLS_MAX 64
struct results_tool {
	char subject[RESULTS_TOOL_MAX];
	char tool[RESULTS_TOOL_MAX]; /* "RootAsRole 3.3.4" */
};

/*
 * How rarbench measured the points, from each file's meta ("measure":
 * "estimator", and "contended": correct, drop or keep, or the older
 * "drop_contended": true as drop, false as keep; in a rarlab merged.json the
 * meta of each host), the estimator else from the results' own "rarbench"
 * objects: the name when every file (and host) says the same,
 * RESULTS_MIXED when they differ, RESULTS_UNKNOWN when a file does not say
 * or says something that is not a short name.
 */
#define RESULTS_METHOD_MAX 16
#define RESULTS_UNKNOWN "unknown"
#define RESULTS_MIXED "mixed"

/*
 * The hosts whose facts say they ran emulated ("virtualisation": "tcg" in a
 * meta's prefix_facts: a lab VM without KVM, roles/rarperf_labvm): "a, b",
 * the host's name in a rarlab merged.json, the file's name for a rarbench
 * results.json; ", ..." ends a list that does not fit. Their times are
 * comparable with nothing else.
 */
#define RESULTS_EMULATED_MAX 512

/*
 * A subject a rarbench run skipped (its meta's "skipped_subjects": a program
 * the prefix lacks, an optional subject) and why, as the file says it (bytes
 * of a file: sanitise before printing); source: the file it came from. The
 * same id and reason from several files (or hosts) are kept once.
 */
#define RESULTS_SKIPPED_MAX 64u
struct results_skipped {
	char id[RESULTS_TOOL_MAX];
	char reason[512];
	size_t source;
	/* The entry has "refusal": the subject refused its policy from some size on (a limit, a
	 * parse error, a crash) and was measured below it only; reason says which
	 * size and why. */
	bool refused;
	/* With refused: the smallest point refused, by axis (refusal.at: nb_roles, nb_users,
	 * nb_tasks, nb_commands, nb_files, in RESULTS_REFUSAL_AXES's order); NAN where the file
	 * lacks it (nb_files: a sweep without that axis). */
	double refused_at[5];
};

/* The axes of a refusal's point, in results_skipped.refused_at's order. */
#define RESULTS_REFUSAL_AXES                                                                       \
	{                                                                                          \
		"nb_roles", "nb_users", "nb_tasks", "nb_commands", "nb_files"                      \
	}

/*
 * The machine behind one file (or one host of a rarlab merged.json), from its meta's "machine"
 * (rarbench 0.2.x on: man/rarbench.1, doc/interfaces.md): the machine id and boot id, each
 * hashed (never the raw ids); "" in a file from before the key (machine unknown). design: what
 * the file measured, the manifest's name, axes and command as compact JSON ("" without a
 * manifest): files of different designs are never combined. label: the host the file's points
 * are assigned to (results_machines_assign), "-" until then.
 */
#define RESULTS_MACHINE_HASH_MAX 33
#define RESULTS_DESIGN_MAX 1024
#define RESULTS_MACHINES_MAX 4096u
struct results_machine {
	size_t source;
	char host[RESULTS_TOOL_MAX]; /* the lab host's name in a merged.json, "-" for a results.json
				      */
	char machine[RESULTS_MACHINE_HASH_MAX];
	char boot[RESULTS_MACHINE_HASH_MAX];
	char cpu[RESULTS_TOOL_MAX * 2]; /* "AMD EPYC, family 25 model 1 stepping 1, ucode 0x..." */
	char kernel[RESULTS_TOOL_MAX * 2]; /* release and build */
	char design[RESULTS_DESIGN_MAX];
	char label[RESULTS_TOOL_MAX];
};

/* How files without a machine identity combine (rarplot --machines). */
enum results_machines_mode {
	RESULTS_MACHINES_AUTO,     /* by identity; unknown files that overlap: an error */
	RESULTS_MACHINES_DISTINCT, /* each file without an identity, or sharing an id across boots
				    * with the same CPU and kernel, is a machine of its own */
	RESULTS_MACHINES_SAME,     /* every file comes from one machine: repetitions */
};

struct results {
	struct results_point *points;
	size_t n_points;
	size_t cap_points;
	char **sources; /* file names, owned */
	size_t n_sources, cap_sources;
	struct results_tool *tools; /* what each subject is, when the files say it */
	size_t n_tools, cap_tools;
	char estimator[RESULTS_METHOD_MAX]; /* "median", "trimmed", ...; "" before any file */
	char contended[RESULTS_METHOD_MAX]; /* "correct", "drop", "keep"; "" before any file */
	/* What judged a run contended (meta.environment.contention_source: "schedstat", "psi",
	 * "off-cpu"; a file without it: "off-cpu", the only judge before the key), folded like
	 * the estimator; "" before any file. */
	char contention_source[RESULTS_METHOD_MAX];
	/* How the sweeps found their programs in the page cache (meta.measure.page_cache.method:
	 * "evict", or "as_found" for a rarbench file from before the key), folded like the
	 * estimator; "" when no file says (hyperfine's own). */
	char page_cache[RESULTS_METHOD_MAX];
	char *lab_md; /* a mixed lab's groups as Markdown rows (labgroups_read), owned; or NULL */
	char emulated[RESULTS_EMULATED_MAX]; /* hosts that ran under TCG; "" when none */
	size_t n_emulated;
	struct results_skipped *skipped; /* results_meta.c; owned */
	size_t n_skipped, cap_skipped;
	/* The calibration workload's points (rarbench's top-level "reference":
	 * results_reference.c), each with its source; subject "@reference". Not among points. */
	struct results_point *refs;
	size_t n_refs, cap_refs;
	struct results_machine *machines; /* results_machine.c: one per file, or per lab host */
	size_t n_machines, cap_machines;
};

/* An empty set; NULL when out of memory. Free with results_free. */
struct results *results_new(void);

/* Frees everything; NULL is a no-op. */
void results_free(struct results *res);

/*
 * The size on axis ("nb_tasks", ...) of the smallest point subject refused (its results stop
 * below it: the figure ends its line there with a mark), or NAN when res records no refusal
 * of subject or none on that axis.
 */
double results_refused_at(const struct results *res, const char *subject, const char *axis);

/*
 * results_load.c. Parses len bytes of JSON (need not be NUL-terminated) named name (for
 * messages) and appends its points to res. The document must be an object
 * with a results array (resultsfile_require_results); unknown keys ("user",
 * "exit_codes", ...) are ignored. Strings that become names, TSV fields and messages (the
 * parameters, a subject taken from the command) must be text: one that
 * holds a control character, a bidi control or invalid UTF-8
 * (sanitize_unsafe_at) is an error. On error returns -1 with
 * "name: results[i].field: what" in eb and leaves res with no point of this
 * document.
 */
int results_parse(struct results *res, const char *buf, size_t len, const char *name,
		  struct errbuf *eb);

/*
 * results_load.c. Reads the file at path (at most RESULTS_FILE_MAX_BYTES) and parses it
 * with results_parse. Returns 0 or -1 with a message naming the file.
 */
int results_load_file(struct results *res, const char *path, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* "RootAsRole 3.3.4" for subject, or NULL when no file said what it is. */
const char *results_tool(const struct results *res, const char *subject);

/*
 * Whether the files say subjects a and b are different tools: both tools known (results_tool)
 * and of different families, the tool's first word ("sudo-rs" against "sudo"). One tool's
 * builds are one family: dosr-* (another version, a dev build) is RootAsRole, sudo-pam is sudo,
 * doas-pam is OpenDoas. False when either is unknown: nothing says they differ.
 */
bool results_different_tools(const struct results *res, const char *a, const char *b);

/* Whether some result of res has subject subject (or a swept limit's series of it). */
bool results_has_subject(const struct results *res, const char *subject);

/*
 * The distinct subjects of res in order of first appearance, "a, b, c", in
 * buf (size bytes, NUL-terminated); ", ..." ends a list that does not fit.
 */
void results_subjects(const struct results *res, char *buf, size_t size);

/*
 * results_rounds.c. Reads the optional "round_estimates" array of the
 * "rarbench" object rb into p->rounds (absent: none). Each entry an object
 * with "round" (an integer >= 1, distinct) and "estimate" (seconds >= 0, or
 * null). Also reads the optional boolean "contended" into p->contended. Returns 0, or -1 with
 * "rarbench.round_estimates[i]...: what" in eb.
 */
int results_rounds_parse(const void *rb, struct results_point *p, struct errbuf *eb);

/*
 * results_reference.c. Reads the optional top-level reference object of
 * root (a cJSON object; rarbench's calibration, resultsfile.h: its results
 * each as hyperfine's) into res->refs with source
 * source. Returns 0, or -1 with "reference.results[i]...: what" in eb (no
 * reference point of this document kept).
 */
int results_reference_parse(struct results *res, const void *root, size_t source,
			    struct errbuf *eb);

/*
 * Expresses every time of res in reference units (results_reference.c): each
 * point's times are divided by the reference's estimate (its median when it
 * has none) at the same point of the same file (same host and nb_*
 * parameters), then by 1000, so that a column "in ms" holds reference runs
 * and one "in µs", thousandths of one; each round's estimate by the
 * reference's in that round (the pair measured in the same step) when known.
 * A point without its reference is dropped; *dropped counts them. Returns
 * the number of reference points (0: res unchanged), or -1 (out of memory).
 */
long results_normalise(struct results *res, size_t *dropped, struct errbuf *eb);

/*
 * results_meta.c. Reads the "meta" of root (a cJSON object; one per host in
 * a rarlab merged.json) into res: the subjects' tools, the emulated hosts
 * (name is the file's), the subjects skipped (from file source), and the
 * estimator of the points from first on.
 * Nothing there is required: what is unreadable is left out.
 */
void results_meta_read(struct results *res, const void *root, const char *name, size_t source,
		       size_t first);

/*
 * results_machine.c. Reads the machine of root's meta (one per host in a merged.json) into
 * res->machines for file source. Nothing there is required. Returns 0, or -1 out of memory.
 */
int results_machine_read(struct results *res, const void *root, size_t source);

/*
 * results_machine.c. Decides which files are one host: files from different machines are
 * different hosts (their points' host, "-" in a rarbench results.json, becomes the host's
 * label: the part of the file's path that tells it from the others), files from one machine
 * are repetitions, fitted together as one host (the label stays "-" when all are one: as before,
 * whatever their manifests). Several hosts are combined only when they measured one design
 * (manifest name, axes, command, match) and every file has the baseline subject. Files without an
 * identity follow mode; in RESULTS_MACHINES_AUTO two of them that measured a subject alike are an
 * error asking for --machines. Returns 0, or -1 with one line naming the files and what
 * differs (bad input).
 */
int results_machines_assign(struct results *res, enum results_machines_mode mode,
			    const char *baseline, struct errbuf *eb)
    __attribute__((warn_unused_result));

/* The machine record of host label (or of a lab host's name), or NULL. */
const struct results_machine *results_machine_of(const struct results *res, const char *host);

/* results_entry.c, for its sibling files: one entry of a results array into p (zeroed first by
 * the caller; cleared with results_point_clear on error too). 0, or -1 with "field: what" in eb. */
int results_entry_parse(const void *entry, struct results_point *p, struct errbuf *eb);
void results_point_clear(struct results_point *p);

/* The value of parameter key of p, or NULL when p has none. */
const char *results_point_param(const struct results_point *p, const char *key);

#endif
