/*
 * bindir.h -- where the programs under test are, for the C tests that
 * start them: $STAIRS_BIN, else found from the test's own path
 * (build/obj/t/X -> the tree's top, build/asan/t/X -> build/asan).
 */
#ifndef STAIRS_TESTS_BINDIR_H
#define STAIRS_TESTS_BINDIR_H

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The directory holding prog: $STAIRS_BIN, else beside this build. */
static __attribute__((unused)) void
test_bindir(const char *prog, char *buf, size_t len)
{
	char		 exe[PATH_MAX], try[PATH_MAX + 64], *d;
	const char	*env;
	ssize_t		 n;

	if ((env = getenv("STAIRS_BIN")) != NULL && *env != '\0') {
		snprintf(buf, len, "%s", env);
		return;
	}
	if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) <= 0) {
		snprintf(buf, len, ".");
		return;
	}
	exe[n] = '\0';
	d = dirname(dirname(exe));		/* build/obj or build/asan */
	snprintf(try, sizeof try, "%s/%s", d, prog);
	if (access(try, X_OK) == 0)
		snprintf(buf, len, "%s", d);
	else
		snprintf(buf, len, "%s/../..", d);
}

#endif
