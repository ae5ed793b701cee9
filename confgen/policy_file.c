/* policy_file: where confgen may write a policy file, and with which owner, mode and attributes. */
#include "policy_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* The machine's own policies, as directory + base name; base NULL refuses the whole directory. */
static const struct {
	const char *dir, *base;
} policy_file_refused[] = {
    {"/etc", "sudoers"},
    {"/etc/sudoers.d", NULL},
    {"/etc", "doas.conf"},
    {"/etc/security", "rootasrole.json"},
};

/*
 * Splits path into a malloc'd directory ("." when path has no slash) and a
 * pointer to its base name inside path. Returns NULL when out of memory.
 */
static char *policy_file_split(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL) {
		*base = path;
		return strdup(".");
	}
	*base = slash + 1;
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* True when the resolved directory rdir and base name one of the refused paths. */
static bool policy_file_is_refused(const char *rdir, const char *base)
{
	char resolved[PATH_MAX];

	for (size_t i = 0; i < sizeof(policy_file_refused) / sizeof(policy_file_refused[0]); i++) {
		const char *dir = policy_file_refused[i].dir;

		/* Compare with the machine's directory resolved too (/etc may be a link). */
		if (realpath(dir, resolved) != NULL)
			dir = resolved;
		if (strcmp(rdir, dir) != 0 && strcmp(rdir, policy_file_refused[i].dir) != 0)
			continue;
		if (policy_file_refused[i].base == NULL ||
		    strcmp(base, policy_file_refused[i].base) == 0)
			return true;
	}
	return false;
}

char *policy_file_abspath(const char *path, struct errbuf *eb)
{
	char *dir = NULL, *rdir = NULL, *out = NULL;
	const char *base;
	size_t len;

	dir = policy_file_split(path, &base);
	if (dir == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto out;
	}
	rdir = realpath(dir, NULL);
	if (rdir == NULL) {
		errbuf_set_errno(eb, errno, "%s: directory %s", path, dir);
		goto out;
	}
	len = strlen(rdir) + 1 + strlen(base) + 1;
	out = malloc(len);
	if (out == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto out;
	}
	snprintf(out, len, "%s%s%s", rdir, strcmp(rdir, "/") == 0 ? "" : "/", base);
out:
	free(rdir);
	free(dir);
	return out;
}

int policy_file_check_path(const char *path, struct errbuf *eb)
{
	char *dir = NULL, *rdir = NULL;
	const char *base;
	struct stat st;
	int rc = -1;

	if (path == NULL || path[0] == '\0')
		return errbuf_set(eb, "empty output path");
	dir = policy_file_split(path, &base);
	if (dir == NULL) {
		errbuf_set(eb, "%s: out of memory", path);
		goto out;
	}
	if (base[0] == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		errbuf_set(eb, "%s: not a file name", path);
		goto out;
	}
	rdir = realpath(dir, NULL);
	if (rdir == NULL) {
		errbuf_set_errno(eb, errno, "%s: directory %s", path, dir);
		goto out;
	}
	if (policy_file_is_refused(rdir, base)) {
		errbuf_set(eb, "%s: refusing to overwrite the machine's own policy %s/%s", path,
			   rdir, base);
		goto out;
	}
	if (access(rdir, W_OK | X_OK) != 0) {
		errbuf_set_errno(eb, errno, "%s: directory %s is not writable", path, dir);
		goto out;
	}
	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		errbuf_set(eb, "%s: is a directory", path);
		goto out;
	}
	rc = 0;
out:
	free(rdir);
	free(dir);
	return rc;
}

#define POLICY_FILE_STDIO_BUF (1u << 20)

int policy_file_open(struct policy_file *f, const char *path, mode_t mode, struct errbuf *eb)
{
	memset(f, 0, sizeof(*f));
	if (policy_file_check_path(path, eb) != 0)
		return -1;
	f->path = path;
	f->af = atomicfile_open(path, mode, eb);
	if (f->af == NULL)
		return -1;
	/* Only root can give a file away; a non-root run keeps its own uid (documented). */
	if (geteuid() == 0 && atomicfile_set_owner(f->af, 0, 0, eb) != 0) {
		policy_file_abort(f);
		return -1;
	}
	f->out = atomicfile_stream(f->af);
	f->buf = malloc(POLICY_FILE_STDIO_BUF);
	if (f->buf != NULL)
		setvbuf(f->out, f->buf, _IOFBF, POLICY_FILE_STDIO_BUF);
	return 0;
}

/*
 * Clears the immutable and append-only attributes of an existing path, which
 * would make the rename fail with EPERM. A missing path, a symbolic link (the
 * rename replaces the link) or a file system without attributes is fine.
 */
static int policy_file_clear_immutable(const char *path, struct errbuf *eb)
{
	int fd, flags, rc = 0;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0) {
		close(fd);
		return 0;
	}
	if ((flags & (FS_IMMUTABLE_FL | FS_APPEND_FL)) != 0) {
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

int policy_file_commit(struct policy_file *f, struct errbuf *eb)
{
	int rc;

	if (policy_file_clear_immutable(f->path, eb) != 0) {
		policy_file_abort(f);
		return -1;
	}
	rc = atomicfile_commit(f->af, eb); /* closes the stream before its buffer goes */
	free(f->buf);
	memset(f, 0, sizeof(*f));
	return rc;
}

void policy_file_put(struct policy_file *f, const char *s, size_t n)
{
	fwrite_unlocked(s, 1, n, f->out);
}

void policy_file_puts(struct policy_file *f, const char *s)
{
	fwrite_unlocked(s, 1, strlen(s), f->out);
}

void policy_file_put_uint(struct policy_file *f, uint64_t v)
{
	char tmp[24];
	size_t n = sizeof(tmp);

	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	fwrite_unlocked(tmp + n, 1, sizeof(tmp) - n, f->out);
}

void policy_file_abort(struct policy_file *f)
{
	atomicfile_abort(f->af);
	free(f->buf);
	memset(f, 0, sizeof(*f));
}
