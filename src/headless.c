/*
 * headless.c -- stairsd --headless (placeholder until it lands).
 */
#include <stdio.h>

#include "stairsd.h"

/* Run a scenario headless. */
int
headless_main(int argc, char **argv)
{
	fprintf(stderr, "stairsd: --headless is not built yet\n");
	return (1);
}
