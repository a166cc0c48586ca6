/*
 * fuzz_config.c -- libFuzzer harness for the daemon's configuration
 * loader: the input is a config file's text.  config_load() reads a path,
 * so the input is written to a memfd (a regular file in memory) and
 * loaded through /proc/self/fd/N, as the daemon loads a file; a config
 * that loads is then copied and compared with the defaults, as a reload
 * (SIGHUP) does.
 *
 * Inputs with an @include are skipped: the directive reads files of the
 * machine, not the input (the include checks are tested by
 * tests/test_config.c).
 */
#include <sys/mman.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "fuzz.h"

static int	fuzz_fd = -1;
static char	fuzz_path[64];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if ((fuzz_fd = memfd_create("fuzz.cfg", MFD_CLOEXEC)) == -1) {
		perror("memfd_create");
		abort();
	}
	snprintf(fuzz_path, sizeof fuzz_path, "/proc/self/fd/%d", fuzz_fd);
	return (0);
}

/* Count the options that differ. */
static void
fuzz_diff(void *arg, const char *name, const char *old, const char *new,
    int live)
{
	(*(int *)arg)++;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config	 c, def, copy;
	char		*cause = NULL;
	int		 n = 0;

	if (memmem(data, size, "@include", 8) != NULL)
		return (-1);	/* not added to the corpus */
	if (ftruncate(fuzz_fd, 0) != 0 ||
	    pwrite(fuzz_fd, data, size, 0) != (ssize_t)size)
		abort();

	config_defaults(&c);
	if (config_load(fuzz_path, &c, &cause) != 0) {
		free(cause);
		config_free(&c);
		return (0);
	}
	config_defaults(&def);
	config_copy(&copy, &c);
	config_diff(&def, &copy, fuzz_diff, &n);
	config_free(&copy);
	config_free(&def);
	config_free(&c);
	return (0);
}
