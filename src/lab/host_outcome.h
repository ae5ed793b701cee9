/* host_outcome: how a host ended (the one outcome enum) and the end a job hands to the pool. */
#ifndef RARPERF_HOST_OUTCOME_H
#define RARPERF_HOST_OUTCOME_H

#include <stddef.h>

#include "errbuf.h"

/*
 * A host's outcome (STYLE 10). sshx reports its failures in it too (a call
 * that did not fail leaves HOST_OK), so no second list maps onto it.
 */
enum host_outcome {
	HOST_OK,
	HOST_CONNECT,     /* TCP, key exchange, lost connection */
	HOST_HOSTKEY,     /* unknown (without accept_new), changed or unreadable host key */
	HOST_AUTH,        /* no key accepted */
	HOST_EXEC,        /* channel, SFTP, a local step or the event stream failed */
	HOST_TIMEOUT,     /* connect or command timeout */
	HOST_EXIT,        /* the remote run exited with a non-zero status */
	HOST_INTERRUPTED, /* stopped by SIGINT or SIGTERM */
	HOST_RESULTS,     /* the run ended, but its results are missing or unusable */
};

/*
 * What a job (or a step of one) returns: the outcome and why. The pool
 * stores eb.msg sanitised (hostpool.h); exit_code is read for HOST_EXIT only.
 */
struct host_end {
	enum host_outcome outcome;
	int exit_code;
	struct errbuf eb;
};

/*
 * Sets end's outcome (exit code 0) and formats its message (fmt NULL: keeps
 * the message a callee already put in end->eb); returns -1, so a step can
 * `return host_end_set(end, HOST_EXEC, "...")`.
 */
int host_end_set(struct host_end *end, enum host_outcome outcome, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "ok", "connect", ..., "exit=N" into buf. */
const char *host_outcome_name(enum host_outcome o, int exit_code, char *buf, size_t cap);

#endif
