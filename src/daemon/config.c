/*
 * config.c -- read the daemon's configuration with libconfig.
 *
 * One table (config_options) drives everything: defaults, parsing, type
 * and bound checks, the reload diff and which options a reload may apply
 * live.  Adding an option is one line here, one field in struct config
 * and one commented entry in config/stairsd.cfg.  Errors read
 * "FILE:LINE: message".  The file is read through readconf.c: only
 * regular files (the config and its @includes), integers never wrapped.
 */
#include <libconfig.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "readconf.h"
#include "config.h"
#include "engine.h"
#include "xmalloc.h"

static void	config_error_at(char **, const char *, const config_setting_t *,
		    const char *, ...) __attribute__((format(printf, 4, 5)));

enum config_type {
	CONFIG_INT,
	CONFIG_FLOAT,
	CONFIG_STRING,
	CONFIG_BOOL,
	CONFIG_LEVEL,
	CONFIG_CPUMAP
};

/* An option's name in the file is its field's name in struct config. */
#define CONFIG_OPTION(name, type, min, max, def, def_str, live) \
	{ #name, type, min, max, def, def_str, offsetof(struct config, name), \
	    live, -1 }
/* An engine parameter: its name and range are the engine's (engine.h). */
#define CONFIG_ENGINE(name, param, def) \
	{ #name, CONFIG_INT, 0, 0, def, NULL, offsetof(struct config, name), \
	    0, param }

static const struct config_option {
	const char		*name;
	enum config_type	 type;
	double			 min, max;	/* numbers; list length */
	double			 def;		/* numbers, bools, levels */
	const char		*def_str;	/* strings */
	size_t			 offset;
	int			 live;		/* a reload applies it */
	int			 param;		/* ENGINE_PARAM_*, or -1 */
} config_options[] = {
	CONFIG_ENGINE(cpus, ENGINE_PARAM_CPUS, 2),
	CONFIG_ENGINE(rr_interval, ENGINE_PARAM_RR_INTERVAL, 10),
	CONFIG_ENGINE(sleep_min, ENGINE_PARAM_SLEEP_MIN, 1),
	CONFIG_ENGINE(balance_interval, ENGINE_PARAM_BALANCE_INTERVAL, 100),
	CONFIG_OPTION(speed, CONFIG_FLOAT, 0.01, 100, 1, NULL, 1),
	CONFIG_OPTION(socket, CONFIG_STRING, 0, 0, 0, "", 0),
	CONFIG_OPTION(scenario, CONFIG_STRING, 0, 0, 0, "demo", 0),
	CONFIG_OPTION(cpu_map, CONFIG_CPUMAP, 0, CPUMASK_MAX, 0, NULL, 0),
	CONFIG_OPTION(default_sleep, CONFIG_INT, 1, 100000000, 1000, NULL, 1),
	CONFIG_OPTION(max_clients, CONFIG_INT, 1, 10000, 64, NULL, 1),
	CONFIG_OPTION(log_level, CONFIG_LEVEL, 0, 0, LOG_LEVEL_INFO, NULL, 1),
	CONFIG_OPTION(child_output, CONFIG_STRING, 0, 0, 0, "", 0),
	CONFIG_OPTION(realtime, CONFIG_BOOL, 0, 1, 1, NULL, 0),
	CONFIG_OPTION(cgroups, CONFIG_BOOL, 0, 1, 1, NULL, 0),
	CONFIG_OPTION(max_task_procs, CONFIG_INT, 1, 1000000, 256, NULL, 0),
	CONFIG_OPTION(max_fps, CONFIG_INT, 1, 120, 60, NULL, 1),
	CONFIG_OPTION(max_tasks, CONFIG_INT, 1, 1000000, 100000, NULL, 1),
	CONFIG_OPTION(batch, CONFIG_BOOL, 0, 1, 1, NULL, 0),
	CONFIG_OPTION(observe, CONFIG_STRING, 0, 0, 0, "events", 0),
	CONFIG_OPTION(history, CONFIG_INT, 0, 86400, 600, NULL, 0),
	CONFIG_OPTION(scenario_path, CONFIG_STRING, 0, 0, 0, "", 0),
};
#undef CONFIG_OPTION
#undef CONFIG_ENGINE
#define CONFIG_NOPTIONS \
	((int)(sizeof config_options / sizeof config_options[0]))

