/* policy_txn: several policy files written whole to temporary siblings, then renamed together. */
#include "policy_txn.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* A transaction holds every file of one confgen run or one sweep point: a few, 2 per subject. */
#define POLICY_TXN_FILES_MAX 64

struct policy_txn_file {
	struct atomicfile *af;       /* synced, owned; NULL for a step */
	char *path;                  /* for messages */
	struct policy_txn_step step; /* when af is NULL and step.commit is set */
};

struct policy_txn {
	struct policy_txn_file files[POLICY_TXN_FILES_MAX];
	size_t n;
	bool overwrite_foreign;
};

void policy_txn_overwrite_foreign(struct policy_txn *txn)
{
	txn->overwrite_foreign = true;
}

bool policy_txn_may_overwrite_foreign(const struct policy_txn *txn)
{
	return txn->overwrite_foreign;
}

struct policy_txn *policy_txn_new(struct errbuf *eb)
{
	struct policy_txn *txn = calloc(1, sizeof(*txn));

	if (txn == NULL)
		errbuf_set(eb, "out of memory");
	return txn;
}

/* Ends step without committing it: its abort, then its context. */
static void policy_txn_step_drop(struct policy_txn_step *step)
{
	if (step->commit != NULL && step->abort != NULL)
		step->abort(step->ctx);
	if (step->commit != NULL)
		free(step->ctx);
	memset(step, 0, sizeof(*step));
}

int policy_txn_add_step(struct policy_txn *txn, const struct policy_txn_step *step,
			const char *path, struct errbuf *eb)
{
	struct policy_txn_step s = *step;
	char *copy = NULL;

	if (txn->n == POLICY_TXN_FILES_MAX) {
		policy_txn_step_drop(&s);
		return errbuf_set(eb, "%s: more than %d files in one policy write", path,
				  POLICY_TXN_FILES_MAX);
	}
	copy = strdup(path);
	if (copy == NULL) {
		policy_txn_step_drop(&s);
		return errbuf_set(eb, "%s: out of memory", path);
	}
	txn->files[txn->n].af = NULL;
	txn->files[txn->n].step = s;
	txn->files[txn->n].path = copy;
	txn->n++;
	return 0;
}

int policy_txn_add(struct policy_txn *txn, struct atomicfile *af, const char *path,
		   struct errbuf *eb)
{
	char *copy = NULL;

	if (txn->n == POLICY_TXN_FILES_MAX) {
		atomicfile_abort(af);
		return errbuf_set(eb, "%s: more than %d files in one policy write", path,
				  POLICY_TXN_FILES_MAX);
	}
	copy = strdup(path);
	if (copy == NULL) {
		atomicfile_abort(af);
		return errbuf_set(eb, "%s: out of memory", path);
	}
	txn->files[txn->n].af = af;
	txn->files[txn->n].path = copy;
	txn->n++;
	return 0;
}

/*
 * Clears the immutable and append-only attributes of an existing target
 * (name in dirfd), which would make the rename fail with EPERM. A missing
 * target, a symbolic link (the rename replaces the link) or a file system
 * without attributes is fine.
 */
static int policy_txn_clear_immutable(int dirfd, const char *name, const char *path,
				      struct errbuf *eb)
{
	int fd, flags, rc = 0;

	fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) {
		close(fd);
		return 0;
	}
	if ((flags & (FS_IMMUTABLE_FL | FS_APPEND_FL)) != 0) {
		struct stat st;

		/* Another name for the same file (a hard link to /etc/sudoers?) keeps its flags. */
		if (fstat(fd, &st) != 0 || st.st_nlink != 1) {
			close(fd);
			return errbuf_set(eb,
					  "%s: is immutable or append-only and has other hard "
					  "links: not clearing its attributes",
					  path);
		}
		flags &= ~(FS_IMMUTABLE_FL | FS_APPEND_FL);
		if (ioctl(fd, FS_IOC_SETFLAGS, &flags) != 0)
			rc = errbuf_set_errno(eb, errno,
					      "%s: is immutable or append-only (chattr +i/+a) and "
					      "clearing that needs CAP_LINUX_IMMUTABLE",
					      path);
	}
	close(fd);
	return rc;
}

int policy_txn_commit(struct policy_txn *txn, struct errbuf *eb)
{
	size_t i;
	int rc = -1;

	for (i = 0; i < txn->n; i++) {
		struct atomicfile *af = txn->files[i].af;

		if (af != NULL &&
		    policy_txn_clear_immutable(atomicfile_dirfd(af), atomicfile_name(af),
					       txn->files[i].path, eb) != 0)
			goto out;
	}
	for (i = 0; i < txn->n; i++) {
		struct atomicfile *af = txn->files[i].af;

		if (af == NULL) {
			struct policy_txn_step step = txn->files[i].step;

			int failed;

			memset(&txn->files[i].step, 0, sizeof(step));
			failed = step.commit(step.ctx, eb) != 0;
			free(step.ctx);
			if (failed)
				goto out;
			continue;
		}
		txn->files[i].af = NULL; /* atomicfile_rename frees it whatever the outcome */
		if (atomicfile_rename(af, eb) != 0)
			goto out;
	}
	rc = 0;
out:
	policy_txn_abort(txn);
	return rc;
}

void policy_txn_abort(struct policy_txn *txn)
{
	if (txn == NULL)
		return;
	for (size_t i = 0; i < txn->n; i++) {
		atomicfile_abort(txn->files[i].af);
		policy_txn_step_drop(&txn->files[i].step);
		free(txn->files[i].path);
	}
	free(txn);
}
