/* fuzz_cmdline: libFuzzer target for shellwords, -L value lists and {name} substitution. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "shellwords.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct errbuf eb = {{0}};
	struct params p = {0};
	char *text = malloc(size + 1);
	char *list, *tmpl, *out;
	char **words;

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	words = shellwords_split(text, &eb);
	shellwords_free(words);
	/* First line: a -L value list; the rest: a command template. */
	list = text;
	tmpl = strchr(text, '\n');
	if (tmpl != NULL)
		*tmpl++ = '\0';
	else
		tmpl = text;
	if (params_add_list(&p, "x", list, &eb) == 0 &&
	    params_add_list(&p, "xy", "a,{x}", &eb) == 0) {
		for (size_t c = 0; c < params_combinations(&p) && c < 64; c++) {
			out = params_substitute(&p, c, tmpl, &eb);
			free(out);
		}
	}
	params_clear(&p);
	free(text);
	return 0;
}
