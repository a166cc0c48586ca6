/*
 * test_journal.c -- the session's journal (journal.c, docs/JOURNAL.md):
 * every change kind and awkward scenario texts survive a write and a
 * read unchanged, and every kind of broken journal (truncated,
 * reordered, garbled) is refused with its exact "FILE:LINE: message".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cmocka.h>

#include "journal.h"

/* The header every broken journal below starts from (5 lines). */
#define HEAD	"stairs-journal 1\n"					\
		"scenario name=\"demo\" tasks=3 lines=1\n"		\
		"text \"x\"\n"						\
		"params cpus=2 rr_interval=10 sleep_min=1 "		\
		"balance_interval=100\n"				\
		"policy name=staircase\n"

/* Write h and changes c[0..n) and end to a string (caller frees). */
static char *
write_journal(const struct journal_header *h, const struct change *c,
    size_t n, uint64_t end, size_t *len)
{
	FILE	*f;
	char	*buf = NULL;
	size_t	 i;

	f = open_memstream(&buf, len);
	assert_non_null(f);
	assert_int_equal(journal_write_header(f, h), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(journal_write_change(f, &c[i]), 0);
	assert_int_equal(journal_write_end(f, end), 0);
	fclose(f);
	return (buf);
}

/* A header with text and name; the rest fixed. */
static void
header(struct journal_header *h, const char *name, const char *text)
{
	memset(h, 0, sizeof *h);
	h->scenario = name;
	h->text = text;
	h->ntasks = 3;
	engine_params_default(&h->params);
	h->params.cpus = 4;
	h->params.rr_interval = 7;
	h->params.sleep_min = 2;
	h->params.balance_interval = 50;
	h->policy = "o1";
}

/* Assert two changes are equal, field by field for their kind. */
static void
assert_change_equal(const struct change *a, const struct change *b)
{
	size_t	i;

	assert_int_equal(a->at, b->at);
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->task, b->task);
	switch (a->kind) {
	case CHANGE_SLEEP:
	case CHANGE_NICE:
	case CHANGE_BRANCH:
		assert_int_equal(a->value, b->value);
		break;
	case CHANGE_AFFINITY:
		assert_true(cpumask_equal(&a->cpus, &b->cpus));
		break;
	case CHANGE_ADD:
		assert_string_equal(a->name, b->name);
		assert_int_equal(a->nice, b->nice);
		assert_int_equal(a->real, b->real);
		assert_int_equal(a->runtime, b->runtime);
		assert_int_equal(a->has_cpus, b->has_cpus);
		if (a->has_cpus)
			assert_true(cpumask_equal(&a->cpus, &b->cpus));
		assert_int_equal(a->npattern, b->npattern);
		assert_int_equal(a->pattern == NULL, b->pattern == NULL);
		for (i = 0; i < a->npattern; i++)
			assert_int_equal(a->pattern[i], b->pattern[i]);
		break;
	case CHANGE_POLICY:
		assert_string_equal(a->name, b->name);
		break;
	default:
		break;
	}
}

