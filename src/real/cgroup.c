/*
 * cgroup.c -- cpuset cgroups for real tasks.
 *
 * Detection, in order: cgroup v2, if the cpuset controller is listed in the
 * mount root's cgroup.controllers and can be enabled in the subtree of our
 * own cgroup and of stairs-<pid>; else a cgroup v1 hierarchy carrying the
 * cpuset controller, where a new directory must get cpuset.mems and
 * cpuset.cpus before any process can be moved in; else none, and the
 * caller pins with sched_setaffinity alone.
 *
 * The layout is <our cgroup>/stairs-<daemon pid>/g-<group name>.  Removal
 * kills whatever is still inside (only our children and their descendants
 * can be there), then removes the group directories and stairs-<pid>; the
 * same removal runs from the watchdog when the daemon is killed outright.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "log.h"
#include "xmalloc.h"

struct cgroup_dir {
	int	 id;
	char	*path;
};

struct cgroup {
	int			 v2;
	char			*base;		/* the cgroup we were in */
	char			*root;		/* base/stairs-<pid> */
	int			 base_enabled;	/* v2: we added +cpuset */
	struct cgroup_dir	*dirs;
	int			 ndirs;
};

/* Write a string to a control file. */
static int
cgroup_write(const char *path, const char *value, char **cause)
{
	ssize_t	n;
	int	fd, saved;

	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1) {
		if (cause != NULL)
			*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	n = write(fd, value, strlen(value));
	saved = errno;
	close(fd);
	if (n != (ssize_t)strlen(value)) {
		if (cause != NULL)
			*cause = xasprintf("%s: write '%s': %s", path, value,
			    n == -1 ? strerror(saved) : "short write");
		return (-1);
	}
	return (0);
}

/*
 * Read a small kernel file (a control file, also tracefs and /proc for the
 * proc layer) into buf, without its trailing white space.
 */
int
cgroup_read(const char *path, char *buf, size_t len)
{
	ssize_t	n;
	int	fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return (-1);
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return (0);
}

/* Does a space-separated list contain word? */
static int
cgroup_has_word(const char *list, const char *word)
{
	size_t		 len = strlen(word);
	const char	*p = list;

	while ((p = strstr(p, word)) != NULL) {
		if ((p == list || isspace((unsigned char)p[-1])) &&
		    (p[len] == '\0' || isspace((unsigned char)p[len])))
			return (1);
		p += len;
	}
	return (0);
}

/*
 * Our own cgroup path in a hierarchy from /proc/self/cgroup: the v2 line
 * ("0::/path") if controller is NULL, else the v1 line listing controller.
 */
static char *
cgroup_own_path(const char *controller)
{
	FILE	*f;
	char	 line[1024], *ctl, *path, *tok, *save;
	char	*found = NULL;

	if ((f = fopen("/proc/self/cgroup", "re")) == NULL)
		return (NULL);
	while (found == NULL && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if ((ctl = strchr(line, ':')) == NULL)
			continue;
		ctl++;
		if ((path = strchr(ctl, ':')) == NULL)
			continue;
		*path++ = '\0';
		if (controller == NULL) {
			if (strncmp(line, "0:", 2) == 0 && *ctl == '\0')
				found = xstrdup(path);
			continue;
		}
		for (tok = strtok_r(ctl, ",", &save); tok != NULL;
		    tok = strtok_r(NULL, ",", &save)) {
			if (strcmp(tok, controller) == 0) {
				found = xstrdup(path);
				break;
			}
		}
	}
	fclose(f);
	return (found);
}

/* The mount point of a cgroup2 (v2) or cgroup v1 hierarchy of a controller. */
static char *
cgroup_mount_of(int v2, const char *controller)
{
	FILE		*f;
	struct mntent	*m;
	char		*found = NULL;

	if ((f = setmntent("/proc/self/mounts", "re")) == NULL)
		return (NULL);
	while (found == NULL && (m = getmntent(f)) != NULL) {
		if (v2 && strcmp(m->mnt_type, "cgroup2") == 0)
			found = xstrdup(m->mnt_dir);
		else if (!v2 && strcmp(m->mnt_type, "cgroup") == 0 &&
		    hasmntopt(m, controller) != NULL)
			found = xstrdup(m->mnt_dir);
	}
	endmntent(f);
	return (found);
}

