/* rarlab: run one manifest on every lab host of an Ansible inventory at once and merge the results.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libssh/libssh.h>

#include "benchexit.h"
#include "clock.h"
#include "display.h"
#include "exitcode.h"
#include "fileio.h"
#include "hostpool.h"
#include "inventory.h"
#include "job.h"
#include "labcheck.h"
#include "labcli.h"
#include "labprofile.h"
#include "manifest.h"
#include "merge.h"
#include "phaselog.h"
#include "sanitize.h"
#include "points.h"
#include "runfiles.h"

extern char **environ;

#define REFRESH_MS 200

static atomic_int *cancel_flag;

/*
 * SIGINT and SIGTERM alike. The first stops every host (the workers see
 * cancel and stop their runs); the second makes main stop waiting for them
 * and write what was gathered (merged.json, summary.tsv); a third leaves at
 * once. Remote runs not yet stopped may go on: --resume picks them up.
 */
static void on_signal(int sig)
{
	(void)sig;
	if (cancel_flag == NULL)
		return;
	if (atomic_fetch_add(cancel_flag, 1) >= 2)
		_exit(EXITCODE_SIGNAL_BASE + SIGINT);
}

/*
 * Each host holds a socket and, while fetching, a file: hundreds of hosts at
 * once pass the usual soft limit of 1024 descriptors. The soft limit goes up
 * to the hard one (what the runs measure is pinned by rarbench itself).
 */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl); /* best effort: the old limit stays */
	}
}

/* "rarlab: MSG" on stderr: the message may hold bytes of a file or a host. */
static void print_error(const char *prefix, const char *msg)
{
	char clean[ERRBUF_MSG_MAX * 4];

	sanitize_str(clean, sizeof(clean), msg);
	fprintf(stderr, "rarlab: %s%s%s\n", prefix ? prefix : "", prefix ? ": " : "", clean);
}

/*
 * The subjects checked against this machine's copy of the prefix, when it has one: the lab's
 * hosts are provisioned by the same playbook, so a misspelt program or a RootAsRole version the
 * prefix lacks shows here before any host is contacted. One way to check a manifest: the
 * rarbench built beside this rarlab, `--dry-run` (its plan on stdout only with show_plan),
 * `--not-this-host`: the pinned environment (a limit against the hard limit, a CPU) is each
 * host's to check, and a host that cannot apply it is reported with its reason while the others
 * run. Returns what rarbench's exit status says; BENCHEXIT_UNKNOWN when it cannot be run (then
 * nothing is known).
 */
static enum benchexit check_locally(const struct job_config *c, bool show_plan)
{
	char self[PATH_MAX], prog[PATH_MAX + 16], facts[PATH_MAX];
	char *argv[] = {prog,
			"--manifest",
			(char *)c->manifest,
			"--prefix",
			(char *)c->remote_prefix,
			"--dry-run",
			"--not-this-host",
			NULL};
	posix_spawn_file_actions_t fa;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int status;
	pid_t pid;

