/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest benchmark programs (groups_bench.c, groups_frag.c) share:
 * the group syscalls of the ABI, a clock, a median, and proc/sysfs file I/O.
 */
#ifndef BENCH_H
#define BENCH_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The 32-bit gid calls; the 16-bit ones keep the plain name where both exist */
#ifdef __NR_setgroups32
#define NR_setgroups	__NR_setgroups32
#define NR_getgroups	__NR_getgroups32
#define HAVE_GROUPS16	1
#else
#define NR_setgroups	__NR_setgroups
#define NR_getgroups	__NR_getgroups
#define HAVE_GROUPS16	0
#endif

static inline void die(const char *what)
{
	printf("%s: %s: %s\n", program_invocation_short_name, what, strerror(errno));
	fflush(stdout);
	exit(1);
}

static inline double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sorts @v */
static inline double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The whole of a (small) proc, sysfs, tracefs or cgroup file, NUL-terminated; NULL if none */
static inline char *read_all(const char *path)
{
	size_t len = 0, size = 16384;
	char *buf = malloc(size);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + len, size - len - 1)) > 0) {
		len += r;
		if (size - len < 4096) {
			size *= 2;
			buf = realloc(buf, size);
			if (!buf)
				die("realloc");
		}
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* Write @text to a proc, sysfs or cgroup file: 0, or -1 with errno set */
static inline int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		ret = -1;
	close(fd);
	return ret;
}

#endif /* BENCH_H */
