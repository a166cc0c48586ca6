/*
 * test_file.c -- the files stairs writes (src/base/file.c): created 0600
 * whatever the umask, never through a symbolic link (the last component
 * or one on the way, absolute or relative), never blocking (a FIFO
 * refused, with or without a reader, in a child that an alarm kills if
 * the open blocks), /dev/null and "-" allowed, an existing file emptied
 * or appended to.  Each case runs twice: with openat2 where the kernel
 * has it, and with the walk of each component (FILE_WALK).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cmocka.h>

#include "file.h"

static char	tmpdir[64];
static const int modes[] = { 0, FILE_WALK };

/* A fresh temporary directory. */
static int
setup(void **state)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_file.XXXXXX");
	if (mkdtemp(tmpdir) == NULL)
		return (-1);
	return (0);
}

/* Remove it. */
static int
teardown(void **state)
{
	char	cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	return (system(cmd) == 0 ? 0 : -1);
}

/* tmpdir/name in buf. */
static char *
at(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
	return (buf);
}

/* Write text to a file, made with the test's own open. */
static void
put(const char *path, const char *text)
{
	FILE	*f;

	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A file's whole text into buf ("" if it cannot be read). */
static char *
get(const char *path, char *buf, size_t len)
{
	FILE	*f;
	size_t	 n = 0;

	if ((f = fopen(path, "r")) != NULL) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return (buf);
}

/* Does path exist (as anything, a dangling link too)? */
static int
exists(const char *path)
{
	struct stat	st;

	return (lstat(path, &st) == 0);
}

/* file_open must fail with a cause ending in want; frees the cause. */
static void
refused(const char *path, int flags, const char *want)
{
	char	*cause = NULL;
	size_t	 n, w = strlen(want);
	int	 fd;

	fd = file_open(path, flags, &cause);
	if (fd != -1)
		close(fd);
	assert_int_equal(fd, -1);
	assert_non_null(cause);
	n = strlen(cause);
	if (n < w || strcmp(cause + n - w, want) != 0)
		fail_msg("cause \"%s\" does not end in \"%s\"", cause, want);
	free(cause);
}

/* A symbolic link as the last component: refused, its target untouched. */
static void
test_symlink_last(void **state)
{
	char	 victim[128], link[128], dang[128], made[128], buf[64];
	char	 want[160], *cause = NULL;
	size_t	 i;

	at(victim, sizeof victim, "victim");
	at(link, sizeof link, "link");
	at(dang, sizeof dang, "dangling");
	at(made, sizeof made, "made");
	put(victim, "secret\n");
	assert_int_equal(symlink(victim, link), 0);
	assert_int_equal(symlink(made, dang), 0);
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		snprintf(want, sizeof want, "%s: a symbolic link (refused)",
		    link);
		refused(link, modes[i], want);
		refused(link, modes[i] | FILE_APPEND, want);
		assert_string_equal(get(victim, buf, sizeof buf), "secret\n");
		/* A dangling link must not create its target either. */
		snprintf(want, sizeof want, "%s: a symbolic link (refused)",
		    dang);
		refused(dang, modes[i], want);
		assert_false(exists(made));
		assert_null(file_fopen(link, modes[i], &cause));
		free(cause);
		cause = NULL;
	}
}

/* A symbolic link on the way, absolute and relative: refused. */
static void
test_symlink_middle(void **state)
{
	char	 real[128], sub[160], l[128], path[192], want[400];
	char	 cwd[4096];
	size_t	 i;

	at(real, sizeof real, "real");
	snprintf(sub, sizeof sub, "%s/sub", real);
	at(l, sizeof l, "l");
	assert_int_equal(mkdir(real, 0700), 0);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(symlink(real, l), 0);
	assert_non_null(getcwd(cwd, sizeof cwd));
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		snprintf(path, sizeof path, "%s/f", l);
		snprintf(want, sizeof want, "%s: %s: a symbolic link "
		    "(refused)", path, l);
		refused(path, modes[i], want);
		snprintf(path, sizeof path, "%s/sub/f", l);
		snprintf(want, sizeof want, "%s: %s: a symbolic link "
		    "(refused)", path, l);
		refused(path, modes[i], want);
		/* Relative, from tmpdir: the first component a link. */
		assert_int_equal(chdir(tmpdir), 0);
		refused("l/sub/f", modes[i],
		    "l/sub/f: l: a symbolic link (refused)");
		refused("./real/../l/f", modes[i],
		    "./real/../l/f: ./real/../l: a symbolic link (refused)");
		assert_int_equal(chdir(cwd), 0);
		snprintf(path, sizeof path, "%s/f", real);
		assert_false(exists(path));
		snprintf(path, sizeof path, "%s/f", sub);
		assert_false(exists(path));
	}
}

/*
 * In a child killed by an alarm if it blocks: file_open of a FIFO must
 * return at once, refused.  Exits 0 if so, 1 if it was opened, 2 if the
 * cause is not the one wanted.
 */
static void
fifo_child(const char *path, int flags, const char *want)
{
	char	*cause = NULL;
	int	 fd;

	alarm(5);
	fd = file_open(path, flags, &cause);
	if (fd != -1)
		_exit(1);
	if (cause == NULL || strstr(cause, want) == NULL) {
		fprintf(stderr, "cause: %s\n", cause != NULL ? cause : "-");
		_exit(2);
	}
	_exit(0);
}

