/* policy_split: one sudoers policy split over files (a main file and a directory of parts). */
/*
 * Design note. A split write has three parts in one policy_txn:
 *   1. the parts, each written whole, synced and closed in a private new
 *      directory ".<dir>.XXXXXX" beside the parts directory (one descriptor
 *      open at a time, so 10 000 parts need no more than a few);
 *   2. a transaction step that swaps that directory with the parts
 *      directory (or renames it there when there is none), then empties
 *      and removes the old one; on abort it empties and removes the new one;
 *   3. the main file, staged as any policy file and renamed after the step.
 * A write of 1 file (or deny-all) stages the main file, then a step that
 * empties and removes the parts directory a previous write left. Either
 * first removes the new-parts directories a killed write left (aged).
 * The parent directory is opened once; every later call goes through it.
 */
#include "policy_split.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "atomicfile.h"
#include "fileio.h"
#include "policy_file.h"
#include "policy_sudoers.h"

#define POLICY_SPLIT_PART_NAME_MAX 16
#define POLICY_SPLIT_STDIO_BUF (256u * 1024)
#define POLICY_SPLIT_TMP_TRIES 100

bool policy_split_supported(enum policy_format format)
{
	return format == POLICY_FORMAT_SUDOERS;
}

int policy_split_validate(const struct policy_shape *shape, uint32_t files, struct errbuf *eb)
{
	uint64_t units = (uint64_t)shape->roles * shape->tasks;

	if (files < 1 || files > POLICY_SPLIT_FILES_MAX)
		return errbuf_set(eb, "--files: must be 1 to %u (got %u)", POLICY_SPLIT_FILES_MAX,
				  files);
	if (files > units)
		return errbuf_set(eb,
				  "--files: %u files for %llu tasks (roles x tasks): every file "
				  "holds at least one task",
				  files, (unsigned long long)units);
	if (files > 1 && shape->seed_compat)
		return errbuf_set(eb, "--files: a split policy cannot be --seed-compat");
	return 0;
}

static int split_check_existing(int parent, const char *name, const char *shown, bool foreign_ok,
				bool *exists, struct errbuf *eb);

/* The context of a transaction step over the parts directory. */
struct split_step {
	int parent;              /* the directory holding path and the parts directory */
	char name[NAME_MAX + 1]; /* the parts directory's name in parent */
	char tmp[NAME_MAX + 1];  /* the new parts' directory; "" when removing only */
};

/* Removes every entry of the directory name in parent, then the directory. Best effort. */
static void split_remove_dir(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *e;

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			(void)unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	(void)unlinkat(parent, name, AT_REMOVEDIR);
}

