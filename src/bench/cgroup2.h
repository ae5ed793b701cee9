/* cgroup2: where the cgroup2 hierarchy is mounted and which cgroup this process is in, read from
 * /proc/self/mountinfo and /proc/self/cgroup (the sweep's cgroup, sweepcg.h, is made there). */
#ifndef RARPERF_CGROUP2_H
#define RARPERF_CGROUP2_H

#include <stddef.h>

/* The longest cgroup directory path handled (the cgroup2 mount plus a cgroup path). */
#define CGROUP2_PATH_MAX 512

/* What one mountinfo line is (cgroup2_parse_mountinfo_line). */
enum cgroup2_mount {
	CGROUP2_MOUNT_MALFORMED = -1, /* not a mountinfo line, or a path too long */
	CGROUP2_MOUNT_OTHER = 0,      /* another file system's mount */
	CGROUP2_MOUNT_FOUND = 1       /* a cgroup2 mount: mnt and root filled */
};

/*
 * Whether one /proc/self/mountinfo line (without its newline) is a cgroup2 mount; if so its
 * mount point and root (octal escapes such as \040 decoded) into mnt and root (cap bytes
 * each). Pure.
 */
enum cgroup2_mount cgroup2_parse_mountinfo_line(const char *line, size_t len, char *mnt, char *root,
						size_t cap);

/*
 * The cgroup2 path (the "0::" line) of /proc/self/cgroup's text of len bytes into path (cap
 * bytes). Pure. 0, or -1 when there is no such line or it does not fit.
 */
int cgroup2_parse_self(const char *text, size_t len, char *path, size_t cap);

/*
 * The first cgroup2 mount of /proc/self/mountinfo: its mount point and root into mnt and root
 * (cap bytes each). 0, or an errno (ENOENT: no cgroup2 mounted).
 */
int cgroup2_mount(char *mnt, char *root, size_t cap);

/*
 * This process's cgroup2 directory (the mount point joined with /proc/self/cgroup's "0::"
 * path, below the mount's root) into dir (cap bytes). 0, or an errno.
 */
int cgroup2_own_dir(char *dir, size_t cap);

#endif
