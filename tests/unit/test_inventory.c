/* Tests for inventory: Ansible INI groups, children, vars, ranges, -l patterns and errors. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "inventory.h"

static const char lab[] = "# the lab\n"
			  "solo ansible_host=10.0.0.9\n"
			  "[web]\n"
			  "web[01:03] ansible_user=www\n"
			  "db1:2222 ansible_host=10.0.0.5 # the database\n"
			  "[db]\n"
			  "db1\n"
			  "db2 ansible_ssh_private_key_file=\"/keys/db 2\"\n"
			  "[ctl]\n"
			  "me ansible_connection=local\n"
			  "[lab:children]\n"
			  "web\n"
			  "db\n"
			  "[lab:vars]\n"
			  "ansible_user = labuser\n"
			  "ansible_port=22\n"
			  "[db:vars]\n"
			  "ansible_port=2200\n"
			  "[all:vars]\n"
			  "ansible_ssh_private_key_file=/keys/all\n";

static struct inventory *parse(const char *text, struct errbuf *eb)
{
	return inventory_parse(text, strlen(text), "lab.ini", eb);
}

static const struct inventory_host *by_name(const struct inventory *inv, const char *name)
{
	for (size_t i = 0; i < inventory_count(inv); i++)
		if (strcmp(inventory_host(inv, i)->name, name) == 0)
			return inventory_host(inv, i);
	return NULL;
}

static void test_groups_children_vars(void)
{
	struct errbuf eb = {0};
	struct inventory *inv = parse(lab, &eb);
	const struct inventory_host *h;

	CHECK(inv != NULL);
	if (inv == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	CHECK_INT_EQ(inventory_count(inv), 7);
	CHECK_STR_EQ(inventory_host(inv, 0)->name, "solo");
	CHECK_STR_EQ(inventory_host(inv, 1)->name, "web01");
	h = by_name(inv, "solo");
	CHECK_STR_EQ(h->addr, "10.0.0.9");
	CHECK(h->user == NULL);
	CHECK_INT_EQ(h->port, 0);
	CHECK_STR_EQ(h->identity, "/keys/all");
	/* host var beats the group var of lab */
	h = by_name(inv, "web02");
	CHECK(h != NULL);
	CHECK_STR_EQ(h->addr, "web02");
	CHECK_STR_EQ(h->user, "www");
	CHECK_INT_EQ(h->port, 22);
	/* db (child, depth 2) beats lab (depth 1); host:port beats both */
	h = by_name(inv, "db1");
	CHECK_STR_EQ(h->addr, "10.0.0.5");
	CHECK_INT_EQ(h->port, 2222);
	CHECK_STR_EQ(h->user, "labuser");
	h = by_name(inv, "db2");
	CHECK_INT_EQ(h->port, 2200);
	CHECK_STR_EQ(h->identity, "/keys/db 2");
	h = by_name(inv, "me");
	CHECK(h->local);
	CHECK(!by_name(inv, "web01")->local);
	inventory_free(inv);
}

static void test_ranges(void)
{
	struct errbuf eb = {0};
	struct inventory *inv = parse("[r]\nn[8:10]\nx[a:c]-[0:4:2]\n", &eb);

	CHECK(inv != NULL);
	if (inv == NULL)
		return;
	CHECK_INT_EQ(inventory_count(inv), 12);
	CHECK_STR_EQ(inventory_host(inv, 0)->name, "n8");
	CHECK_STR_EQ(inventory_host(inv, 2)->name, "n10");
	CHECK_STR_EQ(inventory_host(inv, 3)->name, "xa-0");
	CHECK_STR_EQ(inventory_host(inv, 4)->name, "xa-2");
	CHECK_STR_EQ(inventory_host(inv, 11)->name, "xc-4");
	inventory_free(inv);
}

/* Selects pattern and returns the chosen names joined by spaces (static buffer). */
static const char *select_names(const struct inventory *inv, const char *pattern)
{
	static char out[1024];
	size_t sel[64], n = 0;
	struct errbuf eb = {0};

	out[0] = '\0';
	if (inventory_select(inv, pattern, sel, &n, &eb) < 0) {
		snprintf(out, sizeof(out), "error: %s", eb.msg);
		return out;
	}
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(out);
		snprintf(out + len, sizeof(out) - len, "%s%s", i ? " " : "",
			 inventory_host(inv, sel[i])->name);
	}
	return out;
}

