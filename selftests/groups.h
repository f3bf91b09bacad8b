/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers for the groups selftests: group calls, gid lists, files, caps */
#ifndef GROUPS_SELFTEST_H
#define GROUPS_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/limits.h>
#include <linux/types.h>

/* include/uapi/linux/limits.h; glibc falls back to 8 without it. */
#if !defined(NGROUPS_MAX) || NGROUPS_MAX != 65536
#undef NGROUPS_MAX
#define NGROUPS_MAX	65536
#endif

/* include/linux/highuid.h: what a gid that cannot be shown reads back as */
#define DEFAULT_OVERFLOWGID	65534
#define OVERFLOWGID_SYSCTL	"/proc/sys/kernel/overflowgid"

/* Fill pattern for what the kernel must not write */
#define POISON		0xa5
#define POISON_GID	0xa5a5a5a5U

/* On i386 and arm, __NR_setgroups and __NR_getgroups take 16-bit gids. */
#ifdef __NR_setgroups32
#define NR_setgroups	__NR_setgroups32
#define NR_getgroups	__NR_getgroups32
#define HAVE_GROUPS16	1
#else
#define NR_setgroups	__NR_setgroups
#define NR_getgroups	__NR_getgroups
#define HAVE_GROUPS16	0
#endif

/* Assert that @call fails with errno @err (for kselftest_harness.h tests) */
#define ASSERT_ERRNO(err, call) do {	\
	errno = 0;			\
	ASSERT_EQ(-1, (call));		\
	ASSERT_EQ((err), errno);	\
} while (0)

static inline long sys_setgroups(long size, const gid_t *list)
{
	return syscall(NR_setgroups, size, list);
}

static inline long sys_getgroups(long size, gid_t *list)
{
	return syscall(NR_getgroups, size, list);
}

/* malloc() that never returns NULL for n == 0 */
static inline void *alloc(size_t n, size_t size)
{
	return malloc(n ? n * size : 1);
}

/* @n distinct gids below 2^31 in a pseudo-random order given by @seed */
static inline void fill_random(gid_t *gids, int n, __u32 seed)
{
	__u32 x;
	int i;

	for (i = 0; i < n; i++) {	/* a bijection on [0, 2^31) */
		x = (seed * 0x10001U + i) & 0x7fffffff;
		x = ((x ^ x >> 16) * 0x45d9f3bU) & 0x7fffffff;
		x = ((x ^ x >> 13) * 0x2c1b3c6dU) & 0x7fffffff;
		gids[i] = x ^ x >> 15;
	}
}

static inline int cmp_gid(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

	return (x > y) - (x < y);
}

static inline void sort_gids(gid_t *gids, int n)
{
	qsort(gids, n, sizeof(*gids), cmp_gid);
}

/* A whole (proc) file as a string, or NULL */
static inline char *read_text(const char *path)
{
	FILE *f = fopen(path, "re");
	size_t size = 0;
	char *buf = NULL;

	if (!f)
		return NULL;
	if (getdelim(&buf, &size, '\0', f) < 0) {
		if (ferror(f) || !buf) {
			free(buf);
			buf = NULL;
		} else {
			buf[0] = '\0';	/* an empty file */
		}
	}
	fclose(f);
	return buf;
}

/* Write @text to a (sysctl) file in one write(): 0 or -errno */
static inline int write_text(const char *path, const char *text)
{
	ssize_t len = strlen(text), ret;
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	ret = write(fd, text, len);
	ret = ret < 0 ? -errno : ret == len ? 0 : -EIO;
	close(fd);
	return ret;
}

static inline bool all_poison(const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len--)
		if (*p++ != POISON)
			return false;
	return true;
}

/* The number in a (sysctl) file, or -1 */
static inline long read_long(const char *path)
{
	char *text = read_text(path);
	long val = text && *text >= '0' && *text <= '9' ? atol(text) : -1;

	free(text);
	return val;
}

/* capget(), or if @set capset(), of the effective and permitted sets */
static inline int caps(bool set, __u64 *eff, __u64 *perm)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = {
		{ .effective = *eff, .permitted = *perm },
		{ .effective = *eff >> 32, .permitted = *perm >> 32 },
	};

	if (syscall(set ? __NR_capset : __NR_capget, &hdr, data))
		return -1;
	*eff = data[0].effective | (__u64)data[1].effective << 32;
	*perm = data[0].permitted | (__u64)data[1].permitted << 32;
	return 0;
}

/* Why the tests cannot run here, or NULL: they need root's capabilities. */
static inline const char *cannot_run_tests(void)
{
	char *map = read_text("/proc/self/uid_map");
	__u64 eff = 0, perm = 0;
	const char *why = NULL;

	if (geteuid() || caps(false, &eff, &perm) || ~eff &
	    (1ULL << CAP_CHOWN | 1ULL << CAP_DAC_OVERRIDE | 1ULL << CAP_SETGID |
	     1ULL << CAP_SETUID | 1ULL << CAP_SYS_ADMIN))
		why = "must be run as root with root's capabilities";
	else if (!map || strcmp(map, "         0          0 4294967295\n"))
		why = "must be run in the initial user namespace";
	free(map);
	return why;
}

#endif /* GROUPS_SELFTEST_H */
