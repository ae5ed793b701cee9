/* manifest_defaults: a subject's program and policy files when the manifest does not name them,
 * as the playbook installs them: the release (per format), another RootAsRole version
 * (rar_version), or a build from a source tree (build: "dev" or "dev-NAME"). */
#include "manifest_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "digest.h"
#include "fileio.h"

/* Indexed by enum policy_format. */
static const char *const default_program[] = {
    "{prefix}/bin/sudo",      "{prefix}/bin/doas",   "{prefix}/bin/dosr-json",
    "{prefix}/bin/dosr-cbor", "{prefix}/bin/please", "{prefix}/bin/pkexec"};
static const char *const default_policy[] = {
    "{prefix}/etc/sudoers",          "{prefix}/etc/doas.conf",
    "{prefix}/etc/rootasrole-json.json", "{prefix}/etc/rootasrole-cbor.json",
    "{prefix}/etc/please.ini",       "{prefix}/etc/polkit-1/rules.d/50-rarperf.rules"};
/* One entry per format: a format added to enum policy_format needs its defaults here. */
_Static_assert(sizeof(default_program) / sizeof(*default_program) == POLICY_FORMAT_COUNT,
	       "default_program: one entry per policy format");
_Static_assert(sizeof(default_policy) / sizeof(*default_policy) == POLICY_FORMAT_COUNT,
	       "default_policy: one entry per policy format");
/* please reads only this path (fixed in its source, src/bin/please.rs): the runner shows the
 * prefix's file there in the subject's private mount namespace (roles/rarperf_please). */
#define MANIFEST_PLEASE_MOUNT_AT "/etc/please.ini"

static int set_default(struct manifest_ctx *c, char **field, const char *value, const char *p)
{
	if (*field != NULL)
		return 0;
	*field = strdup(value);
	return *field == NULL ? manifest_fail(c, p, "out of memory") : 0;
}

int manifest_check_build(struct manifest_ctx *c, const char *build, const char *p)
{
	const char *name = build + 3;
	char b[48];
	size_t i, len = strlen(build);

	if (strncmp(build, "dev", 3) != 0 || (name[0] != '\0' && name[0] != '-') ||
	    strcmp(build, "dev-") == 0 || len > MANIFEST_BUILD_LEN_MAX)
		goto bad;
	for (i = 1; name[0] != '\0' && name[i] != '\0'; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') ||
		      name[i] == '_' || name[i] == '.'))
			goto bad;
	return 0;
bad:
	return manifest_fail(c, p,
			     "\"%s\": expected \"dev\" or \"dev-NAME\" (NAME of a-z, 0-9, '_' and "
			     "'.', at most %d characters in all), as make provision-dev names it",
			     manifest_shown(build, b), MANIFEST_BUILD_LEN_MAX);
}

/*
 * RootAsRole's program, policy and (CBOR) data files for v, another version than the main
 * one, as the playbook names them.
 */
static int rar_defaults(struct manifest_ctx *c, struct manifest_subject *s, const char *v,
			const char *p)
{
	const char *kind = policy_format_rar_storage(s->format);
	char prog[96], pol[96], data[96], shown[48];

	if (fileio_fmt(prog, sizeof(prog), "{prefix}/bin/dosr-%s-%s", v, kind) < 0 ||
	    fileio_fmt(pol, sizeof(pol), "{prefix}/etc/rootasrole-%s-%s.json", v, kind) < 0 ||
	    fileio_fmt(data, sizeof(data), "{prefix}/etc/rootasrole-%s-cbor.bin", v) < 0)
		return manifest_fail(c, p, "\"%s\": too long for a file name",
				     manifest_shown(v, shown));
	if (set_default(c, &s->program, prog, p) < 0 || set_default(c, &s->policy, pol, p) < 0 ||
	    (s->format == POLICY_FORMAT_RAR_CBOR && set_default(c, &s->policy_data, data, p) < 0))
		return -1;
	return 0;
}

/*
 * A source tree's dosr reads files whose paths are exactly as long as those of the release of
 * its version (rootasrole-cbor.json for the main version, rootasrole-4.0.3-cbor.json for
 * another), because the paths are baked into the binary and their length moves its code: an
 * A/A of a tree against its own release must not compare two code layouts (doc/guide-ci.md).
 * In place of the release's tag, "d" and the start of the SHA-256 of "BUILD-STORAGE", as
 * roles/rarperf_rootasrole/tasks/dev.yml names them: rootasrole-d<hex>.json (and .bin).
 */