static void test_limit_patterns(void)
{
	struct errbuf eb = {0};
	struct inventory *inv = parse(lab, &eb);

	CHECK(inv != NULL);
	if (inv == NULL)
		return;
	CHECK_STR_EQ(select_names(inv, NULL), "solo web01 web02 web03 db1 db2 me");
	CHECK_STR_EQ(select_names(inv, "all"), "solo web01 web02 web03 db1 db2 me");
	CHECK_STR_EQ(select_names(inv, "db"), "db1 db2");
	CHECK_STR_EQ(select_names(inv, "lab"), "web01 web02 web03 db1 db2");
	CHECK_STR_EQ(select_names(inv, "solo,db2"), "solo db2");
	CHECK_STR_EQ(select_names(inv, "web:db"), "web01 web02 web03 db1 db2");
	CHECK_STR_EQ(select_names(inv, "lab,!db"), "web01 web02 web03");
	CHECK_STR_EQ(select_names(inv, "!lab"), "solo me");
	CHECK_STR_EQ(select_names(inv, "web,&db"), "db1");
	CHECK_STR_EQ(select_names(inv, "web0*"), "web01 web02 web03");
	CHECK_STR_EQ(select_names(inv, "ungrouped"), "solo");
	CHECK_STR_EQ(select_names(inv, "nosuch"),
		     "error: host pattern 'nosuch': no host or group matches 'nosuch'");
	CHECK_STR_EQ(select_names(inv, "db,!db"), "error: host pattern 'db,!db' selects no host");
	inventory_free(inv);
}

static void expect_error(const char *text, const char *msg)
{
	struct errbuf eb = {0};
	struct inventory *inv = parse(text, &eb);

	CHECK(inv == NULL);
	CHECK_STR_EQ(eb.msg, msg);
	inventory_free(inv);
}

static void test_errors_name_the_line(void)
{
	expect_error("a\n[g\nb\n", "lab.ini:2: unterminated section header");
	expect_error("a\n\n[g:foo]\n", "lab.ini:3: unknown section suffix ':foo'");
	expect_error("[g:vars]\nnovalue\n", "lab.ini:2: expected key=value in [g:vars]");
	expect_error("[g]\nh1 junk\n", "lab.ini:2: expected key=value, got 'junk'");
	expect_error("[g]\nh1\nh2 ansible_port=99999\n",
		     "lab.ini:3: ansible_port '99999' is not a port (1-65535)");
	expect_error("[g]\nh[3:1]\n", "lab.ini:2: bad host range 3..1");
	expect_error("[g]\nh[1:z]\n", "lab.ini:2: bad range end 'z'");
	expect_error("[a:children]\nb\n[b:children]\na\n",
		     "lab.ini: group 'a': children form a cycle");
	expect_error("[g]\nh1 ansible_user=\"x\n", "lab.ini:2: unterminated quote");
	expect_error("[g]\nh1 ansible_connection=winrm\n",
		     "lab.ini:2: ansible_connection 'winrm' is not supported");
	expect_error("[g]\nh[1:100000]\n", "lab.ini:2: host range expands to more than 1024 hosts");
}