/* Every change kind, written then read back, is the same. */
static void
test_roundtrip_changes(void **state)
{
	static const uint32_t	 pat[] = { 2, 40, 0, 7 };
	struct journal_header	 h;
	struct change		 c[12];
	struct journal		*j;
	char			*text, *cause = NULL;
	size_t			 len, i, n = 0;

	header(&h, "demo", "name = \"demo\";\n");
	memset(c, 0, sizeof c);
	c[n].at = 0; c[n].kind = CHANGE_SLEEP; c[n].task = 1;
	c[n++].value = 300;
	c[n].at = 5; c[n].kind = CHANGE_NICE; c[n].task = 2;
	c[n++].value = -20;
	c[n].at = 5; c[n].kind = CHANGE_AFFINITY; c[n].task = 3;
	c[n].has_cpus = 1;
	cpumask_set(&c[n].cpus, 0);
	cpumask_set(&c[n].cpus, 2);
	cpumask_set(&c[n++].cpus, 3);
	c[n].at = 9; c[n].kind = CHANGE_ADD; c[n].name = "new.1-x";
	c[n].nice = 19; c[n].pattern = pat; c[n].npattern = 4;
	c[n].runtime = 5000; c[n].has_cpus = 1;
	cpumask_set(&c[n++].cpus, 1);
	c[n].at = 10; c[n].kind = CHANGE_ADD; c[n].name = "real_one";
	c[n].nice = -3; c[n++].real = 1;
	c[n].at = 11; c[n].kind = CHANGE_BLOCK; c[n++].task = 5;
	c[n].at = 12; c[n].kind = CHANGE_WAKE; c[n++].task = 5;
	c[n].at = 13; c[n].kind = CHANGE_EXIT; c[n++].task = 5;
	c[n].at = 14; c[n].kind = CHANGE_KILL; c[n++].task = 4;
	c[n].at = 20; c[n].kind = CHANGE_POLICY; c[n++].name = "cfs";
	c[n].at = 30; c[n].kind = CHANGE_BRANCH; c[n++].value = 8;
	c[n].at = 8; c[n].kind = CHANGE_SLEEP; c[n].task = 4;
	c[n++].value = 0;
	text = write_journal(&h, c, n, 99, &len);
	j = journal_parse(text, len, "j", &cause);
	if (j == NULL)
		fail_msg("%s\n%s", cause, text);
	assert_string_equal(j->header.scenario, "demo");
	assert_string_equal(j->header.text, h.text);
	assert_int_equal(j->header.ntasks, 3);
	assert_int_equal(j->header.params.cpus, 4);
	assert_int_equal(j->header.params.rr_interval, 7);
	assert_int_equal(j->header.params.sleep_min, 2);
	assert_int_equal(j->header.params.balance_interval, 50);
	assert_string_equal(j->header.policy, "o1");
	assert_int_equal(j->nchanges, n);
	for (i = 0; i < n; i++)
		assert_change_equal(&c[i], &j->changes[i]);
	assert_int_equal(j->end, 99);
	journal_free(j);

	/* The lines as documented in docs/JOURNAL.md. */
	assert_non_null(strstr(text, "\n9 add name=new.1-x nice=19 "
	    "pattern=2,40,0,7 runtime=5000 cpus=1 real=0\n"));
	assert_non_null(strstr(text, "\n10 add name=real_one nice=-3 "
	    "pattern=- runtime=0 cpus=- real=1\n"));
	assert_non_null(strstr(text, "\n5 affinity task=3 cpus=0,2-3\n"));
	assert_non_null(strstr(text, "\n30 branch tick=8\n8 sleep task=4 "
	    "ms=0\nend 99\n"));
	free(text);
}

/* Scenario names and texts that need quoting come back byte for byte. */
static void
test_roundtrip_texts(void **state)
{
	static const char *texts[] = {
		"",
		"\n",
		"\n\n\n",
		"no newline at the end",
		"name = \"q\";\ndescription = \"say \\\"hi\\\"\";\n",
		"back\\slash\\\\ and \\n not a newline\n",
		"\ttabs\tand  double  spaces \n\n\nempty lines above\n",
		"cr\r\nlf\n\r",
		"UTF-8: d\xc3\xa9j\xc3\xa0 vu, \xe6\x97\xa5\xe6\x9c\xac, "
		    "\xe2\x86\x92 \xf0\x9f\x98\x80\n",
		"controls \x01\x1b[0m\x7f end\n",
		"text \"looks like a journal line\"\nend 5\n",
		"\" \\x00 \\",
	};
	static const char *names[] = {
		"demo", "", "a name with spaces", "q\"uote\\d", "/tmp/x.cfg",
		"\xc3\xa9t\xc3\xa9\t1",
	};
	struct journal_header	 h;
	struct journal		*j;
	char			*text, *cause = NULL;
	size_t			 len, i;

	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		header(&h, names[i % (sizeof names / sizeof names[0])],
		    texts[i]);
		text = write_journal(&h, NULL, 0, i, &len);
		j = journal_parse(text, len, "j", &cause);
		if (j == NULL)
			fail_msg("text %zu: %s\n%s", i, cause, text);
		assert_string_equal(j->header.text, texts[i]);
		assert_string_equal(j->header.scenario, h.scenario);
		assert_int_equal(j->nchanges, 0);
		assert_int_equal(j->end, i);
		journal_free(j);
		free(text);
	}

	/* The escapes as written. */
	header(&h, "q\"d", "a\t\"b\\\x01\xc3\xa9\n");
	text = write_journal(&h, NULL, 0, 0, &len);
	assert_string_equal(text, "stairs-journal 1\n"
	    "scenario name=\"q\\\"d\" tasks=3 lines=2\n"
	    "text \"a\\t\\\"b\\\\\\x01\xc3\xa9\"\n"
	    "text \"\"\n"
	    "params cpus=4 rr_interval=7 sleep_min=2 balance_interval=50\n"
	    "policy name=o1\n"
	    "end 0\n");
	free(text);
}

