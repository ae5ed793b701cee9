/* Tests for pamstack: the modules and includes of a PAM service file. */
#include "harness.h"
#include "pamstack.h"

struct seen {
	char text[1024];
};

static int collect(enum pamstack_kind kind, const char *name, int optional, void *arg)
{
	struct seen *s = arg;
	size_t off = strlen(s->text);

	snprintf(s->text + off, sizeof(s->text) - off, "%s%s%s;",
		 kind == PAMSTACK_INCLUDE ? "inc:" : "mod:", optional ? "-" : "", name);
	return 0;
}

static void check_scan(const char *in, const char *want)
{
	struct seen s = {{0}};

	CHECK_INT_EQ(pamstack_scan(in, strlen(in), collect, &s), 0);
	CHECK_STR_EQ(s.text, want);
}

static void test_debian_sudo(void)
{
	/* Debian's debian/etc/pam.d/sudo (sudo 1.9.13p3-1+deb12u4). */
	check_scan("#%PAM-1.0\n\n# Set up user limits from /etc/security/limits.conf.\n"
		   "session    required   pam_limits.so\n\n@include common-auth\n"
		   "@include common-account\n@include common-session-noninteractive\n",
		   "mod:pam_limits.so;inc:common-auth;inc:common-account;"
		   "inc:common-session-noninteractive;");
}

static void test_controls(void)
{
	/* Bracketed controls are one word, include/substack name services, '-' marks an
	 * optional module, a comment ends a line, a line without a module is skipped. */
	check_scan("auth [success=1 default=ignore] pam_unix.so nullok # trailing\n"
		   "-session optional pam_systemd.so\naccount include common-account\n"
		   "auth substack system-auth\nauth required\n\t\n"
		   "session required /lib/security/pam_env.so readenv=1",
		   "mod:pam_unix.so;mod:-pam_systemd.so;inc:common-account;inc:system-auth;"
		   "mod:/lib/security/pam_env.so;");
}

static int stop_at_second(enum pamstack_kind kind, const char *name, int optional, void *arg)
{
	int *n = arg;

	(void)kind;
	(void)name;
	(void)optional;
	return ++*n == 2 ? 7 : 0;
}

static void test_stop_and_edges(void)
{
	int n = 0;
	char huge[600];

	CHECK_INT_EQ(pamstack_scan("a b c\nd e f\ng h i\n", 18, stop_at_second, &n), 7);
	CHECK_INT_EQ(n, 2);
	check_scan("", "");
	check_scan("@include\n[unterminated", "");
	/* A CRLF file, and a NUL, separate words: no name holds either. */
	check_scan("auth required pam_x.so\r\n@include a\r\n", "mod:pam_x.so;inc:a;");
	{
		struct seen s = {{0}};

		CHECK_INT_EQ(pamstack_scan("@include \0b\n", 12, collect, &s), 0);
		CHECK_STR_EQ(s.text, "inc:b;");
	}
	/* An over-long word is cut, not overrun. */
	memset(huge, 'x', sizeof(huge));
	memcpy(huge, "auth required ", 14);
	huge[sizeof(huge) - 1] = '\0';
	{
		struct seen s = {{0}};

		CHECK_INT_EQ(pamstack_scan(huge, strlen(huge), collect, &s), 0);
		CHECK_INT_EQ(strlen(s.text), 4 + PAMSTACK_NAME_MAX - 1 + 1);
	}
}

int main(void)
{
	RUN(test_debian_sudo);
	RUN(test_controls);
	RUN(test_stop_and_edges);
	return HARNESS_EXIT();
}
