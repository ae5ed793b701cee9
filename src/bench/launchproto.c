/* launchproto: the messages between rarbench and rarlaunch, the process measured runs start from.
 */
#include "launchproto.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Errno values a reply may carry (Linux's largest is below 200). */
#define LAUNCH_ERRNO_MAX 4095

static size_t launch_strv_len(char *const *v, size_t *bytes)
{
	size_t n = 0;

	for (; v != NULL && v[n] != NULL; n++)
		*bytes += strlen(v[n]) + 1;
	return n;
}

static unsigned char *launch_put_str(unsigned char *p, const char *s)
{
	size_t n = strlen(s) + 1;

	memcpy(p, s, n);
	return p + n;
}

int launch_req_build(const struct launch_spec *spec, unsigned char **out, size_t *len,
		     struct errbuf *eb)
{
	struct launch_req_hdr h;
	size_t strings = strlen(spec->path) + 1, nargv, nenv, total;
	unsigned char *buf, *p;

	*out = NULL;
	/* rarlaunch's parser refuses these too but can answer only EPROTO: said here, by name. */
	if (spec->path[0] != '/')
		return errbuf_set(eb, "program path '%s' is not absolute", spec->path);
	if (spec->argv == NULL || spec->argv[0] == NULL)
		return errbuf_set(eb, "empty command");
	nargv = launch_strv_len(spec->argv, &strings);
	nenv = launch_strv_len(spec->envp, &strings);
	if (spec->cwd != NULL)
		strings += strlen(spec->cwd) + 1;
	if (nargv + nenv > LAUNCH_STRV_MAX || spec->n_groups > LAUNCH_GROUPS_MAX ||
	    spec->nlimits > LAUNCH_LIMITS_MAX)
		return errbuf_set(eb,
				  "the command has more than %u arguments and variables or %u "
				  "groups",
				  LAUNCH_STRV_MAX, LAUNCH_GROUPS_MAX);
	total = sizeof(h) + spec->n_groups * sizeof(uint32_t) + strings;
	if (total > LAUNCH_REQ_MAX_BYTES)
		return errbuf_set(eb,
				  "the command, its environment and groups take more than %u KiB",
				  LAUNCH_REQ_MAX_BYTES / 1024);
	memset(&h, 0, sizeof(h));
	h.magic = LAUNCH_REQ_MAGIC;
	h.kind = LAUNCH_RUN;
	h.flags = spec->flags | (spec->cwd != NULL ? LAUNCH_F_CWD : 0) |
		  (spec->cpus != NULL ? LAUNCH_F_CPUS : 0);
	h.timeout_ms = spec->timeout_ms;
	h.uid = spec->uid;
	h.gid = spec->gid;
	h.n_groups = (uint32_t)spec->n_groups;
	h.nargv = (uint32_t)nargv;
	h.nenv = (uint32_t)nenv;
	h.nlimits = (uint32_t)spec->nlimits;
	h.umask = spec->umask;
	if (spec->nlimits > 0)
		memcpy(h.limits, spec->limits, spec->nlimits * sizeof(*spec->limits));
	if (spec->cpus != NULL)
		h.cpus = *spec->cpus;
	h.strings_len = (uint32_t)strings;
	buf = malloc(total);
	if (buf == NULL)
		return errbuf_set(eb, "out of memory");
	memcpy(buf, &h, sizeof(h));
	p = buf + sizeof(h);
	for (size_t i = 0; i < spec->n_groups; i++) {
		uint32_t g = spec->groups[i];

		memcpy(p, &g, sizeof(g));
		p += sizeof(g);
	}
	p = launch_put_str(p, spec->path);
	for (size_t i = 0; i < nargv; i++)
		p = launch_put_str(p, spec->argv[i]);
	for (size_t i = 0; i < nenv; i++)
		p = launch_put_str(p, spec->envp[i]);
	if (spec->cwd != NULL)
		launch_put_str(p, spec->cwd);
	*out = buf;
	*len = total;
	return 0;
}

void launch_req_set_seq(unsigned char *req, uint32_t seq)
{
	memcpy(req + offsetof(struct launch_req_hdr, seq), &seq, sizeof(seq));
}

/* The descriptors the flags announce. */
static size_t launch_fds_of(uint32_t flags)
{
	return !!(flags & LAUNCH_F_IN) + !!(flags & LAUNCH_F_OUT) + !!(flags & LAUNCH_F_ERR) +
	       !!(flags & LAUNCH_F_MNTNS);
}

/* The next NUL-terminated string of [*p, end) into *s; -1 when none ends before end. */
static int launch_take_str(const unsigned char **p, const unsigned char *end, const char **s)
{
	const unsigned char *nul = memchr(*p, '\0', (size_t)(end - *p));

	if (nul == NULL)
		return -1;
	*s = (const char *)*p;
	*p = nul + 1;
	return 0;
}