/* The number of options in the table. */
int
config_option_count(void)
{
	return (CONFIG_NOPTIONS);
}

/* The name of option i. */
const char *
config_option_name(int i)
{
	return (config_options[i].name);
}

/* Where an option's value lives in a struct config. */
static void *
config_field(const struct config *c, const struct config_option *o)
{
	return ((char *)c + o->offset);
}

/* Fill every option with its default. */
void
config_defaults(struct config *c)
{
	const struct config_option	*o;
	int				 i;

	memset(c, 0, sizeof *c);
	for (i = 0; i < CONFIG_NOPTIONS; i++) {
		o = &config_options[i];
		switch (o->type) {
		case CONFIG_INT:
		case CONFIG_BOOL:
			*(int *)config_field(c, o) = (int)o->def;
			break;
		case CONFIG_LEVEL:
			*(enum log_level *)config_field(c, o) =
			    (enum log_level)o->def;
			break;
		case CONFIG_FLOAT:
			*(double *)config_field(c, o) = o->def;
			break;
		case CONFIG_STRING:
			*(char **)config_field(c, o) = xstrdup(o->def_str);
			break;
		case CONFIG_CPUMAP:
			c->ncpu_map = 0;
			break;
		}
	}
}

/* Free the strings a config holds. */
void
config_free(struct config *c)
{
	int	i;

	for (i = 0; i < CONFIG_NOPTIONS; i++) {
		if (config_options[i].type == CONFIG_STRING) {
			free(*(char **)config_field(c, &config_options[i]));
			*(char **)config_field(c, &config_options[i]) = NULL;
		}
	}
}

/* Copy a config, strings included. */
void
config_copy(struct config *dst, const struct config *src)
{
	int	i;
	char	**s;

	*dst = *src;
	for (i = 0; i < CONFIG_NOPTIONS; i++) {
		if (config_options[i].type == CONFIG_STRING) {
			s = config_field(dst, &config_options[i]);
			*s = xstrdup(*s);
		}
	}
}

/*
 * What a reload applies: every option the table marks live, copied from
 * src into dst; the rest of dst stays (they need a restart).
 */
void
config_apply_live(struct config *dst, const struct config *src)
{
	const struct config_option	*o;
	int				 i;

	for (i = 0; i < CONFIG_NOPTIONS; i++) {
		o = &config_options[i];
		if (!o->live)
			continue;
		switch (o->type) {
		case CONFIG_INT:
		case CONFIG_BOOL:
			*(int *)config_field(dst, o) =
			    *(int *)config_field(src, o);
			break;
		case CONFIG_LEVEL:
			*(enum log_level *)config_field(dst, o) =
			    *(enum log_level *)config_field(src, o);
			break;
		case CONFIG_FLOAT:
			*(double *)config_field(dst, o) =
			    *(double *)config_field(src, o);
			break;
		case CONFIG_STRING:
			free(*(char **)config_field(dst, o));
			*(char **)config_field(dst, o) =
			    xstrdup(*(char **)config_field(src, o));
			break;
		case CONFIG_CPUMAP:
			/* Never live: the cpus are fixed at start. */
			break;
		}
	}
}

/* A number setting's value as a double; -1 if it is not a number. */
static int
config_number(const config_setting_t *s, double *v)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		/* Read as 64 bits; readconf.c refused what would wrap. */
		*v = (double)config_setting_get_int64(s);
		return (0);
	case CONFIG_TYPE_FLOAT:
		*v = config_setting_get_float(s);
		return (0);
	default:
		return (-1);
	}
}

