/* benchexit: what the exit status of a rarbench rarlab ran on this machine says (benchexit.h). */
#include "benchexit.h"

#include "exitcode.h"

enum benchexit benchexit_of(int exit_status)
{
	switch (exit_status) {
	case EXITCODE_OK:
		return BENCHEXIT_OK;
	case EXITCODE_BAD_INPUT:
		return BENCHEXIT_BAD_INPUT;
	case EXITCODE_BUSY:
		return BENCHEXIT_BUSY;
	case EXITCODE_CANNOT_RUN:
		return BENCHEXIT_CANNOT_RUN;
	default:
		return exit_status < 0 ? BENCHEXIT_UNKNOWN : BENCHEXIT_FAILED;
	}
}
