/* labgroups: a mixed lab's groups of hosts (rarlab --allow-mixed, merged.json meta.lab) for
 * reports.
 */
#ifndef RARPERF_LABGROUPS_H
#define RARPERF_LABGROUPS_H

#include <stdio.h>

#include <cJSON.h>
#include <stdbool.h>

#define LABGROUPS_TEXT_MAX 4096 /* one group's hosts or values, as shown; longer is cut */
#define LABGROUPS_MD_MAX_BYTES (16u * 1024 * 1024) /* every row of every file read */

/*
 * Reads meta.lab of a rarlab merged.json (root: the document) and appends
 * one Markdown table row per group, "| g1 | host, host | key value; ... |",
 * to *md (a new string replaces it, owned by the caller; texts through
 * sanitize_markdown; at most LABGROUPS_MD_MAX_BYTES in all). A lab that was
 * identical, or no meta.lab, adds nothing. Returns 0, or -1 when out of
 * memory (*md unchanged).
 */
int labgroups_read(const cJSON *root, char **md);

/* Prints the report section for the rows of labgroups_read (nothing when md is NULL). */
void labgroups_print_markdown(const char *md, FILE *f);

#endif