static int rar_build_defaults(struct manifest_ctx *c, struct manifest_subject *s, const char *p)
{
	const char *kind = policy_format_rar_storage(s->format);
	const char *v = s->rar_version != NULL ? s->rar_version : POLICY_RAR_VERSION;
	char name[96], hash[DIGEST_SHA256_HEX_LEN + 1], release_tag[64], tag[64];
	char prog[96], pol[96], data[96], shown[48];
	size_t n;

	if (fileio_fmt(name, sizeof(name), "%s-%s", s->build, kind) < 0 ||
	    fileio_fmt(release_tag, sizeof(release_tag), "%s%s%s",
		       strcmp(v, POLICY_RAR_VERSION) == 0 ? "" : v,
		       strcmp(v, POLICY_RAR_VERSION) == 0 ? "" : "-", kind) < 0)
		return manifest_fail(c, p, "\"%s\": too long for a file name",
				     manifest_shown(s->build, shown));
	digest_sha256_hex(name, strlen(name), hash);
	n = strlen(release_tag) - 1; /* at most 17 + 1 + 4 - 1 characters of 64 */
	if (fileio_fmt(tag, sizeof(tag), "d%.*s", (int)n, hash) < 0 ||
	    fileio_fmt(prog, sizeof(prog), "{prefix}/bin/dosr-%s-%s", s->build, kind) < 0 ||
	    fileio_fmt(pol, sizeof(pol), "{prefix}/etc/rootasrole-%s.json", tag) < 0 ||
	    fileio_fmt(data, sizeof(data), "{prefix}/etc/rootasrole-%s.bin", tag) < 0)
		return manifest_fail(c, p, "\"%s\": too long for a file name",
				     manifest_shown(s->build, shown));
	if (set_default(c, &s->program, prog, p) < 0 || set_default(c, &s->policy, pol, p) < 0 ||
	    (s->format == POLICY_FORMAT_RAR_CBOR && set_default(c, &s->policy_data, data, p) < 0))
		return -1;
	return 0;
}

/* The files of build (a source tree's) for s's format, as the playbook names them. */
static int build_defaults(struct manifest_ctx *c, struct manifest_subject *s, const char *p)
{
	const char *b = s->build;

	if (s->format == POLICY_FORMAT_SUDOERS || s->format == POLICY_FORMAT_DOAS) {
		const char *tool = policy_format_program(s->format);
		const char *file = s->format == POLICY_FORMAT_SUDOERS ? "sudoers" : "doas.conf";
		char prog[96], pol[96], shown[48];

		if (fileio_fmt(prog, sizeof(prog), "{prefix}/bin/%s-%s", tool, b) < 0 ||
		    fileio_fmt(pol, sizeof(pol), "{prefix}/etc/%s-%s/%s", tool, b, file) < 0)
			return manifest_fail(c, p, "\"%s\": too long for a file name",
					     manifest_shown(b, shown));
		return set_default(c, &s->program, prog, p) < 0 ||
			       set_default(c, &s->policy, pol, p) < 0
			   ? -1
			   : 0;
	}
	return rar_build_defaults(c, s, p);
}

int manifest_subject_defaults(struct manifest_ctx *c, struct manifest_subject *s, const char *p)
{
	int fmt = (int)s->format;

	if (s->build != NULL && build_defaults(c, s, p) < 0)
		return -1;
	if (s->rar_version != NULL && strcmp(s->rar_version, POLICY_RAR_VERSION) != 0) {
		/* Another version's build and files, named as the playbook installs them. */
		if (rar_defaults(c, s, s->rar_version, p) < 0)
			return -1;
	}
	if (set_default(c, &s->program, default_program[fmt], p) < 0 ||
	    set_default(c, &s->policy, default_policy[fmt], p) < 0)
		return -1;
	if (s->format == POLICY_FORMAT_RAR_CBOR &&
	    set_default(c, &s->policy_data, "{prefix}/etc/rootasrole-cbor.bin", p) < 0)
		return -1;
	if (s->format == POLICY_FORMAT_PLEASE &&
	    set_default(c, &s->policy_mount_at, MANIFEST_PLEASE_MOUNT_AT, p) < 0)
		return -1;
	return 0;
}
