/* policy_rar_json: writes a policy as RootAsRole's single-file JSON (settings and policy together). */
#ifndef RARPERF_POLICY_RAR_JSON_H
#define RARPERF_POLICY_RAR_JSON_H

#include <stdio.h>

#include "policy.h"

/*
 * Writes p's RootAsRole side to path atomically: version, storage (method
 * json, settings.path = path made absolute), options (authentication skip)
 * and roles, mode 0644, owner root:root when running as root. Strings are
 * escaped by cJSON; the document is streamed, never held whole in memory.
 * An immutable target (chattr +i) is cleared first or the error says why
 * it cannot be. Refuses /etc/security/rootasrole.json.
 * Returns 0, or -1 with eb filled and path untouched.
 */
int policy_write_rar_json(const struct policy *p, const char *path, struct errbuf *eb);

/*
 * Streams p's "options" and "roles" members (without the surrounding
 * braces) to out; used by policy_write_rar_json and by tests. Returns 0 or
 * -1 on a write error.
 */
int policy_rar_json_stream_body(const struct policy *p, FILE *out, struct errbuf *eb);

#endif