int launch_req_parse(const unsigned char *buf, size_t len, size_t nfds, struct launch_job *job,
		     char **strv, struct errbuf *eb)
{
	struct launch_req_hdr h;
	const unsigned char *p, *end;
	size_t groups_bytes;

	if (len < sizeof(h) || len > LAUNCH_REQ_MAX_BYTES)
		return errbuf_set(eb, "request of %zu bytes", len);
	memcpy(&h, buf, sizeof(h));
	if (h.magic != LAUNCH_REQ_MAGIC || h.kind != LAUNCH_RUN)
		return errbuf_set(eb, "request: bad magic or kind");
	if ((h.flags & ~LAUNCH_F_ALL) != 0 || launch_fds_of(h.flags) != nfds)
		return errbuf_set(eb, "request: flags 0x%x with %zu descriptors", h.flags, nfds);
	if (h.n_groups > LAUNCH_GROUPS_MAX || h.nlimits > LAUNCH_LIMITS_MAX || h.nargv == 0 ||
	    h.nargv > LAUNCH_STRV_MAX || h.nenv > LAUNCH_STRV_MAX - h.nargv)
		return errbuf_set(eb, "request: counts out of range");
	groups_bytes = (size_t)h.n_groups * sizeof(uint32_t);
	if (len - sizeof(h) < groups_bytes || h.strings_len != len - sizeof(h) - groups_bytes)
		return errbuf_set(eb, "request: lengths do not add up");
	memset(job, 0, sizeof(*job));
	job->seq = h.seq;
	job->flags = h.flags;
	job->timeout_ms = h.timeout_ms;
	job->uid = h.uid;
	job->gid = h.gid;
	job->n_groups = h.n_groups;
	/* gid_t is uint32_t on Linux: the groups are used in place when aligned. */
	job->groups = (const gid_t *)(const void *)(buf + sizeof(h));
	p = buf + sizeof(h) + groups_bytes;
	end = buf + len;
	if (launch_take_str(&p, end, &job->path) < 0 || job->path[0] != '/')
		return errbuf_set(eb, "request: no absolute program path");
	for (size_t i = 0; i < (size_t)h.nargv + h.nenv; i++)
		if (launch_take_str(&p, end, (const char **)&strv[i + (i >= h.nargv)]) < 0)
			return errbuf_set(eb, "request: string %zu not terminated", i);
	strv[h.nargv] = NULL;
	strv[h.nargv + 1 + h.nenv] = NULL;
	job->argv = strv;
	job->envp = strv + h.nargv + 1;
	if (h.flags & LAUNCH_F_CWD) {
		if (!(h.flags & LAUNCH_F_PIN) || launch_take_str(&p, end, &job->cwd) < 0)
			return errbuf_set(eb, "request: cwd missing");
	}
	if (p != end)
		return errbuf_set(eb, "request: %zu bytes after the strings", (size_t)(end - p));
	job->nlimits = h.nlimits;
	job->limits =
	    (const struct launch_limit *)(const void *)(buf +
							offsetof(struct launch_req_hdr, limits));
	job->umask = h.umask < 0 ? -1 : (h.umask & 0777);
	job->cpus =
	    (h.flags & LAUNCH_F_CPUS)
		? (const cpu_set_t *)(const void *)(buf + offsetof(struct launch_req_hdr, cpus))
		: NULL;
	return 0;
}

int launch_reply_parse(const void *buf, size_t len, uint32_t magic, uint32_t seq,
		       struct launch_reply *out, struct errbuf *eb)
{
	struct launch_reply r;

	if (len != sizeof(r))
		return errbuf_set(eb, "reply of %zu bytes, not %zu", len, sizeof(r));
	memcpy(&r, buf, sizeof(r));
	if (r.magic != magic)
		return errbuf_set(eb, "reply: bad magic 0x%08x", r.magic);
	if (r.version != LAUNCH_PROTO_VERSION)
		return errbuf_set(eb,
				  "reply of protocol version %u, not %u (bin/rarlaunch from "
				  "another build)",
				  r.version, LAUNCH_PROTO_VERSION);
	if (r.seq != seq)
		return errbuf_set(eb, "reply to request %u, not %u", r.seq, seq);
	if ((r.flags & ~LAUNCH_R_ALL) != 0)
		return errbuf_set(eb, "reply: unknown flags 0x%x", r.flags);
	if (r.stall_err < 0 || r.stall_err > LAUNCH_ERRNO_MAX)
		return errbuf_set(eb, "reply: stall errno %d", r.stall_err);
	/* rarlaunch bounds a stall by the run's wall time; none without the kernel's account. */
	if ((!(r.flags & LAUNCH_R_STALL) && r.stall_ns != 0) ||
	    (magic == LAUNCH_REPLY_MAGIC && r.stall_ns > r.wall_ns))
		return errbuf_set(eb, "reply: stall of %llu ns in a run of %llu ns",
				  (unsigned long long)r.stall_ns, (unsigned long long)r.wall_ns);
	if (r.err < 0 || r.err > LAUNCH_ERRNO_MAX ||
	    ((r.flags & (LAUNCH_R_EXEC_FAILED | LAUNCH_R_SPAWN_FAILED)) != 0 && r.err == 0))
		return errbuf_set(eb, "reply: errno %d", r.err);
	if (magic == LAUNCH_REPLY_MAGIC && !(r.flags & LAUNCH_R_SPAWN_FAILED) &&
	    !WIFEXITED(r.status) && !WIFSIGNALED(r.status))
		return errbuf_set(eb, "reply: wait status 0x%x is neither an exit nor a signal",
				  (unsigned)r.status);
	if (magic == LAUNCH_REPLY_MAGIC && r.pid == 0 && !(r.flags & LAUNCH_R_SPAWN_FAILED))
		return errbuf_set(eb, "reply: no pid");
	*out = r;
	return 0;
}
