/* labgroups: meta.lab's groups of a mixed lab, as Markdown rows and a report section. */
#include "jsonget.h"
#include "labgroups.h"

#include <stdlib.h>
#include <string.h>

#include "growbuf.h"
#include "sanitize.h"

/* The group's hosts ("a, b") or values ("key value; ...") into buf, made safe. */
static void group_text(const cJSON *grp, bool values, char *buf, size_t cap)
{
	char raw[LABGROUPS_TEXT_MAX] = "";
	const cJSON *it;
	size_t len = 0;

	cJSON_ArrayForEach(it, jsonget_member(grp, values ? "values" : "hosts"))
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
	const cJSON *lab = jsonget_member(jsonget_member(root, "meta"), "lab");
	const cJSON *grp;
	char hosts[LABGROUPS_TEXT_MAX], values[LABGROUPS_TEXT_MAX], name[64];
	struct errbuf unused; /* the caller says "out of memory" */
	struct growbuf b;

	if (!cJSON_IsObject(lab) || cJSON_IsTrue(jsonget_member(lab, "identical")))
		return 0;
	growbuf_init(&b, LABGROUPS_MD_MAX_BYTES);
	if (*md != NULL && growbuf_puts(&b, *md, &unused) < 0)
		goto fail;
	cJSON_ArrayForEach(grp, jsonget_member(lab, "groups"))
	{
		const cJSON *g = jsonget_member(grp, "group");
		sanitize_markdown(name, sizeof(name), cJSON_IsString(g) ? g->valuestring : "?");
		group_text(grp, false, hosts, sizeof(hosts));
		group_text(grp, true, values, sizeof(values));
		if (growbuf_printf(&b, &unused, "| %s | %s | %s |\n", name, hosts, values) < 0)
			goto fail;
	}
	if (b.len == 0) { /* no group: *md stays as it was (NULL: no section) */
		growbuf_free(&b);
		return 0;
	}
	free(*md);
	*md = growbuf_release(&b, NULL);
	return 0;
fail:
	growbuf_free(&b);
	return -1;
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