/* The mount point of a cgroup2 (v2) or cgroup v1 cpuset hierarchy. */
static char *
cgroup_mount(int v2)
{
	return (cgroup_mount_of(v2, "cpuset"));
}

/* Join a mount point and a cgroup path ("/" is the mount root). */
static char *
cgroup_join(const char *mnt, const char *path)
{
	if (strcmp(path, "/") == 0)
		return (xstrdup(mnt));
	return (xasprintf("%s%s", mnt, path));
}

/* Sleep a millisecond (waiting for the kernel to let go of a cgroup). */
static void
cgroup_pause(void)
{
	struct timespec	ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

/* Kill every process still in a cgroup directory. */
static void
cgroup_kill_inside(const char *dir)
{
	char	*path;
	FILE	*f;
	long	 pid;

	path = xasprintf("%s/cgroup.procs", dir);
	if ((f = fopen(path, "re")) != NULL) {
		while (fscanf(f, "%ld", &pid) == 1) {
			if (pid > 0) {
				kill((pid_t)pid, SIGKILL);
				kill((pid_t)pid, SIGCONT);
			}
		}
		fclose(f);
	}
	free(path);
}

/* rmdir a cgroup, killing what is inside and waiting up to 500 ms. */
static int
cgroup_rmdir(const char *dir)
{
	int	i;

	for (i = 0; i < 500; i++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return (0);
		if (errno != EBUSY)
			break;
		cgroup_kill_inside(dir);
		cgroup_pause();
	}
	log_warn("rmdir %s", dir);
	return (-1);
}

/*
 * Kill what is in a stairs-<pid> directory and its subdirectories (all of
 * them first: a removal may wait), then remove them.  Safe to call from
 * the watchdog: it uses only the path.
 */
static void
cgroup_purge(const char *root)
{
	DIR		*d;
	struct dirent	*de;
	char		*sub;
	int		 pass;

	for (pass = 0; pass < 2; pass++) {
		if ((d = opendir(root)) == NULL)
			break;
		while ((de = readdir(d)) != NULL) {
			if (de->d_type != DT_DIR || de->d_name[0] == '.')
				continue;
			sub = xasprintf("%s/%s", root, de->d_name);
			if (pass == 0)
				cgroup_kill_inside(sub);
			else
				cgroup_rmdir(sub);
			free(sub);
		}
		closedir(d);
		if (pass == 0)
			cgroup_kill_inside(root);
	}
	cgroup_rmdir(root);
}

/* Remove stairs-<pid> directories under base whose daemon is gone. */
static void
cgroup_sweep_base(const char *base)
{
	DIR		*d;
	struct dirent	*de;
	char		*end, *path;
	long		 pid;

	if ((d = opendir(base)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "stairs-", 7) != 0)
			continue;
		pid = strtol(de->d_name + 7, &end, 10);
		if (*end != '\0' || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		path = xasprintf("%s/%s", base, de->d_name);
		log_info("removing stale cgroup %s", path);
		cgroup_purge(path);
		free(path);
	}
	closedir(d);
}

/*
 * The cgroup we are in, under the hierarchy mounted at mnt: of v1's
 * controller, or v2's (NULL).
 */
static char *
cgroup_base(const char *mnt, const char *controller)
{
	char	*own, *base;

	if ((own = cgroup_own_path(controller)) == NULL)
		own = xstrdup("/");
	base = cgroup_join(mnt, own);
	free(own);
	return (base);
}

/*
 * Make base/stairs-<owner>, once the stale ones of daemons gone are
 * swept: its path, or NULL with *cause.
 */
static char *
cgroup_make_root(const char *base, pid_t owner, char **cause)
{
	char	*root;

	cgroup_sweep_base(base);
	root = xasprintf("%s/stairs-%ld", base, (long)owner);
	if (mkdir(root, 0755) != 0 && errno != EEXIST) {
		*cause = xasprintf("mkdir %s: %s", root, strerror(errno));
		free(root);
		return (NULL);
	}
	return (root);
}

/* Try cgroup v2: fills cg and returns 0, or -1 with *cause. */
static int
cgroup_try_v2(struct cgroup *cg, pid_t owner, char **cause)
{
	char	*mnt, *path, buf[512];
	int	 rc = -1;

	if ((mnt = cgroup_mount(1)) == NULL) {
		*cause = xstrdup("no cgroup2 mount");
		return (-1);
	}
	path = xasprintf("%s/cgroup.controllers", mnt);
	if (cgroup_read(path, buf, sizeof buf) != 0 ||
	    !cgroup_has_word(buf, "cpuset")) {
		*cause = xasprintf("cgroup2 at %s has no cpuset controller",
		    mnt);
		free(path);
		free(mnt);
		return (-1);
	}
	free(path);
	cg->base = cgroup_base(mnt, NULL);
	free(mnt);

	path = xasprintf("%s/cgroup.subtree_control", cg->base);
	if (cgroup_read(path, buf, sizeof buf) != 0)
		buf[0] = '\0';
	if (!cgroup_has_word(buf, "cpuset")) {
		if (cgroup_write(path, "+cpuset", cause) != 0) {
			free(path);
			goto out;
		}
		cg->base_enabled = 1;
	}
	free(path);

	if ((cg->root = cgroup_make_root(cg->base, owner, cause)) == NULL)
		goto out;
	path = xasprintf("%s/cgroup.subtree_control", cg->root);
	if (cgroup_write(path, "+cpuset", cause) != 0) {
		free(path);
		rmdir(cg->root);
		goto out;
	}
	free(path);
	cg->v2 = 1;
	rc = 0;
out:
	if (rc != 0) {
		if (cg->base_enabled) {
			path = xasprintf("%s/cgroup.subtree_control", cg->base);
			cgroup_write(path, "-cpuset", NULL);
			free(path);
		}
		free(cg->root);
		free(cg->base);
		cg->root = cg->base = NULL;
		cg->base_enabled = 0;
	}
	return (rc);
}

/* Copy a cpuset file from the parent directory to a new child. */
static int
cgroup_copy(const char *from, const char *to, const char *file,
    const char *fallback, char **cause)
{
	char	*src, *dst, buf[1024];
	int	 rc;

	src = xasprintf("%s/%s", from, file);
	if (cgroup_read(src, buf, sizeof buf) != 0 || buf[0] == '\0') {
		free(src);
		src = xasprintf("%s/%s", from, fallback);
		if (cgroup_read(src, buf, sizeof buf) != 0) {
			*cause = xasprintf("%s: %s", src, strerror(errno));
			free(src);
			return (-1);
		}
	}
	free(src);
	dst = xasprintf("%s/%s", to, file);
	rc = cgroup_write(dst, buf, cause);
	free(dst);
	return (rc);
}

/* Try a cgroup v1 cpuset hierarchy: fills cg and returns 0, or -1. */
static int
cgroup_try_v1(struct cgroup *cg, pid_t owner, char **cause)
{
	char	*mnt;

	if ((mnt = cgroup_mount(0)) == NULL) {
		*cause = xstrdup("no cgroup v1 cpuset mount");
		return (-1);
	}
	cg->base = cgroup_base(mnt, "cpuset");
	free(mnt);

	if ((cg->root = cgroup_make_root(cg->base, owner, cause)) == NULL)
		goto fail;
	/* A v1 cpuset takes no process until it has mems and cpus. */
	if (cgroup_copy(cg->base, cg->root, "cpuset.mems",
	    "cpuset.effective_mems", cause) != 0 ||
	    cgroup_copy(cg->base, cg->root, "cpuset.cpus",
	    "cpuset.effective_cpus", cause) != 0) {
		rmdir(cg->root);
		goto fail;
	}
	cg->v2 = 0;
	return (0);
fail:
	free(cg->root);
	free(cg->base);
	cg->root = cg->base = NULL;
	return (-1);
}

/* Detect a writable hierarchy and create stairs-<owner> in it. */
struct cgroup *
cgroup_create(pid_t owner, char **cause)
{
	struct cgroup	*cg;
	char		*why2 = NULL, *why1 = NULL;

	cg = xcalloc(1, sizeof *cg);
	if (cgroup_try_v2(cg, owner, &why2) == 0) {
		free(why2);
		return (cg);
	}
	if (cgroup_try_v1(cg, owner, &why1) == 0) {
		free(why2);
		return (cg);
	}
	*cause = xasprintf("%s; %s", why2, why1);
	free(why2);
	free(why1);
	free(cg);
	return (NULL);
}

/* Remove everything created and free. */
void
cgroup_free(struct cgroup *cg)
{
	char	*path;
	int	 i;

	if (cg == NULL)
		return;
	cgroup_purge(cg->root);
	if (cg->base_enabled) {
		path = xasprintf("%s/cgroup.subtree_control", cg->base);
		cgroup_write(path, "-cpuset", NULL);
		free(path);
	}
	for (i = 0; i < cg->ndirs; i++)
		free(cg->dirs[i].path);
	free(cg->dirs);
	free(cg->root);
	free(cg->base);
	free(cg);
}

/* "v2" or "v1". */
const char *
cgroup_mode(const struct cgroup *cg)
{
	return (cg->v2 ? "v2" : "v1");
}

/* The stairs-<pid> directory. */
const char *
cgroup_root(const struct cgroup *cg)
{
	return (cg->root);
}

/* Find the directory entry of group id. */
static struct cgroup_dir *
cgroup_find(const struct cgroup *cg, int id)
{
	int	i;

	for (i = 0; i < cg->ndirs; i++) {
		if (cg->dirs[i].id == id)
			return (&cg->dirs[i]);
	}
	return (NULL);
}

/* The directory of group id, NULL if it has none. */
const char *
cgroup_group_path(const struct cgroup *cg, int id)
{
	struct cgroup_dir	*d;

	if ((d = cgroup_find(cg, id)) == NULL)
		return (NULL);
	return (d->path);
}

/* Create (or update) the directory of group id with these CPUs. */
int
cgroup_group(struct cgroup *cg, int id, const char *name,
    const struct cpumask *phys, char **cause)
{
	struct cgroup_dir	*d;
	char			 list[1024], *path;
	int			 created = 0, rc;

	if (cpumask_empty(phys)) {
		*cause = xasprintf("group %s: no physical CPUs", name);
		return (-1);
	}
	if ((d = cgroup_find(cg, id)) == NULL) {
		path = xasprintf("%s/g-%s", cg->root, name);
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			*cause = xasprintf("mkdir %s: %s", path,
			    strerror(errno));
			free(path);
			return (-1);
		}
		cg->dirs = xreallocarray(cg->dirs, cg->ndirs + 1,
		    sizeof *cg->dirs);
		d = &cg->dirs[cg->ndirs++];
		d->id = id;
		d->path = path;
		created = 1;
		if (!cg->v2 && cgroup_copy(cg->root, d->path, "cpuset.mems",
		    "cpuset.effective_mems", cause) != 0)
			goto fail;
	}
	cpumask_format(phys, list, sizeof list);
	path = xasprintf("%s/cpuset.cpus", d->path);
	rc = cgroup_write(path, list, cause);
	free(path);
	if (rc != 0)
		goto fail;
	return (0);
fail:
	if (created) {
		rmdir(d->path);
		free(d->path);
		cg->ndirs--;
	}
	return (-1);
}