/*
 * eevdf's base_slice: written only when it is not the default (3), so
 * journals of the default read as before; read back when there, the
 * default when not.
 */
static void
test_base_slice(void **state)
{
	struct journal_header	 h;
	struct journal		*j;
	char			*text, *cause = NULL;
	size_t			 len;

	header(&h, "s", "");
	h.params.base_slice = 30;
	h.policy = "eevdf";
	text = write_journal(&h, NULL, 0, 5, &len);
	assert_non_null(strstr(text, "\nparams cpus=4 rr_interval=7 "
	    "sleep_min=2 balance_interval=50 base_slice=30\npolicy "
	    "name=eevdf\n"));
	if ((j = journal_parse(text, len, "j", &cause)) == NULL)
		fail_msg("%s\n%s", cause, text);
	assert_int_equal(j->header.params.base_slice, 30);
	journal_free(j);
	free(text);

	header(&h, "s", "");
	text = write_journal(&h, NULL, 0, 5, &len);
	assert_null(strstr(text, "base_slice"));
	if ((j = journal_parse(text, len, "j", &cause)) == NULL)
		fail_msg("%s\n%s", cause, text);
	assert_int_equal(j->header.params.base_slice, 3);
	journal_free(j);
	free(text);
}

/* Parse s (must fail) and check the exact message. */
static void
refused(const char *s, const char *want)
{
	struct journal	*j;
	char		*cause = NULL;

	j = journal_parse(s, strlen(s), "j", &cause);
	if (j != NULL)
		fail_msg("accepted: %s", s);
	if (strcmp(cause, want) != 0)
		fail_msg("want \"%s\"\n got \"%s\"\nfor:\n%s", want, cause, s);
	free(cause);
}

/* Truncated journals: no end line, a last line without its newline. */
static void
test_truncated(void **state)
{
	refused("", "j:1: truncated: the journal is empty");
	refused(HEAD, "j:5: truncated: no end line");
	refused(HEAD "3 kill task=1\n", "j:6: truncated: no end line");
	refused(HEAD "3 kill task=1\nend 5",
	    "j:7: truncated: the last line has no newline");
	refused(HEAD "3 kill ta", "j:6: truncated: the last line has no "
	    "newline");
	refused("stairs-journal 1\nscenario name=\"demo\" tasks=3 lines=4\n"
	    "text \"x\"\n", "j:3: truncated: no end line (the header is "
	    "incomplete)");
	refused("stairs-journal 1\n",
	    "j:1: truncated: no end line (the header is incomplete)");
}

/* Reordered journals: a tick lower than the one before. */
static void
test_reordered(void **state)
{
	refused(HEAD "5 kill task=1\n4 kill task=2\nend 5\n",
	    "j:7: reordered: tick 4 is before tick 5 (line 6)");
	refused(HEAD "5 kill task=1\nend 4\n",
	    "j:7: reordered: end tick 4 is before tick 5 (line 6)");
	/* A branch goes back; ticks go on from the tick it names. */
	refused(HEAD "50 kill task=1\n60 branch tick=20\n19 kill task=2\n"
	    "end 30\n", "j:8: reordered: tick 19 is before tick 20 (line 7)");
	refused(HEAD "50 kill task=1\n40 branch tick=20\nend 30\n",
	    "j:7: reordered: tick 40 is before tick 50 (line 6)");
	/* A branch can only go back. */
	refused(HEAD "50 branch tick=51\nend 60\n",
	    "j:6: branch: bad tick=\"51\" (expected 0..50)");
}