/* Host names are path components (DIR/<host>, <remote-dir>/<run>/<host>): only safe ones. */
static void test_host_names_are_safe_path_components(void)
{
	static const char *const bad[] = {
	    "../../x", "..",  ".",         ".hidden",     "-opt", "a/b", "a\\b", "a\"b",
	    "a'b",     "a$b", "a\x1b[31m", "caf\xc3\xa9", "x*",   "a;b", "a@b",  "h%s",
	};
	char text[256], want[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct errbuf eb = {0};
		struct inventory *inv;
		snprintf(text, sizeof(text), "[g]\nok1\n%s ansible_host=10.0.0.1\n", bad[i]);
		inv = parse(text, &eb);
		CHECK(inv == NULL);
		/* a quote or a bracket is refused by the line's syntax first */
		snprintf(want, sizeof(want), "lab.ini:3: %s",
			 strpbrk(bad[i], "\"'[") ? "" : "invalid host name '");
		CHECK(strncmp(eb.msg, want, strlen(want)) == 0);
		if (inv != NULL || strncmp(eb.msg, want, strlen(want)) != 0)
			fprintf(stderr, "  name '%s': %s\n", bad[i], eb.msg);
		inventory_free(inv);
	}
	/* a range that makes an unsafe name is refused too: [Z:a] runs through '[' and '\\' */
	{
		struct errbuf eb = {0};
		struct inventory *inv = parse("[g]\nh[Z:a]\n", &eb);
		CHECK(inv == NULL);
		CHECK(strncmp(eb.msg, "lab.ini:2: ", 11) == 0);
		inventory_free(inv);
	}
	{
		struct errbuf eb = {0};
		struct inventory *inv = parse("[g]\nweb-01.example.com\nDB_2\n10.0.0.7\nx.\n", &eb);
		CHECK(inv != NULL);
		if (inv != NULL)
			CHECK_INT_EQ(inventory_count(inv), 4);
		inventory_free(inv);
	}
	{
		/* at most INVENTORY_NAME_MAX bytes */
		char name[INVENTORY_NAME_MAX + 2];
		struct errbuf eb = {0};
		struct inventory *inv;
		memset(name, 'a', sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		snprintf(text, sizeof(text), "%s\n", name + 100);
		inv = parse(text, &eb);
		CHECK(inv != NULL);
		inventory_free(inv);
	}
}

/* Range bounds: no overflow of the loop, no silent clamp, a bounded count. */
static void test_range_bounds(void)
{
	/* strtol clamped this to LONG_MAX without a word */
	expect_error("[g]\nweb[99999999999999999999:99999999999999999999]\n",
		     "lab.ini:2: bad range start '99999999999999999999' (too large)");
	expect_error("[g]\nweb[1:99999999999999999999]\n",
		     "lab.ini:2: bad range end '99999999999999999999' (too large)");
	expect_error("[g]\nweb[1:5:99999999999999999999]\n", "lab.ini:2: bad range step");
	expect_error("[g]\nweb[1:5:9999999999]\n", "lab.ini:2: bad range step '9999999999'");
	expect_error("[g]\nweb[1:5:-1]\n", "lab.ini:2: bad range step '-1'");
	expect_error("[g]\nweb[0:1024]\n", "lab.ini:2: host range expands to more than 1024 hosts");
	/* two ranges on one line multiply: the line as a whole is bounded */
	expect_error("[g]\nw[0:99]-[0:99]\n",
		     "lab.ini:2: host range expands to more than 1024 hosts");
	{
		/*
		 * the largest bounds work when the count is small: i += step used to
		 * overflow past LONG_MAX here (UBSan abort)
		 */
		struct errbuf eb = {0};
		struct inventory *inv = parse("[g]\nweb[9223372036854775800:9223372036854775807]\n"
					      "v[0:2047:2]\n",
					      &eb);
		CHECK(inv != NULL);
		if (inv == NULL) {
			fprintf(stderr, "  %s\n", eb.msg);
			return;
		}
		CHECK_INT_EQ(inventory_count(inv), 8 + 1024);
		CHECK_STR_EQ(inventory_host(inv, 7)->name, "web9223372036854775807");
		CHECK_STR_EQ(inventory_host(inv, 8 + 1023)->name, "v2046");
		inventory_free(inv);
	}
}

static void test_load_missing_file(void)
{
	struct errbuf eb = {0};

	CHECK(inventory_load("/nonexistent/inv.ini", &eb) == NULL);
	CHECK_STR_EQ(eb.msg, "/nonexistent/inv.ini: No such file or directory");
}

/*
 * lab.yml's inventory in user mode (roles/rarperf_labvm/templates/lab-vms.ini.j2): every VM at
 * 127.0.0.1, told apart by ansible_port (its qemu forwards that port to the guest's sshd)
 */
static void test_lab_user_mode_hosts_share_loopback(void)
{
	static const char text[] =
	    "[lab]\n"
	    "rarperf-lab-1 ansible_host=127.0.0.1 ansible_port=2221\n"
	    "rarperf-lab-2 ansible_host=127.0.0.1 ansible_port=2222\n"
	    "\n"
	    "[lab:vars]\n"
	    "ansible_user=root\n"
	    "ansible_ssh_private_key_file=/var/lib/rarperf-lab/id_ed25519\n"
	    "ansible_python_interpreter=/usr/bin/python3\n"
	    "ansible_ssh_common_args='-o UserKnownHostsFile=inventory/known_hosts -o "
	    "StrictHostKeyChecking=yes'\n"
	    "rarperf_virtualisation=tcg\n";
	struct errbuf eb = {0};
	struct inventory *inv = parse(text, &eb);
	const struct inventory_host *h;

	CHECK(inv != NULL);
	if (inv == NULL) {
		fprintf(stderr, "  %s\n", eb.msg);
		return;
	}
	CHECK_INT_EQ(inventory_count(inv), 2);
	h = by_name(inv, "rarperf-lab-1");
	CHECK(h != NULL && !h->local);
	CHECK_STR_EQ(h->addr, "127.0.0.1");
	CHECK_INT_EQ(h->port, 2221);
	CHECK_STR_EQ(h->user, "root");
	CHECK_STR_EQ(h->identity, "/var/lib/rarperf-lab/id_ed25519");
	h = by_name(inv, "rarperf-lab-2");
	CHECK(h != NULL);
	CHECK_STR_EQ(h->addr, "127.0.0.1");
	CHECK_INT_EQ(h->port, 2222);
	inventory_free(inv);
}

int main(void)
{
	RUN(test_groups_children_vars);
	RUN(test_ranges);
	RUN(test_limit_patterns);
	RUN(test_errors_name_the_line);
	RUN(test_host_names_are_safe_path_components);
	RUN(test_range_bounds);
	RUN(test_load_missing_file);
	RUN(test_lab_user_mode_hosts_share_loopback);
	return HARNESS_EXIT();
}
