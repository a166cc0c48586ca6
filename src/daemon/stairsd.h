/*
 * stairsd.h -- the two ways stairsd runs: headless (headless.c) and as a
 * live daemon (daemon.c).  stairsd.c picks one from the command line.
 */
#ifndef STAIRS_STAIRSD_H
#define STAIRS_STAIRSD_H

int	headless_main(int argc, char **argv);
int	daemon_main(int argc, char **argv);

#endif
