// SPDX-License-Identifier: GPL-2.0
/*
 * The main job's demonstration, run as root in the guest by "make run":
 * a process joins 10,000 supplementary groups, shows them id(1)-style,
 * proves membership through a real permission check and through
 * /proc/self/status, then shows the NGROUPS_MAX edge (65,536 works,
 * 65,537 is EINVAL).  Exits non-zero if anything differs from that.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define BASE_GID	100000u
#define NOBODY		65534u

static int failures;

static void expect(int cond, const char *what)
{
	printf("  [%s] %s\n", cond ? " ok " : "FAIL", what);
	if (!cond)
		failures++;
}

static long raw_setgroups(long n, const gid_t *list)
{
#ifdef SYS_setgroups32
	return syscall(SYS_setgroups32, n, list);
#else
	return syscall(SYS_setgroups, n, list);
#endif
}

static long raw_getgroups(long n, gid_t *list)
{
#ifdef SYS_getgroups32
	return syscall(SYS_getgroups32, n, list);
#else
	return syscall(SYS_getgroups, n, list);
#endif
}

/* n distinct gids BASE_GID, BASE_GID + 1, ... in a shuffled order */
static gid_t *shuffled(int n)
{
	gid_t *g = malloc(sizeof(*g) * (n ? n : 1));
	unsigned int seed = 42;
	int i;

	for (i = 0; i < n; i++)
		g[i] = BASE_GID + i;
	for (i = n - 1; i > 0; i--) {
		int j = rand_r(&seed) % (i + 1);
		gid_t t = g[i];

		g[i] = g[j];
		g[j] = t;
	}
	return g;
}

static int status_groups(void)
{
	char line[64];
	FILE *f = fopen("/proc/self/status", "r");
	int n = -1, c;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Groups:", 7))
			continue;
		/* The line is long: count the gids by their trailing spaces. */
		n = 0;
		for (c = 7; line[c]; c++)
			n += line[c] == ' ';
		while (!strchr(line, '\n') && fgets(line, sizeof(line), f))
			for (c = 0; line[c]; c++)
				n += line[c] == ' ';
		break;
	}
	fclose(f);
	return n;
}

/* Can a non-root process in these groups read a file of group g, mode 0040? */
static int can_read_as_nobody(const gid_t *list, int n, gid_t g, const char *path)
{
	pid_t pid;
	int st, fd;

	unlink(path);
	fd = open(path, O_CREAT | O_WRONLY, 0040);
	if (fd < 0 || fchown(fd, NOBODY + 1, g) || fchmod(fd, 0040))
		return -1;
	close(fd);
	pid = fork();
	if (pid == 0) {
		if (raw_setgroups(n, list) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(2);
		fd = open(path, O_RDONLY);
		_exit(fd >= 0 ? 0 : errno == EACCES ? 1 : 3);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 4;
}

int main(void)
{
	const int n = 10000, max = 65536;
	gid_t *g = shuffled(n), *big = shuffled(max + 1);
	gid_t *back = malloc(sizeof(*back) * (max + 1));
	long r;
	int i, sorted = 1;

	printf("demo: supplementary groups (pid %d, uid %d)\n", getpid(), getuid());

	r = raw_setgroups(n, g);
	expect(r == 0, "setgroups(10000 shuffled gids) succeeds");
	r = raw_getgroups(0, NULL);
	expect(r == n, "getgroups(0, NULL) counts 10000");
	r = raw_getgroups(max, back);
	for (i = 1; i < r; i++)
		sorted &= back[i - 1] <= back[i];
	if (r > 0)
		printf("  uid=%d gid=%d groups=%ld (first %u, last %u)\n",
		       getuid(), getgid(), r, back[0], back[r - 1]);
	expect(r == n && sorted && back[0] == BASE_GID && back[n - 1] == BASE_GID + n - 1,
	       "getgroups returns all 10000, ascending");
	i = status_groups();
	printf("  /proc/self/status Groups: %d gids\n", i);
	expect(i == n, "/proc/self/status lists 10000 groups");

	i = can_read_as_nobody(g, n, BASE_GID + n - 1, "/tmp/demo-member");
	expect(i == 0, "a mode-0040 file of the last gid is readable (permission check, uid nobody)");
	i = can_read_as_nobody(g, n, BASE_GID + n, "/tmp/demo-other");
	expect(i == 1, "a mode-0040 file of a gid outside the set gives EACCES");

	r = raw_setgroups(max, big);
	expect(r == 0, "setgroups(65536) succeeds");
	expect(raw_getgroups(0, NULL) == max, "getgroups counts 65536");
	errno = 0;
	r = raw_setgroups(max + 1, big);
	expect(r == -1 && errno == EINVAL, "setgroups(65537) fails with EINVAL");
	expect(raw_getgroups(0, NULL) == max, "and the 65536-group set stays");

	printf("demo: %s\n", failures ? "FAILED" : "all as expected");
	return failures ? 1 : 0;
}
