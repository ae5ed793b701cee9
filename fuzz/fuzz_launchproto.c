/* fuzz_launchproto: libFuzzer target for the messages between rarbench and rarlaunch
 * (launchproto.h): a reply rarbench reads and a request rarlaunch reads. Whatever either parser
 * accepts stays inside the message: every string ends inside it, counts are within bounds. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>

#include "launchproto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char msg[LAUNCH_REQ_MAX_BYTES + 1] __attribute__((aligned(16)));
static char *strv[LAUNCH_STRV_MAX + 2];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct launch_reply r;
	struct launch_job job;
	struct errbuf eb = {{0}};
	size_t nfds;

	if (size < 1 || size - 1 > LAUNCH_REQ_MAX_BYTES)
		return 0;
	nfds = data[0] % (LAUNCH_FDS_MAX + 1);
	memcpy(msg, data + 1, size - 1);
	if (launch_reply_parse(msg, size - 1, LAUNCH_REPLY_MAGIC, 7, &r, &eb) == 0) {
		if (r.seq != 7 || r.magic != LAUNCH_REPLY_MAGIC || (r.flags & ~LAUNCH_R_ALL) != 0 ||
		    (!(r.flags & LAUNCH_R_SPAWN_FAILED) && !WIFEXITED(r.status) &&
		     !WIFSIGNALED(r.status)))
			__builtin_trap();
	} else if (eb.msg[0] == '\0') {
		__builtin_trap();
	}
	if (launch_req_parse(msg, size - 1, nfds, &job, strv, &eb) != 0)
		return 0;
	if (job.nlimits > LAUNCH_LIMITS_MAX || job.n_groups > LAUNCH_GROUPS_MAX ||
	    job.path[0] != '/')
		__builtin_trap();
	for (size_t i = 0; job.argv[i] != NULL; i++)
		if ((const unsigned char *)job.argv[i] < msg ||
		    (const unsigned char *)job.argv[i] + strlen(job.argv[i]) >= msg + size - 1)
			__builtin_trap();
	for (size_t i = 0; job.envp[i] != NULL; i++)
		if ((const unsigned char *)job.envp[i] + strlen(job.envp[i]) >= msg + size - 1)
			__builtin_trap();
	return 0;
}
