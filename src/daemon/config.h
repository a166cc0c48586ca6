/*
 * config.h -- the daemon's configuration file (config/stairsd.cfg,
 * libconfig syntax).  One option table in config.c gives each option's
 * type, bounds, default and whether a reload (SIGHUP) can apply it live.
 */
#ifndef STAIRS_CONFIG_H
#define STAIRS_CONFIG_H

#include "cpumask.h"
#include "log.h"

#define CONFIG_FILE_NAME	"stairs/stairsd.cfg"

/* The system's configuration directory (the Makefile may set it). */
#ifndef STAIRS_SYSCONFDIR
#define STAIRS_SYSCONFDIR	"/etc"
#endif

struct config {
	int		 cpus;
	int		 rr_interval;
	int		 sleep_min;
	int		 balance_interval;
	double		 speed;
	char		*socket;	/* "": the default path */
	char		*scenario;	/* "" or "demo": the built-in demo */
	int		 cpu_map[CPUMASK_MAX];	/* engine cpu -> physical */
	int		 ncpu_map;	/* 0: the online CPUs, round-robin */
	int		 default_sleep;	/* ms, for "sleep <task>" */
	int		 max_clients;
	enum log_level	 log_level;
	char		*child_output;	/* "": children's output to /dev/null */
	int		 realtime;	/* try SCHED_FIFO, else nice -10 */
	int		 cgroups;	/* use cgroups for groups if possible */
	int		 max_task_procs; /* processes per real task */
	int		 max_fps;	/* cap on subscribe fps */
	int		 max_tasks;	/* add/spawn refused past it */
	int		 history;	/* seconds of ticks seek reaches */
	char		*scenario_path;	/* DIR:DIR: more scenarios */
	int		 batch;		/* no real task: tick in batches */
	char		*observe;	/* "events" where allowed, or "proc" */
};

/* Called by config_diff for each option that differs. */
typedef void (*config_diff_cb)(void *arg, const char *name, const char *old,
    const char *new, int live);

void	config_defaults(struct config *);
int	config_load(const char *path, struct config *, char **cause);
void	config_free(struct config *);
void	config_copy(struct config *dst, const struct config *src);
void	config_apply_live(struct config *dst, const struct config *src);
int	config_diff(const struct config *, const struct config *,
	    config_diff_cb, void *arg);
char   *config_default_path(void);
char   *config_find(const char *sysconfdir);
struct engine_params;
void	config_engine_params(const struct config *, struct engine_params *);
int	config_option_count(void);
const char *config_option_name(int);

#endif