/* Garbled journals: every line that is not what it should be. */
static void
test_garbled(void **state)
{
	static const struct {
		const char	*text;
		const char	*want;
	} t[] = {
		{ "stairs-journl 1\n", "j:1: not a stairs journal (it starts "
		    "with \"stairs-journal 1\")" },
		{ "stairs-journal 2\nend 0\n", "j:1: journal version 2 is not "
		    "supported (this stairs reads 1)" },
		{ "stairs-journal one\n", "j:1: bad journal version \"one\"" },
		{ "stairs-journal 1\nscenari name=\"x\"\n", "j:2: expected "
		    "the scenario line, not \"scenari\"" },
		{ "stairs-journal 1\nscenario name=x tasks=1\n", "j:2: "
		    "scenario: missing lines=" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=0\n",
		    "j:2: scenario: bad lines=\"0\" (expected 1..2147483647)" },
		{ "stairs-journal 1\nscenario name=x tasks=-1 lines=1\n",
		    "j:2: scenario: bad tasks=\"-1\" (expected 0..16777216)" },
		{ "stairs-journal 1\nscenario name=\"x tasks=1 lines=1\n",
		    "j:2: field \"name\" has no closing quote" },
		{ "stairs-journal 1\nscenario name=\"x\"y tasks=1 lines=1\n",
		    "j:2: field \"name\": text after the closing quote" },
		{ "stairs-journal 1\nscenario name=x  tasks=1 lines=1\n",
		    "j:2: bad spacing (fields are separated by one space)" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1 "
		    "lines=2\n", "j:2: duplicate field \"lines\"" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1 x=1\n",
		    "j:2: scenario: unknown field \"x\"" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=2\n"
		    "text \"a\"\nparams cpus=1\n", "j:4: expected a text line "
		    "of the scenario (1 more)" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\\q\"\n", "j:3: text has an unknown escape" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\\x0\"\n", "j:3: text has a bad \\x escape (two "
		    "lowercase hex digits)" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\\x00\"\n", "j:3: text has a NUL byte" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\tb\"\n", "j:3: text has a control character "
		    "(escape it)" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text a\n", "j:3: text is not quoted" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\" \n", "j:3: text after the closing quote" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\"\nparams cpus=0 rr_interval=1 sleep_min=1 "
		    "balance_interval=1\n", "j:4: params: bad cpus=\"0\" "
		    "(expected 1..2147483647)" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\"\nparams cpus=9999 rr_interval=1 sleep_min=1 "
		    "balance_interval=1\n", "j:4: params: cpus 9999 is outside "
		    "1..256" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\"\nparams cpus=1 rr_interval=1 sleep_min=1\n",
		    "j:4: params: missing balance_interval=" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\"\nparams cpus=1 rr_interval=1 sleep_min=1 "
		    "balance_interval=1 base_slice=x\n", "j:4: params: bad "
		    "base_slice=\"x\" (expected 1..2147483647)" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\"\nparams cpus=1 rr_interval=1 sleep_min=1 "
		    "balance_interval=1 base_slice=101\n", "j:4: params: "
		    "base_slice 101 is outside 1..100" },
		{ "stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
		    "text \"a\"\nparams cpus=1 rr_interval=1 sleep_min=1 "
		    "balance_interval=1\npolicy name=bfs\n", "j:5: policy: "
		    "unknown policy \"bfs\" (known: staircase, o1, cfs, eevdf, "
		    "rr)" },
		{ HEAD "\nend 0\n", "j:6: an empty line" },
		{ HEAD "end 0\nend 0\n", "j:7: an entry after the end line" },
		{ HEAD "end\n", "j:6: bad end tick \"\" (expected "
		    "0..1099511627776)" },
		{ HEAD "end -1\n", "j:6: bad end tick \"-1\" (expected "
		    "0..1099511627776)" },
		{ HEAD "end 99999999999999999999\n", "j:6: bad end tick "
		    "\"99999999999999999999\" (expected 0..1099511627776)" },
		{ HEAD "finish 5\n", "j:6: unknown entry \"finish\"" },
		{ HEAD "5\n", "j:6: a change with no kind" },
		{ HEAD "05 kill task=1\n", "j:6: bad tick \"05\" (expected "
		    "0..1099511627776)" },
		{ HEAD "5x kill task=1\n", "j:6: bad tick \"5x\" (expected "
		    "0..1099511627776)" },
		{ HEAD "5 snooze task=1\n", "j:6: unknown change \"snooze\"" },
		{ HEAD "5 kill\n", "j:6: kill: missing task=" },
		{ HEAD "5 kill task=1 ms=3\n", "j:6: kill: unknown field "
		    "\"ms\"" },
		{ HEAD "5 kill task=0\n", "j:6: kill: bad task=\"0\" "
		    "(expected 1..2147483647)" },
		{ HEAD "5 kill task=4\n", "j:6: kill: task 4 cannot exist "
		    "(the scenario has 3 tasks and 0 were added)" },
		{ HEAD "5 add name=n nice=0 pattern=- runtime=0 cpus=- real=0\n"
		    "6 kill task=5\n", "j:7: kill: task 5 cannot exist (the "
		    "scenario has 3 tasks and 1 were added)" },
		{ HEAD "5 kill task=1x\n", "j:6: kill: bad task=\"1x\" "
		    "(expected 1..2147483647)" },
		{ HEAD "5 kill task\n", "j:6: bad field \"task\" (expected "
		    "key=value)" },
		{ HEAD "5 kill task=\n", "j:6: field \"task\" is empty" },
		{ HEAD "5 kill =1\n", "j:6: bad field \"=1\" (expected "
		    "key=value)" },
		{ HEAD "5 kill task=1 \n", "j:6: bad spacing (fields are "
		    "separated by one space)" },
		{ HEAD "5 sleep task=1\n", "j:6: sleep: missing ms=" },
		{ HEAD "5 sleep task=1 ms=100000001\n", "j:6: sleep: bad "
		    "ms=\"100000001\" (expected 0..100000000)" },
		{ HEAD "5 nice task=1 nice=20\n", "j:6: nice: bad nice=\"20\" "
		    "(expected -20..19)" },
		{ HEAD "5 nice task=1 nice=-0\n", "j:6: nice: bad nice=\"-0\" "
		    "(expected -20..19)" },
		{ HEAD "5 affinity task=1 cpus=2\n", "j:6: affinity: cpu 2 "
		    "is outside 0..1 in \"2\"" },
		{ HEAD "5 affinity task=1 cpus=-\n", "j:6: affinity: bad cpu "
		    "list \"-\" (expected e.g. 0-2,5)" },
		{ HEAD "5 add name=9 nice=0 pattern=- runtime=0 cpus=- "
		    "real=0\n", "j:6: add: name=\"9\" is all digits (it would "
		    "read as a task id)" },
		{ HEAD "5 add name=n nice=0 pattern=1,2,3 runtime=0 cpus=- "
		    "real=0\n", "j:6: add: bad pattern=\"1,2,3\" (expected - "
		    "or an even list of at most 1024 ms, each 0..100000000)" },
		{ HEAD "5 add name=n nice=0 pattern=1,,3,4 runtime=0 cpus=- "
		    "real=0\n", "j:6: add: bad pattern=\"1,,3,4\" (expected - "
		    "or an even list of at most 1024 ms, each 0..100000000)" },
		{ HEAD "5 add name=n nice=0 pattern=- runtime=0 cpus=- "
		    "real=2\n", "j:6: add: bad real=\"2\" (expected 0..1)" },
		{ HEAD "5 add name=n nice=0 pattern=- runtime=0 real=0\n",
		    "j:6: add: missing cpus=" },
		{ HEAD "5 policy name=bfs\n", "j:6: policy: unknown policy "
		    "\"bfs\" (known: staircase, o1, cfs, eevdf, rr)" },
		{ HEAD "5 branch\n", "j:6: branch: missing tick=" },
	};
	size_t	i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		refused(t[i].text, t[i].want);
}

