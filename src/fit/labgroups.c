/* labgroups: meta.lab's groups of a mixed lab, as Markdown rows and a report section. */
#include "labgroups.h"

#include <stdlib.h>
#include <string.h>

#include "sanitize.h"

/* Appends s (already safe Markdown) to *md. */
static int append(char **md, const char *s)
{
	size_t old = *md ? strlen(*md) : 0, n = strlen(s);
	char *p = realloc(*md, old + n + 1);

	if (p == NULL)
		return -1;
	memcpy(p + old, s, n + 1);
	*md = p;
	return 0;
}

/* The group's hosts ("a, b") or values ("key value; ...") into buf, made safe. */
static void group_text(const cJSON *grp, bool values, char *buf, size_t cap)
{
	char raw[LABGROUPS_TEXT_MAX] = "";
	const cJSON *it;
	size_t len = 0;

	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(grp, values ? "values" : "hosts"))
	{
		const char *v = cJSON_IsString(it) ? it->valuestring : "?";
		int n;
		if (values)
			n = snprintf(raw + len, sizeof(raw) - len, "%s%s %s", len ? "; " : "",
				     it->string ? it->string : "?", v);
		else
			n = snprintf(raw + len, sizeof(raw) - len, "%s%s", len ? ", " : "", v);
		if (n < 0 || (size_t)n >= sizeof(raw) - len)
			break; /* cut: the report shows what fits */
		len += (size_t)n;
	}
	sanitize_markdown(buf, cap, raw);
}

int labgroups_read(const cJSON *root, char **md)
{
	const cJSON *lab =
	    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "meta"), "lab");
	const cJSON *grp;
	char hosts[LABGROUPS_TEXT_MAX], values[LABGROUPS_TEXT_MAX], name[64];
	char *row;

	if (!cJSON_IsObject(lab) ||
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(lab, "identical")))
		return 0;
	cJSON_ArrayForEach(grp, cJSON_GetObjectItemCaseSensitive(lab, "groups"))
	{
		const cJSON *g = cJSON_GetObjectItemCaseSensitive(grp, "group");
		sanitize_markdown(name, sizeof(name), cJSON_IsString(g) ? g->valuestring : "?");
		group_text(grp, false, hosts, sizeof(hosts));
		group_text(grp, true, values, sizeof(values));
		row = malloc(strlen(name) + strlen(hosts) + strlen(values) + 16);
		if (row == NULL)
			return -1;
		snprintf(row, strlen(name) + strlen(hosts) + strlen(values) + 16,
			 "| %s | %s | %s |\n", name, hosts, values);
		if (append(md, row) < 0) {
			free(row);
			return -1;
		}
		free(row);
	}
	return 0;
}

void labgroups_print_markdown(const char *md, FILE *f)
{
	if (md == NULL)
		return;
	fputs("\n## Hosts: a mixed lab\n\n"
	      "rarlab ran these hosts with --allow-mixed: they differ in what the groups below "
	      "show, so the spread between hosts is not noise alone. Compare hosts within a "
	      "group.\n\n"
	      "| group | hosts | what differs |\n|---|---|---|\n",
	      f);
	fputs(md, f);
}
