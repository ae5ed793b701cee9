/* hostfacts: what the measuring host is (CPU, memory, kernel, virtualization, governor). */
#include "hostfacts.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void set_str(char *dst, const char *src)
{
	size_t n = strnlen(src, HOSTFACTS_STR_MAX - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
	/* Trim trailing whitespace (files end in newlines). */
	while (n > 0 && (dst[n - 1] == '\n' || dst[n - 1] == ' ' || dst[n - 1] == '\t'))
		dst[--n] = '\0';
	if (n == 0)
		memcpy(dst, "unknown", sizeof("unknown"));
}

/* The first line of a small file into dst; 0 or -1. */
static int read_line(const char *path, char *dst)
{
	char buf[HOSTFACTS_STR_MAX];
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -1;
	if (fgets(buf, sizeof(buf), f) == NULL) {
		fclose(f);
		return -1;
	}
	fclose(f);
	set_str(dst, buf);
	return 0;
}

/* The value after "key<spaces>:" in a /proc file; 0 or -1. */
static int proc_field(const char *path, const char *key, char *dst)
{
	char line[1024];
	size_t klen = strlen(key);
	int rc = -1;
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *colon;

		if (strncmp(line, key, klen) != 0 ||
		    (line[klen] != ' ' && line[klen] != '\t' && line[klen] != ':'))
			continue;
		colon = strchr(line, ':');
		if (colon == NULL)
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		set_str(dst, colon);
		rc = 0;
		break;
	}
	fclose(f);
	return rc;
}

/* Runs systemd-detect-virt and keeps its one-line answer; 0 or -1. */
static int detect_virt_tool(char *dst)
{
	static const char *const paths[] = {"/usr/bin/systemd-detect-virt",
					    "/bin/systemd-detect-virt"};
	char buf[HOSTFACTS_STR_MAX] = "";
	posix_spawn_file_actions_t fa;
	int fds[2] = {-1, -1}, status = 0, rc = -1;
	const char *tool = NULL;
	pid_t pid;
	ssize_t n;
	size_t i, len = 0;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (access(paths[i], X_OK) == 0) {
			tool = paths[i];
			break;
		}
	if (tool == NULL || pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
	/* Only stdin, stdout and stderr, whatever was left open without O_CLOEXEC. */
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif
	if (posix_spawn(&pid, tool, &fa, NULL, (char *const[]){(char *)tool, NULL}, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	while (len < sizeof(buf) - 1 && ((n = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0 ||
					 (n < 0 && errno == EINTR)))
		if (n > 0)
			len += (size_t)n;
	buf[len] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* It exits 1 with "none" on bare metal: the answer is the output either way. */
	if (len > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		set_str(dst, buf);
		rc = 0;
	}
	return rc;
}

static void detect_virt(char *dst)
{
	char vendor[HOSTFACTS_STR_MAX], flags[4096];
	FILE *f;

	if (detect_virt_tool(dst) == 0)
		return;
	if (read_line("/sys/class/dmi/id/sys_vendor", vendor) == 0 &&
	    (strstr(vendor, "QEMU") || strstr(vendor, "VMware") || strstr(vendor, "innotek") ||
	     strstr(vendor, "Xen") || strstr(vendor, "Microsoft") || strstr(vendor, "Amazon"))) {
		if (snprintf(dst, HOSTFACTS_STR_MAX, "vm (%s)", vendor) >= HOSTFACTS_STR_MAX)
			dst[HOSTFACTS_STR_MAX - 1] = '\0'; /* a long vendor name is cut */
		return;
	}
	f = fopen("/proc/cpuinfo", "re");
	if (f != NULL) {
		while (fgets(flags, sizeof(flags), f) != NULL) {
			if (strncmp(flags, "flags", 5) == 0) {
				set_str(dst, strstr(flags, " hypervisor") ? "vm (hypervisor flag)"
									  : "none");
				fclose(f);
				return;
			}
		}
		fclose(f);
	}
	set_str(dst, "unknown");
}

void hostfacts_collect(struct hostfacts *hf)
{
	struct utsname u;
	char mem[HOSTFACTS_STR_MAX];
	unsigned long long kb;

	memset(hf, 0, sizeof(*hf));
	if (gethostname(hf->hostname, sizeof(hf->hostname) - 1) != 0)
		set_str(hf->hostname, "unknown");
	if (uname(&u) == 0) {
		char k[4 * HOSTFACTS_STR_MAX];

		if (snprintf(k, sizeof(k), "%s %s %s %s", u.sysname, u.release, u.version,
			     u.machine) < 0)
			k[0] = '\0';
		set_str(hf->kernel, k);
	} else {
		set_str(hf->kernel, "unknown");
	}
	if (proc_field("/proc/cpuinfo", "model name", hf->cpu_model) < 0 &&
	    proc_field("/proc/cpuinfo", "Model", hf->cpu_model) < 0)
		set_str(hf->cpu_model, "unknown");
	hf->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (hf->cpus < 0)
		hf->cpus = 0;
	if (proc_field("/proc/meminfo", "MemTotal", mem) == 0 && sscanf(mem, "%llu", &kb) == 1)
		hf->mem_bytes = (uint64_t)kb * 1024;
	detect_virt(hf->virtualization);
	if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", hf->governor) < 0)
		set_str(hf->governor, "unknown");
}

cJSON *hostfacts_to_json(const struct hostfacts *hf)
{
	cJSON *o = cJSON_CreateObject();

	if (o == NULL)
		return NULL;
	/* cJSON adopts each item added to o; a NULL item (out of memory) fails the whole. */
	if (cJSON_AddStringToObject(o, "hostname", hf->hostname) == NULL ||
	    cJSON_AddStringToObject(o, "kernel", hf->kernel) == NULL ||
	    cJSON_AddStringToObject(o, "cpu_model", hf->cpu_model) == NULL ||
	    cJSON_AddNumberToObject(o, "cpus", (double)hf->cpus) == NULL ||
	    cJSON_AddNumberToObject(o, "mem_bytes", (double)hf->mem_bytes) == NULL ||
	    cJSON_AddStringToObject(o, "virtualization", hf->virtualization) == NULL ||
	    cJSON_AddStringToObject(o, "governor", hf->governor) == NULL) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}
