/* fuzz_inventory: libFuzzer target for the Ansible INI inventory parser and host patterns. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inventory.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *patterns[] = {NULL, "all", "web,!db", "*1", "g,&h", "x:y"};
	struct errbuf eb = {{0}};
	struct inventory *inv = inventory_parse((const char *)data, size, "fuzz.ini", &eb);
	size_t *sel, n;

	if (inv == NULL)
		return 0;
	/* every host name is a safe path component */
	for (size_t i = 0; i < inventory_count(inv); i++) {
		const char *n = inventory_host(inv, i)->name;
		if (n[0] == '\0' || n[0] == '.' || n[0] == '-' ||
		    strspn(n,
			   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
			strlen(n))
			__builtin_trap();
	}
	sel = calloc(inventory_count(inv) + 1, sizeof(*sel));
	for (size_t i = 0; sel != NULL && i < sizeof(patterns) / sizeof(patterns[0]); i++)
		inventory_select(inv, patterns[i], sel, &n, &eb);
	free(sel);
	inventory_free(inv);
	return 0;
}
