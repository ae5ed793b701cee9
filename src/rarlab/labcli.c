/* labcli: rarlab's command line: its usage text, defaults and options into struct job_config. */
#include "labcli.h"

#include <stdio.h>
#include <string.h>

#include "cliopt.h"
#include "exitcode.h"
#include "hostpool.h"
#include "plan_prefix.h"

#define DEFAULT_FORKS 16
#define DEFAULT_CONNECT_TIMEOUT_MS 10000L
#define DEFAULT_COMMAND_TIMEOUT_MS 3600000L

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: rarlab -i INVENTORY [-l PATTERN] [--forks N] [--known-hosts FILE]\n"
	    "              [--accept-new] [--identity FILE] [--user USER] [--out DIR] [--resume]\n"
	    "              [--connect-timeout T] [--command-timeout T] [--remote-prefix DIR]\n"
	    "              [--remote-dir DIR] [--allow-mixed] [--dry-run] MANIFEST\n"
	    "Runs `rarbench --manifest` on every host of an Ansible INI inventory at once over\n"
	    "SSH, shows each host's progress, fetches and verifies each host's results into\n"
	    "DIR/<host>/ and writes DIR/merged.json and DIR/summary.tsv.\n"
	    "  -i, --inventory FILE    Ansible INI inventory\n"
	    "  -l, --limit PATTERN     hosts or groups, like ansible's --limit (a,b  !x  &y  "
	    "glob)\n"
	    "  -f, --forks N           hosts run at once, 1-%d (default %d)\n"
	    "      --known-hosts FILE  the only known_hosts consulted (default "
	    "inventory/known_hosts)\n"
	    "      --accept-new        record unknown host keys (a changed key still fails)\n"
	    "      --identity FILE     private key (default: the agent, then ~/.ssh/id_*)\n"
	    "  -u, --user USER         remote user when the inventory sets no ansible_user\n"
	    "  -o, --out DIR           output directory (default rarlab-out)\n"
	    "      --resume            continue the run in DIR: skip complete hosts, resume the "
	    "rest\n"
	    "      --connect-timeout T connect/auth timeout, seconds (default 10)\n"
	    "      --command-timeout T longest silence of a running host, seconds (default 3600)\n"
	    "      --remote-prefix DIR rarperf prefix on the hosts (default $RARPERF_PREFIX,\n"
	    "                          else /opt/rarperf)\n"
	    "      --remote-dir DIR    where runs go on each host, DIR/<run-id>/<host>/ (default\n"
	    "                          .rarlab, relative to the remote user's home)\n"
	    "      --allow-mixed       run a lab whose hosts differ (see below), grouped by what\n"
	    "                          differs in the summary, DIR/lab.json and merged.json\n"
	    "      --dry-run           check the manifest (and its subjects against this "
	    "machine's\n"
	    "                          prefix, when it has one); contact no host\n"
	    "The manifest is checked here before any host is contacted. Then every host's\n"
	    "identity is read (its facts.json and a live probe: CPU model and count, memory,\n"
	    "kernel, Debian release, the hard limits the manifest pins, each tool's version\n"
	    "and SHA-256, the bench user): a lab whose hosts differ is refused with a table\n"
	    "of the differences (exit 2) unless --allow-mixed.\n"
	    "  -h, --help              this help;  -V, --version  the version\n"
	    "Exit status: 0 every host ok, 1 some host failed, 2 usage or input error or a lab\n"
	    "whose hosts differ.\n",
	    HOSTPOOL_FORKS_MAX, DEFAULT_FORKS);
}

static void config_defaults(struct job_config *c)
{
	memset(c, 0, sizeof(*c));
	c->known_hosts = "inventory/known_hosts";
	c->out_dir = "rarlab-out";
	c->remote_prefix = plan_prefix_default();
	c->remote_dir = ".rarlab";
	c->forks = DEFAULT_FORKS;
	c->connect_timeout_ms = DEFAULT_CONNECT_TIMEOUT_MS;
	c->command_timeout_ms = DEFAULT_COMMAND_TIMEOUT_MS;
}

#define RARLAB_STR(x) #x
#define RARLAB_XSTR(x) RARLAB_STR(x)
/* The longest timeout taken: 30 days. */
#define RARLAB_TIMEOUT_MAX_S (86400.0 * 30)

