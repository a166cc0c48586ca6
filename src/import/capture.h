/*
 * capture.h -- record this machine's scheduler through a tracefs
 * instance of our own (SPEC.md section 11, --capture).
 */
#ifndef STAIRS_CAPTURE_H
#define STAIRS_CAPTURE_H

#include <stddef.h>

struct capture {
	char		*text;		/* the instance's trace file */
	size_t		 len;
	int		*kpids;		/* kernel threads, from /proc */
	size_t		 nkpids;
	char		*label;		/* where the text came from */
};

int	capture_run(double seconds, struct capture *, char **cause);
void	capture_free(struct capture *);

#endif
