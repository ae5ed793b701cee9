/* errbuf: one-line error messages returned up the stack instead of printed. */
#include "errbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int errbuf_set(struct errbuf *eb, const char *fmt, ...)
{
	va_list ap;

	if (eb == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(eb->msg, sizeof(eb->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int errbuf_set_errno(struct errbuf *eb, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	if (eb == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(eb->msg, sizeof(eb->msg), fmt, ap);
	va_end(ap);
	len = strlen(eb->msg);
	snprintf(eb->msg + len, sizeof(eb->msg) - len, ": %s", strerror(errnum));
	return -1;
}

int errbuf_prefix(struct errbuf *eb, const char *fmt, ...)
{
	char prefix[ERRBUF_MSG_MAX];
	char old[ERRBUF_MSG_MAX];
	va_list ap;

	if (eb == NULL)
		return -1;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, eb->msg, sizeof(old));
	/* Truncation is acceptable: the message is for a human and stays one line. */
	size_t plen = strnlen(prefix, sizeof(eb->msg) - 1);
	memcpy(eb->msg, prefix, plen);
	snprintf(eb->msg + plen, sizeof(eb->msg) - plen, ": %s", old);
	return -1;
}
