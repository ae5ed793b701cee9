/* host_outcome: the outcome names and the setter of a host's end. */
#include "host_outcome.h"

#include <stdarg.h>
#include <stdio.h>

int host_end_set(struct host_end *end, enum host_outcome outcome, const char *fmt, ...)
{
	va_list ap;

	end->outcome = outcome;
	end->exit_code = 0;
	if (fmt == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(end->eb.msg, sizeof(end->eb.msg), fmt, ap);
	va_end(ap);
	return -1;
}

const char *host_outcome_name(enum host_outcome o, int exit_code, char *buf, size_t cap)
{
	/* the one table of outcome names */
	static const char *const names[] = {"ok",      "connect", "hostkey",     "auth",   "exec",
					    "timeout", "exit",    "interrupted", "results"};

	if (o == HOST_EXIT)
		snprintf(buf, cap, "exit=%d", exit_code);
	else
		snprintf(buf, cap, "%s",
			 (unsigned)o < sizeof(names) / sizeof(names[0]) ? names[o] : "?");
	return buf;
}
