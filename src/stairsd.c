/*
 * stairsd.c -- the daemon's main (placeholder until the daemon lands).
 */
#include <stdio.h>

int
main(void)
{
	printf("stairsd %s\n", STAIRS_VERSION);
	return (0);
}
