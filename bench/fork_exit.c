// SPDX-License-Identifier: GPL-2.0
/*
 * fork(), _exit() and waitpid() of a process in N groups: ns per call, for
 * each N given after the number of calls.  Static, for make guest-run:
 *
 *   gcc -O2 -static -o build/fork_exit bench/fork_exit.c
 *   make guest-run ICOUNT=1 KERNEL=vanilla PROG=build/fork_exit ARGS="200 8 65536"
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int run(int n, int reps)
{
	gid_t *g = malloc(sizeof(gid_t) * (n + 1));
	double *t = malloc(sizeof(double) * reps), sum = 0;
	int i, status;

	for (i = 0; i < n; i++)
		g[i] = 1000 + 2 * i;
	if (syscall(SYS_setgroups, n, g)) {
		perror("setgroups");
		return 1;
	}
	for (i = 0; i < reps; i++) {
		double t0 = now_ns();
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, &status, 0) != pid) {
			perror("fork");
			return 1;
		}
		t[i] = now_ns() - t0;
		sum += t[i];
	}
	qsort(t, reps, sizeof(double), cmp);
	printf("FORK n=%d reps=%d median_ns=%.0f mean_ns=%.0f min_ns=%.0f\n",
	       n, reps, t[reps / 2], sum / reps, t[0]);
	free(g);
	free(t);
	return 0;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 200, a;

	for (a = 2; a < argc; a++)
		if (run(atoi(argv[a]), reps))
			return 1;
	return 0;
}
