/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the programs of robust/ and bench/ share: the raw group system calls
 * of each ABI, gid lists, one random generator, one monotonic clock, whole
 * proc, sysfs, debugfs and cgroup files read and written, the "Groups:" line
 * of /proc/PID/status, die().  Not the kernel tree's selftests/groups.h:
 * that one stays theirs.
 */
#ifndef GUEST_H
#define GUEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* include/uapi/linux/limits.h (glibc's <limits.h> may say 8) */
#undef NGROUPS_MAX
#define NGROUPS_MAX		65536
/* include/linux/highuid.h: what a gid that cannot be shown reads back as */
#define DEFAULT_OVERFLOWGID	65534

/* Filled into what the kernel must not write */
#define POISON		0xa5
#define POISON_GID	0xa5a5a5a5U

/*
 * The group calls of the ABI: 32-bit gids, and where the plain calls take
 * 16-bit ones (i386, arm) those too, HAVE_GROUPS16 then being 1.  Without
 * them, NR_setgroups16 and NR_getgroups16 fail with ENOSYS.
 */
#ifdef __NR_setgroups32
#define HAVE_GROUPS16	1
#define NR_setgroups	__NR_setgroups32
#define NR_getgroups	__NR_getgroups32
#define NR_setgroups16	__NR_setgroups
#define NR_getgroups16	__NR_getgroups
#else
#define HAVE_GROUPS16	0
#define NR_setgroups	__NR_setgroups
#define NR_getgroups	__NR_getgroups
#define NR_setgroups16	(-1L)
#define NR_getgroups16	(-1L)
#endif

/*
 * Not glibc's setgroups(), which makes every thread of the process install
 * the list: this changes the calling thread's credentials only.
 */
static inline long sys_setgroups(long n, const gid_t *list)
{
	return syscall(NR_setgroups, n, list);
}

static inline long sys_getgroups(long n, gid_t *list)
{
	return syscall(NR_getgroups, n, list);
}

static inline long sys_setgroups16(long n, const uint16_t *list)
{
	return syscall(NR_setgroups16, n, list);
}

static inline long sys_getgroups16(long n, uint16_t *list)
{
	return syscall(NR_getgroups16, n, list);
}

/* Say what failed, and why, on stdout; exit 1 */
static inline void __attribute__((noreturn)) die(const char *what)
{
	printf("%s: %s: %s\n", program_invocation_short_name, what, strerror(errno));
	fflush(stdout);
	exit(1);
}

/* @n elements of @size bytes; never NULL for n == 0 */
static inline void *alloc(size_t n, size_t size)
{
	return malloc(n ? n * size : 1);
}

