/*
 * cgroup.h -- cpuset cgroups for real tasks: one directory per daemon
 * (stairs-<pid>) and one per scenario group inside it, on cgroup v2 where
 * its cpuset controller can be enabled, else on a cgroup v1 cpuset
 * hierarchy.  Everything created is removed by cgroup_free().
 */
#ifndef STAIRS_CGROUP_H
#define STAIRS_CGROUP_H

#include <sys/types.h>

#include "cpumask.h"

struct cgroup;
struct cgroup_pids;

#define CGROUP_TASKS	(-1)	/* cgroup_move: the tasks of no group */

/* Detect a writable hierarchy and create stairs-<pid>; NULL: none (*cause). */
struct cgroup *cgroup_create(pid_t owner, char **cause);
void	cgroup_free(struct cgroup *);
const char *cgroup_mode(const struct cgroup *);		/* "v2" or "v1" */
const char *cgroup_root(const struct cgroup *);		/* stairs-<pid> */
/* Create (or update) the directory of group id with these physical CPUs. */
int	cgroup_group(struct cgroup *, int id, const char *name,
	    const struct cpumask *phys, char **cause);
/* The directory of group id, NULL if it has none. */
const char *cgroup_group_path(const struct cgroup *, int id);
/* Move a process (all its threads) into group id. */
int	cgroup_move(struct cgroup *, int id, pid_t, char **cause);
/* Read a small kernel file, trailing white space cut; 0 or -1 (errno). */
int	cgroup_read(const char *path, char *buf, size_t len);
/* Kill what is left in a stairs-<pid> tree and remove it (by path). */
void	cgroup_purge_path(const char *root);
/* Kill what is in a stairs-<pid> tree, without removing it. */
void	cgroup_kill_path(const char *root);

/* The v1 pids hierarchy: t-<id> per task, pids.max = max_task_procs. */
struct cgroup_pids *cgroup_pids_create(pid_t owner, char **cause);
void	cgroup_pids_free(struct cgroup_pids *);
const char *cgroup_pids_root(const struct cgroup_pids *);
int	cgroup_pids_add(struct cgroup_pids *, int id, pid_t, int max,
	    char **cause);
long	cgroup_pids_refused(struct cgroup_pids *, int id);
void	cgroup_pids_end(struct cgroup_pids *, int id);

#endif
