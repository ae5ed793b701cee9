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
	/* The names as host_outcome.h's list spells them, each at its outcome's place. */
	static const char *const names[] = {
#define HOST_OUTCOME_NAME(outcome, name) [outcome] = #name,
	    HOST_OUTCOMES(HOST_OUTCOME_NAME)
#undef HOST_OUTCOME_NAME
	};

	if (o == HOST_EXIT)
		snprintf(buf, cap, "exit=%d", exit_code);
	else
		snprintf(buf, cap, "%s",
			 (unsigned)o < sizeof(names) / sizeof(names[0]) ? names[o] : "?");
	return buf;
}