/* Parse s, which must be accepted; the journal (caller frees). */
static struct journal *
accepted(const char *s)
{
	struct journal	*j;
	char		*cause = NULL;

	if ((j = journal_parse(s, strlen(s), "j", &cause)) == NULL)
		fail_msg("refused: %s\nfor:\n%s", cause, s);
	return (j);
}

/*
 * Every number is bounded where it is read (SPEC.md section 12): ticks
 * at most 2^40 (an end of 2^63 - 1 ran a replay for ever), the scenario's
 * tasks so that tasks plus adds cannot overflow (tasks=2147483647 and
 * one add overflowed an int), the engine's parameters as the engine
 * bounds them (and no wider than an int).
 */
static void
test_bounds(void **state)
{
	struct journal	*j;

	refused(HEAD "5 kill task=1\nend 9223372036854775807\n",
	    "j:7: bad end tick \"9223372036854775807\" (expected "
	    "0..1099511627776)");
	refused(HEAD "end 1099511627777\n", "j:6: bad end tick "
	    "\"1099511627777\" (expected 0..1099511627776)");
	refused(HEAD "1099511627777 kill task=1\nend 1099511627777\n",
	    "j:6: bad tick \"1099511627777\" (expected 0..1099511627776)");
	refused(HEAD "9223372036854775807 kill task=1\n",
	    "j:6: bad tick \"9223372036854775807\" (expected "
	    "0..1099511627776)");
	j = accepted(HEAD "1099511627776 kill task=1\nend 1099511627776\n");
	assert_int_equal(j->end, (uint64_t)1 << 40);
	assert_int_equal(j->changes[0].at, (uint64_t)1 << 40);
	journal_free(j);

	refused("stairs-journal 1\nscenario name=x tasks=2147483647 "
	    "lines=1\ntext \"a\"\nparams cpus=1 rr_interval=10 sleep_min=1 "
	    "balance_interval=100\npolicy name=staircase\n"
	    "5 add name=n nice=0 pattern=- runtime=0 cpus=- real=0\n"
	    "6 kill task=2\nend 10\n", "j:2: scenario: bad "
	    "tasks=\"2147483647\" (expected 0..16777216)");
	j = accepted("stairs-journal 1\nscenario name=x tasks=16777216 "
	    "lines=1\ntext \"a\"\nparams cpus=1 rr_interval=10 sleep_min=1 "
	    "balance_interval=100\npolicy name=staircase\n"
	    "5 add name=n nice=0 pattern=- runtime=0 cpus=- real=0\n"
	    "6 kill task=16777217\nend 10\n");
	assert_int_equal(j->header.ntasks, 16777216);
	assert_int_equal(j->changes[1].task, 16777217);
	journal_free(j);
	refused(HEAD "5 kill task=16777217\nend 10\n", "j:6: kill: task "
	    "16777217 cannot exist (the scenario has 3 tasks and 0 were "
	    "added)");
	refused(HEAD "5 kill task=2147483648\nend 10\n", "j:6: kill: bad "
	    "task=\"2147483648\" (expected 1..2147483647)");

	/* The engine's parameters: bounded by engine_params_check. */
	refused("stairs-journal 1\nscenario name=x tasks=1 lines=1\n"
	    "text \"a\"\nparams cpus=1 rr_interval=2147483647 sleep_min=1 "
	    "balance_interval=100\n", "j:4: params: rr_interval 2147483647 "
	    "is outside 1..1000");
}

