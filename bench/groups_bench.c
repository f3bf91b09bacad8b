// SPDX-License-Identifier: GPL-2.0
/*
 * The supplementary groups benchmark, run as root inside a guest by
 * "make bench", on the vanilla and on the patched kernel alike.
 *
 * Prints one line per measurement:
 *
 *	BENCH <metric> <N> <value>
 *
 * Times are nanoseconds per call (the median of several calls), memory is
 * bytes per group set, allocations are counts per setgroups() call.
 *
 *	groups_bench [--compat16 | --lookups] [--module PATH]
 *
 * --compat16 measures only the 16-bit calls (run it as an i386 or armhf
 * binary); --lookups only the in-kernel lookups ("make bench-lookups": a
 * short boot, so more rounds fit); --module loads the in-kernel lookup
 * timer first.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __NR_setgroups32
#define NR_setgroups	__NR_setgroups32
#define NR_getgroups	__NR_getgroups32
#define HAVE_GROUPS16	1
#else
#define NR_setgroups	__NR_setgroups
#define NR_getgroups	__NR_getgroups
#define HAVE_GROUPS16	0
#endif

#define NGROUPS_MAX	65536
#define BASE		100000u
#define LOOKUP_FILE	"/sys/kernel/debug/groups_lookup_bench"
#define TRACING		"/sys/kernel/tracing"
#define MEM_THREADS	400

static long sys_setgroups(long n, const gid_t *g)
{
	return syscall(NR_setgroups, n, g);
}

static long sys_getgroups(long n, gid_t *g)
{
	return syscall(NR_getgroups, n, g);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void report(const char *metric, int n, double value)
{
	printf("BENCH %s %d %.1f\n", metric, n, value);
	fflush(stdout);
}

static void die(const char *what)
{
	printf("groups_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* How many times to repeat a call of cost ~n, to keep a boot short */
static int reps_for(int n)
{
	int reps = 400000 / (n + 200);

	return reps < 5 ? 5 : reps > 200 ? 200 : reps;
}

static unsigned int rnd_state = 12345;

static unsigned int rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 1;
}

enum input { RANDOM, SORTED, REVERSE, DUPLICATES, NR_INPUTS };
static const char * const input_name[] = { "random", "sorted", "reverse", "dups" };

/* n gids from base, distinct unless DUPLICATES, in the order of @kind */
static void fill(gid_t *g, int n, enum input kind, gid_t base)
{
	int i;

	for (i = 0; i < n; i++)
		g[i] = kind == REVERSE ? base + n - 1 - i :
		       kind == DUPLICATES ? base + rnd() % 16 : base + i;
	if (kind == RANDOM)
		for (i = n - 1; i > 0; i--) {
			int j = rnd() % (i + 1);
			gid_t t = g[i];

			g[i] = g[j];
			g[j] = t;
		}
}

static void bench_set_get(int n, gid_t *g, gid_t *buf)
{
	int reps = reps_for(n), r, kind;
	double *t = malloc(sizeof(*t) * reps);
	char name[64];

	for (kind = 0; kind < NR_INPUTS; kind++) {
		fill(g, n, kind, BASE);
		for (r = 0; r < reps; r++) {
			double t0 = now_ns();

			if (sys_setgroups(n, g))
				die("setgroups");
			t[r] = now_ns() - t0;
		}
		snprintf(name, sizeof(name), "setgroups_%s", input_name[kind]);
		report(name, n, median(t, reps));
	}

	fill(g, n, RANDOM, BASE);
	if (sys_setgroups(n, g))
		die("setgroups");
	for (r = 0; r < reps; r++) {
		double t0 = now_ns();

		if (sys_getgroups(n, buf) != n)
			die("getgroups");
		t[r] = now_ns() - t0;
	}
	report("getgroups", n, median(t, reps));
	free(t);
}

