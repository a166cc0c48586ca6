/*
 * stairsd.c -- main: "--headless" anywhere on the command line runs a
 * scenario with no socket and no clock (headless.c); anything else starts
 * the live daemon (daemon.c).
 */
#include <string.h>

#include "stairsd.h"

int
main(int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			break;
		if (strcmp(argv[i], "--headless") == 0)
			return (headless_main(argc, argv));
	}
	return (daemon_main(argc, argv));
}
