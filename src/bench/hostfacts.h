/* hostfacts: what the measuring host is (CPU, memory, kernel, virtualization, governor). */
#ifndef RARPERF_HOSTFACTS_H
#define RARPERF_HOSTFACTS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "errbuf.h"

#define HOSTFACTS_STR_MAX 256

/* Unknown string fields hold "unknown"; unknown numbers are 0. */
struct hostfacts {
	char hostname[HOSTFACTS_STR_MAX];
	char kernel[HOSTFACTS_STR_MAX]; /* "Linux 6.1.0-18-amd64 #1 SMP ... x86_64" */
	char cpu_model[HOSTFACTS_STR_MAX];
	long cpus; /* online CPUs */
	uint64_t mem_bytes;
	char virtualization[HOSTFACTS_STR_MAX]; /* "none", "kvm", "docker", ... */
	char governor[HOSTFACTS_STR_MAX];       /* cpu0's cpufreq governor */
};

/*
 * Fills hf from uname, /proc/cpuinfo, /proc/meminfo, systemd-detect-virt
 * (when installed; else /sys/class/dmi/id and the cpuinfo hypervisor flag)
 * and /sys/devices/system/cpu/cpu0/cpufreq. A fact that cannot be read is
 * "unknown" rather than an error. Never fails.
 */
void hostfacts_collect(struct hostfacts *hf);

/*
 * hf as a new JSON object {"hostname","kernel","cpu_model","cpus",
 * "mem_bytes","virtualization","governor"} (caller deletes), or NULL when
 * out of memory.
 */
cJSON *hostfacts_to_json(const struct hostfacts *hf);

#endif