static void bench_compat16(int n)
{
#if HAVE_GROUPS16
	unsigned short *g = malloc(2 * (n + 1)), *buf = malloc(2 * (n + 1));
	int reps = reps_for(n), r, i;
	double *t = malloc(sizeof(*t) * reps);

	for (i = 0; i < n; i++)
		g[i] = 1 + rnd() % 65000;
	for (r = 0; r < reps; r++) {
		double t0 = now_ns();

		if (syscall(__NR_setgroups, n, g))
			die("setgroups16");
		t[r] = now_ns() - t0;
	}
	report("setgroups16_random", n, median(t, reps));
	for (r = 0; r < reps; r++) {
		double t0 = now_ns();

		if (syscall(__NR_getgroups, n, buf) != n)
			die("getgroups16");
		t[r] = now_ns() - t0;
	}
	report("getgroups16", n, median(t, reps));
	free(g);
	free(buf);
	free(t);
#else
	(void)n;
#endif
}

/*
 * In-kernel lookups through the module: the first, middle and last gid, a
 * miss, and the mean over RANDOM_HITS gids at random positions.  (The
 * middle gid is the flat array's first probe, its best case.)  Each is the
 * fastest of LOOKUP_REPEATS timed loops of LOOKUP_ITERS lookups.
 *
 * Under TCG the cost of a lookup depends on the set's copy: on either
 * kernel, the same gids in the same boot took 1.6-1.7 times as long in one
 * copy as in another (QEMU's software TLB is one likely reason: it is
 * direct-mapped by address).  So the same gids are
 * installed LOOKUP_SETS times, by as many threads that each hold their own
 * copy of the set at once (each at another address), and each figure is
 * the mean over the copies.
 */
#define LOOKUP_ITERS	2000
#define LOOKUP_REPEATS	5
#define LOOKUP_SETS	8
#define RANDOM_HITS	32

static struct {
	int n;
	const gid_t *g;
	const char *cmd;
	double sum[5];		/* first, middle, last, miss, random */
	pthread_barrier_t measured, done;
} lk;

/* Install the set in this thread, time its lookups, keep the set alive. */
static void *lookup_thread(void *arg)
{
	unsigned int gid, hit, k, nhits = 0;
	unsigned long long ns;
	double random_sum = 0;
	char line[80];
	FILE *f;
	int fd;

	(void)arg;
	if (syscall(NR_setgroups, (long)lk.n, lk.g))
		die("setgroups");
	fd = open(LOOKUP_FILE, O_WRONLY);
	if (fd < 0)
		die("lookup open");
	if (write(fd, lk.cmd, strlen(lk.cmd)) < 0)
		die("lookup write");
	close(fd);
	f = fopen(LOOKUP_FILE, "r");
	if (!f)
		die("lookup read");
	for (k = 0; fgets(line, sizeof(line), f) &&
	     sscanf(line, "%u %u %llu", &gid, &hit, &ns) == 3; k++) {
		/* With no groups only the miss means anything. */
		if (!lk.n && k != 3)
			continue;
		if (hit != (k != 3)) {
			printf("groups_bench: lookup of %u: hit %u\n", gid, hit);
			exit(1);
		}
		if (k < 4) {
			lk.sum[k] += (double)ns / LOOKUP_ITERS;
		} else {
			random_sum += (double)ns / LOOKUP_ITERS;
			nhits++;
		}
	}
	fclose(f);
	if (nhits)
		lk.sum[4] += random_sum / nhits;
	pthread_barrier_wait(&lk.measured);
	pthread_barrier_wait(&lk.done);
	return NULL;
}

