/*
 * staircase.h -- the staircase's fields of a task snapshot (its
 * engine_task_info field[], named by its policy's `fields`), for the
 * tests of its rules; everyone else finds them by name.
 */
#ifndef STAIRS_STAIRCASE_H
#define STAIRS_STAIRCASE_H

enum staircase_field {
	STAIRCASE_ITER,		/* k: the descent's number of slices up top */
	STAIRCASE_DESCENT	/* 1 + number of fall-offs (the table's row) */
};

#endif
