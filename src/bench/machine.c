/* machine: which machine this is and what could make it differ (machine.h). */
#include "machine.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "digest.h"
#include "fileio.h"

#define MACHINE_STR_MAX 256
#define MACHINE_MAX_ENTRIES 64 /* mitigations or cache levels listed at most */

void machine_hash_id(const char *label, const char *value, char out[MACHINE_HASH_HEX + 1])
{
	char buf[2 * MACHINE_STR_MAX], hex[DIGEST_SHA256_HEX_LEN + 1];
	size_t n = strcspn(value, "\n");
	int len = snprintf(buf, sizeof(buf), "%s%.*s", label, (int)n, value);

	digest_sha256_hex(buf, len > 0 && (size_t)len < sizeof(buf) ? (size_t)len : 0, hex);
	memcpy(out, hex, MACHINE_HASH_HEX);
	out[MACHINE_HASH_HEX] = '\0';
	memset(buf, 0, sizeof(buf)); /* the raw id is not kept beyond the hash */
}

/* The first line of a small file into dst without its newline; "unknown" when unreadable. */
static void machine_line(const char *path, char *dst, size_t size)
{
	FILE *f = fopen(path, "re");

	snprintf(dst, size, "unknown");
	if (f == NULL)
		return;
	if (fgets(dst, (int)size, f) == NULL || dst[0] == '\n')
		snprintf(dst, size, "unknown");
	dst[strcspn(dst, "\n")] = '\0';
	fclose(f);
}