static void bench_lookup(int n, gid_t *g)
{
	static const char * const what[] = {
		"first", "middle", "last", "miss", "random"
	};
	pthread_t th[LOOKUP_SETS];
	char cmd[1024];
	size_t len;
	int k;

	if (access(LOOKUP_FILE, W_OK))
		return;
	fill(g, n, RANDOM, BASE);
	len = snprintf(cmd, sizeof(cmd), "%u %u %u %u %u %u", LOOKUP_ITERS, LOOKUP_REPEATS,
		       BASE, BASE + n / 2, BASE + (n ? n - 1 : 0), BASE + n + 7);
	if (n)
		for (k = 0; k < RANDOM_HITS; k++)
			len += snprintf(cmd + len, sizeof(cmd) - len, " %u", BASE + rnd() % n);
	strcat(cmd, "\n");

	memset(&lk, 0, sizeof(lk));
	lk.n = n;
	lk.g = g;
	lk.cmd = cmd;
	pthread_barrier_init(&lk.measured, NULL, 2);
	pthread_barrier_init(&lk.done, NULL, LOOKUP_SETS + 1);
	/* One at a time: the module times the task that writes to it. */
	for (k = 0; k < LOOKUP_SETS; k++) {
		if (pthread_create(&th[k], NULL, lookup_thread, NULL))
			die("pthread_create");
		pthread_barrier_wait(&lk.measured);
	}
	pthread_barrier_wait(&lk.done);
	for (k = 0; k < LOOKUP_SETS; k++)
		pthread_join(th[k], NULL);
	pthread_barrier_destroy(&lk.measured);
	pthread_barrier_destroy(&lk.done);

	for (k = 0; k < 5; k++) {
		char name[64];

		if (!n && k != 3)
			continue;
		snprintf(name, sizeof(name), "lookup_%s", what[k]);
		report(name, n, lk.sum[k] / LOOKUP_SETS);
	}
}

#define FORK_REPS	81

static void bench_fork(int n, gid_t *g)
{
	double t[FORK_REPS];
	int r, status;

	fill(g, n, RANDOM, BASE);
	if (sys_setgroups(n, g))
		die("setgroups");
	for (r = 0; r < FORK_REPS; r++) {
		double t0 = now_ns();
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			die("fork");
		t[r] = now_ns() - t0;
	}
	report("fork_exit_wait", n, median(t, FORK_REPS));
}

static long meminfo_kb(const char *key)
{
	char line[128];
	size_t len = strlen(key);
	long val = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':')
			val = atol(line + len + 1);
	if (f)
		fclose(f);
	return val;
}

/* Threads each install a distinct set of n gids and hold it. */
static pthread_barrier_t mem_start, mem_done, mem_exit;
static int mem_n;

static void *mem_thread(void *arg)
{
	long t = (long)arg;
	gid_t *g = malloc(sizeof(*g) * (mem_n + 1));

	pthread_barrier_wait(&mem_start);
	fill(g, mem_n, SORTED, BASE + t * (gid_t)mem_n);
	if (sys_setgroups(mem_n, g))
		die("setgroups in thread");
	free(g);
	pthread_barrier_wait(&mem_done);
	pthread_barrier_wait(&mem_exit);
	return NULL;
}

static void bench_memory(int n)
{
	/* Fewer sets when they are big: each setgroups() costs ~n. */
	long threads = 2000000 / (n + 1), t;
	pthread_t th[MEM_THREADS];
	pthread_attr_t attr;
	long free0, free1, slab0, slab1;

	threads = threads < 40 ? 40 : threads > MEM_THREADS ? MEM_THREADS : threads;
	mem_n = n;
	pthread_barrier_init(&mem_start, NULL, threads + 1);
	pthread_barrier_init(&mem_done, NULL, threads + 1);
	pthread_barrier_init(&mem_exit, NULL, threads + 1);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (t = 0; t < threads; t++)
		if (pthread_create(&th[t], &attr, mem_thread, (void *)t))
			die("pthread_create");
	sync();
	usleep(100000);
	free0 = meminfo_kb("MemFree");
	slab0 = meminfo_kb("Slab");
	pthread_barrier_wait(&mem_start);
	pthread_barrier_wait(&mem_done);
	usleep(100000);
	free1 = meminfo_kb("MemFree");
	slab1 = meminfo_kb("Slab");
	pthread_barrier_wait(&mem_exit);
	for (t = 0; t < threads; t++)
		pthread_join(th[t], NULL);
	report("mem_per_set", n, (free0 - free1) * 1024.0 / threads);
	report("slab_per_set", n, (slab1 - slab0) * 1024.0 / threads);
	pthread_barrier_destroy(&mem_start);
	pthread_barrier_destroy(&mem_done);
	pthread_barrier_destroy(&mem_exit);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	int ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

static int count_lines(const char *path, const char *needle)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int n = 0;

	while (f && fgets(line, sizeof(line), f))
		if (line[0] != '#' && (!needle || strstr(line, needle)))
			n++;
	if (f)
		fclose(f);
	return f ? n : -1;
}

