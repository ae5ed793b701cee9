/* labgroups: a mixed lab's groups of hosts (rarlab --allow-mixed, merged.json meta.lab) for
 * reports.
 */
#ifndef RARPERF_LABGROUPS_H
#define RARPERF_LABGROUPS_H

#include <stdio.h>

#include <cJSON.h>
#include <stdbool.h>

#define LABGROUPS_TEXT_MAX 4096 /* one group's hosts or values, as shown; longer is cut */

/*
 * Reads meta.lab of a rarlab merged.json (root: the document) and appends
 * one Markdown table row per group, "| g1 | host, host | key value; ... |",
 * to *md (grown with realloc, owned by the caller; texts through
 * sanitize_markdown). A lab that was identical, or no meta.lab, adds
 * nothing. Returns 0, or -1 when out of memory.
 */
int labgroups_read(const cJSON *root, char **md);

/* Prints the report section for the rows of labgroups_read (nothing when md is NULL). */
void labgroups_print_markdown(const char *md, FILE *f);

#endif