/*
 * The directory of the tasks of no group: stairs-<pid>/ungrouped, with the
 * CPUs of stairs-<pid> itself.  A leaf of its own because cgroup v2 lets
 * no process live in a directory that hands controllers to its children
 * ("tasks" would clash with the v1 control file of that name).
 */
static struct cgroup_dir *
cgroup_tasks(struct cgroup *cg, char **cause)
{
	struct cgroup_dir	*d;
	char			*path;

	if ((d = cgroup_find(cg, CGROUP_TASKS)) != NULL)
		return (d);
	path = xasprintf("%s/ungrouped", cg->root);
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		*cause = xasprintf("mkdir %s: %s", path, strerror(errno));
		free(path);
		return (NULL);
	}
	if (!cg->v2 && (cgroup_copy(cg->root, path, "cpuset.mems",
	    "cpuset.effective_mems", cause) != 0 || cgroup_copy(cg->root,
	    path, "cpuset.cpus", "cpuset.effective_cpus", cause) != 0)) {
		rmdir(path);
		free(path);
		return (NULL);
	}
	cg->dirs = xreallocarray(cg->dirs, cg->ndirs + 1, sizeof *cg->dirs);
	d = &cg->dirs[cg->ndirs++];
	d->id = CGROUP_TASKS;
	d->path = path;
	return (d);
}

