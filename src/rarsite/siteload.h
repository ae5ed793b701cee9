/* siteload: what doc/results/ holds: its run folders, each one's experiments and their files,
 * and each results.json's meta (read with cJSON through jsonget). */
#ifndef RARPERF_SITELOAD_H
#define RARPERF_SITELOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "errbuf.h"

#define SITELOAD_PATH_MAX 4096
#define SITELOAD_RESULTS_MAX (256u * 1024 * 1024) /* a results.json read for its meta */
#define SITELOAD_MAX_RUNS 256
#define SITELOAD_MAX_EXPS 256

/* What a results.json's "meta" says about the sweep and its machine; NULL where it is silent. */
struct siteload_meta {
	char *name, *description, *started, *finished, *commit;
	char *hostname, *kernel, *cpu_model, *cpu_vendor, *cpu_family, *cpu_model_no;
	char *virtualization, *manifest_path, *manifest_text;
	double cpus, mem_bytes; /* NAN when absent */
};

/* One experiment: a folder of a run holding results.json, fits.tsv, report.md or
 * comparison.md. */
struct siteload_exp {
	char *name; /* the folder's name (plain: checked) */
	char *dir;  /* its path */
	bool has_results, has_fits, has_report;
	struct siteload_meta meta; /* from results.json, when has_results */
};

/* One run folder of doc/results/ (a date, a machine): its README and its experiments. */
struct siteload_run {
	char *name, *dir;
	bool has_readme, has_machine_txt;
	struct siteload_exp *exps;
	size_t n_exps;
};

struct siteload {
	char *dir; /* doc/results */
	struct siteload_run *runs;
	size_t n_runs;
};

/*
 * Reads the folder dir: every sub-folder with a plain name is a run (in name order), every
 * sub-folder of a run holding one of the files above an experiment (in name order); each
 * results.json's meta is read. A results.json that is not JSON, or whose meta has a value of
 * the wrong type, is an error naming the file and the key. Returns 0 and *out (free with
 * siteload_free), or -1 with eb.
 */
int siteload_scan(const char *dir, struct siteload **out, struct errbuf *eb)
    __attribute__((warn_unused_result));
void siteload_free(struct siteload *s);

/*
 * Fills m from the text of a results file (len bytes; name for errors): meta.name,
 * description, started, finished, rarperf.commit, host.{hostname, kernel, cpu_model, cpus,
 * mem_bytes, virtualization}, machine.cpu.{vendor, family, model}, manifest_path,
 * manifest_text. 0, or -1 with eb (m then cleared). Free with siteload_meta_clear.
 */
int siteload_meta_parse(const char *text, size_t len, const char *name, struct siteload_meta *m,
			struct errbuf *eb);
void siteload_meta_clear(struct siteload_meta *m);

/* The run named name, or NULL. */
const struct siteload_run *siteload_find(const struct siteload *s, const char *name);

/* The first experiment of run with a results file's meta, or NULL: the run's machine. */
const struct siteload_meta *siteload_machine(const struct siteload_run *run);

#endif
