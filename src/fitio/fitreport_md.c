/* fitreport_md: text from a file or the command line as Markdown (fitreport_write.h). */
#include "fitreport_write.h"

#include <stdio.h>
#include <string.h>

#include "sanitize.h"

void fitreport_md(FILE *f, const char *s)
{
	sanitize_fputs(s, SANITIZE_MARKDOWN, f);
}

void fitreport_md_code(FILE *f, const char *s)
{
	if (strchr(s, '`') != NULL) {
		fitreport_md(f, s);
		return;
	}
	fputc('`', f);
	sanitize_fputs(s, SANITIZE_TEXT, f);
	fputc('`', f);
}

void fitreport_md_target(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '.' || c == '_' || c == '-' || c == '+' || c == '/')
			fputc(c, f);
		else
			fprintf(f, "%%%02X", c);
	}
}