static int split_step_commit(void *ctx, struct errbuf *eb)
{
	struct split_step *s = ctx;
	struct stat st;
	int rc = 0;

	if (s->tmp[0] == '\0') {
		split_remove_dir(s->parent, s->name);
		if (fstatat(s->parent, s->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			rc = errbuf_set(eb, "%s: could not be removed", s->name);
	} else if (fstatat(s->parent, s->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (renameat2(s->parent, s->tmp, s->parent, s->name, RENAME_EXCHANGE) != 0) {
			rc = errbuf_set_errno(eb, errno, "%s: swapping in the new parts", s->name);
			split_remove_dir(s->parent, s->tmp);
		} else {
			split_remove_dir(s->parent, s->tmp); /* now the old parts */
		}
	} else if (renameat(s->parent, s->tmp, s->parent, s->name) != 0) {
		rc = errbuf_set_errno(eb, errno, "%s: renaming the new parts into place", s->name);
		split_remove_dir(s->parent, s->tmp);
	}
	if (rc == 0 && fsync(s->parent) != 0)
		rc = errbuf_set_errno(eb, errno, "%s: syncing its directory", s->name);
	close(s->parent);
	return rc;
}

static void split_step_abort(void *ctx)
{
	struct split_step *s = ctx;

	if (s->tmp[0] != '\0')
		split_remove_dir(s->parent, s->tmp);
	close(s->parent);
}

/*
 * Removes the new-parts directories a write killed midway left beside name in parent
 * (".<name>.XXXXXX"): directories of the caller's euid, unchanged for
 * ATOMICFILE_STALE_MIN_AGE_S (a write under way is younger), holding only files confgen wrote.
 * Best effort: one that does not qualify stays.
 */
static void split_remove_stale(int parent, const char *name)
{
	size_t len = strlen(name);
	struct timespec now;
	struct dirent *e;
	int fd = openat(parent, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	while ((e = readdir(d)) != NULL) {
		bool exists = false, ok = true;
		struct stat st;
		struct errbuf ignored;

		if (e->d_name[0] != '.' || strncmp(e->d_name + 1, name, len) != 0 ||
		    e->d_name[1 + len] != '.' || strlen(e->d_name + 2 + len) != 6 ||
		    fstatat(parent, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
		    now.tv_sec - st.st_mtim.tv_sec < ATOMICFILE_STALE_MIN_AGE_S)
			continue;
		ok = split_check_existing(parent, e->d_name, e->d_name, false, &exists, &ignored) ==
		     0;
		if (ok && exists)
			split_remove_dir(parent, e->d_name);
	}
	closedir(d);
}

/* Characters a path may hold to be written bare after @includedir. */
static bool split_path_safe(const char *path)
{
	for (const char *c = path; *c != '\0'; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || strchr("/._+-@", *c) != NULL))
			return false;
	return path[0] == '/';
}

/*
 * Checks the existing parts directory name of parent: missing, or a
 * directory (not a link) whose entries are all confgen's unless foreign_ok.
 * *exists says whether it is there. 0 or -1 (eb).
 */
static int split_check_existing(int parent, const char *name, const char *shown, bool foreign_ok,
				bool *exists, struct errbuf *eb)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int fd, rc = 0;

	*exists = false;
	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : errbuf_set_errno(eb, errno, "%s", shown);
	if (!S_ISDIR(st.st_mode))
		return errbuf_set(eb, "%s: exists and is not a directory: refusing to replace it",
				  shown);
	*exists = true;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || (d = fdopendir(fd)) == NULL) {
		rc = errbuf_set_errno(eb, errno, "%s", shown);
		if (fd >= 0)
			close(fd);
		return rc;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || foreign_ok)
			continue;
		if (!policy_file_is_ours_at(dirfd(d), e->d_name))
			rc = errbuf_set(eb,
					"%s/%s: exists and was not written by confgen: refusing "
					"to remove it (remove it, or confgen --force)",
					shown, e->d_name);
	}
	closedir(d);
	return rc;
}

/* Writes the sudoers lines of units [u0, u1) of p (units are role x task pairs, in order). */
static void split_write_units(const struct policy *p, struct policy_file *f, uint64_t u0,
			      uint64_t u1, enum sudoers_layout layout)
{
	const struct policy_shape *s = policy_get_shape(p);
	uint64_t u = u0;
	bool first = true;

	while (u < u1) {
		uint32_t r = (uint32_t)(u / s->tasks), t0 = (uint32_t)(u % s->tasks);
		uint64_t end = (uint64_t)(r + 1) * s->tasks;
		uint32_t t1 = (uint32_t)((u1 < end ? u1 : end) - (uint64_t)r * s->tasks);

		if (!first)
			policy_file_put(f, "\n", 1);
		policy_sudoers_write_tasks(p, f, r, t0, t1, layout);
		first = false;
		u = (uint64_t)r * s->tasks + t1;
	}
}

/* The first unit of part i (0-based) of files over units. */
static uint64_t split_bound(uint64_t units, uint32_t files, uint32_t i)
{
	return units * i / files;
}

/* Writes part i (0-based, >= 1) of p into a new file of the directory dfd. 0 or -1 (eb). */
static int split_write_part(int dfd, const struct policy *p, enum sudoers_layout layout,
			    uint32_t files, uint32_t i, char *buf, struct errbuf *eb)
{
	const struct policy_shape *s = policy_get_shape(p);
	uint64_t units = (uint64_t)s->roles * s->tasks;
	char name[POLICY_SPLIT_PART_NAME_MAX];
	struct policy_file f;
	FILE *out = NULL;
	int fd, rc = -1;

	snprintf(name, sizeof(name), "%05u", i + 1); /* lint: not a path (digits, fits) */
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return errbuf_set_errno(eb, errno, "part %s", name);
	if (fsetxattr(fd, POLICY_FILE_XATTR, "1", 1, 0) != 0 && errno != ENOTSUP) {
		errbuf_set_errno(eb, errno, "part %s: marking it", name);
		goto out;
	}
	if (geteuid() == 0 && fchown(fd, 0, 0) != 0) {
		errbuf_set_errno(eb, errno, "part %s: giving it to root", name);
		goto out;
	}
	out = fdopen(fd, "w");
	if (out == NULL) {
		errbuf_set_errno(eb, errno, "part %s", name);
		goto out;
	}
	fd = -1; /* the stream's now */
	setvbuf(out, buf, _IOFBF, POLICY_SPLIT_STDIO_BUF);
	memset(&f, 0, sizeof(f));
	f.out = out;
	fprintf(out, "%s part %u of %u\n", POLICY_FILE_HEADER, i + 1, files);
	split_write_units(p, &f, split_bound(units, files, i), split_bound(units, files, i + 1),
			  layout);
	if (fflush(out) != 0 || ferror(out) || fchmod(fileno(out), POLICY_SPLIT_PART_MODE) != 0 ||
	    fsync(fileno(out)) != 0) {
		errbuf_set_errno(eb, errno != 0 ? errno : EIO, "part %s: writing", name);
		goto out;
	}
	rc = 0;
out:
	if (out != NULL && fclose(out) != 0 && rc == 0)
		rc = errbuf_set_errno(eb, errno, "part %s: closing", name);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Creates ".<name>.XXXXXX" in parent, mode 0700, into s->tmp and opens it. fd, or -1 (eb). */
static int split_make_tmp(struct split_step *s, const char *shown, struct errbuf *eb)
{
	static const char alnum[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	struct timespec ts;
	uint64_t x;
	int fd;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	x = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^ (uint64_t)ts.tv_sec;
	for (int tries = 0; tries < POLICY_SPLIT_TMP_TRIES; tries++) {
		char sfx[7];

		for (int k = 0; k < 6; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			sfx[k] = alnum[(x >> 33) % (sizeof(alnum) - 1)];
		}
		sfx[6] = '\0';
		if (fileio_fmt(s->tmp, sizeof(s->tmp), ".%s.%s", s->name, sfx) != 0)
			return errbuf_set(eb, "%s: name too long", shown);
		if (mkdirat(s->parent, s->tmp, 0700) == 0) {
			fd = openat(s->parent, s->tmp,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0) {
				errbuf_set_errno(eb, errno, "%s: opening its new directory", shown);
				(void)unlinkat(s->parent, s->tmp, AT_REMOVEDIR);
				s->tmp[0] = '\0';
			}
			return fd;
		}
		if (errno != EEXIST)
			break;
	}
	errbuf_set_errno(eb, errno, "%s: creating its new directory", shown);
	s->tmp[0] = '\0';
	return -1;
}

/*
 * Writes parts 2..files of p into a new directory of s->parent (s->tmp),
 * made POLICY_SPLIT_DIR_MODE and root's when run as root. 0, or -1 (eb; the
 * directory removed and s->tmp emptied).
 */
static int split_write_parts(struct split_step *s, const struct policy *p,
			     enum sudoers_layout layout, uint32_t files, const char *shown,
			     struct errbuf *eb)
{
	char *buf = malloc(POLICY_SPLIT_STDIO_BUF);
	int dfd, rc = -1;

	if (buf == NULL)
		return errbuf_set(eb, "%s: out of memory", shown);
	dfd = split_make_tmp(s, shown, eb);
	if (dfd < 0)
		goto out;
	for (uint32_t i = 1; i < files; i++)
		if (split_write_part(dfd, p, layout, files, i, buf, eb) != 0) {
			errbuf_prefix(eb, "%s", shown);
			goto out;
		}
	if ((geteuid() == 0 && fchown(dfd, 0, 0) != 0) || fchmod(dfd, POLICY_SPLIT_DIR_MODE) != 0 ||
	    fsync(dfd) != 0) {
		errbuf_set_errno(eb, errno, "%s: its new directory", shown);
		goto out;
	}
	rc = 0;
out:
	if (dfd >= 0)
		close(dfd);
	if (rc != 0 && s->tmp[0] != '\0') {
		split_remove_dir(s->parent, s->tmp);
		s->tmp[0] = '\0';
	}
	free(buf);
	return rc;
}

/* Stages the main file: the header, units of part 1, the @includedir line when files > 1. */
static int split_stage_main(struct policy_txn *txn, const struct policy *p, const char *path,
			    enum sudoers_layout layout, uint32_t files, const char *dir,
			    struct errbuf *eb)
{
	const struct policy_shape *s = policy_get_shape(p);
	uint64_t units = (uint64_t)s->roles * s->tasks;
	struct policy_file f;

	if (policy_file_open(&f, txn, path, POLICY_SPLIT_PART_MODE, eb) != 0)
		return -1;
	fprintf(f.out,
		"# rarperf confgen: roles=%u users=%u tasks=%u commands=%u uid=%u "
		"match=%s layout=%s files=%u\n",
		s->roles, s->users, s->tasks, s->commands, s->uid, policy_match_label(s),
		policy_sudoers_layout_name(layout), files);
	split_write_units(p, &f, 0, split_bound(units, files, 1), layout);
	fprintf(f.out, "@includedir %s\n", dir);
	return policy_file_finish(&f, eb);
}

int policy_stage_sudoers_split(struct policy_txn *txn, const struct policy *p, const char *path,
			       enum sudoers_layout layout, uint32_t files, struct errbuf *eb)
{
	const struct policy_shape *s = policy_get_shape(p);
	bool foreign_ok = policy_txn_may_overwrite_foreign(txn), exists = false;
	struct policy_txn_step step = {split_step_commit, split_step_abort, NULL};
	struct split_step *ctx = NULL;
	char *abs = NULL, *dir = NULL, *slash;
	int rc = -1;
	size_t len;

	if (policy_split_validate(s, files, eb) != 0)
		return -1;
	if (layout != SUDOERS_LAYOUT_PER_ROLE && layout != SUDOERS_LAYOUT_PER_TASK)
		return errbuf_set(eb, "%s: unknown sudoers layout %d", path, (int)layout);
	/* The main file's own checks first (the machine's policies, ownership), before any
	 * directory is made beside it. */
	if (policy_file_check_path(path, foreign_ok, eb) != 0)
		return -1;
	abs = policy_file_abspath(path, eb);
	if (abs == NULL)
		return -1;
	len = strlen(abs) + sizeof(POLICY_SPLIT_DIR_SUFFIX);
	dir = malloc(len);
	ctx = calloc(1, sizeof(*ctx));
	if (dir == NULL || ctx == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto out;
	}
	ctx->parent = -1;
	snprintf(dir, len, "%s%s", abs, POLICY_SPLIT_DIR_SUFFIX); /* lint: not a path (sized) */
	if (files > 1 && !s->deny_all && !split_path_safe(dir)) {
		errbuf_set(eb,
			   "%s: the parts directory %s holds a character @includedir cannot take "
			   "bare (only letters, digits and /._+-@)",
			   path, dir);
		goto out;
	}
	slash = strrchr(dir, '/');
	if (fileio_fmt(ctx->name, sizeof(ctx->name), "%s", slash + 1) != 0) {
		errbuf_set(eb, "%s: the parts directory's name is too long", path);
		goto out;
	}
	*slash = '\0';
	ctx->parent = open(dir[0] != '\0' ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*slash = '/';
	if (ctx->parent < 0) {
		errbuf_set_errno(eb, errno, "%s: directory", path);
		goto out;
	}
	if (split_check_existing(ctx->parent, ctx->name, dir, foreign_ok, &exists, eb) != 0)
		goto out;
	split_remove_stale(ctx->parent, ctx->name);
	if (files <= 1 || s->deny_all) {
		/* One file: exactly policy_stage_sudoers's; a previous split's parts go. */
		if (policy_stage_sudoers(txn, p, path, layout, eb) != 0)
			goto out;
		if (exists) {
			step.ctx = ctx;
			ctx = NULL;
			rc = policy_txn_add_step(txn, &step, dir, eb);
			goto out;
		}
		rc = 0;
		goto out;
	}
	if (split_write_parts(ctx, p, layout, files, dir, eb) != 0)
		goto out;
	step.ctx = ctx;
	ctx = NULL; /* the transaction's, even if adding fails */
	if (policy_txn_add_step(txn, &step, dir, eb) != 0)
		goto out;
	rc = split_stage_main(txn, p, path, layout, files, dir, eb);
out:
	if (ctx != NULL && ctx->parent >= 0)
		close(ctx->parent);
	free(ctx);
	free(dir);
	free(abs);
	return rc;
}
