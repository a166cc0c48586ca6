/*
 * load.c -- stairs-load (placeholder until the real-process work lands).
 */
#include <stdio.h>

int
main(void)
{
	return (0);
}
