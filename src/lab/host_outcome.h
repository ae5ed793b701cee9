/* host_outcome: how a host ended (the one outcome enum) and the end a job hands to the pool. */
#ifndef RARPERF_HOST_OUTCOME_H
#define RARPERF_HOST_OUTCOME_H

#include <stddef.h>

#include "errbuf.h"

/*
 * A host's outcome (STYLE 10), each beside the name rarlab prints for it (HOST_EXIT as
 * "exit=N"): the enum and host_outcome_name are both made from this one list, in its order.
 * sshx reports its failures in it too (a call that did not fail leaves HOST_OK), so no second
 * list maps onto it.
 */
#define HOST_OUTCOMES(X)                                                                           \
	X(HOST_OK, ok)                                                                             \
	X(HOST_CONNECT, connect)         /* TCP, key exchange, lost connection */                  \
	X(HOST_HOSTKEY, hostkey)         /* unknown (without accept_new), changed or unreadable */ \
	X(HOST_AUTH, auth)               /* no key accepted */                                     \
	X(HOST_EXEC, exec)               /* channel, SFTP, a local step or the event stream */     \
	X(HOST_TIMEOUT, timeout)         /* connect or command timeout */                          \
	X(HOST_EXIT, exit)               /* the remote run exited with a non-zero status */        \
	X(HOST_INTERRUPTED, interrupted) /* stopped by SIGINT or SIGTERM */                        \
	X(HOST_RESULTS, results)         /* the run ended, its results missing or unusable */

enum host_outcome {
#define HOST_OUTCOME_ENUM(outcome, name) outcome,
	HOST_OUTCOMES(HOST_OUTCOME_ENUM)
#undef HOST_OUTCOME_ENUM
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