/* Move a process (all its threads) into group id (CGROUP_TASKS: none). */
int
cgroup_move(struct cgroup *cg, int id, pid_t pid, char **cause)
{
	struct cgroup_dir	*d;
	char			*path, value[32];
	int			 rc;

	if (id == CGROUP_TASKS) {
		if ((d = cgroup_tasks(cg, cause)) == NULL)
			return (-1);
	} else if ((d = cgroup_find(cg, id)) == NULL) {
		*cause = xasprintf("group %d has no cgroup", id);
		return (-1);
	}
	snprintf(value, sizeof value, "%ld", (long)pid);
	path = xasprintf("%s/cgroup.procs", d->path);
	rc = cgroup_write(path, value, cause);
	free(path);
	return (rc);
}

/* Remove a stairs-<pid> tree by path alone (for the watchdog). */
void
cgroup_purge_path(const char *root)
{
	cgroup_purge(root);
}

/*
 * The pids hierarchy: one directory per real task, stairs-<pid>/t-<id>,
 * whose pids.max caps the task's process tree (max_task_procs) and whose
 * pids.events counts the forks refused.  Only on a cgroup v1 pids
 * hierarchy: on cgroup v2 the pids controller would have to be enabled on
 * the cpuset directories themselves (a process lives in one v2 cgroup),
 * which is not done; the caller then only reports trees past the cap.
 */
