/* confgen: writes equivalent sudoers, doas.conf, RootAsRole (JSON, CBOR) and please benchmark
 * policies. */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cliopt.h"
#include "errbuf.h"
#include "exitcode.h"
#include "numarg.h"
#include "policy.h"
#include "policy_doas.h"
#include "policy_polkit.h"
#include "policy_file.h"
#include "policy_please.h"
#include "policy_rar_cbor.h"
#include "policy_size.h"
#include "policy_sudoers.h"
#include "policy_split.h"
#include "policyset.h"

#define CONFGEN_POSITIONAL_COUNT 7

struct config {
	struct policy_shape shape;
	bool uid_set;
	bool shape_named; /* a shape option was given by name */
	enum sudoers_layout sudoers_layout;
	const char *sudoers, *doas, *rar_json, *rar_cbor, *rar_cbor_data, *please, *polkit;
	char user_buf[POLICY_USER_LEN_MAX + 2]; /* --uid's name, when --please has no --user */
	bool rar_format_cbor;                   /* positional RAR_FILE is a CBOR settings file */
	const char *rar_version; /* the RootAsRole version the files are for; NULL: 3.3.4 */
	bool force;              /* replace files confgen did not write */
	bool size_only;          /* --size: print each file's size, write nothing */
	uint32_t files;          /* --files: the sudoers policy split over N files; 0: not given */
};

static void config_init(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	policy_shape_init(&cfg->shape);
	cfg->sudoers_layout = SUDOERS_LAYOUT_PER_ROLE;
}

static void usage(FILE *out)
{
	fputs(
	    "usage: confgen [options] SUDOERS RAR_FILE NB_ROLES NB_USERS NB_TASKS NB_COMMANDS "
	    "USER_ID\n"
	    "       confgen --uid N [--roles R] [--users U] [--tasks T] [--commands C] [options]\n"
	    "               [--sudoers F] [--doas F] [--rar-json F] [--rar-cbor F]\n"
	    "               [--please F [--user NAME]] [--polkit F]\n"
	    "Writes the same benchmark policy for sudo, doas, RootAsRole, please and pkexec.\n"
	    "\n"
	    "  --roles R, --users U, --tasks T, --commands C\n"
	    "                        roles; users per role; tasks per role; commands per task\n"
	    "                        (each at least 1, default 1)\n"
	    "  --uid N               the benchmark user's uid (0..2147483647)\n"
	    "  --command PATH        the matching command (default /usr/bin/true)\n"
	    "  --match POS           where the match sits: last (default), first, middle\n"
	    "  --sudoers F           write a sudoers file (root:root 0440)\n"
	    "  --sudoers-layout L    per-role (default: one user spec per role) or per-task\n"
	    "  --files N             split the sudoers policy over N files: F holds the first\n"
	    "                        part and \"@includedir F.parts\", a directory (root 0750) of\n"
	    "                        the others (1..10000, at most roles*tasks; sudoers only)\n"
	    "  --doas F              write a doas.conf (root 0644)\n"
	    "  --rar-json F          write RootAsRole's single-file JSON (0644)\n"
	    "  --rar-cbor F          write RootAsRole's settings file F (method cbor, 0644) and\n"
	    "                        the policy as CBOR in F's .bin sibling (0400)\n"
	    "  --rar-cbor-data D     the CBOR data file instead of F's .bin sibling\n"
	    "  --please F            write please's please.ini (root 0644): one section per task\n"
	    "  --user NAME           the benchmark user's name, which please matches (default:\n"
	    "                        --uid's name in the password database)\n"
	    "  --polkit F            write polkit rules for pkexec (one rule per task, 0644)\n"
	    "  --rar-format FMT      json (default) or cbor: the format of the positional "
	    "RAR_FILE\n"
	    "  --rar-version V       the RootAsRole version the files are for (default 3.3.4);\n"
	    "                        from 4.0 the --rar-cbor settings file is CBOR too; series\n"
	    "                        written: 3.1.x to 4.2.x (others exit 2)\n"
	    "  --seed-compat         reproduce the original RaR-perf generator's output exactly\n"
	    "  --deny-all            grant nothing: no sudoers or doas rule; RootAsRole's roles\n"
	    "                        with filler uids and /nonexistent commands (between points)\n"
	    "  --force               replace an existing file confgen did not write (refused\n"
	    "                        otherwise)\n"
	    "  --size                print the bytes each file would have (\"BYTES<TAB>FILE\",\n"
	    "                        then the total), write nothing\n"
	    "  -h, --help            this help\n"
	    "  -V, --version         the version\n"
	    "Limits: roles*tasks*commands <= 100000000, roles*users <= 10000000,\n"
	    "roles*users*tasks*commands <= 100000000 for doas. Exit 0 ok, 1 write failure,\n"
	    "2 bad input (nothing written). See confgen(1).\n",
	    out);
}