/* Read one setting into c as option o; -1 with *cause (no FILE:LINE). */
static int
config_set(struct config *c, const struct config_option *o,
    const config_setting_t *s, char **cause)
{
	const config_setting_t	*e;
	const char		*str;
	enum log_level		 level;
	double			 v, min, max;
	int			 i, n, t = config_setting_type(s);

	switch (o->type) {
	case CONFIG_INT:
		if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) {
			*cause = xasprintf("%s must be a whole number",
			    o->name);
			return (-1);
		}
		config_number(s, &v);
		min = o->min;
		max = o->max;
		if (o->param >= 0) {
			min = engine_param_list[o->param].min;
			max = engine_param_list[o->param].max;
		}
		if (v < min || v > max) {
			*cause = xasprintf("%s %.0f is outside %.0f..%.0f",
			    o->name, v, min, max);
			return (-1);
		}
		*(int *)config_field(c, o) = (int)v;
		break;
	case CONFIG_FLOAT:
		if (config_number(s, &v) != 0) {
			*cause = xasprintf("%s must be a number", o->name);
			return (-1);
		}
		if (!isfinite(v) || v < o->min - 1e-12 || v > o->max) {
			*cause = xasprintf("%s %g is outside %g..%g", o->name,
			    v, o->min, o->max);
			return (-1);
		}
		*(double *)config_field(c, o) = v;
		break;
	case CONFIG_BOOL:
		if (t != CONFIG_TYPE_BOOL) {
			*cause = xasprintf("%s must be true or false", o->name);
			return (-1);
		}
		*(int *)config_field(c, o) = config_setting_get_bool(s);
		break;
	case CONFIG_STRING:
		if (t != CONFIG_TYPE_STRING) {
			*cause = xasprintf("%s must be a string", o->name);
			return (-1);
		}
		str = config_setting_get_string(s);
		if (strcmp(o->name, "observe") == 0 &&
		    strcmp(str, "events") != 0 && strcmp(str, "proc") != 0) {
			*cause = xasprintf("observe \"%s\" is not one of "
			    "events, proc", str);
			return (-1);
		}
		free(*(char **)config_field(c, o));
		*(char **)config_field(c, o) =
		    xstrdup(config_setting_get_string(s));
		break;
	case CONFIG_LEVEL:
		if (t != CONFIG_TYPE_STRING ||
		    log_level_parse(config_setting_get_string(s),
		    &level) != 0) {
			str = t == CONFIG_TYPE_STRING ?
			    config_setting_get_string(s) : "?";
			*cause = xasprintf("%s \"%s\" is not one of error, "
			    "warn, info, debug", o->name, str);
			return (-1);
		}
		*(enum log_level *)config_field(c, o) = level;
		break;
	case CONFIG_CPUMAP:
		if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) {
			*cause = xasprintf("%s must be a list of CPU numbers, "
			    "e.g. [ 0, 1 ]", o->name);
			return (-1);
		}
		n = config_setting_length(s);
		if (n > CPUMASK_MAX) {
			*cause = xasprintf("%s has more than %d entries",
			    o->name, CPUMASK_MAX);
			return (-1);
		}
		for (i = 0; i < n; i++) {
			e = config_setting_get_elem(s, i);
			t = config_setting_type(e);
			if ((t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) ||
			    config_setting_get_int64(e) < 0 ||
			    config_setting_get_int64(e) >= CPUMASK_MAX) {
				*cause = xasprintf("%s entry %d is not a CPU "
				    "number in 0..%d", o->name, i,
				    CPUMASK_MAX - 1);
				return (-1);
			}
			c->cpu_map[i] = (int)config_setting_get_int64(e);
		}
		c->ncpu_map = n;
		break;
	}
	return (0);
}

/* *cause is "FILE:LINE: message" at setting s (or NULL) of path. */
static void
config_error_at(char **cause, const char *path, const config_setting_t *s,
    const char *fmt, ...)
{
	va_list	ap;

	*cause = NULL;
	va_start(ap, fmt);
	readconf_verror(cause, path, s != NULL ?
	    config_setting_source_file(s) : NULL, s != NULL ?
	    (int)config_setting_source_line(s) : 0, fmt, ap);
	va_end(ap);
}

/*
 * Read path into c (which should hold the defaults).  Unknown options,
 * wrong types and values out of bounds are errors.  On error c is left
 * with the defaults' strings freed and must not be used.
 */
