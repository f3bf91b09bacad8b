/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the groups selftests share: raw group system calls, gid lists,
 * reading /proc, capabilities and who nobody is.  Include after
 * kselftest_harness.h.
 */
#ifndef GROUPS_SELFTEST_H
#define GROUPS_SELFTEST_H

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
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

/*
 * include/linux/highuid.h: the default kernel.overflowuid and
 * kernel.overflowgid, which ids that cannot be shown read back as.
 */
#define DEFAULT_OVERFLOWUID	65534
#define DEFAULT_OVERFLOWGID	65534

#define OVERFLOWUID_SYSCTL	"/proc/sys/kernel/overflowuid"
#define OVERFLOWGID_SYSCTL	"/proc/sys/kernel/overflowgid"

/* Fill pattern for the part of a buffer the kernel must not touch */
#define POISON		0xa5
#define POISON_GID	0xa5a5a5a5U

#ifdef __NR_setgroups32
#define NR_setgroups	__NR_setgroups32
#define NR_getgroups	__NR_getgroups32
#define HAVE_GROUPS16	1
#else
#define NR_setgroups	__NR_setgroups
#define NR_getgroups	__NR_getgroups
#define HAVE_GROUPS16	0
#endif

/* Assert that @call fails with errno @err. */
#define ASSERT_ERRNO(err, call) do {					\
	int __want = (err);						\
	long __ret;							\
	int __err;							\
									\
	errno = 0;							\
	__ret = (call);							\
	__err = errno;							\
	ASSERT_EQ(-1, __ret) {						\
		TH_LOG("%s returned %ld, expected %s", #call, __ret,	\
		       strerror(__want));				\
	}								\
	ASSERT_EQ(__want, __err) {					\
		TH_LOG("%s: %s, expected %s", #call, strerror(__err),	\
		       strerror(__want));				\
	}								\
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

/*
 * A bijection on [0, 2^31): distinct inputs give distinct, well spread gids
 * that are never (gid_t)-1.
 */
static inline gid_t mix31(__u32 x)
{
	x &= 0x7fffffff;
	x ^= x >> 16;
	x = (x * 0x45d9f3bU) & 0x7fffffff;
	x ^= x >> 13;
	x = (x * 0x2c1b3c6dU) & 0x7fffffff;
	x ^= x >> 15;
	return x;
}

/* @n distinct gids below 2^31, in a pseudo-random order given by @seed. */
static inline void fill_random(gid_t *gids, int n, __u32 seed)
{
	int i;

	for (i = 0; i < n; i++)
		gids[i] = mix31(seed * 0x10001U + i);
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

static inline bool is_member(const gid_t *sorted, int n, gid_t gid)
{
	return !!bsearch(&gid, sorted, n, sizeof(*sorted), cmp_gid);
}

/* Read a whole (proc) file into a NUL-terminated buffer. */
static inline char *read_text(const char *path)
{
	size_t len = 0, size = 4096;
	char *buf = malloc(size), *tmp;
	ssize_t ret;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	for (;;) {
		if (size - len < 2) {
			size *= 2;
			tmp = realloc(buf, size);
			if (!tmp)
				goto fail_close;
			buf = tmp;
		}
		ret = read(fd, buf + len, size - len - 1);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			goto fail_close;
		if (ret == 0)
			break;
		len += ret;
	}
	close(fd);
	buf[len] = '\0';
	return buf;

fail_close:
	close(fd);
fail:
	free(buf);
	return NULL;
}

static inline int write_text(const char *path, const char *text)
{
	ssize_t len = strlen(text), ret;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = write(fd, text, len);
	if (ret < 0)
		ret = -errno;
	close(fd);
	if (ret < 0)
		return ret;
	return ret == len ? 0 : -EIO;
}

static inline bool all_poison(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != POISON)
			return false;
	return true;
}

/* A number in a (sysctl) file, or -1 */
static inline long read_long(const char *path)
{
	char *text = read_text(path), *end;
	long val;

	if (!text)
		return -1;
	errno = 0;
	val = strtol(text, &end, 10);
	if (errno || end == text || val < 0)
		val = -1;
	free(text);
	return val;
}

/*
 * The uid and gid of the user "nobody": from /etc/passwd if it has one,
 * read with fgetpwent() (getpwnam() would need NSS, which a static program
 * cannot load), else what the kernel shows for ids it cannot map, which is
 * what nobody stands for: kernel.overflowuid and kernel.overflowgid, or
 * their defaults.  Neither is ever 0.
 */
static inline void lookup_nobody(uid_t *uid, gid_t *gid)
{
	FILE *f = fopen("/etc/passwd", "re");
	struct passwd *pw;
	long val;

	*uid = DEFAULT_OVERFLOWUID;
	*gid = DEFAULT_OVERFLOWGID;
	val = read_long(OVERFLOWUID_SYSCTL);
	if (val > 0)
		*uid = val;
	val = read_long(OVERFLOWGID_SYSCTL);
	if (val > 0)
		*gid = val;
	while (f && (pw = fgetpwent(f))) {
		if (!strcmp(pw->pw_name, "nobody") && pw->pw_uid && pw->pw_gid) {
			*uid = pw->pw_uid;
			*gid = pw->pw_gid;
			break;
		}
	}
	if (f)
		fclose(f);
}

static inline int get_caps(__u64 *eff, __u64 *perm)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(__NR_capget, &hdr, data))
		return -1;
	*eff = data[0].effective | (__u64)data[1].effective << 32;
	*perm = data[0].permitted | (__u64)data[1].permitted << 32;
	return 0;
}

/*
 * Why the tests cannot run here, or NULL if they can: they need root with
 * the capabilities root has in the initial user namespace.
 */
static inline const char *cannot_run_tests(void)
{
	__u64 eff, perm, need = 1ULL << CAP_CHOWN | 1ULL << CAP_DAC_OVERRIDE |
				1ULL << CAP_FOWNER | 1ULL << CAP_SETGID |
				1ULL << CAP_SETUID | 1ULL << CAP_SYS_ADMIN;
	unsigned int first, lower, count;
	char *map;
	int n;

	if (geteuid() != 0)
		return "must be run as root";
	if (get_caps(&eff, &perm) || (eff & need) != need)
		return "must be run as root with root's capabilities";
	map = read_text("/proc/self/uid_map");
	if (!map)
		return "no /proc/self/uid_map: is /proc mounted?";
	n = sscanf(map, "%u %u %u", &first, &lower, &count);
	free(map);
	if (n != 3 || first || lower || count != 4294967295U)
		return "must be run in the initial user namespace";
	return NULL;
}

#endif /* GROUPS_SELFTEST_H */
