/*
 * rarref: the calibration workload of `rarbench --manifest` ("reference"): a
 * static program whose run is a fixed, policy-independent unit of work.
 *
 *   rarref [UNITS]
 *
 * exits 0 after UNITS passes (default 0: the spawn alone) of a lexer-like
 * scan over a 64 KiB buffer of text it generates: byte loads, a
 * data-dependent branch per byte and a hash, the kind of work a policy
 * parser does. It is linked statically so that its run costs an exec and
 * no dynamic loading, reads no file and writes nothing (doc/precision.md,
 * "Calibration", says why this workload and how many units).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RARREF_BUF_BYTES (64u * 1024u)
#define RARREF_UNITS_MAX 100000L

static unsigned char buf[RARREF_BUF_BYTES];

/* Text-like bytes from a fixed LCG: words, spaces, commas and newlines. */
static void fill(void)
{
	uint32_t x = 20u;

	for (size_t i = 0; i < sizeof(buf); i++) {
		x = x * 1664525u + 1013904223u;
		switch (x >> 28) {
		case 0:
			buf[i] = '\n';
			break;
		case 1:
		case 2:
			buf[i] = ' ';
			break;
		case 3:
			buf[i] = ',';
			break;
		default:
			buf[i] = (unsigned char)('a' + (x >> 16) % 26u);
		}
	}
}

/* One pass: counts tokens and hashes them (FNV-1a), as a lexer would. */
static uint64_t scan(uint64_t h)
{
	uint64_t tokens = 0;
	int in_word = 0;

	for (size_t i = 0; i < sizeof(buf); i++) {
		unsigned char c = buf[i];

		if (c >= 'a' && c <= 'z') {
			h = (h ^ c) * 1099511628211u;
			tokens += !in_word;
			in_word = 1;
		} else {
			in_word = 0;
		}
	}
	return h + tokens;
}

/* Writes a constant text to fd (no stdio: this program's address space stays a floor). */
static int say(int fd, const char *text, int status)
{
	size_t len = strlen(text);

	return write(fd, text, len) == (ssize_t)len ? status : 1;
}

int main(int argc, char **argv)
{
	static const char usage[] =
	    "usage: rarref [UNITS]\n"
	    "rarbench --manifest's calibration workload (\"reference\"): UNITS passes (0-100000,\n"
	    "default 0: the spawn alone) of a lexer-like scan over 64 KiB of text, then exit 0.\n"
	    "Reads no file, writes nothing. See doc/precision.md, \"Calibration\".\n"
	    "  -h, --help     this help\n"
	    "  -V, --version  the version\n"
	    "Exit status: 0 done, 2 usage error.\n";
	long units = 0;
	volatile uint64_t sink;
	uint64_t h = 1469598103934665603u;
	char *end = NULL;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))
		return say(STDOUT_FILENO, usage, 0);
	if (argc == 2 && (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0))
		return say(STDOUT_FILENO, "rarref " RARPERF_VERSION " (" RARPERF_GIT_COMMIT ")\n",
			   0);
	if (argc > 2)
		return say(STDERR_FILENO,
			   "rarref: one operand at most, UNITS (see rarref --help)\n", 2);
	if (argc == 2) {
		units = strtol(argv[1], &end, 10);
		if (end == argv[1] || *end != '\0' || units < 0 || units > RARREF_UNITS_MAX)
			return say(STDERR_FILENO,
				   "rarref: UNITS is a whole number from 0 to 100000 (see rarref "
				   "--help)\n",
				   2);
	}
	if (units > 0)
		fill();
	for (long u = 0; u < units; u++)
		h = scan(h);
	sink = h;
	(void)sink;
	return 0;
}