/* journal_read: a file by path, with the path in messages. */
static void
test_read_file(void **state)
{
	struct journal	*j;
	char		 dir[] = "/tmp/test_journal.XXXXXX", path[64];
	char		*cause = NULL, *want;
	FILE		*f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/s.journal", dir);
	f = fopen(path, "w");
	fputs(HEAD "7 nice task=2 nice=5\nend 9\n", f);
	fclose(f);
	j = journal_read(path, &cause);
	assert_non_null(j);
	assert_int_equal(j->nchanges, 1);
	assert_int_equal(j->changes[0].kind, CHANGE_NICE);
	assert_int_equal(j->changes[0].value, 5);
	assert_int_equal(j->end, 9);
	journal_free(j);

	/* Truncated: the path and line in the message. */
	assert_int_equal(truncate(path, strlen(HEAD) + 5), 0);
	assert_null(journal_read(path, &cause));
	want = NULL;
	assert_true(asprintf(&want, "%s:6: truncated: the last line has no "
	    "newline", path) > 0);
	assert_string_equal(cause, want);
	free(want);
	free(cause);

	/* Not a regular file: refused before it is opened. */
	assert_null(journal_read(dir, &cause));
	assert_non_null(strstr(cause, "not a regular file"));
	free(cause);
	snprintf(path, sizeof path, "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_null(journal_read(path, &cause));
	assert_non_null(strstr(cause, "not a regular file"));
	free(cause);
	unlink(path);
	snprintf(path, sizeof path, "%s/s.journal", dir);
	unlink(path);
	assert_null(journal_read(path, &cause));
	free(cause);
	rmdir(dir);
}

/* The example of docs/JOURNAL.md reads, and writes back as it is. */
static void
test_doc_example(void **state)
{
	struct journal	*j;
	FILE		*f;
	char		 line[512], *text = NULL, *out = NULL, *cause = NULL;
	size_t		 len = 0, outlen = 0, i;
	int		 in = 0, done = 0;
	FILE		*t;

	/* Tests run from the top of the tree (tests/run.sh). */
	f = fopen("docs/JOURNAL.md", "r");
	assert_non_null(f);
	t = open_memstream(&text, &len);
	while (!done && fgets(line, sizeof line, f) != NULL) {
		if (strcmp(line, "```\n") == 0) {
			done = in;
			in = !in;
		} else if (in)
			fputs(line, t);
	}
	fclose(t);
	fclose(f);
	j = journal_parse(text, len, "JOURNAL.md", &cause);
	if (j == NULL)
		fail_msg("%s", cause);
	assert_int_equal(j->nchanges, 12);
	t = open_memstream(&out, &outlen);
	journal_write_header(t, &j->header);
	for (i = 0; i < j->nchanges; i++)
		journal_write_change(t, &j->changes[i]);
	journal_write_end(t, j->end);
	fclose(t);
	assert_string_equal(out, text);
	journal_free(j);
	free(out);
	free(text);
}

/*
 * A file of parts (a live daemon's loads, docs/JOURNAL.md): each part a
 * journal of its own after the end of the one before; the last by
 * default, any by number, a number past them refused; every part is
 * checked, whichever is wanted, and line numbers count from the file's
 * start.
 */
static void
test_parts(void **state)
{
	const char	 two[] = HEAD "5 kill task=1\nend 9\n"
			    HEAD "end 4\n";
	const char	 bad2[] = HEAD "end 9\n" HEAD "9 kill task=7\nend 9\n";
	const char	 cut2[] = HEAD "end 9\n" HEAD;
	struct journal	*j;
	char		*cause = NULL;

	assert_non_null(j = journal_parse(two, strlen(two), "j", &cause));
	assert_int_equal(j->part, 2);
	assert_int_equal(j->nparts, 2);
	assert_int_equal(j->nchanges, 0);
	assert_int_equal(j->end, 4);
	journal_free(j);
	assert_non_null(j = journal_parse_part(two, strlen(two), "j", 1,
	    &cause));
	assert_int_equal(j->part, 1);
	assert_int_equal(j->nparts, 2);
	assert_int_equal(j->nchanges, 1);
	assert_int_equal(j->end, 9);
	journal_free(j);
	assert_null(journal_parse_part(two, strlen(two), "j", 3, &cause));
	assert_string_equal(cause, "j: no part 3 (the journal has 2 parts)");
	free(cause);
	assert_null(journal_parse_part(bad2, strlen(bad2), "j", 1, &cause));
	assert_string_equal(cause, "j:12: kill: task 7 cannot exist (the "
	    "scenario has 3 tasks and 0 were added)");
	free(cause);
	assert_null(journal_parse_part(cut2, strlen(cut2), "j", 1, &cause));
	assert_string_equal(cause, "j:11: truncated: no end line");
	free(cause);
}

/*
 * A tally (the room's votes at a reveal, SPEC.md section 12): read back
 * as it was written; 1 to 9 counts, each a decimal, else refused.
 */
static void
test_tally(void **state)
{
	const char	 ok[] = HEAD "7 tally votes=3,0,1\nend 9\n";
	const char	*bad[] = {
		HEAD "7 tally votes=\nend 9\n",
		HEAD "7 tally votes=1,,2\nend 9\n",
		HEAD "7 tally votes=1,2,3,4,5,6,7,8,9,10\nend 9\n",
		HEAD "7 tally votes=-1\nend 9\n",
	};
	struct journal	*j;
	char		*cause = NULL, *text;
	size_t		 i, len;
	FILE		*f;

	assert_non_null(j = journal_parse(ok, strlen(ok), "j", &cause));
	assert_int_equal(j->nchanges, 1);
	assert_int_equal(j->changes[0].kind, CHANGE_TALLY);
	assert_int_equal(j->changes[0].at, 7);
	assert_int_equal(j->changes[0].npattern, 3);
	assert_int_equal(j->changes[0].pattern[0], 3);
	assert_int_equal(j->changes[0].pattern[2], 1);
	assert_non_null(f = open_memstream(&text, &len));
	journal_write_change(f, &j->changes[0]);
	fclose(f);
	assert_string_equal(text, "7 tally votes=3,0,1\n");
	free(text);
	journal_free(j);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_null(journal_parse(bad[i], strlen(bad[i]), "j",
		    &cause));
		assert_true(strncmp(cause, "j:6: ", 5) == 0);
		free(cause);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip_changes),
		cmocka_unit_test(test_roundtrip_texts),
		cmocka_unit_test(test_base_slice),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_reordered),
		cmocka_unit_test(test_garbled),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test(test_doc_example),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_tally),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