/* The word in brackets of a sysfs choice ("always [madvise] never" -> "madvise"). */
static void machine_choice(const char *path, char *dst, size_t size)
{
	char line[MACHINE_STR_MAX];
	const char *open, *close;

	machine_line(path, line, sizeof(line));
	open = strchr(line, '[');
	close = open != NULL ? strchr(open, ']') : NULL;
	if (open != NULL && close != NULL)
		snprintf(dst, size, "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(dst, size, "%s", line);
}

/* Adds a string member; false out of memory (o adopts the item). */
static bool machine_add(cJSON *o, const char *key, const char *value)
{
	return cJSON_AddStringToObject(o, key, value) != NULL;
}

/* What file `what` of cpu0's cache index says, into dst; "unknown" when unreadable. */
static void machine_cache(size_t index, const char *what, char *dst, size_t size)
{
	char path[128];

	if (fileio_fmt(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%zu/%s", index,
		       what) < 0)
		snprintf(dst, size, "unknown");
	else
		machine_line(path, dst, size);
}

/* cpu: the first processor's identity fields of /proc/cpuinfo, its caches from sysfs. */
static cJSON *machine_cpu(bool *hypervisor_flag)
{
	static const char *const fields[][2] = {
	    {"vendor_id", "vendor"},  {"cpu family", "family"},   {"model", "model"},
	    {"stepping", "stepping"}, {"microcode", "microcode"}, {"model name", "model_name"},
	};
	char line[4096], vals[6][MACHINE_STR_MAX];
	cJSON *cpu = cJSON_CreateObject(), *caches;
	FILE *f = fopen("/proc/cpuinfo", "re");
	size_t i;

	*hypervisor_flag = false;
	for (i = 0; i < 6; i++)
		snprintf(vals[i], sizeof(vals[i]), "unknown");
	/* The first block only: every processor of one machine says the same. */
	while (f != NULL && fgets(line, sizeof(line), f) != NULL && line[0] != '\n') {
		char *colon = strchr(line, ':');
		size_t klen;

		if (colon == NULL)
			continue;
		for (klen = (size_t)(colon - line);
		     klen > 0 && (line[klen - 1] == ' ' || line[klen - 1] == '\t'); klen--)
			;
		if (klen == 5 && strncmp(line, "flags", 5) == 0)
			*hypervisor_flag = strstr(colon, " hypervisor") != NULL;
		for (i = 0; i < 6; i++)
			if (strlen(fields[i][0]) == klen &&
			    strncmp(line, fields[i][0], klen) == 0) {
				colon += strspn(colon + 1, " \t") + 1;
				snprintf(vals[i], sizeof(vals[i]), "%.*s",
					 (int)strcspn(colon, "\n"), colon);
			}
	}
	if (f != NULL)
		fclose(f);
	if (cpu == NULL)
		return NULL;
	for (i = 0; i < 6; i++)
		if (!machine_add(cpu, fields[i][1], vals[i]))
			goto oom;
	if ((caches = cJSON_AddObjectToObject(cpu, "caches")) == NULL)
		goto oom;
	for (i = 0; i < MACHINE_MAX_ENTRIES; i++) {
		char level[16], type[32], size[32], key[48];

		machine_cache(i, "level", level, sizeof(level));
		if (strcmp(level, "unknown") == 0)
			break;
		machine_cache(i, "type", type, sizeof(type));
		machine_cache(i, "size", size, sizeof(size));
		snprintf(key, sizeof(key), "L%s%s", level,
			 strcmp(type, "Data") == 0          ? "d"
			 : strcmp(type, "Instruction") == 0 ? "i"
							    : "");
		if (cJSON_GetObjectItemCaseSensitive(caches, key) == NULL &&
		    !machine_add(caches, key, size))
			goto oom;
	}
	return cpu;
oom:
	cJSON_Delete(cpu);
	return NULL;
}

static int machine_cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* mitigations: each file of the vulnerabilities directory, in name order (readdir's is not). */
static cJSON *machine_mitigations(void)
{
	static const char dir[] = "/sys/devices/system/cpu/vulnerabilities";
	char *names[MACHINE_MAX_ENTRIES];
	size_t n = 0, i;
	cJSON *o = cJSON_CreateObject();
	DIR *d = opendir(dir);
	struct dirent *e;
	bool ok = o != NULL;

	while (d != NULL && n < MACHINE_MAX_ENTRIES && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)) != NULL)
			n++;
	if (d != NULL)
		closedir(d);
	qsort(names, n, sizeof(*names), machine_cmp_names);
	for (i = 0; i < n; i++) {
		char path[sizeof(dir) + 256], text[MACHINE_STR_MAX];

		if (fileio_fmt(path, sizeof(path), "%s/%s", dir, names[i]) < 0)
			snprintf(text, sizeof(text), "unknown"); /* a name too long to read */
		else
			machine_line(path, text, sizeof(text));
		ok = ok && machine_add(o, names[i], text);
		free(names[i]);
	}
	if (!ok) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* Adds key: the hash of the id in the file at path, or "unknown". 0, or -1 out of memory. */
static int machine_add_id(cJSON *m, const char *key, const char *path, const char *label)
{
	char buf[MACHINE_STR_MAX], hash[MACHINE_HASH_HEX + 1] = "unknown";

	machine_line(path, buf, sizeof(buf));
	if (strcmp(buf, "unknown") != 0)
		machine_hash_id(label, buf, hash);
	memset(buf, 0, sizeof(buf)); /* only the hash is kept */
	return machine_add(m, key, hash) ? 0 : -1;
}

cJSON *machine_describe(void)
{
	cJSON *m = cJSON_CreateObject(), *o, *cpu, *mit;
	char buf[MACHINE_STR_MAX];
	struct utsname u;
	bool flag;

	if (m == NULL)
		return NULL;
	if (machine_add_id(m, "machine_id_sha256", "/etc/machine-id", MACHINE_ID_LABEL) != 0 ||
	    machine_add_id(m, "boot_id_sha256", "/proc/sys/kernel/random/boot_id",
			   MACHINE_BOOT_LABEL) != 0)
		goto oom;
	/* m adopts cpu and mit */
	if ((cpu = machine_cpu(&flag)) == NULL)
		goto oom;
	cJSON_AddItemToObject(m, "cpu", cpu);
	if ((mit = machine_mitigations()) == NULL)
		goto oom;
	cJSON_AddItemToObject(m, "mitigations", mit);
	machine_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", buf,
		     sizeof(buf));
	if (!machine_add(m, "clocksource", buf) || (o = cJSON_AddObjectToObject(m, "thp")) == NULL)
		goto oom;
	machine_choice("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf));
	if (!machine_add(o, "enabled", buf))
		goto oom;
	machine_choice("/sys/kernel/mm/transparent_hugepage/defrag", buf, sizeof(buf));
	if (!machine_add(o, "defrag", buf) ||
	    (o = cJSON_AddObjectToObject(m, "hypervisor")) == NULL ||
	    cJSON_AddBoolToObject(o, "cpuid_flag", flag) == NULL)
		goto oom;
	machine_line("/sys/hypervisor/type", buf, sizeof(buf));
	if (!machine_add(o, "type", buf))
		goto oom;
	machine_line("/sys/class/dmi/id/product_name", buf, sizeof(buf));
	if (!machine_add(o, "product", buf) || (o = cJSON_AddObjectToObject(m, "kernel")) == NULL)
		goto oom;
	if (uname(&u) != 0) {
		snprintf(u.release, sizeof(u.release), "unknown");
		snprintf(u.version, sizeof(u.version), "unknown");
	}
	if (!machine_add(o, "release", u.release) || !machine_add(o, "build", u.version))
		goto oom;
	return m;
oom:
	cJSON_Delete(m);
	return NULL;
}

static int machine_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int machine_add_load(cJSON *m, const struct contention_host *before, bool has_before,
		     const double *load1, const double *steal, size_t n)
{
	cJSON *load = cJSON_AddObjectToObject(m, "load"), *o;
	double *sorted = NULL, steal_sum = 0, steal_max = 0, load_max = 0, median;
	size_t i, k = 0;

	if (load == NULL)
		return -1;
	if (has_before) {
		if ((o = cJSON_AddObjectToObject(load, "before")) == NULL ||
		    cJSON_AddNumberToObject(o, "load1", before->load1) == NULL ||
		    cJSON_AddNumberToObject(o, "steal_since_boot",
					    before->total_ticks > 0
						? (double)before->steal_ticks /
						      (double)before->total_ticks
						: 0) == NULL)
			return -1;
	}
	if (n == 0)
		return 0;
	if ((sorted = malloc(n * sizeof(*sorted))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isfinite(load1[i]) || !isfinite(steal[i]))
			continue;
		sorted[k++] = load1[i];
		steal_sum += steal[i];
		steal_max = fmax(steal_max, steal[i]);
		load_max = fmax(load_max, load1[i]);
	}
	qsort(sorted, k, sizeof(*sorted), machine_cmp_double);
	median = k == 0 ? 0 : k % 2 ? sorted[k / 2] : (sorted[k / 2 - 1] + sorted[k / 2]) / 2;
	free(sorted);
	if ((o = cJSON_AddObjectToObject(load, "during")) == NULL ||
	    cJSON_AddNumberToObject(o, "points", (double)k) == NULL ||
	    cJSON_AddNumberToObject(o, "load1_median", median) == NULL ||
	    cJSON_AddNumberToObject(o, "load1_max", load_max) == NULL ||
	    cJSON_AddNumberToObject(o, "steal_mean", k > 0 ? steal_sum / (double)k : 0) == NULL ||
	    cJSON_AddNumberToObject(o, "steal_max", steal_max) == NULL)
		return -1;
	return 0;
}