/*
 * Allocations that one setgroups() makes: page allocations of order > 0
 * (the kmem:mm_page_alloc tracepoint, filtered on order and on this task;
 * this counts slab refills too) and vmalloc areas that the new set holds.
 */
static void bench_allocations(int n, gid_t *g)
{
	const int calls = 8;
	char pid[32];
	int c, high, v0, v1;

	if (write_file(TRACING "/events/kmem/mm_page_alloc/filter", "order > 0"))
		return;
	snprintf(pid, sizeof(pid), "%d", getpid());
	write_file(TRACING "/set_event_pid", pid);
	write_file(TRACING "/trace", "");
	write_file(TRACING "/events/kmem/mm_page_alloc/enable", "1");
	write_file(TRACING "/tracing_on", "1");
	for (c = 0; c < calls; c++) {
		fill(g, n, RANDOM, BASE + c * (gid_t)n);
		if (sys_setgroups(n, g))
			die("setgroups");
	}
	write_file(TRACING "/tracing_on", "0");
	write_file(TRACING "/events/kmem/mm_page_alloc/enable", "0");
	high = count_lines(TRACING "/trace", "mm_page_alloc");
	report("order_gt0_allocs", n, (double)high / calls);

	if (sys_setgroups(0, NULL))
		die("setgroups");
	v0 = count_lines("/proc/vmallocinfo", NULL);
	if (sys_setgroups(n, g))
		die("setgroups");
	v1 = count_lines("/proc/vmallocinfo", NULL);
	if (v0 >= 0 && v1 >= 0)
		report("vmalloc_areas", n, v1 - v0);
}

static int load_module(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || syscall(__NR_finit_module, fd, "", 0)) {
		printf("groups_bench: cannot load %s: %s\n", path, strerror(errno));
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int sizes[16], nsizes = 0, i, compat16 = 0, lookups = 0;
	long per_page = sysconf(_SC_PAGESIZE) / sizeof(gid_t);
	gid_t *g = malloc(sizeof(gid_t) * (NGROUPS_MAX + 1));
	gid_t *buf = malloc(sizeof(gid_t) * (NGROUPS_MAX + 1));
	const int fixed[] = { 0, 1, 8, 32, 33 };

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--compat16"))
			compat16 = 1;
		else if (!strcmp(argv[i], "--lookups"))
			lookups = 1;
		else if (!strcmp(argv[i], "--module") && i + 1 < argc)
			load_module(argv[++i]);
	}
	mount("tracefs", TRACING, "tracefs", 0, NULL);

	/* The sizes of the issue; the block edges follow the page size. */
	for (i = 0; i < 5; i++)
		sizes[nsizes++] = fixed[i];
	sizes[nsizes++] = per_page - 1;
	sizes[nsizes++] = per_page;
	sizes[nsizes++] = per_page + 1;
	if (per_page + 1 < 10000)
		sizes[nsizes++] = 10000;
	sizes[nsizes++] = NGROUPS_MAX;

	printf("BENCH page_size 0 %ld\n", per_page * 4);
	for (i = 0; i < nsizes; i++) {
		int n = sizes[i];

		if (compat16) {
			bench_compat16(n);
			continue;
		}
		if (lookups) {
			bench_lookup(n, g);
			continue;
		}
		bench_set_get(n, g, buf);
		bench_lookup(n, g);
		bench_fork(n, g);
		bench_memory(n);
		bench_allocations(n, g);
	}
	return 0;
}