int
config_load(const char *path, struct config *c, char **cause)
{
	config_t		 cf;
	config_setting_t	*root, *s;
	char			*why = NULL;
	int			 i, j, n, rc = -1;

	config_init(&cf);
	/* Only regular files, no wrapped integers: see readconf.c. */
	if (readconf_read(&cf, path, NULL, cause) != 0)
		goto out;
	root = config_root_setting(&cf);
	n = config_setting_length(root);
	for (i = 0; i < n; i++) {
		s = config_setting_get_elem(root, i);
		for (j = 0; j < CONFIG_NOPTIONS; j++) {
			if (strcmp(config_setting_name(s),
			    config_options[j].name) == 0)
				break;
		}
		if (j == CONFIG_NOPTIONS) {
			config_error_at(cause, path, s,
			    "unknown option \"%s\"", config_setting_name(s));
			goto out;
		}
		if (config_set(c, &config_options[j], s, &why) != 0) {
			config_error_at(cause, path, s, "%s", why);
			free(why);
			goto out;
		}
	}
	if (c->ncpu_map != 0 && c->ncpu_map < c->cpus) {
		s = config_lookup(&cf, "cpu_map");
		config_error_at(cause, path, s, "cpu_map has %d entries for "
		    "%d cpus", c->ncpu_map, c->cpus);
		goto out;
	}
	rc = 0;
out:
	config_destroy(&cf);
	return (rc);
}

/* The engine parameters the configuration sets, over p's. */
void
config_engine_params(const struct config *c, struct engine_params *p)
{
	const struct config_option	*o;
	int				 i;

	for (i = 0; i < CONFIG_NOPTIONS; i++) {
		o = &config_options[i];
		if (o->param >= 0)
			engine_param_set(p, o->param,
			    *(int *)config_field(c, o));
	}
}

/* An option's value as text, for the reload log. */
static void
config_format(const struct config *c, const struct config_option *o,
    char *buf, size_t len)
{
	size_t	off = 0;
	int	i;

	switch (o->type) {
	case CONFIG_INT:
		snprintf(buf, len, "%d", *(int *)config_field(c, o));
		break;
	case CONFIG_BOOL:
		snprintf(buf, len, "%s", *(int *)config_field(c, o) ?
		    "true" : "false");
		break;
	case CONFIG_FLOAT:
		snprintf(buf, len, "%g", *(double *)config_field(c, o));
		break;
	case CONFIG_STRING:
		snprintf(buf, len, "\"%s\"", *(char **)config_field(c, o));
		break;
	case CONFIG_LEVEL:
		snprintf(buf, len, "%s", log_level_name(
		    *(enum log_level *)config_field(c, o)));
		break;
	case CONFIG_CPUMAP:
		off = snprintf(buf, len, "[");
		for (i = 0; i < c->ncpu_map && off < len; i++)
			off += snprintf(buf + off, len - off, "%s%d",
			    i ? ", " : " ", c->cpu_map[i]);
		if (off < len)
			snprintf(buf + off, len - off, " ]");
		break;
	}
}

/* Call cb for every option whose value differs; returns how many. */
int
config_diff(const struct config *a, const struct config *b,
    config_diff_cb cb, void *arg)
{
	const struct config_option	*o;
	char				 va[256], vb[256];
	int				 i, n = 0;

	for (i = 0; i < CONFIG_NOPTIONS; i++) {
		o = &config_options[i];
		config_format(a, o, va, sizeof va);
		config_format(b, o, vb, sizeof vb);
		if (strcmp(va, vb) != 0) {
			n++;
			if (cb != NULL)
				cb(arg, o->name, va, vb, o->live);
		}
	}
	return (n);
}

/*
 * The file read when no -c is given: $XDG_CONFIG_HOME/stairs/stairsd.cfg
 * (or ~/.config/stairs/stairsd.cfg) if it exists, else
 * SYSCONFDIR/stairs/stairsd.cfg if it exists, else NULL (defaults).
 */
char *
config_find(const char *sysconfdir)
{
	const char	*xdg = getenv("XDG_CONFIG_HOME"), *home;
	char		*path;

	if (xdg != NULL && *xdg == '/')
		path = xasprintf("%s/%s", xdg, CONFIG_FILE_NAME);
	else if ((home = getenv("HOME")) != NULL && *home == '/')
		path = xasprintf("%s/.config/%s", home, CONFIG_FILE_NAME);
	else
		path = NULL;
	if (path != NULL && access(path, F_OK) == 0)
		return (path);
	free(path);
	if (sysconfdir == NULL)
		return (NULL);
	path = xasprintf("%s/%s", sysconfdir, CONFIG_FILE_NAME);
	if (access(path, F_OK) == 0)
		return (path);
	free(path);
	return (NULL);
}

/* The file read when no -c is given, in the system's directory. */
char *
config_default_path(void)
{
	return (config_find(STAIRS_SYSCONFDIR));
}
