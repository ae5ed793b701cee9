/* machine: which machine this is (its ids, hashed) and what could make it differ from another
 * (CPU, caches, mitigations, clocksource, huge pages, hypervisor, kernel, load and steal). */
#ifndef RARPERF_MACHINE_H
#define RARPERF_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "contention.h"

/* Ids are hashed as SHA-256(label + value), kept to this many hex digits (64 bits). */
#define MACHINE_HASH_HEX 16
#define MACHINE_ID_LABEL "rarperf machine-id\n"
#define MACHINE_BOOT_LABEL "rarperf boot-id\n"

/*
 * The hash of one id: the first MACHINE_HASH_HEX hex digits of SHA-256(label value), the value
 * without its trailing newline, into out. Pure: the raw id never leaves this function.
 */
void machine_hash_id(const char *label, const char *value, char out[MACHINE_HASH_HEX + 1]);

/*
 * This machine described, a new JSON object (caller deletes; NULL out of memory):
 *   machine_id_sha256, boot_id_sha256  the hashed /etc/machine-id and boot id ("unknown")
 *   cpu         {vendor, family, model, stepping, microcode, model_name} of /proc/cpuinfo's
 *               first processor, and caches {"L1d": "32K", ...} of cpu0 (sysfs)
 *   mitigations {name: the kernel's words} of /sys/devices/system/cpu/vulnerabilities
 *   clocksource the current one; thp {enabled, defrag}: the bracketed choice of each
 *   hypervisor  {cpuid_flag: the cpuinfo "hypervisor" flag, type: /sys/hypervisor/type,
 *               product: the DMI product name}, each "unknown" when unreadable
 *   kernel      {release, build} (uname -r, uname -v)
 * What cannot be read is "unknown" (or left out for a list), never an error.
 */
cJSON *machine_describe(void);

/*
 * Adds "load" to m: {"before": {"load1", "steal_since_boot"}} from the snapshot before (when
 * has_before), and {"during": {"points", "load1_median", "load1_max", "steal_mean",
 * "steal_max"}} over the n points' load1[i] and steal[i] (the sweep's per-point records; omitted
 * when n is 0). Returns 0, or -1 out of memory.
 */
int machine_add_load(cJSON *m, const struct contention_host *before, bool has_before,
		     const double *load1, const double *steal, size_t n);

#endif
