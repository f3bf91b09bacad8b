// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrent use of group sets (make check-debug), bounded in time.
 *
 * Credentials are per thread, so with the raw system call each thread of one
 * process holds its own set.  For --seconds seconds:
 *
 *  - setter threads replace their set again and again with sets of
 *    different sizes (0 to 65,536), and check each with getgroups();
 *  - reader threads read /proc/self/task/<tid>/status of every thread, and
 *    check that each Groups: line is one whole set that its thread installed
 *    (never a mix of two, never a torn line), and check their own set with
 *    getgroups();
 *  - forker threads hold a large set and fork children that exit at once,
 *    or exec this program again to check that the set survived the exec.
 *
 * A set is recognisable from its gids: owner << 24 | index, so a reader can
 * tell whose it is and whether it is whole.  The debug kernel's KASAN,
 * lockdep and kmemleak watch the lifetime of the shared group_info.
 *
 *	groups_stress [--seconds S]
 *	groups_stress --child OWNER N	(the exec'ed child)
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "../selftests/groups.h"

#define SETTERS		3
#define READERS		2
#define FORKERS		2
#define OWNER_MAIN	1
#define OWNER_SETTER	2	/* + setter number */
#define OWNER_FORKER	16	/* + forker number */

static const int sizes[] = { 0, 1, 8, 32, 33, 1023, 1024, 1025, 2049, 10000, 65536 };

static double deadline;
static atomic_long n_set, n_status, n_get, n_fork, n_exec;
static atomic_long failures;

#define fail(fmt, ...) do {						\
	if (atomic_fetch_add(&failures, 1) < 20)			\
		ksft_print_msg(fmt, ##__VA_ARGS__);			\
} while (0)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The set of @owner with @n gids, ascending. */
static gid_t *make_set(int owner, int n)
{
	gid_t *g = alloc(n, sizeof(*g));
	int i;

	if (!g)
		return NULL;
	for (i = 0; i < n; i++)
		g[i] = (gid_t)owner << 24 | i;
	return g;
}

/* Install a set in reverse order (the kernel sorts), check it. */
static int install(int owner, int n)
{
	gid_t *g = make_set(owner, n), *got;
	int i, ret = -1;

	if (!g)
		return -1;
	for (i = 0; i < n / 2; i++) {
		gid_t t = g[i];

		g[i] = g[n - 1 - i];
		g[n - 1 - i] = t;
	}
	if (sys_setgroups(n, g)) {
		fail("setgroups(%d) by owner %d: %s\n", n, owner, strerror(errno));
		goto out;
	}
	atomic_fetch_add(&n_set, 1);
	ret = 0;
	got = alloc(NGROUPS_MAX, sizeof(*got));
	if (got && sys_getgroups(NGROUPS_MAX, got) != n) {
		fail("owner %d: getgroups after setgroups(%d) has another size\n", owner, n);
		ret = -1;
	} else if (got) {
		for (i = 0; i < n; i++)
			if (got[i] != ((gid_t)owner << 24 | i))
				break;
		if (i < n) {
			fail("owner %d: getgroups after setgroups(%d): wrong gid at %d\n",
			     owner, n, i);
			ret = -1;
		}
	}
	free(got);
out:
	free(g);
	return ret;
}

/* Is @gids[0..n) whole set of one owner, of one of the sizes? */
static int whole_set(const gid_t *gids, int n)
{
	size_t k;
	int i;

	for (k = 0; k < ARRAY_SIZE(sizes); k++)
		if (sizes[k] == n)
			break;
	if (k == ARRAY_SIZE(sizes))
		return 0;
	for (i = 0; i < n; i++)
		if (gids[i] != ((gids[0] & 0xff000000U) | i))
			return 0;
	return 1;
}

static int check_own(int owner, int n, gid_t *buf)
{
	int got = sys_getgroups(NGROUPS_MAX, buf), i;

	atomic_fetch_add(&n_get, 1);
	if (got != n)
		return -1;
	for (i = 0; i < n; i++)
		if (buf[i] != ((gid_t)owner << 24 | i))
			return -1;
	return 0;
}

static void *setter(void *arg)
{
	int owner = OWNER_SETTER + (int)(long)arg;
	unsigned int r = owner;

	while (now() < deadline) {
		r = r * 1103515245 + 12345;
		install(owner, sizes[(r >> 8) % ARRAY_SIZE(sizes)]);
	}
	return NULL;
}

static void read_status(const char *tid, gid_t *buf)
{
	char path[300], *text, *line, *p, *end;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid);
	text = read_text(path);
	if (!text)
		return;			/* the thread has exited */
	atomic_fetch_add(&n_status, 1);
	line = strstr(text, "\nGroups:\t");
	if (!line) {
		fail("%s: no Groups line\n", path);
		goto out;
	}
	p = line + strlen("\nGroups:\t");
	/* "Groups:\t1 2 3 \n", or "Groups:\t \n" for none */
	while (*p != '\n') {
		if (*p == ' ') {
			p++;
			continue;
		}
		if (*p < '0' || *p > '9' || n == NGROUPS_MAX) {
			fail("%s: malformed Groups line at entry %d\n", path, n);
			goto out;
		}
		buf[n++] = strtoul(p, &end, 10);
		p = end;
	}
	if (!whole_set(buf, n))
		fail("%s: Groups line of %d gids is not a set its thread installed\n", path, n);
out:
	free(text);
}