/* rarlab's long options; 'c', 'x', 'r' are long-only (not in the short options). */
enum { O_KNOWN = 256, O_ACCEPT, O_IDENTITY, O_RESUME, O_PREFIX, O_DRY_RUN, O_MIXED };
static const struct option rarlab_options[] = {
    {"inventory", required_argument, NULL, 'i'},
    {"limit", required_argument, NULL, 'l'},
    {"forks", required_argument, NULL, 'f'},
    {"known-hosts", required_argument, NULL, O_KNOWN},
    {"accept-new", no_argument, NULL, O_ACCEPT},
    {"identity", required_argument, NULL, O_IDENTITY},
    {"user", required_argument, NULL, 'u'},
    {"out", required_argument, NULL, 'o'},
    {"resume", no_argument, NULL, O_RESUME},
    {"connect-timeout", required_argument, NULL, 'c'},
    {"command-timeout", required_argument, NULL, 'x'},
    {"remote-prefix", required_argument, NULL, O_PREFIX},
    {"remote-dir", required_argument, NULL, 'r'},
    {"dry-run", no_argument, NULL, O_DRY_RUN},
    {"allow-mixed", no_argument, NULL, O_MIXED},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/* --forks --connect-timeout --command-timeout --remote-dir: the options with a checked value. */
static int parse_checked(struct job_config *c, int ch, struct errbuf *eb)
{
	static const struct numarg_words forks = {"--forks", "1-" RARLAB_XSTR(HOSTPOOL_FORKS_MAX),
						  NUMARG_WORDING_IS_NOT};
	const struct numarg_words timeout = {ch == 'c' ? "--connect-timeout" : "--command-timeout",
					     "a number of seconds", NUMARG_WORDING_IS_NOT};
	enum numarg_status st;
	uint64_t n = 0;
	long ms = 0;

	switch (ch) {
	case 'f':
		if (numarg_get_u64(&forks, optarg, 1, HOSTPOOL_FORKS_MAX, &n, eb) != 0)
			return -1;
		c->forks = (unsigned)n;
		return 0;
	case 'c':
	case 'x':
		st = numarg_seconds_ms(optarg, RARLAB_TIMEOUT_MAX_S, &ms);
		if (st != NUMARG_OK)
			return numarg_error(eb, &timeout, optarg, st);
		*(ch == 'c' ? &c->connect_timeout_ms : &c->command_timeout_ms) = ms;
		return 0;
	default:
		if (optarg[0] == '\0' || strstr(optarg, "..") != NULL)
			return errbuf_set(eb, "--remote-dir: bad directory '%s'", optarg);
		c->remote_dir = optarg;
		return 0;
	}
}

int labcli_parse(int argc, char **argv, struct job_config *c, struct errbuf *eb)
{
	struct cliopt_seen seen;
	int ch;

	config_defaults(c);
	while ((ch = cliopt_next(argc, argv, ":i:l:f:u:o:hV", rarlab_options, &seen)) != -1) {
		switch (ch) {
		case 'i':
			c->inventory = optarg;
			break;
		case 'l':
			c->limit = optarg;
			break;
		case 'f':
		case 'c':
		case 'x':
		case 'r':
			if (parse_checked(c, ch, eb) != 0)
				return NUMARG_ERROR;
			break;
		case O_KNOWN:
			c->known_hosts = optarg;
			break;
		case O_ACCEPT:
			c->accept_new = true;
			break;
		case O_IDENTITY:
			c->identity = optarg;
			break;
		case 'u':
			c->user = optarg;
			break;
		case 'o':
			c->out_dir = optarg;
			break;
		case O_RESUME:
			c->resume = true;
			break;
		case O_PREFIX:
			c->remote_prefix = optarg;
			break;
		case O_DRY_RUN:
			c->dry_run = true;
			break;
		case O_MIXED:
			c->allow_mixed = true;
			break;
		case 'h':
			return NUMARG_HELP;
		case 'V':
			return NUMARG_VERSION;
		case ':':
			errbuf_set(eb, "option '%s' needs a value", seen.typed);
			return NUMARG_ERROR;
		default:
			cliopt_unknown("rarlab", seen.typed, rarlab_options, NULL, eb);
			return NUMARG_ERROR;
		}
	}
	if (c->inventory == NULL || optind != argc - 1) {
		errbuf_set(eb, "%s",
			   c->inventory == NULL ? "-i INVENTORY is required"
						: "one MANIFEST is required");
		return NUMARG_USAGE;
	}
	c->manifest = argv[optind];
	if (c->remote_prefix[0] != '/')
		return errbuf_set(eb, "--remote-prefix must be an absolute path");
	return 0;
}

int labcli_done(int rc, const struct errbuf *eb)
{
	switch (rc) {
	case 0:
		return -1;
	case NUMARG_HELP:
		usage(stdout);
		return EXITCODE_OK;
	case NUMARG_VERSION:
		printf("rarlab %s (%s)\n", RARPERF_VERSION, RARPERF_GIT_COMMIT);
		return EXITCODE_OK;
	default:
		/* The user's own arguments: printed as given (print_error is for host bytes). */
		if (eb->msg[0] != '\0')
			fprintf(stderr, "rarlab: %s\n", eb->msg);
		if (rc == NUMARG_USAGE)
			usage(stderr);
		return EXITCODE_BAD_INPUT;
	}
}
