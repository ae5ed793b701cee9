/*
 * runner_refcount: rarref counted beside the subjects' counts (runner_refcount.h). rarref is
 * static and reads nothing, so its count is a property of its bytes: two runs (0 and N units)
 * give its work per unit without its start. The bench user runs it, as in the timed steps; no
 * identity is borrowed, so valgrind writes into the bench user's own directory.
 */
#include "runner_refcount.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include "atomicfile.h"
#include "countrun.h"
#include "fileio.h"
#include "jsonget.h"
#include "runner_counts.h"

#define REFCOUNT_FILE_MAX_BYTES (64u << 10)
/* rarref's run is milliseconds natively; under callgrind, at most a few seconds. */
#define REFCOUNT_TIMEOUT_MS (600u * 1000u)

static int refcount_path(const char *out, char *buf, size_t len, struct errbuf *eb)
{
	return fileio_fmt(buf, len, "%s/%s/%s", out, RUNNER_COUNTS_DIR, RUNNER_REFCOUNT_FILE) < 0
		   ? errbuf_set(eb, "%s: path too long", out)
		   : 0;
}

/* One counted run of rarref with units into *c. 0, or -1 (eb). */
static int count_rarref(struct runner *r, const struct countrun_identity *id, const char *units,
			const char *userdir, struct countrun *c, struct errbuf *eb)
{
	char *const rargv[] = {r->sj.ref.program, (char *)units, NULL};
	struct proc_opts po = {.envp = r->env.envp,
			       .output = PROC_OUTPUT_STDERR_FD,
			       .output_fd = r->rs.stderr_fd,
			       .stdin_null = true,
			       .timeout_ms = REFCOUNT_TIMEOUT_MS,
			       .stop = r->cfg.stop,
			       .pin = &r->env.pin};
	struct proc_sample smp = {0};
	struct proc_cmd *cmd = NULL;
	char **argv = NULL;
	int rc = -1;

	if (countrun_clear_dir(userdir, eb) < 0 ||
	    (argv = countrun_argv(COUNTRUN_SETPRIV, countrun_valgrind(), id, userdir, rargv, eb)) ==
		NULL ||
	    (cmd = proc_cmd_new(argv, &po, eb)) == NULL || proc_run(cmd, &smp, eb) < 0)
		goto out;
	if (smp.stopped) {
		errbuf_set(eb, "interrupted");
		goto out;
	}
	if (smp.timed_out || smp.exit_code != 0) {
		errbuf_set(eb, "counts: rarref %s under callgrind: %s (exit %d)", units,
			   smp.timed_out ? "timed out" : "failed", smp.exit_code);
		goto out;
	}
	if (countrun_read_dir(c, userdir, eb) < 0) {
		errbuf_prefix(eb, "counts: rarref %s", units);
		goto out;
	}
	rc = countrun_clear_dir(userdir, eb);
out:
	proc_cmd_free(cmd);
	countrun_argv_free(argv);
	return rc;
}

static int write_counts(const char *path, const cJSON *doc, struct errbuf *eb)
{
	char *text = cJSON_Print(doc);
	struct atomicfile *af;

	if (text == NULL)
		return errbuf_set(eb, "out of memory");
	if ((af = atomicfile_open_regular(path, 0644, eb)) == NULL) {
		free(text);
		return -1;
	}
	fputs(text, atomicfile_stream(af));
	fputc('\n', atomicfile_stream(af));
	free(text);
	return atomicfile_rename(af, eb);
}

int runner_refcount_pass(struct runner *r, const char *userdir, struct errbuf *eb)
{
	struct countrun *bare = NULL, *work = NULL;
	struct countrun_identity id;
	char path[PATH_MAX];
	cJSON *doc = NULL;
	int rc = -1;

	if (!r->m->reference || !r->m->counts || r->sj.ref.cmd == NULL)
		return 0;
	if (refcount_path(r->cfg.out, path, sizeof(path), eb) < 0)
		return -1;
	if (access(path, F_OK) == 0)
		return 0; /* counted by an earlier invocation (--resume) */
	bare = calloc(1, sizeof(*bare));
	work = calloc(1, sizeof(*work));
	doc = cJSON_CreateObject();
	if (bare == NULL || work == NULL || doc == NULL) {
		errbuf_set(eb, "out of memory");
		goto out;
	}
	if (countrun_identity_of(r->sj.ref.program, &r->user, &id, eb) < 0 ||
	    count_rarref(r, &id, "0", userdir, bare, eb) < 0 ||
	    count_rarref(r, &id, r->sj.ref.units, userdir, work, eb) < 0)
		goto out;
	cJSON_AddStringToObject(doc, "instrument", "callgrind");
	cJSON_AddStringToObject(doc, "version", work->version);
	cJSON_AddNumberToObject(doc, "units", (double)r->m->reference_units);
	cJSON_AddNumberToObject(doc, "instructions", (double)work->instructions);
	cJSON_AddNumberToObject(doc, "bare_instructions", (double)bare->instructions);
	rc = write_counts(path, doc, eb);
out:
	cJSON_Delete(doc);
	free(bare);
	free(work);
	return rc;
}

cJSON *runner_refcount_read(const char *out, struct errbuf *eb)
{
	char path[PATH_MAX], *text = NULL;
	const cJSON *ins, *bare;
	cJSON *doc;
	size_t len = 0;

	eb->msg[0] = '\0';
	if (refcount_path(out, path, sizeof(path), eb) < 0 || access(path, F_OK) != 0)
		return NULL;
	if (fileio_read_regular(path, REFCOUNT_FILE_MAX_BYTES, "cannot open", &text, &len, eb) < 0)
		return NULL;
	doc = cJSON_ParseWithLength(text, len);
	free(text);
	ins = jsonget_member(doc, "instructions");
	bare = jsonget_member(doc, "bare_instructions");
	if (!cJSON_IsNumber(ins) || !cJSON_IsNumber(bare) || ins->valuedouble <= bare->valuedouble) {
		cJSON_Delete(doc);
		errbuf_set(eb, "%s: not rarref's counts (instructions above bare_instructions)", path);
		return NULL;
	}
	return doc;
}
