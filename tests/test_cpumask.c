/*
 * test_cpumask.c -- CPU sets: the "0-2,5" syntax both ways, its errors,
 * and the bit scans the engine's rank bitmaps share.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cpumask.h"

/* Parse s for ncpus CPUs and format it back. */
static const char *
roundtrip(const char *s, int ncpus, char *buf, size_t len)
{
	struct cpumask	 m;
	char		*cause = NULL;

	assert_int_equal(cpumask_parse(s, ncpus, &m, &cause), 0);
	assert_null(cause);
	return (cpumask_format(&m, buf, len));
}

/* Lists parse to the CPUs they name and format back in short form. */
static void
test_parse_format(void **state)
{
	char	buf[256];

	assert_string_equal(roundtrip("0", 1, buf, sizeof buf), "0");
	assert_string_equal(roundtrip("0-2,5", 8, buf, sizeof buf), "0-2,5");
	assert_string_equal(roundtrip("5,0,1,2", 8, buf, sizeof buf),
	    "0-2,5");
	assert_string_equal(roundtrip("63-64,255", 256, buf, sizeof buf),
	    "63-64,255");
	assert_string_equal(roundtrip("0-255", 256, buf, sizeof buf),
	    "0-255");
}

/* Bad lists are refused with a cause naming the list. */
static void
test_parse_errors(void **state)
{
	static const char *bad[] = { "", "a", "1-", "-1", "3-1", "1,,2",
	    "1 ", "0x1", "99999999999" };
	struct cpumask	 m;
	char		*cause;
	size_t		 i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		assert_int_equal(cpumask_parse(bad[i], 8, &m, &cause), -1);
		assert_non_null(cause);
		free(cause);
	}
	cause = NULL;
	assert_int_equal(cpumask_parse("0-8", 8, &m, &cause), -1);
	assert_non_null(strstr(cause, "cpu 8 is outside 0..7"));
	free(cause);
	/* The first CPU outside is named, not the range's end. */
	cause = NULL;
	assert_int_equal(cpumask_parse("9-12", 8, &m, &cause), -1);
	assert_non_null(strstr(cause, "cpu 9 is outside 0..7"));
	free(cause);
}

/*
 * An error quotes the list as PROTOCOL.md promises: printable ASCII, at
 * most 40 characters of it (found by tests/fuzz/fuzz_protocol.c: the raw
 * bytes of "affinity hog 8-\xff...1" came back in the err line).
 */
static void
test_parse_error_quoted(void **state)
{
	struct cpumask	 m;
	char		 list[4000], *cause, *p;
	const char	*lists[] = { "8-\xff\xff\xff\xff" "1", "0-1x\xc3\xa9\x01",
	    list };
	size_t		 i;

	memset(list, '9', sizeof list - 1);
	list[sizeof list - 1] = '\0';
	for (i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		cause = NULL;
		assert_int_equal(cpumask_parse(lists[i], 8, &m, &cause), -1);
		assert_non_null(cause);
		for (p = cause; *p != '\0'; p++) {
			if (*p < 0x20 || *p > 0x7e)
				fail_msg("byte 0x%02x in \"%s\"",
				    (unsigned char)*p, cause);
		}
		assert_true(strlen(cause) < 100);
		free(cause);
	}
	/* The other kind of error: "0,0,...,0,9". */
	for (i = 0; i < sizeof list - 2; i += 2)
		memcpy(list + i, "0,", 2);
	memcpy(list + sizeof list - 3, "9", 2);
	cause = NULL;
	assert_int_equal(cpumask_parse(list, 8, &m, &cause), -1);
	assert_non_null(strstr(cause, "is outside 0..7"));
	assert_true(strlen(cause) < 100);
	free(cause);
}

/* Set operations and scans across word boundaries. */
static void
test_bits(void **state)
{
	struct cpumask	a, b, c;
	uint64_t	w[3] = { 0, 0, 0 };
	char		buf[64];
	int		cpu, n = 0;

	cpumask_zero(&a);
	assert_true(cpumask_empty(&a));
	assert_int_equal(cpumask_first(&a), -1);
	cpumask_set(&a, 3);
	cpumask_set(&a, 64);
	cpumask_set(&a, 200);
	assert_int_equal(cpumask_count(&a), 3);
	assert_int_equal(cpumask_first(&a), 3);
	assert_int_equal(cpumask_next(&a, 3), 64);
	assert_int_equal(cpumask_next(&a, 64), 200);
	assert_int_equal(cpumask_next(&a, 200), -1);
	CPUMASK_FOREACH(cpu, &a)
		n++;
	assert_int_equal(n, 3);
	cpumask_fill(&b, 65);
	cpumask_and(&c, &a, &b);
	assert_string_equal(cpumask_format(&c, buf, sizeof buf), "3,64");
	cpumask_clear(&c, 64);
	assert_true(cpumask_test(&c, 3));
	assert_false(cpumask_test(&c, 64));
	assert_false(cpumask_test(&c, -1));
	assert_false(cpumask_test(&c, CPUMASK_MAX));
	assert_false(cpumask_equal(&a, &c));
	assert_string_equal(cpumask_format(&(struct cpumask){ { 0 } }, buf,
	    sizeof buf), "-");

	/* The engine's 140-bit rank bitmaps. */
	w[1] = (uint64_t)1 << 56;	/* rank 120 */
	w[2] = (uint64_t)1 << 11;	/* rank 139 */
	assert_int_equal(cpumask_bits_next(w, 3, -1), 120);
	assert_int_equal(cpumask_bits_next(w, 3, 120), 139);
	assert_int_equal(cpumask_bits_next(w, 3, 139), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_format),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_error_quoted),
		cmocka_unit_test(test_bits),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
