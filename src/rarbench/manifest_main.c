/* manifest_main: rarbench's --manifest mode; replaced by the manifest issue's implementation. */
#include "manifest_main.h"

#include <stdio.h>

int manifest_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "rarbench: --manifest is not built yet\n");
	return 2;
}
