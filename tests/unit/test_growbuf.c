/* Tests for growbuf: the cap, the NUL, printf growth, release, and growarray's doubling and cap. */
#include <stdlib.h>
#include <string.h>

#include "growbuf.h"
#include "harness.h"

static void test_append_keeps_a_nul_and_grows(void)
{
	struct growbuf b;
	struct errbuf eb = {0};
	char big[1000];
	size_t len;
	char *s;

	growbuf_init(&b, 4096);
	memset(big, 'x', sizeof(big));
	CHECK_INT_EQ(growbuf_puts(&b, "ab", &eb), 0);
	CHECK_STR_EQ(b.data, "ab");
	CHECK_INT_EQ(growbuf_append(&b, big, sizeof(big), &eb), 0);
	CHECK_INT_EQ((int)b.len, 1002);
	CHECK_INT_EQ(b.data[1002], '\0');
	CHECK_INT_EQ(growbuf_printf(&b, &eb, "%d-%s", 42, "z"), 0);
	CHECK_STR_EQ(b.data + 1002, "42-z");
	s = growbuf_release(&b, &len);
	CHECK_INT_EQ((int)len, 1006);
	CHECK(b.data == NULL && b.len == 0);
	free(s);
	s = growbuf_release(&b, &len);
	CHECK_STR_EQ(s, "");
	free(s);
}

static void test_the_cap_refuses_and_keeps_what_was_there(void)
{
	struct growbuf b;
	struct errbuf eb = {0};

	growbuf_init(&b, 10);
	CHECK_INT_EQ(growbuf_puts(&b, "0123456789", &eb), 0);
	CHECK_INT_EQ(growbuf_puts(&b, "a", &eb), -1);
	CHECK_STR_EQ(eb.msg, "larger than 10 bytes");
	CHECK_STR_EQ(b.data, "0123456789");
	CHECK_INT_EQ(growbuf_printf(&b, &eb, "%s", "more"), -1);
	CHECK_INT_EQ((int)b.len, 10);
	CHECK(b.cap <= 11);
	growbuf_free(&b);
}

static void test_growarray_doubles_up_to_max(void)
{
	struct errbuf eb = {0};
	int *a = NULL;
	size_t cap = 0;

	CHECK_INT_EQ(growarray(&a, &cap, 1, sizeof(*a), 100, &eb), 0);
	CHECK_INT_EQ((int)cap, 8);
	a[7] = 7;
	CHECK_INT_EQ(growarray(&a, &cap, 9, sizeof(*a), 100, &eb), 0);
	CHECK_INT_EQ((int)cap, 16);
	CHECK_INT_EQ(a[7], 7);
	CHECK_INT_EQ(growarray(&a, &cap, 90, sizeof(*a), 100, &eb), 0);
	CHECK_INT_EQ((int)cap, 100);
	CHECK_INT_EQ(growarray(&a, &cap, 101, sizeof(*a), 100, &eb), -1);
	CHECK_STR_EQ(eb.msg, "more than 100 entries");
	CHECK_INT_EQ((int)cap, 100);
	free(a);
}

int main(void)
{
	RUN(test_append_keeps_a_nul_and_grows);
	RUN(test_the_cap_refuses_and_keeps_what_was_there);
	RUN(test_growarray_doubles_up_to_max);
	return HARNESS_EXIT();
}