struct cgroup_pids {
	char	*base;		/* the pids cgroup we were in */
	char	*root;		/* base/stairs-<pid> */
};

/* Find a writable v1 pids hierarchy and create stairs-<owner> in it. */
struct cgroup_pids *
cgroup_pids_create(pid_t owner, char **cause)
{
	struct cgroup_pids	*cp;
	char			*mnt;

	if ((mnt = cgroup_mount_of(0, "pids")) == NULL) {
		*cause = xstrdup("no cgroup v1 pids mount");
		return (NULL);
	}
	cp = xcalloc(1, sizeof *cp);
	cp->base = cgroup_base(mnt, "pids");
	free(mnt);
	if ((cp->root = cgroup_make_root(cp->base, owner, cause)) == NULL) {
		free(cp->base);
		free(cp);
		return (NULL);
	}
	return (cp);
}

/* Kill what is left, remove everything created and free. */
void
cgroup_pids_free(struct cgroup_pids *cp)
{
	if (cp == NULL)
		return;
	cgroup_purge(cp->root);
	free(cp->root);
	free(cp->base);
	free(cp);
}

/* The stairs-<pid> directory of the pids hierarchy. */
const char *
cgroup_pids_root(const struct cgroup_pids *cp)
{
	return (cp->root);
}

/* Put a task's first process in t-<id>, capped at max processes. */
int
cgroup_pids_add(struct cgroup_pids *cp, int id, pid_t pid, int max,
    char **cause)
{
	char	*dir, *path, value[32];
	int	 rc;

	dir = xasprintf("%s/t-%d", cp->root, id);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
		*cause = xasprintf("mkdir %s: %s", dir, strerror(errno));
		free(dir);
		return (-1);
	}
	snprintf(value, sizeof value, "%d", max);
	path = xasprintf("%s/pids.max", dir);
	rc = cgroup_write(path, value, cause);
	free(path);
	if (rc == 0) {
		snprintf(value, sizeof value, "%ld", (long)pid);
		path = xasprintf("%s/cgroup.procs", dir);
		rc = cgroup_write(path, value, cause);
		free(path);
	}
	free(dir);
	return (rc);
}

/* How many forks of task id pids.max refused so far, -1 if unknown. */
long
cgroup_pids_refused(struct cgroup_pids *cp, int id)
{
	char	*path, buf[256], *p;
	long	 n = -1;

	path = xasprintf("%s/t-%d/pids.events", cp->root, id);
	if (cgroup_read(path, buf, sizeof buf) == 0 &&
	    (p = strstr(buf, "max ")) != NULL)
		n = strtol(p + 4, NULL, 10);
	free(path);
	return (n);
}

/* A task ended: kill whatever of its tree is left (escapees included). */
void
cgroup_pids_end(struct cgroup_pids *cp, int id)
{
	char	*dir;

	dir = xasprintf("%s/t-%d", cp->root, id);
	cgroup_kill_inside(dir);
	free(dir);
}

/* Kill what is in a stairs-<pid> tree, without waiting (for the watchdog). */
void
cgroup_kill_path(const char *root)
{
	DIR		*d;
	struct dirent	*de;
	char		*sub;

	if ((d = opendir(root)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (de->d_type != DT_DIR || de->d_name[0] == '.')
				continue;
			sub = xasprintf("%s/%s", root, de->d_name);
			cgroup_kill_inside(sub);
			free(sub);
		}
		closedir(d);
	}
	cgroup_kill_inside(root);
}