	if (n <= 0 ||
	    fileio_fmt(facts, sizeof(facts), "%s/" RUNFILES_FACTS, c->remote_prefix) < 0 ||
	    access(facts, R_OK) != 0)
		return BENCHEXIT_UNKNOWN;
	self[n] = '\0';
	if (fileio_fmt(prog, sizeof(prog), "%.*s/rarbench", (int)(strrchr(self, '/') - self),
		       self) < 0 ||
	    access(prog, X_OK) != 0)
		return BENCHEXIT_UNKNOWN;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return BENCHEXIT_UNKNOWN;
	if (!show_plan)
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	if (posix_spawn(&pid, prog, &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return BENCHEXIT_UNKNOWN;
	}
	posix_spawn_file_actions_destroy(&fa);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return BENCHEXIT_UNKNOWN;
	return benchexit_of(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/*
 * What main holds from the command line to the summary. Everything starts NULL (or 0) and is
 * made in main's order; lab_free frees it all, whatever was made.
 */
struct lab {
	struct job_config cfg;
	uint64_t t0_ns; /* when rarlab started */
	struct inventory *inv;
	size_t *sel, nsel; /* the hosts -l selected: pool index -> inventory index */
	struct job_ctx *ctx;
	struct manifest *manifest;
	struct sweep *sweep;   /* --dry-run: the points counted */
	const char **names;    /* per host: its inventory name */
	struct merge_host *mh; /* per host: what merging and the summary read */
	unsigned *groups;      /* per host: its group in a mixed lab */
	char *lab_json;
	struct hostpool *hp;
	struct display *disp;
};

/*
 * The inventory loaded and the hosts --limit selects into l->sel (the job's context is
 * allocated here too, one out-of-memory check for both). Returns 0, or -1 once said why.
 */
static int select_hosts(struct lab *l, struct errbuf *eb)
{
	l->inv = inventory_load(l->cfg.inventory, eb);
	if (l->inv == NULL) {
		print_error(NULL, eb->msg);
		return -1;
	}
	l->sel = calloc(inventory_count(l->inv) + 1, sizeof(*l->sel));
	l->ctx = calloc(1, sizeof(*l->ctx));
	if (l->sel == NULL || l->ctx == NULL) {
		fprintf(stderr, "rarlab: out of memory\n");
		return -1;
	}
	if (inventory_select(l->inv, l->cfg.limit, l->sel, &l->nsel, eb) < 0) {
		print_error(l->cfg.inventory, eb->msg);
		return -1;
	}
	return 0;
}

/*
 * Checked here, whole, before any host is contacted: a manifest the hosts would refuse goes
 * nowhere. The hosts check it again against their own prefix. Returns 0, or -1 once said why
 * (every problem, when there are several).
 */
static int load_whole_manifest(struct lab *l, struct errbuf *eb)
{
	struct manifest_problems problems = {NULL, 0};

	l->manifest = manifest_load_all(l->cfg.manifest, MANIFEST_REMOTE, &problems, eb);
	for (size_t i = 0; l->manifest == NULL && problems.n > 1 && i < problems.n; i++)
		print_error(NULL, problems.line[i]);
	if (l->manifest == NULL && problems.n > 1)
		errbuf_set(eb, "%s: %zu problems (above); no host contacted", l->cfg.manifest,
			   problems.n);
	manifest_problems_clear(&problems);
	if (l->manifest == NULL) {
		print_error(NULL, eb->msg);
		return -1;
	}
	return 0;
}

/*
 * --dry-run: the points and the hosts they would run on, and whether this machine's prefix
 * checked the subjects (local, what check_locally found). Returns the exit status.
 */
static int print_dry_run(struct lab *l, enum benchexit local, struct errbuf *eb)
{
	l->sweep = sweep_new(l->manifest, eb);
	if (l->sweep == NULL) {
		print_error(l->cfg.manifest, eb->msg);
		return EXITCODE_BAD_INPUT;
	}
	printf("\n%s: %zu subject%s, %zu points, on %zu host%s:", l->cfg.manifest,
	       l->manifest->nsubjects, l->manifest->nsubjects == 1 ? "" : "s",
	       sweep_count(l->sweep), l->nsel, l->nsel == 1 ? "" : "s");
	for (size_t i = 0; i < l->nsel; i++)
		printf(" %s", inventory_host(l->inv, l->sel[i])->name);
	printf("\nno host contacted; %s\n",
	       local == BENCHEXIT_OK
		   ? "the subjects were checked against this machine's prefix, each "
		     "host checks them again against its own"
		   : "this machine has no prefix to check the subjects against: each "
		     "host checks them against its own");
	return EXITCODE_OK;
}

/*
 * The job's context filled (its run id and directories by job_prepare), the per-host arrays
 * and the pool made, the phase log opened. Returns 0, or -1 once said why.
 */
static int prepare_hosts(struct lab *l, struct errbuf *eb)
{
	struct job_ctx *ctx = l->ctx;

	ctx->cfg = &l->cfg;
	ctx->t0_ns = l->t0_ns;
	ctx->inv = l->inv;
	ctx->sel = l->sel;
	atomic_init(&ctx->cancel, 0);
	if (job_prepare(ctx, eb) < 0) {
		print_error(NULL, eb->msg);
		return -1;
	}
	l->names = calloc(l->nsel, sizeof(*l->names));
	l->mh = calloc(l->nsel, sizeof(*l->mh));
	l->groups = calloc(l->nsel, sizeof(*l->groups));
	l->hp = hostpool_new(l->nsel, l->cfg.forks, eb);
	if (l->names == NULL || l->mh == NULL || l->groups == NULL || l->hp == NULL) {
		fprintf(stderr, "rarlab: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < l->nsel; i++)
		l->names[i] = inventory_host(l->inv, l->sel[i])->name;
	ctx->names = l->names;
	ctx->phase_log = phaselog_open();
	return 0;
}

/* SIGINT and SIGTERM go to on_signal, which counts them in ctx->cancel; SIGPIPE is ignored. */
static void take_signals(struct job_ctx *ctx)
{
	struct sigaction sa;

	cancel_flag = &ctx->cancel;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/*
 * Every host's identity first: a lab that differs is refused before any run. Then the
 * workers start. Returns LABCHECK_GO (started), LABCHECK_REFUSED (the table of differences is
 * printed) or LABCHECK_FAILED with eb filled.
 */
static enum labcheck_verdict check_identities_then_start(struct lab *l, struct errbuf *eb)
{
	sigset_t block, old;
	enum labcheck_verdict rc;

	/* workers inherit a mask without SIGINT/SIGTERM: only this thread takes them */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	rc = labcheck_run(l->ctx, l->names, l->nsel, l->manifest, l->groups, &l->lab_json, eb);
	if (rc == LABCHECK_GO && hostpool_start(l->hp, job_run, l->ctx, eb) < 0)
		rc = LABCHECK_FAILED;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/*
 * Shows each host's progress until every host is done, or until a second interrupt.
 * Returns true for the second (hurry: the workers are not waited for).
 */
static bool watch_the_run(struct lab *l)
{
	bool hurry = false;

	fprintf(stderr, "rarlab: run %s: %zu host%s, at most %u at once, results in %s\n",
		l->ctx->run_id, l->nsel, l->nsel == 1 ? "" : "s", l->cfg.forks, l->cfg.out_dir);
	l->disp = display_new(stderr, isatty(fileno(stderr)), l->hp, l->names);
	while (!hostpool_wait(l->hp, REFRESH_MS)) {
		if (l->disp != NULL)
			display_update(l->disp);
		if (atomic_load(&l->ctx->cancel) >= 2) {
			hurry = true;
			break;
		}
	}
	if (l->disp != NULL)
		display_update(l->disp);
	phaselog_write(l->ctx->phase_log, "run", l->hp, l->names, l->t0_ns);
	if (hurry)
		fprintf(stderr, "rarlab: interrupted again; not waiting for the remote runs to "
				"stop, gathered results kept\n");
	else if (atomic_load(&l->ctx->cancel))
		fprintf(stderr,
			"rarlab: interrupted; remote runs stopped, gathered results kept\n");
	return hurry;
}

/*
 * The hosts' results compared (profile counters), merged into merged.json and summed up.
 * Returns the exit status: failed when a host failed or a step did, else ok.
 */
static int merge_and_sum_up(struct lab *l, struct errbuf *eb)
{
	const char *out_dir = l->cfg.out_dir;
	int rc = EXITCODE_OK, all_ok = 1;
	long merged;

	for (size_t i = 0; i < l->nsel; i++) {
		l->mh[i].name = l->names[i];
		l->mh[i].group = l->groups[i];
		hostpool_get(l->hp, i, &l->mh[i].status);
	}
	/* the profile counters compared across hosts: the verdict goes into the lab's meta */
	if (labprofile_compare(out_dir, l->manifest, l->mh, l->nsel, &l->lab_json, stdout, eb) ==
	    LABPROFILE_FAILED) {
		print_error("profile counters", eb->msg);
		rc = EXITCODE_FAILED;
	}
	/* merge_results may turn a host that looked ok into HOST_RESULTS */
	merged = merge_results(out_dir, l->ctx->run_id, l->lab_json, l->mh, l->nsel, eb);
	if (merged < 0) {
		print_error("merging", eb->msg);
		rc = EXITCODE_FAILED;
	}
	for (size_t i = 0; i < l->nsel; i++)
		if (l->mh[i].status.state != HOSTPOOL_FINISHED ||
		    l->mh[i].status.outcome != HOST_OK)
			all_ok = 0;
	if (!all_ok)
		rc = EXITCODE_FAILED;
	phaselog_mark(l->ctx->phase_log, "merge", l->t0_ns);
	if (merge_summary(out_dir, l->mh, l->nsel, stdout, eb) < 0) {
		print_error("summary", eb->msg);
		rc = EXITCODE_FAILED;
	}
	if (merged >= 0)
		printf("%ld results from %zu host%s in %s/merged.json\n", merged, l->nsel,
		       l->nsel == 1 ? "" : "s", out_dir);
	return rc;
}

/* Frees whatever of l was made, in reverse order; the phase log gets its "end" line. */
static void lab_free(struct lab *l)
{
	display_free(l->disp);
	hostpool_free(l->hp);
	cancel_flag = NULL;
	if (l->ctx != NULL) {
		phaselog_mark(l->ctx->phase_log, "end", l->t0_ns);
		if (l->ctx->phase_log != NULL)
			fclose(l->ctx->phase_log);
		labcheck_clear(l->ctx, l->nsel);
	}
	free(l->lab_json);
	free(l->groups);
	free(l->mh);
	free(l->names);
	free(l->ctx);
	free(l->sel);
	inventory_free(l->inv);
	sweep_free(l->sweep);
	manifest_free(l->manifest);
}

int main(int argc, char **argv)
{
	struct lab l = {.t0_ns = clock_now_ns()};
	struct errbuf eb = {{0}};
	enum labcheck_verdict verdict;
	enum benchexit local;
	bool hurry;
	int rc;

	if ((rc = labcli_done(labcli_parse(argc, argv, &l.cfg, &eb), &eb)) >= 0)
		return rc;
	rc = EXITCODE_BAD_INPUT;
	if (select_hosts(&l, &eb) < 0 || load_whole_manifest(&l, &eb) < 0)
		goto out;
	local = check_locally(&l.cfg, l.cfg.dry_run);
	/* rarbench refused the manifest, or another run holds this prefix: stopped as bad input
	 * (rarbench said why, on stderr); a dry run also stops at any failure the check said. */
	if (local == BENCHEXIT_BAD_INPUT || local == BENCHEXIT_BUSY ||
	    (l.cfg.dry_run && local != BENCHEXIT_OK && local != BENCHEXIT_UNKNOWN))
		goto out;
	if (l.cfg.dry_run) {
		rc = print_dry_run(&l, local, &eb);
		goto out;
	}
	if (prepare_hosts(&l, &eb) < 0)
		goto out;
	raise_nofile();
	ssh_init();
	take_signals(l.ctx);
	verdict = check_identities_then_start(&l, &eb);
	if (verdict == LABCHECK_REFUSED)
		goto out; /* the table of differences is printed; rc: bad input */
	if (verdict == LABCHECK_FAILED) {
		print_error(NULL, eb.msg);
		rc = EXITCODE_FAILED;
		goto out;
	}
	hurry = watch_the_run(&l);
	rc = merge_and_sum_up(&l, &eb);
	if (hurry) {
		/* workers may still be stopping their hosts: leave without joining them */
		fflush(stdout);
		fflush(stderr);
		_exit(rc);
	}
out:
	lab_free(&l);
	return rc;
}
