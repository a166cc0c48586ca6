/*
 * headless.h -- stairsd --headless: a scenario or a journal run with no
 * socket and no clock, as fast as it can (headless.c).
 */
#ifndef STAIRS_HEADLESS_H
#define STAIRS_HEADLESS_H

int	headless_main(int argc, char **argv);

#endif