/* For qsort() and bsearch() */
static inline int cmp_gid(const void *a, const void *b)
{
	const gid_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

static inline void sort_gids(gid_t *list, int n)
{
	qsort(list, n, sizeof(*list), cmp_gid);
}

static inline bool all_poison(const void *buf, size_t len)
{
	const unsigned char *p = buf, *end = p + len;

	while (p < end && *p == POISON)
		p++;
	return p == end;
}

/*
 * The random generator: splitmix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", 2014), seeded explicitly.  A seed gives
 * the same numbers on every ABI and every kernel.
 */
struct rng {
	uint64_t state;
};

static inline void rng_seed(struct rng *r, uint64_t seed)
{
	r->state = seed;
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint32_t rng_u32(struct rng *r)
{
	return rng_next(r) >> 32;
}

/* Uniform in [0, @n) (0 if @n is 0) */
static inline uint32_t rng_below(struct rng *r, uint32_t n)
{
	return ((uint64_t)rng_u32(r) * n) >> 32;
}

/* Fisher-Yates */
static inline void rng_shuffle(struct rng *r, gid_t *list, int n)
{
	gid_t t;
	int i, j;

	for (i = n - 1; i > 0; i--) {
		j = rng_below(r, i + 1);
		t = list[i];
		list[i] = list[j];
		list[j] = t;
	}
}

/*
 * @n distinct gids below 2^31 (so never (gid_t)-1) in random order: random
 * gaps spread them over the range, then they are shuffled.
 */
static inline void rng_gids(struct rng *r, gid_t *list, int n)
{
	uint32_t gap = n ? 0x7fffffffU / n : 1, gid = rng_below(r, gap);
	int i;

	for (i = 0; i < n; i++, gid += 1 + rng_below(r, gap))
		list[i] = gid;
	rng_shuffle(r, list, n);
}

/* The clock: CLOCK_MONOTONIC, in nanoseconds and in seconds */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static inline double now_s(void)
{
	return now_ns() / 1e9;
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

/*
 * A whole proc, sysfs, debugfs, tracefs or cgroup file, NUL-terminated, into
 * *@buf of *@size bytes: if @grow, a buffer (NULL and 0 at first) that
 * realloc() makes as large as it takes and that may be kept from one call to
 * the next; else one of a fixed size, nothing being allocated.  Its length,
 * or -errno (-EFBIG if it does not fit a fixed buffer).
 */
static inline ssize_t read_file_buf(const char *path, char **buf, size_t *size, bool grow)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0, bigger;
	ssize_t r = 0;
	char *p;

	if (fd < 0)
		return -errno;
	for (;;) {
		if (len + 1 >= *size) {
			bigger = *size ? 2 * *size : 16384;
			p = grow ? realloc(*buf, bigger) : NULL;
			if (!p) {
				r = grow ? -ENOMEM : -EFBIG;
				break;
			}
			*buf = p;
			*size = bigger;
		}
		r = read(fd, *buf + len, *size - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			r = r < 0 ? -errno : 0;
			break;
		}
		len += r;
	}
	close(fd);
	if (*size)
		(*buf)[len] = '\0';
	return r < 0 ? r : (ssize_t)len;
}

/* Into @buf of @size bytes: its length, or -errno (-EFBIG if it does not fit) */
static inline ssize_t read_file_into(const char *path, char *buf, size_t size)
{
	return read_file_buf(path, &buf, &size, false);
}

/* The same in a buffer of its own, to be freed; NULL with errno set if none */
static inline char *read_file(const char *path)
{
	size_t size = 0;
	char *buf = NULL;
	ssize_t len = read_file_buf(path, &buf, &size, true);

	if (len >= 0)
		return buf;
	free(buf);
	errno = -len;
	return NULL;
}

/* The number a file starts with, or @dflt if it cannot be read or has none */
static inline long long read_number(const char *path, long long dflt)
{
	char *text = read_file(path), *end;
	long long v = text ? strtoll(text, &end, 10) : dflt;

	if (text && end == text)
		v = dflt;
	free(text);
	return v;
}

/*
 * Write @text to such a file, in one write() after opening it with O_TRUNC
 * as a shell's ">" does (which empties a trace buffer): 0, or -errno with
 * errno set (EIO if the write was short).
 */
static inline int write_file(const char *path, const char *text)
{
	ssize_t len = strlen(text), r;
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	r = write(fd, text, len);
	r = r == len ? 0 : r < 0 ? -errno : -EIO;
	close(fd);
	if (r)
		errno = -r;
	return r;
}

/*
 * The gids of the "Groups:" line of a /proc/PID/status @text into @list
 * (room for @max): their number, or -1 if there is no such line, it has more
 * than @max gids, or it is not as fs/proc/array.c writes it: "Groups:\t",
 * each gid but the first after a space, then a space and a newline, also
 * when there are none.  *@stop: where reading stopped, the line's newline
 * if it is whole, NULL if there is no line.
 */
static inline int parse_groups(const char *text, gid_t *list, int max, const char **stop)
{
	const char *p = strstr(text, "\nGroups:\t"), *digits;
	unsigned long long v = 0;
	int n = 0;

	*stop = p;
	if (!p)
		return -1;
	p += strlen("\nGroups:\t");
	if (p[0] == ' ' && p[1] == '\n') {
		*stop = p + 1;
		return 0;
	}
	for (;;) {
		for (digits = p, v = 0; *p >= '0' && *p <= '9' && v <= UINT32_MAX; p++)
			v = v * 10 + (*p - '0');
		if (p == digits || v > UINT32_MAX || *p != ' ' || n == max) {
			*stop = digits;
			return -1;
		}
		list[n++] = v;
		if (*++p == '\n') {
			*stop = p;
			return n;
		}
	}
}

#endif /* GUEST_H */
