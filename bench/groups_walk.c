// SPDX-License-Identifier: GPL-2.0
/*
 * make bench-walk: a permission-heavy workload as a user in N supplementary
 * groups, run as root inside a guest by qemu/bench_walk.py, on the vanilla
 * and on the patched kernel alike, under QEMU -icount (the guest's clock
 * follows the instructions it executes: 1 ns each).
 *
 *	groups_walk [--passes P] N...
 *
 * As root it builds a tree on a tmpfs: DIRS directories of mode 0750, each
 * with FILES files of mode 0640, owned by root and by a group: every other
 * directory belongs to one of the user's groups (from the first to the last
 * of the list, spread evenly), the others to a gid the user is not in (one
 * between two of its gids, or above all of them).  Then, for each N, a child
 * takes the N groups, a uid, gid and fsgid of its own, and walks the tree
 * P + 1 times (the first pass warms the dentry cache): fstatat() and
 * faccessat(R_OK) of every file by its path from the tree's top.  Each
 * path's lookup checks MAY_EXEC on the directory (generic_permission(), the
 * group class: in_group_p()) and faccessat() checks the file as well, so
 * every operation searches the list once or twice; a directory of a group
 * the user is not in refuses with EACCES.
 *
 * Output, one line each:
 *
 *	BENCH walk_ns <N> <ns>		median over the passes of a pass's
 *					time per operation
 *	BENCH walk_allowed <N> <count>	operations that succeeded in a pass
 *	BENCH walk_denied <N> <count>	operations refused with EACCES
 *	groups_walk: <text>		something failed, or a pass did not allow
 *					exactly the directories of the user's
 *					groups: the run is void
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../robust/guest.h"

#define TOP		"/walk"
#define DIRS		64
#define FILES		16
#define USER_ID		1000	/* uid, gid and fsgid of the walker: in no list */
#define GID_BASE	100000u
#define MAX_PASSES	64

static int passes = 9;

/* The user's i-th gid: spaced by two, so that odd values are gaps */
static gid_t member(int i)
{
	return GID_BASE + 2 * i;
}

/*
 * The group of directory d: an even one is the user's gid at an even spread
 * from the first to the last, an odd one the gap after such a gid (above
 * the last: beyond the list).
 */
static gid_t dir_gid(int n, int d)
{
	int pos = (int)((long)(d / 2) * (n - 1) / (DIRS / 2 - 1));

	return member(pos) + (d % 2);
}

static void path_of(char *buf, size_t len, int d, int f)
{
	if (f < 0)
		snprintf(buf, len, "d%02d", d);
	else
		snprintf(buf, len, "d%02d/f%02d", d, f);
}

static void build_tree(void)
{
	char path[64];
	int d, f, fd;

	if (mkdir(TOP, 0755) && errno != EEXIST)
		die("mkdir " TOP);
	if (mount("tmpfs", TOP, "tmpfs", 0, "mode=0755"))
		die("mount tmpfs");
	if (chdir(TOP))
		die("chdir");
	for (d = 0; d < DIRS; d++) {
		path_of(path, sizeof(path), d, -1);
		if (mkdir(path, 0750))
			die("mkdir");
		for (f = 0; f < FILES; f++) {
			path_of(path, sizeof(path), d, f);
			fd = open(path, O_CREAT | O_WRONLY, 0640);
			if (fd < 0)
				die("create");
			close(fd);
		}
	}
}

/* Give each directory and its files the group that it has for lists of n */
static void set_owners(int n)
{
	char path[64];
	int d, f;

	for (d = 0; d < DIRS; d++)
		for (f = -1; f < FILES; f++) {
			path_of(path, sizeof(path), d, f);
			if (chown(path, 0, dir_gid(n, d)))
				die("chown");
		}
}

/* One pass over the tree: the operations that succeeded and were refused */
static void walk(int top, long *allowed, long *denied)
{
	char path[64];
	struct stat st;
	int d, f;

	*allowed = *denied = 0;
	for (d = 0; d < DIRS; d++)
		for (f = 0; f < FILES; f++) {
			path_of(path, sizeof(path), d, f);
			if (!fstatat(top, path, &st, 0))
				++*allowed;
			else if (errno == EACCES)
				++*denied;
			else
				die("fstatat");
			if (!faccessat(top, path, R_OK, 0))
				++*allowed;
			else if (errno == EACCES)
				++*denied;
			else
				die("faccessat");
		}
}

static void walker(int n)
{
	gid_t *g = malloc(sizeof(gid_t) * (n ? n : 1));
	double t[MAX_PASSES], t0;
	long allowed, denied;
	int i, top;

	if (!g)
		die("malloc");
	for (i = 0; i < n; i++)
		g[i] = member(i);
	if (syscall(SYS_setgroups, n, g))
		die("setgroups");
	if (setresgid(USER_ID, USER_ID, USER_ID) || setresuid(USER_ID, USER_ID, USER_ID))
		die("setresuid");
	top = open(TOP, O_RDONLY | O_DIRECTORY);
	if (top < 0)
		die("open " TOP);
	for (i = -1; i < passes; i++) {		/* pass -1 warms the caches */
		t0 = now_ns();
		walk(top, &allowed, &denied);
		if (i >= 0)
			t[i] = (now_ns() - t0) / (2.0 * DIRS * FILES);
		/* the directories of the user's groups, both operations on each file */
		if (allowed != DIRS / 2 * FILES * 2 || denied != DIRS / 2 * FILES * 2) {
			printf("groups_walk: N=%d: %ld allowed and %ld refused, not %d each\n",
			       n, allowed, denied, DIRS * FILES);
			exit(1);
		}
	}
	printf("BENCH walk_ns %d %.1f\n", n, median(t, passes));
	printf("BENCH walk_allowed %d %ld\n", n, allowed);
	printf("BENCH walk_denied %d %ld\n", n, denied);
	fflush(stdout);
	exit(0);
}

int main(int argc, char **argv)
{
	int a = 1, status;

	if (a + 1 < argc && !strcmp(argv[a], "--passes")) {
		passes = atoi(argv[a + 1]);
		a += 2;
	}
	if (passes < 1 || passes > MAX_PASSES || a == argc) {
		printf("groups_walk: usage: groups_walk [--passes 1-%d] N...\n", MAX_PASSES);
		return 2;
	}
	build_tree();
	for (; a < argc; a++) {
		int n = atoi(argv[a]);
		pid_t pid;

		if (n < 1 || n > 65536) {
			printf("groups_walk: N=%s: not 1 to 65536\n", argv[a]);
			return 2;
		}
		set_owners(n);
		fflush(stdout);
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid)
			walker(n);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			return 1;
	}
	return 0;
}