/* Run fifo_child and check it neither blocked nor opened the FIFO. */
static void
fifo_refused(const char *path, int flags)
{
	char	want[192];
	pid_t	pid;
	int	status;

	snprintf(want, sizeof want, "%s: a FIFO, not a regular file", path);
	fflush(NULL);
	assert_true((pid = fork()) != -1);
	if (pid == 0)
		fifo_child(path, flags, want);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		fail_msg("file_open(%s) blocked on a FIFO", path);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 1)
		fail_msg("file_open(%s) opened a FIFO", path);
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* A FIFO, with no reader and with one: refused, never waited on. */
static void
test_fifo(void **state)
{
	char	fifo[128];
	size_t	i;
	int	rd;

	at(fifo, sizeof fifo, "fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		fifo_refused(fifo, modes[i]);
		fifo_refused(fifo, modes[i] | FILE_APPEND);
	}
	/* With a reader the open would succeed: fstat must refuse it. */
	assert_true((rd = open(fifo, O_RDONLY | O_NONBLOCK)) != -1);
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
		fifo_refused(fifo, modes[i]);
	close(rd);
}

/* Other files that are not regular: a directory, a socket's place. */
static void
test_not_regular(void **state)
{
	char	path[128], want[192];
	size_t	i;

	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		snprintf(want, sizeof want, "%s: a directory, not a regular "
		    "file", tmpdir);
		refused(tmpdir, modes[i], want);
		refused("", modes[i], "an empty path");
		at(path, sizeof path, "none/f");
		snprintf(want, sizeof want, "%s: No such file or directory",
		    path);
		refused(path, modes[i], want);
	}
}

/* /dev/null, a character device, is allowed; so is "-". */
static void
test_devnull_and_stdout(void **state)
{
	struct stat	 a, b;
	char		*cause = NULL;
	FILE		*f;
	size_t		 i;
	int		 fd;

	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		fd = file_open("/dev/null", modes[i], &cause);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, "x\n", 2), 2);
		assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
		close(fd);
		assert_non_null(f = file_fopen("/dev/null",
		    modes[i] | FILE_APPEND, &cause));
		fputs("x\n", f);
		assert_int_equal(file_close(f, &cause), 0);
	}
	assert_true(file_fopen("-", 0, &cause) == stdout);
	assert_true((fd = file_open("-", 0, &cause)) >= 0);
	assert_int_equal(fstat(fd, &a), 0);
	assert_int_equal(fstat(STDOUT_FILENO, &b), 0);
	assert_true(a.st_dev == b.st_dev && a.st_ino == b.st_ino);
	close(fd);
}

/* A write that fails (/dev/full) is reported by file_close. */
static void
test_close_fails(void **state)
{
	char	*cause = NULL;
	FILE	*f;

	if (access("/dev/full", W_OK) != 0)
		skip();
	assert_non_null(f = file_fopen("/dev/full", 0, &cause));
	fputs("a line\n", f);
	assert_int_equal(file_close(f, &cause), -1);
	assert_non_null(cause);
	free(cause);
}

/* Created 0600 whatever the umask (0 and 0277). */
static void
test_mode(void **state)
{
	static const mode_t	 masks[] = { 0, 0277, 022 };
	struct stat		 st;
	char			 path[128], name[32], *cause = NULL;
	mode_t			 old;
	size_t			 i, m;
	int			 fd;

	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		for (m = 0; m < sizeof masks / sizeof masks[0]; m++) {
			snprintf(name, sizeof name, "mode-%zu-%zu", i, m);
			at(path, sizeof path, name);
			old = umask(masks[m]);
			fd = file_open(path, modes[i], &cause);
			umask(old);
			assert_true(fd >= 0);
			close(fd);
			assert_int_equal(stat(path, &st), 0);
			assert_int_equal(st.st_mode & 07777, 0600);
		}
	}
}

/* An existing file: emptied by default, appended to with FILE_APPEND. */
static void
test_existing(void **state)
{
	struct stat	 st;
	char		 path[128], buf[64], *cause = NULL;
	FILE		*f;
	size_t		 i;

	at(path, sizeof path, "existing");
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		put(path, "one\n");
		assert_int_equal(chmod(path, 0640), 0);
		assert_non_null(f = file_fopen(path, modes[i] | FILE_APPEND,
		    &cause));
		fputs("two\n", f);
		assert_int_equal(file_close(f, &cause), 0);
		assert_string_equal(get(path, buf, sizeof buf), "one\ntwo\n");
		assert_non_null(f = file_fopen(path, modes[i], &cause));
		fputs("three\n", f);
		assert_int_equal(file_close(f, &cause), 0);
		assert_string_equal(get(path, buf, sizeof buf), "three\n");
		/* Its mode is the owner's choice, kept. */
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_mode & 07777, 0640);
	}
}

/* A second hard link to a file (someone else's, maybe): refused. */
static void
test_hard_link(void **state)
{
	char	orig[128], hard[128], want[192], buf[64];
	size_t	i;

	at(orig, sizeof orig, "orig");
	at(hard, sizeof hard, "hard");
	put(orig, "keep\n");
	assert_int_equal(link(orig, hard), 0);
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		snprintf(want, sizeof want, "%s: a file with 2 links "
		    "(refused)", hard);
		refused(hard, modes[i], want);
		refused(orig, modes[i] | FILE_APPEND, "2 links (refused)");
		assert_string_equal(get(orig, buf, sizeof buf), "keep\n");
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symlink_last),
		cmocka_unit_test(test_symlink_middle),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_devnull_and_stdout),
		cmocka_unit_test(test_close_fails),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_existing),
		cmocka_unit_test(test_hard_link),
	};

	return (cmocka_run_group_tests(tests, setup, teardown));
}
