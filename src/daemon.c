/*
 * daemon.c -- the live daemon (placeholder until it lands).
 */
#include <stdio.h>

#include "stairsd.h"

/* Run the live daemon. */
int
daemon_main(int argc, char **argv)
{
	fprintf(stderr, "stairsd: the live daemon is not built yet\n");
	return (1);
}