static void *reader(void *arg)
{
	gid_t *buf = alloc(NGROUPS_MAX, sizeof(*buf));
	struct dirent *d;
	DIR *dir;

	(void)arg;
	while (buf && now() < deadline) {
		dir = opendir("/proc/self/task");
		if (!dir) {
			fail("opendir /proc/self/task: %s\n", strerror(errno));
			break;
		}
		while ((d = readdir(dir)))
			if (d->d_name[0] != '.')
				read_status(d->d_name, buf);
		closedir(dir);
		if (check_own(OWNER_MAIN, 1024, buf))
			fail("a reader's own set changed\n");
	}
	free(buf);
	return NULL;
}

static void *forker(void *arg)
{
	int owner = OWNER_FORKER + (int)(long)arg;
	int n = (long)arg ? 65536 : 10000, status;
	char o[16], s[16];
	unsigned int r = owner;
	pid_t pid;

	if (install(owner, n))
		return NULL;
	snprintf(o, sizeof(o), "%d", owner);
	snprintf(s, sizeof(s), "%d", n);
	while (now() < deadline) {
		int do_exec = (r = r * 1103515245 + 12345) >> 16 & 1;

		pid = fork();
		if (pid < 0) {
			fail("fork: %s\n", strerror(errno));
			break;
		}
		if (pid == 0) {
			if (do_exec) {
				execl("/proc/self/exe", "groups_stress", "--child", o, s,
				      (char *)NULL);
				_exit(127);
			}
			_exit(0);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fail("child (%s) of owner %d: status 0x%x\n",
			     do_exec ? "exec" : "exit", owner, status);
			continue;
		}
		atomic_fetch_add(do_exec ? &n_exec : &n_fork, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[SETTERS + READERS + FORKERS];
	double seconds = 20;
	gid_t *buf;
	int i, nth = 0;

	if (argc == 4 && !strcmp(argv[1], "--child")) {
		buf = alloc(NGROUPS_MAX, sizeof(*buf));
		return !buf || check_own(atoi(argv[2]), atoi(argv[3]), buf);
	}
	if (argc == 3 && !strcmp(argv[1], "--seconds"))
		seconds = atof(argv[2]);
	setvbuf(stdout, NULL, _IONBF, 0);
	ksft_print_header();
	ksft_set_plan(2);

	buf = alloc(NGROUPS_MAX, sizeof(*buf));
	if (!buf || install(OWNER_MAIN, 1024))
		ksft_exit_fail_msg("cannot install the first set\n");
	deadline = now() + seconds;
	for (i = 0; i < SETTERS; i++)
		nth += !pthread_create(&th[nth], NULL, setter, (void *)(long)i);
	for (i = 0; i < READERS; i++)
		nth += !pthread_create(&th[nth], NULL, reader, NULL);
	for (i = 0; i < FORKERS; i++)
		nth += !pthread_create(&th[nth], NULL, forker, (void *)(long)i);
	if (nth != SETTERS + READERS + FORKERS)
		fail("only %d of %d threads started\n", nth, SETTERS + READERS + FORKERS);
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);

	ksft_print_msg("%.0fs: %ld setgroups, %ld getgroups, %ld status reads, "
		       "%ld fork+exit, %ld fork+exec; %ld failures\n", seconds,
		       atomic_load(&n_set), atomic_load(&n_get), atomic_load(&n_status),
		       atomic_load(&n_fork), atomic_load(&n_exec), atomic_load(&failures));
	ksft_test_result(!atomic_load(&failures) && !check_own(OWNER_MAIN, 1024, buf),
			 "concurrent setgroups, getgroups, status reads, fork and exec agree\n");
	ksft_test_result(atomic_load(&n_set) > SETTERS && atomic_load(&n_status) > 0 &&
			 atomic_load(&n_exec) > 0 && atomic_load(&n_fork) > 0,
			 "every kind of operation ran\n");
	ksft_finished();
}