/* A decimal uint32 (no sign, no blanks). Returns 0, or -1 with eb naming what. */
static int parse_u32(const char *what, const char *s, uint32_t *v, struct errbuf *eb)
{
	const struct numarg_words w = {what, "a number", NUMARG_WORDING_QUOTED};
	uint64_t n = 0;

	if (numarg_get_u64(&w, s, 0, UINT32_MAX, &n, eb) != 0)
		return -1;
	*v = (uint32_t)n;
	return 0;
}

enum {
	OPT_ROLES = 256,
	OPT_USERS,
	OPT_TASKS,
	OPT_COMMANDS,
	OPT_UID,
	OPT_COMMAND,
	OPT_MATCH,
	OPT_SUDOERS,
	OPT_SUDOERS_LAYOUT,
	OPT_DOAS,
	OPT_RAR_JSON,
	OPT_RAR_CBOR,
	OPT_RAR_CBOR_DATA,
	OPT_RAR_FORMAT,
	OPT_SEED_COMPAT,
	OPT_RAR_VERSION,
	OPT_DENY_ALL,
	OPT_FORCE,
	OPT_SIZE,
	OPT_FILES,
	OPT_PLEASE,
	OPT_USER,
	OPT_POLKIT,
};

static const struct option long_options[] = {
    {"roles", required_argument, NULL, OPT_ROLES},
    {"users", required_argument, NULL, OPT_USERS},
    {"tasks", required_argument, NULL, OPT_TASKS},
    {"commands", required_argument, NULL, OPT_COMMANDS},
    {"uid", required_argument, NULL, OPT_UID},
    {"command", required_argument, NULL, OPT_COMMAND},
    {"match", required_argument, NULL, OPT_MATCH},
    {"sudoers", required_argument, NULL, OPT_SUDOERS},
    {"sudoers-layout", required_argument, NULL, OPT_SUDOERS_LAYOUT},
    {"doas", required_argument, NULL, OPT_DOAS},
    {"rar-json", required_argument, NULL, OPT_RAR_JSON},
    {"rar-cbor", required_argument, NULL, OPT_RAR_CBOR},
    {"rar-cbor-data", required_argument, NULL, OPT_RAR_CBOR_DATA},
    {"rar-format", required_argument, NULL, OPT_RAR_FORMAT},
    {"seed-compat", no_argument, NULL, OPT_SEED_COMPAT},
    {"polkit", required_argument, NULL, OPT_POLKIT},
    {"rar-version", required_argument, NULL, OPT_RAR_VERSION},
    {"deny-all", no_argument, NULL, OPT_DENY_ALL},
    {"force", no_argument, NULL, OPT_FORCE},
    {"size", no_argument, NULL, OPT_SIZE},
    {"files", required_argument, NULL, OPT_FILES},
    {"please", required_argument, NULL, OPT_PLEASE},
    {"user", required_argument, NULL, OPT_USER},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/* The shape given by name: --roles --users --tasks --commands --uid. */
static int parse_shape_option(struct config *cfg, int opt, struct errbuf *eb)
{
	static const char *const names[] = {"--roles", "--users", "--tasks", "--commands", "--uid"};
	uint32_t *field[] = {&cfg->shape.roles, &cfg->shape.users, &cfg->shape.tasks,
			     &cfg->shape.commands, &cfg->shape.uid};

	if (parse_u32(names[opt - OPT_ROLES], optarg, field[opt - OPT_ROLES], eb) != 0)
		return -1;
	cfg->shape_named = true;
	if (opt == OPT_UID)
		cfg->uid_set = true;
	return 0;
}

/* One option of getopt_long (not the shape, not -h/-V); *rar_format keeps --rar-format's value. */
static int parse_option(struct config *cfg, int opt, const char **rar_format, struct errbuf *eb)
{
	switch (opt) {
	case OPT_COMMAND:
		cfg->shape.command = optarg;
		return 0;
	case OPT_MATCH:
		if (policy_match_parse(optarg, &cfg->shape.match) != 0)
			return errbuf_set(eb, "--match: \"%s\" is not last, first or middle",
					  optarg);
		return 0;
	case OPT_SUDOERS:
		cfg->sudoers = optarg;
		return 0;
	case OPT_SUDOERS_LAYOUT:
		if (policy_sudoers_layout_parse(optarg, &cfg->sudoers_layout) != 0)
			return errbuf_set(
			    eb, "--sudoers-layout: \"%s\" is not per-role or per-task", optarg);
		return 0;
	case OPT_DOAS:
		cfg->doas = optarg;
		return 0;
	case OPT_POLKIT:
		cfg->polkit = optarg;
		return 0;
	case OPT_RAR_JSON:
		cfg->rar_json = optarg;
		return 0;
	case OPT_RAR_CBOR:
		cfg->rar_cbor = optarg;
		return 0;
	case OPT_RAR_CBOR_DATA:
		cfg->rar_cbor_data = optarg;
		return 0;
	case OPT_RAR_FORMAT:
		*rar_format = optarg;
		if (strcmp(optarg, "json") != 0 && strcmp(optarg, "cbor") != 0)
			return errbuf_set(eb, "--rar-format: \"%s\" is not json or cbor", optarg);
		cfg->rar_format_cbor = strcmp(optarg, "cbor") == 0;
		return 0;
	case OPT_SEED_COMPAT:
		cfg->shape.seed_compat = true;
		return 0;
	case OPT_DENY_ALL:
		cfg->shape.deny_all = true;
		return 0;
	case OPT_FORCE:
		cfg->force = true;
		return 0;
	case OPT_RAR_VERSION:
		if (policy_rar_version_check(optarg, eb) != 0)
			return errbuf_prefix(eb, "--rar-version");
		cfg->rar_version = optarg;
		return 0;
	case OPT_SIZE:
		cfg->size_only = true;
		return 0;
	case OPT_FILES:
		if (parse_u32("--files", optarg, &cfg->files, eb) != 0)
			return -1;
		if (cfg->files == 0)
			return errbuf_set(eb, "--files: must be at least 1");
		return 0;
	case OPT_PLEASE:
		cfg->please = optarg;
		return 0;
	case OPT_USER:
		cfg->shape.user = optarg;
		return 0;
	default: /* unknown options and missing values are parse_args' */
		return errbuf_set(eb, "option %d: not handled", opt);
	}
}

/* The positional form's seven arguments (the original generator's command line) into cfg. */
static int parse_positional(struct config *cfg, char **pos, struct errbuf *eb)
{
	static const char *const names[] = {"NB_ROLES", "NB_USERS", "NB_TASKS", "NB_COMMANDS",
					    "USER_ID"};
	uint32_t *field[] = {&cfg->shape.roles, &cfg->shape.users, &cfg->shape.tasks,
			     &cfg->shape.commands, &cfg->shape.uid};

	if (cfg->shape_named)
		return errbuf_set(eb, "--roles/--users/--tasks/--commands/--uid: not with the "
				      "positional form, which takes the shape from its arguments");
	if (cfg->sudoers != NULL)
		return errbuf_set(eb, "SUDOERS: --sudoers given too");
	for (int i = 0; i < 5; i++)
		if (parse_u32(names[i], pos[i + 2], field[i], eb) != 0)
			return -1;
	cfg->uid_set = true;
	cfg->sudoers = pos[0];
	if (cfg->rar_format_cbor) {
		if (cfg->rar_cbor != NULL)
			return errbuf_set(eb, "RAR_FILE: --rar-cbor given too");
		cfg->rar_cbor = pos[1];
	} else {
		if (cfg->rar_json != NULL)
			return errbuf_set(eb, "RAR_FILE: --rar-json given too");
		cfg->rar_json = pos[1];
	}
	return 0;
}

/* The programs' parse_args contract (numarg.h): sets cfg's defaults, then fills it from argv. */
static int parse_args(int argc, char **argv, struct config *cfg, struct errbuf *eb)
{
	const char *rar_format = NULL;
	struct cliopt_seen seen;
	int opt, npos;

	config_init(cfg);
	while ((opt = cliopt_next(argc, argv, ":hV", long_options, &seen)) != -1) {
		if (opt == 'h')
			return NUMARG_HELP;
		if (opt == 'V')
			return NUMARG_VERSION;
		if (opt == ':')
			return errbuf_set(eb, "option '%s' needs a value", seen.typed);
		if (opt == '?')
			return cliopt_unknown("confgen", seen.typed, long_options, NULL, eb);
		if ((opt >= OPT_ROLES && opt <= OPT_UID
			 ? parse_shape_option(cfg, opt, eb)
			 : parse_option(cfg, opt, &rar_format, eb)) != 0)
			return NUMARG_ERROR;
	}
	npos = argc - optind;
	if (npos != 0 && npos != CONFGEN_POSITIONAL_COUNT)
		return errbuf_set(
		    eb, "%d arguments given, the positional form takes %d: %s", npos,
		    CONFGEN_POSITIONAL_COUNT,
		    "SUDOERS RAR_FILE NB_ROLES NB_USERS NB_TASKS NB_COMMANDS USER_ID");
	if (npos == CONFGEN_POSITIONAL_COUNT) {
		if (parse_positional(cfg, argv + optind, eb) != 0)
			return NUMARG_ERROR;
	} else if (rar_format != NULL) {
		return errbuf_set(eb, "--rar-format: only for the positional RAR_FILE; use "
				      "--rar-json or --rar-cbor");
	}
	if (!cfg->uid_set)
		return errbuf_set(eb, "--uid: required (the benchmark user's uid)");
	if (cfg->rar_cbor_data != NULL && cfg->rar_cbor == NULL)
		return errbuf_set(eb, "--rar-cbor-data: needs --rar-cbor");
	if (cfg->sudoers == NULL && cfg->doas == NULL && cfg->rar_json == NULL &&
	    cfg->rar_cbor == NULL && cfg->please == NULL && cfg->polkit == NULL)
		return errbuf_set(eb, "no output: give --sudoers, --doas, --rar-json, --rar-cbor, "
				      "--please or --polkit");
	return 0;
}

/*
 * please matches users by name: without --user, --uid's name from the
 * password database (into cfg->user_buf). Deny-all names nobody. 0 or -1.
 */
static int resolve_user(struct config *cfg, struct errbuf *eb)
{
	const struct passwd *pw;

	if (cfg->please == NULL || cfg->shape.user != NULL || cfg->shape.deny_all)
		return 0;
	pw = getpwuid((uid_t)cfg->shape.uid);
	if (pw == NULL || pw->pw_name == NULL)
		return errbuf_set(eb,
				  "--please: uid %u has no name in the password database; "
				  "give the name with --user",
				  cfg->shape.uid);
	if (strlen(pw->pw_name) >= sizeof(cfg->user_buf))
		return errbuf_set(eb, "--please: uid %u's name is longer than %d bytes",
				  cfg->shape.uid, POLICY_USER_LEN_MAX);
	memcpy(cfg->user_buf, pw->pw_name, strlen(pw->pw_name) + 1);
	cfg->shape.user = cfg->user_buf;
	return 0;
}

/* --files: the split's bounds, and only a sudoers policy to split (policy_split.h). */
static int validate_files(const struct config *cfg, struct errbuf *eb)
{
	if (policy_split_validate(&cfg->shape, cfg->files, eb) != 0)
		return -1;
	if (cfg->files == 1)
		return 0;
	if (cfg->sudoers == NULL)
		return errbuf_set(eb, "--files: splits a sudoers policy: give --sudoers");
	if (cfg->doas != NULL)
		return errbuf_set(eb, "--files: doas.conf has no include: only the sudoers policy "
				      "can be split (drop --doas, or --files)");
	if (cfg->rar_json != NULL || cfg->rar_cbor != NULL)
		return errbuf_set(eb,
				  "--files: RootAsRole reads one policy file: only the sudoers "
				  "policy can be split (drop --rar-json/--rar-cbor, or --files)");
	if (cfg->size_only)
		return errbuf_set(eb, "--files: not with --size (the size of one file is printed "
				      "without --files)");
	return 0;
}

/*
 * Everything that can be known before writing: the shape, the doas rule
 * count, every output path, and no path given twice.
 */
static int validate(const struct config *cfg, struct errbuf *eb)
{
	const char *paths[7] = {cfg->sudoers,  cfg->doas,          cfg->rar_json,
				cfg->rar_cbor, cfg->rar_cbor_data, cfg->please, cfg->polkit};
	static const char *const options[7] = {"--sudoers",       "--doas",   "--rar-json",
					       "--rar-cbor",      "--rar-cbor-data", "--please",
					       "--polkit"};
	char *abs[7] = {NULL};
	char *cbor_default = NULL;
	int rc = -1;

	if (policy_shape_validate(&cfg->shape, eb) != 0)
		return -1;
	if (cfg->doas != NULL && policy_doas_validate(&cfg->shape, eb) != 0)
		return -1;
	if (cfg->files > 0 && validate_files(cfg, eb) != 0)
		return -1;
	if (cfg->please != NULL && policy_please_validate(&cfg->shape, eb) != 0)
		return -1;
	if (cfg->polkit != NULL && policy_polkit_validate(&cfg->shape, eb) != 0)
		return -1;
	if (cfg->rar_cbor != NULL && cfg->rar_cbor_data == NULL) {
		cbor_default = policy_rar_cbor_default_data_path(cfg->rar_cbor);
		if (cbor_default == NULL) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
		paths[4] = cbor_default;
	}
	for (int i = 0; i < 7; i++) {
		if (paths[i] == NULL)
			continue;
		if (policy_file_check_path(paths[i], cfg->force || cfg->size_only, eb) != 0) {
			errbuf_prefix(eb, "%s",
				      i == 4 && cbor_default != NULL ? "--rar-cbor (data)"
								     : options[i]);
			goto out;
		}
		abs[i] = policy_file_abspath(paths[i], eb);
		if (abs[i] == NULL) {
			errbuf_prefix(eb, "%s", options[i]);
			goto out;
		}
		for (int j = 0; j < i; j++)
			if (abs[j] != NULL && strcmp(abs[i], abs[j]) == 0) {
				errbuf_set(eb, "%s: %s is also the %s file", options[i], paths[i],
					   options[j]);
				goto out;
			}
	}
	rc = 0;
out:
	for (int i = 0; i < 7; i++)
		free(abs[i]);
	free(cbor_default);
	return rc;
}

/* The requested files, in the order of confgen(1), as one transaction (policyset_write). */
static int write_all(const struct config *cfg, struct errbuf *eb)
{
	struct policyset_target t[5];
	size_t n = 0;

	if (cfg->sudoers != NULL)
		t[n++] = (struct policyset_target){.format = POLICY_FORMAT_SUDOERS,
						   .policy = cfg->sudoers,
						   .layout = cfg->sudoers_layout,
						   .files = cfg->files};
	if (cfg->doas != NULL)
		t[n++] =
		    (struct policyset_target){.format = POLICY_FORMAT_DOAS, .policy = cfg->doas};
	if (cfg->rar_json != NULL)
		t[n++] = (struct policyset_target){.format = POLICY_FORMAT_RAR_JSON,
						   .policy = cfg->rar_json,
						   .rar_version = cfg->rar_version};
	if (cfg->rar_cbor != NULL)
		t[n++] = (struct policyset_target){.format = POLICY_FORMAT_RAR_CBOR,
						   .policy = cfg->rar_cbor,
						   .policy_data = cfg->rar_cbor_data,
						   .rar_version = cfg->rar_version};
	if (cfg->please != NULL)
		t[n++] = (struct policyset_target){.format = POLICY_FORMAT_PLEASE,
						   .policy = cfg->please};
	if (cfg->polkit != NULL)
		t[n++] = (struct policyset_target){.format = POLICY_FORMAT_POLKIT,
						   .policy = cfg->polkit};
	return policyset_write(&cfg->shape, t, n, cfg->force, NULL, eb);
}

/* One line "BYTES\tPATH" per file on stdout. */
static void print_size(uint64_t bytes, const char *path)
{
	printf("%llu\t%s\n", (unsigned long long)bytes, path);
}

/*
 * --size: what write_all would write, file by file in its order, then the
 * total, computed by policy_size without writing anything. The RootAsRole
 * settings name a path made absolute as the writer makes it.
 */
static int print_sizes(const struct config *cfg, struct errbuf *eb)
{
	struct policy *p = NULL;
	struct policy_size_bytes sz;
	char *named = NULL, *cbor_default = NULL;
	const char *data = cfg->rar_cbor_data;
	uint64_t total = 0;
	int rc = -1;

	p = policy_build(&cfg->shape, eb);
	if (p == NULL)
		goto out;
	if (cfg->sudoers != NULL) {
		if (policy_size(p, POLICY_FORMAT_SUDOERS, cfg->sudoers_layout, NULL, NULL, &sz,
				eb) != 0)
			goto out;
		print_size(sz.policy_bytes, cfg->sudoers);
		total += sz.policy_bytes;
	}
	if (cfg->doas != NULL) {
		if (policy_size(p, POLICY_FORMAT_DOAS, cfg->sudoers_layout, NULL, NULL, &sz, eb) !=
		    0)
			goto out;
		print_size(sz.policy_bytes, cfg->doas);
		total += sz.policy_bytes;
	}
	if (cfg->rar_json != NULL) {
		named = policy_file_abspath(cfg->rar_json, eb);
		if (named == NULL || policy_size(p, POLICY_FORMAT_RAR_JSON, cfg->sudoers_layout,
						 cfg->rar_version, named, &sz, eb) != 0)
			goto out;
		print_size(sz.policy_bytes, cfg->rar_json);
		total += sz.policy_bytes;
		free(named);
		named = NULL;
	}
	if (cfg->rar_cbor != NULL) {
		if (data == NULL && (data = cbor_default = policy_rar_cbor_default_data_path(
					 cfg->rar_cbor)) == NULL) {
			errbuf_set(eb, "out of memory");
			goto out;
		}
		named = policy_file_abspath(data, eb);
		if (named == NULL || policy_size(p, POLICY_FORMAT_RAR_CBOR, cfg->sudoers_layout,
						 cfg->rar_version, named, &sz, eb) != 0)
			goto out;
		print_size(sz.policy_bytes, cfg->rar_cbor);
		print_size(sz.data_bytes, data);
		total += sz.policy_bytes + sz.data_bytes;
	}
	if (cfg->please != NULL) {
		if (policy_size(p, POLICY_FORMAT_PLEASE, cfg->sudoers_layout, NULL, NULL, &sz,
				eb) != 0)
			goto out;
		print_size(sz.policy_bytes, cfg->please);
		total += sz.policy_bytes;
	}
	if (cfg->polkit != NULL) {
		if (policy_size(p, POLICY_FORMAT_POLKIT, cfg->sudoers_layout, NULL, NULL, &sz,
				eb) != 0)
			goto out;
		print_size(sz.policy_bytes, cfg->polkit);
		total += sz.policy_bytes;
	}
	print_size(total, "total");
	rc = fflush(stdout) == 0 && !ferror(stdout) ? 0 : errbuf_set(eb, "stdout: write error");
out:
	free(named);
	free(cbor_default);
	policy_free(p);
	return rc;
}

int main(int argc, char **argv)
{
	struct config cfg;
	struct errbuf eb = {{0}};
	int rc;

	rc = parse_args(argc, argv, &cfg, &eb);
	if (rc == NUMARG_HELP) {
		usage(stdout);
		return EXITCODE_OK;
	}
	if (rc == NUMARG_VERSION) {
		printf("confgen %s (%s)\n", RARPERF_VERSION, RARPERF_GIT_COMMIT);
		return EXITCODE_OK;
	}
	if (rc != 0 || resolve_user(&cfg, &eb) != 0 || validate(&cfg, &eb) != 0) {
		fprintf(stderr, "confgen: %s\n", eb.msg);
		return EXITCODE_BAD_INPUT;
	}
	if (cfg.size_only) {
		if (print_sizes(&cfg, &eb) != 0) {
			fprintf(stderr, "confgen: %s\n", eb.msg);
			return EXITCODE_FAILED;
		}
		return EXITCODE_OK;
	}
	if (write_all(&cfg, &eb) != 0) {
		fprintf(stderr, "confgen: %s\n", eb.msg);
		return EXITCODE_FAILED;
	}
	return EXITCODE_OK;
}
