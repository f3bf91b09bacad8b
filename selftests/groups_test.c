// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for the supplementary group list: setgroups(2), getgroups(2), their
 * 16-bit variants on 32-bit ABIs and the "Groups:" line of /proc/PID/status.
 *
 * The tests expect to start as root (uid 0, all capabilities) in the initial
 * user namespace.  The harness runs every test in a child of its own, so
 * changes to the group list, to ids and to capabilities never leak from one
 * test into the next.
 *
 * Only raw system calls are used to change or read the group list: glibc's
 * setgroups() applies the change to every thread and its getgroups() hides
 * which of the 16-bit and 32-bit calls is used.  On i386 and arm, __NR_setgroups
 * and __NR_getgroups are the old calls taking 16-bit gids; the 32-bit ones are
 * __NR_setgroups32 and __NR_getgroups32.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/limits.h>
#include <linux/types.h>

#include "../kselftest_harness.h"
#include "groups.h"

/* The user nobody, looked up before the tests start */
static uid_t nobody_uid;
static gid_t nobody_gid;

/* An id that cannot be valid: (gid_t)-1 and (old_gid_t)-1 */
#define BAD_GID		((gid_t)-1)
#define BAD_GID16	((__u16)-1)

#define POISON_GID16	0xa5a5U

#if HAVE_GROUPS16
static long sys_setgroups16(long size, const __u16 *list)
{
	return syscall(__NR_setgroups, size, list);
}

static long sys_getgroups16(long size, __u16 *list)
{
	return syscall(__NR_getgroups, size, list);
}
#else
/* Never called: every test using these skips first on 64-bit ABIs. */
static long sys_setgroups16(long size, const __u16 *list)
{
	(void)size;
	(void)list;
	return -1;
}

static long sys_getgroups16(long size, __u16 *list)
{
	(void)size;
	(void)list;
	return -1;
}
#endif

#define NO_GROUPS16	"no 16-bit setgroups/getgroups on this ABI (only i386 and arm)"

static int cmp_gid16(const void *a, const void *b)
{
	__u16 x = *(const __u16 *)a, y = *(const __u16 *)b;

	return (x > y) - (x < y);
}

/*
 * kernel.overflowgid, which from_kgid_munged() and high2lowgid() give for a
 * gid that the caller cannot see or that does not fit 16 bits
 * (fs.overflowgid is for file systems with 16-bit gids only).  Without
 * sysctls it is the default.
 */
static gid_t read_overflowgid(struct __test_metadata *_metadata)
{
	long val = read_long(OVERFLOWGID_SYSCTL);

	if (val < 0) {
		TH_LOG("cannot read %s, assuming %u", OVERFLOWGID_SYSCTL,
		       DEFAULT_OVERFLOWGID);
		return DEFAULT_OVERFLOWGID;
	}
	return val;
}

static int first_diff(const gid_t *a, const gid_t *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

static int first_diff16(const __u16 *a, const __u16 *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

/*
 * Assert that the current group list is exactly @expect[0..@n), in this
 * order: through the count query, a buffer of exactly @n entries, a larger
 * buffer (whose tail must stay untouched) and a buffer one entry too small
 * (EINVAL, with nothing written).
 */
static void check_groups(struct __test_metadata *_metadata,
			 const gid_t *expect, int n)
{
	gid_t *buf = alloc(n + 1, sizeof(*buf));
	int i;

	ASSERT_TRUE(!!(buf));
	ASSERT_EQ(n, sys_getgroups(0, NULL));

	memset(buf, POISON, (n + 1) * sizeof(*buf));
	ASSERT_EQ(n, sys_getgroups(n + 1, buf));
	i = first_diff(expect, buf, n);
	ASSERT_EQ(-1, i) {
		TH_LOG("getgroups entry %d of %d is %u, expected %u",
		       i, n, buf[i], expect[i]);
	}
	ASSERT_EQ(POISON_GID, buf[n]);

	if (n > 0) {
		memset(buf, POISON, (n + 1) * sizeof(*buf));
		ASSERT_EQ(n, sys_getgroups(n, buf));
		ASSERT_EQ(-1, first_diff(expect, buf, n));
		ASSERT_EQ(POISON_GID, buf[n]);
	}
	if (n > 1) {
		memset(buf, POISON, (n + 1) * sizeof(*buf));
		ASSERT_ERRNO(EINVAL, sys_getgroups(n - 1, buf));
		ASSERT_TRUE(all_poison(buf, (n + 1) * sizeof(*buf)));
	}
	free(buf);
}

/* The same through getgroups16(). */
static void check_groups16(struct __test_metadata *_metadata,
			   const __u16 *expect, int n)
{
	__u16 *buf = alloc(n + 1, sizeof(*buf));
	int i;

	ASSERT_TRUE(!!(buf));
	ASSERT_EQ(n, sys_getgroups16(0, NULL));

	memset(buf, POISON, (n + 1) * sizeof(*buf));
	ASSERT_EQ(n, sys_getgroups16(n + 1, buf));
	i = first_diff16(expect, buf, n);
	ASSERT_EQ(-1, i) {
		TH_LOG("getgroups16 entry %d of %d is %u, expected %u",
		       i, n, buf[i], expect[i]);
	}
	ASSERT_EQ(POISON_GID16, buf[n]);

	if (n > 0) {
		memset(buf, POISON, (n + 1) * sizeof(*buf));
		ASSERT_EQ(n, sys_getgroups16(n, buf));
		ASSERT_EQ(-1, first_diff16(expect, buf, n));
		ASSERT_EQ(POISON_GID16, buf[n]);
	}
	if (n > 1) {
		memset(buf, POISON, (n + 1) * sizeof(*buf));
		ASSERT_ERRNO(EINVAL, sys_getgroups16(n - 1, buf));
		ASSERT_TRUE(all_poison(buf, (n + 1) * sizeof(*buf)));
	}
	free(buf);
}

/*
 * Assert that the "Groups:" line of /proc/self/status lists @expect[0..@n).
 * fs/proc/array.c prints each gid preceded by a space except the first,
 * then one trailing space and a newline: "Groups:\t1 2 3 " for 1, 2 and 3,
 * and "Groups:\t " if empty.
 */
static void check_proc_groups(struct __test_metadata *_metadata,
			      const gid_t *expect, int n)
{
	char *status, *line, *end, *want, *p;
	int i;

	want = malloc(32 + (size_t)n * 11);
	ASSERT_TRUE(!!(want));
	p = want + sprintf(want, "Groups:\t");
	for (i = 0; i < n; i++)
		p += sprintf(p, "%s%u", i ? " " : "", expect[i]);
	sprintf(p, "\x20\n");	/* the trailing space is part of the ABI */

	status = read_text("/proc/self/status");
	ASSERT_TRUE(!!(status)) {
		TH_LOG("cannot read /proc/self/status: %s", strerror(errno));
	}
	line = strstr(status, "\nGroups:");
	ASSERT_TRUE(!!(line));
	line++;
	end = strchr(line, '\n');
	ASSERT_TRUE(!!(end));
	end[1] = '\0';
	ASSERT_EQ(0, strcmp(want, line)) {
		if (n <= 16)
			TH_LOG("status has \"%s\", expected \"%s\"", line, want);
		else
			TH_LOG("status line differs (%zu bytes, expected %zu)",
			       strlen(line), strlen(want));
	}
	free(status);
	free(want);
}

static int set_caps(__u64 eff, __u64 perm)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	data[0].effective = eff;
	data[1].effective = eff >> 32;
	data[0].permitted = perm;
	data[1].permitted = perm >> 32;
	return syscall(__NR_capset, &hdr, data);
}

/* Become nobody; as no uid stays 0, all capabilities go. */
static void drop_to_nobody(struct __test_metadata *_metadata)
{
	__u64 eff, perm;

	ASSERT_EQ(0, setresgid(nobody_gid, nobody_gid, nobody_gid));
	ASSERT_EQ(0, setresuid(nobody_uid, nobody_uid, nobody_uid));
	ASSERT_EQ(0, get_caps(&eff, &perm));
	ASSERT_EQ((__u64)0, eff);
	ASSERT_EQ((__u64)0, perm);
}

/*
 * A page that faults on any access.  PROT_NONE rather than unmapped, so that
 * nothing (like malloc) can map anything there later; and no fixed address,
 * as e.g. 0xfffff000 lies inside the [vectors] page of AArch32 tasks on
 * arm64 with 64K pages.
 */
static void *fault_page(struct __test_metadata *_metadata)
{
	void *map;

	map = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	return map;
}

/*
 * A writable page followed by one that faults: returns the address of the
 * last @n bytes of the writable page.
 */
static void *page_before_hole(struct __test_metadata *_metadata, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map;

	ASSERT_LE(n, (size_t)page);
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, mprotect(map + page, page, PROT_NONE));
	return map + page - n;
}

/*
 * Round trips at sizes around NGROUPS_MAX, page-sized blocks of gids (1024
 * with 4K pages, 16384 with 64K pages) and 32.
 */
FIXTURE(sizes)
{
	gid_t *in;
	gid_t *expect;
};

FIXTURE_VARIANT(sizes)
{
	int n;
};

FIXTURE_VARIANT_ADD(sizes, n0) { .n = 0 };
FIXTURE_VARIANT_ADD(sizes, n1) { .n = 1 };
FIXTURE_VARIANT_ADD(sizes, n2) { .n = 2 };
FIXTURE_VARIANT_ADD(sizes, n31) { .n = 31 };
FIXTURE_VARIANT_ADD(sizes, n32) { .n = 32 };
FIXTURE_VARIANT_ADD(sizes, n33) { .n = 33 };
FIXTURE_VARIANT_ADD(sizes, n1023) { .n = 1023 };
FIXTURE_VARIANT_ADD(sizes, n1024) { .n = 1024 };
FIXTURE_VARIANT_ADD(sizes, n1025) { .n = 1025 };
FIXTURE_VARIANT_ADD(sizes, n10000) { .n = 10000 };
FIXTURE_VARIANT_ADD(sizes, n16383) { .n = 16383 };
FIXTURE_VARIANT_ADD(sizes, n16384) { .n = 16384 };
FIXTURE_VARIANT_ADD(sizes, n16385) { .n = 16385 };
FIXTURE_VARIANT_ADD(sizes, n65535) { .n = 65535 };
FIXTURE_VARIANT_ADD(sizes, n65536) { .n = NGROUPS_MAX };

FIXTURE_SETUP(sizes)
{
	self->in = alloc(variant->n, sizeof(gid_t));
	self->expect = alloc(variant->n, sizeof(gid_t));
	ASSERT_TRUE(!!(self->in));
	ASSERT_TRUE(!!(self->expect));
}

FIXTURE_TEARDOWN(sizes)
{
	free(self->in);
	free(self->expect);
}

/* Distinct gids in random order come back sorted, also in /proc. */
TEST_F(sizes, random)
{
	int n = variant->n;

	fill_random(self->in, n, n);
	memcpy(self->expect, self->in, n * sizeof(gid_t));
	sort_gids(self->expect, n);

	ASSERT_EQ(0, sys_setgroups(n, self->in));
	check_groups(_metadata, self->expect, n);
	check_proc_groups(_metadata, self->expect, n);
}

TEST_F(sizes, ascending)
{
	int n = variant->n;

	fill_random(self->in, n, n + 1);
	sort_gids(self->in, n);
	memcpy(self->expect, self->in, n * sizeof(gid_t));

	ASSERT_EQ(0, sys_setgroups(n, self->in));
	check_groups(_metadata, self->expect, n);
}

TEST_F(sizes, descending)
{
	int i, n = variant->n;

	fill_random(self->expect, n, n + 2);
	sort_gids(self->expect, n);
	for (i = 0; i < n; i++)
		self->in[i] = self->expect[n - 1 - i];

	ASSERT_EQ(0, sys_setgroups(n, self->in));
	check_groups(_metadata, self->expect, n);
}

/* Duplicates are kept: n copies of one gid read back as n copies. */
TEST_F(sizes, all_same)
{
	int i, n = variant->n;

	for (i = 0; i < n; i++)
		self->in[i] = 1000;
	memcpy(self->expect, self->in, n * sizeof(gid_t));

	ASSERT_EQ(0, sys_setgroups(n, self->in));
	check_groups(_metadata, self->expect, n);
}

/* Many duplicates of a few gids, in random order: the multiset comes back. */
TEST_F(sizes, duplicates)
{
	int i, n = variant->n;

	for (i = 0; i < n; i++)
		self->in[i] = 100 + mix31(i) % 97;
	memcpy(self->expect, self->in, n * sizeof(gid_t));
	sort_gids(self->expect, n);

	ASSERT_EQ(0, sys_setgroups(n, self->in));
	check_groups(_metadata, self->expect, n);
}

/*
 * The kernel really is a member of exactly the groups set, as seen by
 * in_group_p(): the owner of a file may change its group to a group it is a
 * member of (or its fsgid) and to no other without CAP_CHOWN.  Probe the
 * ends, every block boundary and the gids right next to members.
 */
TEST_F(sizes, membership)
{
	int i, fd, n = variant->n, members = 0, others = 0;
	gid_t extra[] = { 0, 1, 0x7fffffff, 0x80000000U, 0xfffffffeU };

	fill_random(self->in, n, n + 3);
	memcpy(self->expect, self->in, n * sizeof(gid_t));
	sort_gids(self->expect, n);

	fd = memfd_create("groups_test", MFD_CLOEXEC);
	if (fd < 0)
		SKIP(return, "memfd_create: %s", strerror(errno));
	ASSERT_EQ(0, fchown(fd, nobody_uid, nobody_gid));
	ASSERT_EQ(0, sys_setgroups(n, self->in));
	drop_to_nobody(_metadata);
	check_groups(_metadata, self->expect, n);

	for (i = 0; i < n; i++) {
		gid_t next = self->expect[i] + 1;

		if (i >= 34 && n - i > 34 && i % 1024 > 1 && i % 1024 < 1022)
			continue;

		ASSERT_EQ(0, fchown(fd, -1, self->expect[i])) {
			TH_LOG("chgrp to member %u (index %d of %d): %s",
			       self->expect[i], i, n, strerror(errno));
		}
		members++;

		if (next == nobody_gid || is_member(self->expect, n, next))
			continue;
		ASSERT_ERRNO(EPERM, fchown(fd, -1, next));
		others++;
	}
	for (i = 0; i < (int)ARRAY_SIZE(extra); i++) {
		if (extra[i] == nobody_gid || is_member(self->expect, n, extra[i]))
			continue;
		ASSERT_ERRNO(EPERM, fchown(fd, -1, extra[i]));
		others++;
	}
	/* The fsgid always counts, whatever the list. */
	ASSERT_EQ(0, fchown(fd, -1, nobody_gid));

	/* every gid of short lists, both ends of long ones */
	ASSERT_GE(members, n <= 68 ? n : 68);
	ASSERT_GT(others, 0);
	close(fd);
}

/* The same round trip through the 16-bit calls (gids below 65535). */
TEST_F(sizes, compat16)
{
	int i, n = variant->n;
	__u16 *in, *expect;

	if (!HAVE_GROUPS16)
		SKIP(return, NO_GROUPS16);

	in = alloc(n, sizeof(*in));
	expect = alloc(n, sizeof(*expect));
	ASSERT_TRUE(!!(in));
	ASSERT_TRUE(!!(expect));
	for (i = 0; i < n; i++)
		in[i] = mix31(i + 7 * n) % 65535;
	memcpy(expect, in, n * sizeof(*in));
	qsort(expect, n, sizeof(*expect), cmp_gid16);

	ASSERT_EQ(0, sys_setgroups16(n, in));
	check_groups16(_metadata, expect, n);

	/* The same list, through the 32-bit calls */
	for (i = 0; i < n; i++)
		self->expect[i] = expect[i];
	check_groups(_metadata, self->expect, n);
	free(in);
	free(expect);
}

/*
 * Round trips at the edges of the kernel's blocks of gids, computed from the
 * running kernel's page size: a page holds page / 4 gids, and a list is kept
 * inline in its header up to a page less the header (page / 4 - 2 gids).
 * Each edge -1, 0 and +1, as far as NGROUPS_MAX, in random and reverse order.
 */
TEST(block_edges)
{
	long per_page = sysconf(_SC_PAGESIZE) / sizeof(gid_t);
	long edges[] = { per_page - 2, per_page, 2 * per_page, 3 * per_page };
	gid_t *in = alloc(NGROUPS_MAX, sizeof(gid_t));
	gid_t *expect = alloc(NGROUPS_MAX, sizeof(gid_t));
	int e, d, i, tested = 0;

	ASSERT_TRUE(!!(in));
	ASSERT_TRUE(!!(expect));
	for (e = 0; e < (int)ARRAY_SIZE(edges); e++) {
		for (d = -1; d <= 1; d++) {
			int n = edges[e] + d;

			if (n > NGROUPS_MAX)
				continue;
			fill_random(expect, n, n + 11);
			sort_gids(expect, n);
			for (i = 0; i < n; i++)
				in[i] = expect[n - 1 - i];
			ASSERT_EQ(0, sys_setgroups(n, in)) {
				TH_LOG("setgroups(%d) in reverse order: %s", n,
				       strerror(errno));
			}
			check_groups(_metadata, expect, n);

			fill_random(in, n, n + 13);
			memcpy(expect, in, n * sizeof(gid_t));
			sort_gids(expect, n);
			ASSERT_EQ(0, sys_setgroups(n, in));
			check_groups(_metadata, expect, n);
			tested++;
		}
	}
	ASSERT_GE(tested, 9);
	free(in);
	free(expect);
}

/* The exact /proc/self/status format, and that no other id changes. */
TEST(proc_status_format)
{
	static const gid_t three[] = { 3, 1, 2 };
	static const gid_t seven[] = { 7 };
	gid_t r, e, s, r2, e2, s2;
	char *status, *line;

	ASSERT_EQ(0, getresgid(&r, &e, &s));

	ASSERT_EQ(0, sys_setgroups(3, three));
	status = read_text("/proc/self/status");
	ASSERT_TRUE(!!(status));
	line = strstr(status, "\nGroups:\t1 2 3\x20\n");
	ASSERT_TRUE(!!(line)) {
		TH_LOG("no \"Groups:\\t1 2 3 \\n\" in:\n%s", status);
	}
	free(status);

	ASSERT_EQ(0, sys_setgroups(1, seven));
	status = read_text("/proc/self/status");
	ASSERT_TRUE(!!(status));
	ASSERT_TRUE(!!(strstr(status, "\nGroups:\t7\x20\n")));
	free(status);

	ASSERT_EQ(0, sys_setgroups(0, NULL));
	status = read_text("/proc/self/status");
	ASSERT_TRUE(!!(status));
	ASSERT_TRUE(!!(strstr(status, "\nGroups:\t\x20\n"))) {
		TH_LOG("no \"Groups:\\t \\n\" in:\n%s", status);
	}
	free(status);

	ASSERT_EQ(0, getresgid(&r2, &e2, &s2));
	ASSERT_EQ(r, r2);
	ASSERT_EQ(e, e2);
	ASSERT_EQ(s, s2);
	ASSERT_EQ(e, (gid_t)setfsgid(-1));
}

/* {5, 3, 5, 1, 3, 3} reads back as {1, 3, 3, 3, 5, 5}. */
TEST(duplicates_kept_sorted)
{
	static const gid_t in[] = { 5, 3, 5, 1, 3, 3 };
	static const gid_t expect[] = { 1, 3, 3, 3, 5, 5 };

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(in), in));
	check_groups(_metadata, expect, ARRAY_SIZE(expect));
	check_proc_groups(_metadata, expect, ARRAY_SIZE(expect));
}

/* Gids compare as unsigned: 2^31 and up sort after 2^31 - 1. */
TEST(unsigned_order)
{
	static const gid_t in[] = {
		0xfffffffeU, 65536, 0, 0x80000000U, 0x7fffffff, 65535,
	};
	static const gid_t expect[] = {
		0, 65535, 65536, 0x7fffffff, 0x80000000U, 0xfffffffeU,
	};

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(in), in));
	check_groups(_metadata, expect, ARRAY_SIZE(expect));
	check_proc_groups(_metadata, expect, ARRAY_SIZE(expect));
}

/* setgroups(0, ...) empties the list and never looks at the pointer. */
TEST(setgroups_empty)
{
	static const gid_t some[] = { 10, 20 };

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(some), some));
	ASSERT_EQ(0, sys_setgroups(0, NULL));
	check_groups(_metadata, NULL, 0);

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(some), some));
	ASSERT_EQ(0, sys_setgroups(0, fault_page(_metadata)));
	check_groups(_metadata, NULL, 0);
	check_proc_groups(_metadata, NULL, 0);
}

/*
 * A size above NGROUPS_MAX, or negative, is EINVAL before the list is read
 * (so not EFAULT for a NULL list), and the old list stays.
 */
TEST(setgroups_bad_size)
{
	static const gid_t old[] = { 4, 5, 6 };
	static const long sizes[] = { NGROUPS_MAX + 1, INT_MAX, -1, INT_MIN };
	gid_t *big;
	int i;

	big = malloc((NGROUPS_MAX + 1) * sizeof(*big));
	ASSERT_TRUE(!!(big));
	fill_random(big, NGROUPS_MAX + 1, 42);

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	for (i = 0; i < (int)ARRAY_SIZE(sizes); i++) {
		ASSERT_ERRNO(EINVAL, sys_setgroups(sizes[i], big));
		ASSERT_ERRNO(EINVAL, sys_setgroups(sizes[i], NULL));
	}
	check_groups(_metadata, old, ARRAY_SIZE(old));
	free(big);
}

/* (gid_t)-1 is no valid gid: EINVAL wherever it is, and the old list stays. */
TEST(setgroups_invalid_gid)
{
	static const gid_t old[] = { 4, 5, 6 };
	static const gid_t first[] = { BAD_GID, 1, 2 };
	static const gid_t last[] = { 1, 2, BAD_GID };
	static const gid_t almost[] = { 0xfffffffeU };
	gid_t *big;

	big = malloc(NGROUPS_MAX * sizeof(*big));
	ASSERT_TRUE(!!(big));
	fill_random(big, NGROUPS_MAX, 43);
	big[NGROUPS_MAX - 1] = BAD_GID;

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	ASSERT_ERRNO(EINVAL, sys_setgroups(ARRAY_SIZE(first), first));
	ASSERT_ERRNO(EINVAL, sys_setgroups(ARRAY_SIZE(last), last));
	ASSERT_ERRNO(EINVAL, sys_setgroups(NGROUPS_MAX, big));
	check_groups(_metadata, old, ARRAY_SIZE(old));

	/* the largest valid gid is fine */
	ASSERT_EQ(0, sys_setgroups(1, almost));
	check_groups(_metadata, almost, 1);
	free(big);
}

/* A negative size is EINVAL, whatever the list and the pointer. */
TEST(getgroups_bad_size)
{
	static const gid_t old[] = { 4, 5, 6 };
	gid_t buf[4];

	ASSERT_ERRNO(EINVAL, sys_getgroups(-1, buf));
	ASSERT_ERRNO(EINVAL, sys_getgroups(INT_MIN, NULL));

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	ASSERT_ERRNO(EINVAL, sys_getgroups(-1, buf));
	ASSERT_ERRNO(EINVAL, sys_getgroups(-1, NULL));
	ASSERT_ERRNO(EINVAL, sys_getgroups(INT_MIN, NULL));
}

/*
 * A buffer smaller than the list is EINVAL before anything is written (so
 * not EFAULT for NULL); size 0 only counts; a larger one gets the list.
 */
TEST(getgroups_small_buffer)
{
	static const gid_t old[] = { 6, 4, 5 };
	static const gid_t sorted[] = { 4, 5, 6 };
	gid_t buf[8];

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));

	memset(buf, POISON, sizeof(buf));
	ASSERT_ERRNO(EINVAL, sys_getgroups(1, buf));
	ASSERT_ERRNO(EINVAL, sys_getgroups(2, buf));
	ASSERT_TRUE(all_poison(buf, sizeof(buf)));
	ASSERT_ERRNO(EINVAL, sys_getgroups(2, NULL));

	ASSERT_EQ(3, sys_getgroups(0, NULL));
	ASSERT_EQ(3, sys_getgroups(0, fault_page(_metadata)));
	ASSERT_TRUE(all_poison(buf, sizeof(buf)));

	ASSERT_EQ(3, sys_getgroups(ARRAY_SIZE(buf), buf));
	ASSERT_EQ(-1, first_diff(sorted, buf, 3));
	ASSERT_TRUE(all_poison(buf + 3, sizeof(buf) - 3 * sizeof(*buf)));
}

/* With an empty list there is nothing to copy: no EFAULT. */
TEST(getgroups_empty)
{
	ASSERT_EQ(0, sys_setgroups(0, NULL));
	ASSERT_EQ(0, sys_getgroups(0, NULL));
	ASSERT_EQ(0, sys_getgroups(1, NULL));
	ASSERT_EQ(0, sys_getgroups(NGROUPS_MAX, fault_page(_metadata)));
}

/* An unreadable list is EFAULT and the old list stays. */
TEST(setgroups_efault)
{
	static const gid_t old[] = { 4, 5, 6 };
	long page = sysconf(_SC_PAGESIZE);
	int full = page / sizeof(gid_t);
	gid_t *p;
	int i;

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	ASSERT_ERRNO(EFAULT, sys_setgroups(1, NULL));
	ASSERT_ERRNO(EFAULT, sys_setgroups(NGROUPS_MAX, NULL));
	ASSERT_ERRNO(EFAULT, sys_setgroups(1, fault_page(_metadata)));

	/* three good gids, then a hole */
	p = page_before_hole(_metadata, 3 * sizeof(gid_t));
	p[0] = 10;
	p[1] = 11;
	p[2] = 12;
	ASSERT_EQ(0, sys_setgroups(3, p));
	check_groups(_metadata, p, 3);
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	ASSERT_ERRNO(EFAULT, sys_setgroups(4, p));
	ASSERT_ERRNO(EFAULT, sys_setgroups(NGROUPS_MAX, p));

	/* a whole page of good gids, then a hole */
	p = page_before_hole(_metadata, page);
	for (i = 0; i < full; i++)
		p[i] = 1000 + i;
	ASSERT_ERRNO(EFAULT, sys_setgroups(full + 1, p));
	check_groups(_metadata, old, ARRAY_SIZE(old));
	check_proc_groups(_metadata, old, ARRAY_SIZE(old));

	ASSERT_EQ(0, sys_setgroups(full, p));
	check_groups(_metadata, p, full);
}

/*
 * setgroups() reads and checks one gid after the other: an invalid gid ahead
 * of the unreadable part is EINVAL, one behind it is never seen (EFAULT).
 */
TEST(setgroups_einval_before_efault)
{
	static const gid_t old[] = { 4, 5, 6 };
	gid_t *p;

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));

	p = page_before_hole(_metadata, 3 * sizeof(gid_t));
	p[0] = 10;
	p[1] = BAD_GID;
	p[2] = 12;
	ASSERT_ERRNO(EINVAL, sys_setgroups(4, p));
	p[1] = 11;
	ASSERT_ERRNO(EFAULT, sys_setgroups(4, p));
	check_groups(_metadata, old, ARRAY_SIZE(old));
}

/* An unwritable buffer is EFAULT; the list stays. */
TEST(getgroups_efault)
{
	static const gid_t old[] = { 4, 5, 6 };
	long page = sysconf(_SC_PAGESIZE);
	gid_t *p, *ro;

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	ASSERT_ERRNO(EFAULT, sys_getgroups(3, NULL));
	ASSERT_ERRNO(EFAULT, sys_getgroups(NGROUPS_MAX, fault_page(_metadata)));

	/* room for two, then a hole */
	p = page_before_hole(_metadata, 2 * sizeof(gid_t));
	ASSERT_ERRNO(EFAULT, sys_getgroups(3, p));
	ASSERT_ERRNO(EFAULT, sys_getgroups(NGROUPS_MAX, p));

	ro = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(ro != MAP_FAILED);
	ASSERT_ERRNO(EFAULT, sys_getgroups(3, ro));

	check_groups(_metadata, old, ARRAY_SIZE(old));
}

/*
 * Without CAP_SETGID, setgroups() is EPERM, and that is checked before
 * anything else: the size, the pointer and the gids.  getgroups() needs
 * no privilege.
 */
TEST(setgroups_eperm_nobody)
{
	static const gid_t old[] = { 10, 20, 30 };
	static const gid_t bad[] = { BAD_GID };

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	drop_to_nobody(_metadata);

	ASSERT_ERRNO(EPERM, sys_setgroups(1, (gid_t[]){ 40 }));
	ASSERT_ERRNO(EPERM, sys_setgroups(ARRAY_SIZE(old), old));
	ASSERT_ERRNO(EPERM, sys_setgroups(0, NULL));
	ASSERT_ERRNO(EPERM, sys_setgroups(NGROUPS_MAX + 1, NULL));
	ASSERT_ERRNO(EPERM, sys_setgroups(-1, NULL));
	ASSERT_ERRNO(EPERM, sys_setgroups(1, NULL));
	ASSERT_ERRNO(EPERM, sys_setgroups(1, bad));

	check_groups(_metadata, old, ARRAY_SIZE(old));
	check_proc_groups(_metadata, old, ARRAY_SIZE(old));
}

/* It is CAP_SETGID in the effective set that counts, not uid 0. */
TEST(setgroups_eperm_without_cap_setgid)
{
	static const gid_t old[] = { 10, 20, 30 };
	static const gid_t new[] = { 40 };
	__u64 eff, perm;

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	ASSERT_EQ(0, get_caps(&eff, &perm));
	ASSERT_TRUE((eff & (1ULL << CAP_SETGID)) != 0) {
		TH_LOG("the tests must start with CAP_SETGID");
	}

	ASSERT_EQ(0, set_caps(eff & ~(1ULL << CAP_SETGID), perm));
	ASSERT_EQ((uid_t)0, getuid());
	ASSERT_ERRNO(EPERM, sys_setgroups(ARRAY_SIZE(new), new));
	ASSERT_ERRNO(EPERM, sys_setgroups(0, NULL));
	check_groups(_metadata, old, ARRAY_SIZE(old));

	ASSERT_EQ(0, set_caps(eff, perm));
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(new), new));
	check_groups(_metadata, new, ARRAY_SIZE(new));
}

/* CAP_SETGID alone is enough, also for a uid other than 0. */
TEST(setgroups_cap_setgid_only)
{
	static const gid_t new[] = { 30, 10, 20 };
	static const gid_t sorted[] = { 10, 20, 30 };
	__u64 eff, perm, setgid = 1ULL << CAP_SETGID;

	ASSERT_EQ(0, prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
	ASSERT_EQ(0, setresgid(nobody_gid, nobody_gid, nobody_gid));
	ASSERT_EQ(0, setresuid(nobody_uid, nobody_uid, nobody_uid));
	ASSERT_EQ(0, set_caps(setgid, setgid));
	ASSERT_EQ(0, get_caps(&eff, &perm));
	ASSERT_EQ(setgid, eff);
	ASSERT_EQ(setgid, perm);

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(new), new));
	check_groups(_metadata, sorted, ARRAY_SIZE(sorted));
	ASSERT_EQ(0, sys_setgroups(0, NULL));
	check_groups(_metadata, NULL, 0);
}

/* A child starts with its parent's list and changes only its own. */
TEST(inherited_across_fork)
{
	static const gid_t old[] = { 10, 20, 30 };
	pid_t pid;
	int status;

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		gid_t buf[4];

		if (sys_getgroups(ARRAY_SIZE(buf), buf) != 3 ||
		    first_diff(old, buf, 3) != -1)
			_exit(1);
		static const gid_t new[] = { 99 };

		if (sys_setgroups(ARRAY_SIZE(new), new))
			_exit(2);
		if (sys_getgroups(ARRAY_SIZE(buf), buf) != 1 || buf[0] != 99)
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	check_groups(_metadata, old, ARRAY_SIZE(old));
}

/*
 * In a user namespace, groups without a mapping read back as overflowgid,
 * in the order of the kernel's gids (so not necessarily ascending), and
 * setgroups() is EPERM before a gid map exists and after "deny".
 */
TEST(user_namespace)
{
	static const gid_t old[] = { 80000, 100, 70000 };
	gid_t ovf = read_overflowgid(_metadata);
	gid_t before[] = { ovf, ovf, ovf };
	gid_t after[] = { ovf, 5, ovf };
	char *text;

	ASSERT_EQ(0, setresgid(70000, 70000, 70000));
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	if (unshare(CLONE_NEWUSER))
		SKIP(return, "unshare(CLONE_NEWUSER): %s", strerror(errno));

	/* all the capabilities in the new namespace, but no gid map yet */
	check_groups(_metadata, before, ARRAY_SIZE(before));
	ASSERT_ERRNO(EPERM, sys_setgroups(0, NULL));
	ASSERT_ERRNO(EPERM, sys_setgroups(NGROUPS_MAX + 1, NULL));

	ASSERT_EQ(0, write_text("/proc/self/setgroups", "deny"));
	text = read_text("/proc/self/setgroups");
	ASSERT_TRUE(!!(text));
	ASSERT_STREQ("deny\n", text);
	free(text);
	ASSERT_EQ(0, write_text("/proc/self/gid_map", "5 70000 1\n"));

	check_groups(_metadata, after, ARRAY_SIZE(after));
	check_proc_groups(_metadata, after, ARRAY_SIZE(after));
	ASSERT_ERRNO(EPERM, sys_setgroups(0, NULL));
	ASSERT_ERRNO(EPERM, sys_setgroups(1, (gid_t[]){ 5 }));

	if (HAVE_GROUPS16) {
		__u16 after16[] = { ovf, 5, ovf };

		check_groups16(_metadata, after16, ARRAY_SIZE(after16));
		ASSERT_ERRNO(EPERM, sys_setgroups16(0, NULL));
	}
}

/*
 * Through getgroups16(), gids above 65535 read back as overflowgid; 65535
 * itself reads back as 0xffff, which setgroups16() then refuses.
 */
TEST(compat16_overflow)
{
	static const gid_t in[] = {
		70000, 65535, 1, 0xfffffffeU, 65536, 65534, 0x7fffffff,
	};
	static const gid_t sorted[] = {
		1, 65534, 65535, 65536, 70000, 0x7fffffff, 0xfffffffeU,
	};
	__u16 expect16[ARRAY_SIZE(sorted)], buf[ARRAY_SIZE(sorted)];
	gid_t ovf;
	int i;

	if (!HAVE_GROUPS16)
		SKIP(return, NO_GROUPS16);
	ovf = read_overflowgid(_metadata);
	for (i = 0; i < (int)ARRAY_SIZE(sorted); i++)
		expect16[i] = sorted[i] > 65535 ? ovf : sorted[i];

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(in), in));
	check_groups16(_metadata, expect16, ARRAY_SIZE(expect16));
	check_groups(_metadata, sorted, ARRAY_SIZE(sorted));

	ASSERT_EQ((long)ARRAY_SIZE(buf),
		  sys_getgroups16(ARRAY_SIZE(buf), buf));
	ASSERT_EQ(BAD_GID16, buf[2]);
	ASSERT_ERRNO(EINVAL, sys_setgroups16(ARRAY_SIZE(buf), buf));
	check_groups(_metadata, sorted, ARRAY_SIZE(sorted));
}

/* (__u16)-1 means (gid_t)-1 and is EINVAL; 0xfffe is a gid like others. */
TEST(compat16_invalid_gid)
{
	static const gid_t old[] = { 4, 5, 6 };
	static const __u16 bad[] = { 1, BAD_GID16, 2 };
	static const __u16 ok16[] = { 0xfffe, 0 };
	static const gid_t ok[] = { 0, 65534 };

	if (!HAVE_GROUPS16)
		SKIP(return, NO_GROUPS16);
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	ASSERT_ERRNO(EINVAL, sys_setgroups16(ARRAY_SIZE(bad), bad));
	ASSERT_ERRNO(EINVAL, sys_setgroups16(1, &bad[1]));
	check_groups(_metadata, old, ARRAY_SIZE(old));

	ASSERT_EQ(0, sys_setgroups16(ARRAY_SIZE(ok16), ok16));
	check_groups(_metadata, ok, ARRAY_SIZE(ok));
}

TEST(compat16_bad_size)
{
	static const gid_t old[] = { 6, 4, 5 };
	static const gid_t sorted[] = { 4, 5, 6 };
	static const __u16 sorted16[] = { 4, 5, 6 };
	__u16 buf[8], *big;

	if (!HAVE_GROUPS16)
		SKIP(return, NO_GROUPS16);
	big = calloc(NGROUPS_MAX + 1, sizeof(*big));
	ASSERT_TRUE(!!(big));

	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	ASSERT_ERRNO(EINVAL, sys_setgroups16(NGROUPS_MAX + 1, big));
	ASSERT_ERRNO(EINVAL, sys_setgroups16(NGROUPS_MAX + 1, NULL));
	ASSERT_ERRNO(EINVAL, sys_setgroups16(-1, NULL));
	ASSERT_ERRNO(EINVAL, sys_setgroups16(INT_MIN, big));
	ASSERT_ERRNO(EINVAL, sys_getgroups16(-1, buf));
	ASSERT_ERRNO(EINVAL, sys_getgroups16(INT_MIN, NULL));

	memset(buf, POISON, sizeof(buf));
	ASSERT_ERRNO(EINVAL, sys_getgroups16(2, buf));
	ASSERT_ERRNO(EINVAL, sys_getgroups16(2, NULL));
	ASSERT_TRUE(all_poison(buf, sizeof(buf)));
	ASSERT_EQ(3, sys_getgroups16(0, NULL));
	ASSERT_EQ(3, sys_getgroups16(ARRAY_SIZE(buf), buf));
	ASSERT_EQ(-1, first_diff16(sorted16, buf, 3));
	ASSERT_TRUE(all_poison(buf + 3, sizeof(buf) - 3 * sizeof(*buf)));

	check_groups(_metadata, sorted, ARRAY_SIZE(sorted));
	free(big);
}

TEST(compat16_efault)
{
	static const gid_t old[] = { 4, 5, 6 };
	__u16 *p;

	if (!HAVE_GROUPS16)
		SKIP(return, NO_GROUPS16);
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));

	ASSERT_ERRNO(EFAULT, sys_setgroups16(1, NULL));
	p = page_before_hole(_metadata, 3 * sizeof(__u16));
	p[0] = 10;
	p[1] = 11;
	p[2] = 12;
	ASSERT_ERRNO(EFAULT, sys_setgroups16(4, p));
	p[1] = BAD_GID16;
	ASSERT_ERRNO(EINVAL, sys_setgroups16(4, p));
	check_groups(_metadata, old, ARRAY_SIZE(old));

	ASSERT_ERRNO(EFAULT, sys_getgroups16(3, NULL));
	p = page_before_hole(_metadata, 2 * sizeof(__u16));
	ASSERT_ERRNO(EFAULT, sys_getgroups16(3, p));

	ASSERT_EQ(0, sys_setgroups16(0, NULL));
	ASSERT_EQ(0, sys_getgroups16(1, NULL));
}

TEST(compat16_eperm)
{
	static const gid_t old[] = { 10, 20, 30 };
	static const __u16 new[] = { 40 };

	if (!HAVE_GROUPS16)
		SKIP(return, NO_GROUPS16);
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	drop_to_nobody(_metadata);

	ASSERT_ERRNO(EPERM, sys_setgroups16(ARRAY_SIZE(new), new));
	ASSERT_ERRNO(EPERM, sys_setgroups16(0, NULL));
	ASSERT_ERRNO(EPERM, sys_setgroups16(NGROUPS_MAX + 1, NULL));
	ASSERT_ERRNO(EPERM, sys_setgroups16(1, NULL));
	check_groups(_metadata, old, ARRAY_SIZE(old));
}

/*
 * kernel.ngroups_max.  It is read-only before it became writable; these
 * tests skip there.  The fixture starts each test from NGROUPS_MAX and puts
 * back the value it found.  6.1's harness runs no teardown for a test that
 * it kills on its timeout: whatever runs the tests has to put the value
 * back then.
 */
#define NGROUPS_MAX_SYSCTL	"/proc/sys/kernel/ngroups_max"

static long read_ngroups_max(void)
{
	char *text = read_text(NGROUPS_MAX_SYSCTL);
	long val;

	if (!text)
		return -1;
	val = strtol(text, NULL, 10);
	free(text);
	return val;
}

/* Write @len bytes of @text; 0 or the errno of open() or write(). */
static int write_file(const char *path, const char *text, size_t len)
{
	int fd, err = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

static int set_ngroups_max(const char *text)
{
	return write_file(NGROUPS_MAX_SYSCTL, text, strlen(text));
}

FIXTURE(ngroups_max)
{
	gid_t *gids;
	long found;
	bool writable;
};

FIXTURE_SETUP(ngroups_max)
{
	struct stat st;
	int i;

	/* 6.1's harness runs the test and teardown even after a SKIP here. */
	self->writable = false;
	ASSERT_EQ(0, stat(NGROUPS_MAX_SYSCTL, &st));
	if (!(st.st_mode & 0200))
		SKIP(return, "kernel.ngroups_max is read-only on this kernel");
	self->gids = alloc(NGROUPS_MAX + 1, sizeof(gid_t));
	ASSERT_TRUE(!!(self->gids));
	for (i = 0; i <= NGROUPS_MAX; i++)
		self->gids[i] = 1000 + i;
	self->found = read_ngroups_max();
	ASSERT_GE(self->found, 8);
	self->writable = true;
	ASSERT_EQ(0, set_ngroups_max("65536"));
}

FIXTURE_TEARDOWN(ngroups_max)
{
	char text[32];

	if (!self->writable)
		return;
	free(self->gids);
	snprintf(text, sizeof(text), "%ld", self->found);
	EXPECT_EQ(0, set_ngroups_max(text));
	EXPECT_EQ(self->found, read_ngroups_max());
}

/* glibc's sysconf() follows the file. */
TEST_F(ngroups_max, sysconf)
{
	if (!self->writable)
		return;

	ASSERT_EQ(NGROUPS_MAX, read_ngroups_max());
	ASSERT_EQ(NGROUPS_MAX, sysconf(_SC_NGROUPS_MAX));
	ASSERT_EQ(0, sys_setgroups(NGROUPS_MAX, self->gids));

	ASSERT_EQ(0, set_ngroups_max("10"));
	ASSERT_EQ(10, read_ngroups_max());
	ASSERT_EQ(10, sysconf(_SC_NGROUPS_MAX));
}

/* A limit of 10: 10 groups work and 11 are EINVAL, on every ABI. */
TEST_F(ngroups_max, limit_10)
{
	__u16 gids16[11] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };

	if (!self->writable)
		return;

	ASSERT_EQ(0, set_ngroups_max("10"));
	ASSERT_EQ(0, sys_setgroups(10, self->gids));
	check_groups(_metadata, self->gids, 10);
	ASSERT_ERRNO(EINVAL, sys_setgroups(11, self->gids));
	check_groups(_metadata, self->gids, 10);

	if (!HAVE_GROUPS16)
		return;
	ASSERT_EQ(0, sys_setgroups16(10, gids16));
	ASSERT_ERRNO(EINVAL, sys_setgroups16(11, gids16));
	ASSERT_EQ(10, sys_getgroups16(0, NULL));
}

/* Lowering the limit takes nothing from a process that holds more. */
TEST_F(ngroups_max, lower_below_held)
{
	static gid_t held[1000];
	pid_t pid;
	int status;

	if (!self->writable)
		return;

	ASSERT_EQ(0, sys_setgroups(1000, self->gids));
	ASSERT_EQ(0, set_ngroups_max("10"));
	check_groups(_metadata, self->gids, 1000);

	/* A child inherits the whole list but cannot set it again. */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (sys_getgroups(0, NULL) != 1000)
			_exit(1);
		if (sys_setgroups(1000, self->gids) != -1 || errno != EINVAL)
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));

	ASSERT_ERRNO(EINVAL, sys_setgroups(11, self->gids));
	check_groups(_metadata, self->gids, 1000);

	/* The list is read in full with a buffer of its size, not of the limit. */
	ASSERT_EQ(10, sysconf(_SC_NGROUPS_MAX));
	ASSERT_ERRNO(EINVAL, sys_getgroups(sysconf(_SC_NGROUPS_MAX), held));
	ASSERT_EQ(1000, sys_getgroups(1000, held));
	ASSERT_EQ(0, memcmp(held, self->gids, sizeof(held)));

	ASSERT_EQ(0, set_ngroups_max("65536"));
	ASSERT_EQ(0, sys_setgroups(NGROUPS_MAX, self->gids));
	ASSERT_EQ(NGROUPS_MAX, sys_getgroups(0, NULL));
}

/* Out of [8, 65536], negative or not a number: EINVAL, no change. */
TEST_F(ngroups_max, bad_values)
{
	static const char * const bad[] = {
		"65537", "7", "0", "-1", "abc", "2147483648",
	};
	int i;

	if (!self->writable)
		return;

	ASSERT_EQ(0, set_ngroups_max("100"));
	for (i = 0; i < (int)ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(EINVAL, set_ngroups_max(bad[i])) {
			TH_LOG("writing \"%s\"", bad[i]);
		}
		ASSERT_EQ(100, read_ngroups_max());
	}
	ASSERT_EQ(0, set_ngroups_max("65536"));
	ASSERT_EQ(NGROUPS_MAX, read_ngroups_max());
}

/* The least POSIX allows, _POSIX_NGROUPS_MAX, is the least it takes. */
TEST_F(ngroups_max, posix_minimum)
{
	if (!self->writable)
		return;
	ASSERT_EQ(0, set_ngroups_max("8"));
	ASSERT_EQ(8, read_ngroups_max());
	ASSERT_EQ(8, sysconf(_SC_NGROUPS_MAX));
	ASSERT_EQ(0, sys_setgroups(8, self->gids));
	ASSERT_ERRNO(EINVAL, sys_setgroups(9, self->gids));
	check_groups(_metadata, self->gids, 8);
	ASSERT_EQ(0, sys_setgroups(0, NULL));
}

/*
 * An empty write, or one of white space only, does what it does to any
 * other integer sysctl: kernel.overflowgid, proc_dointvec_minmax() too.
 */
TEST_F(ngroups_max, empty_write)
{
	static const char * const empty[] = { "", "\n", " " };
	char *before, *after;
	int i, want;

	if (!self->writable)
		return;
	ASSERT_EQ(0, set_ngroups_max("100"));
	for (i = 0; i < (int)ARRAY_SIZE(empty); i++) {
		before = read_text(OVERFLOWGID_SYSCTL);
		ASSERT_TRUE(!!before);
		want = write_file(OVERFLOWGID_SYSCTL, empty[i],
				  strlen(empty[i]));
		after = read_text(OVERFLOWGID_SYSCTL);
		ASSERT_TRUE(!!after);
		ASSERT_STREQ(before, after);
		free(before);
		free(after);

		EXPECT_EQ(want, set_ngroups_max(empty[i])) {
			TH_LOG("writing \"%s\"", empty[i]);
		}
		ASSERT_EQ(100, read_ngroups_max());
	}
}

/* Run @fn in a child; its exit status, or -1. */
static int in_child(void (*fn)(void))
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		fn();
		_exit(99);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void write_as_nobody(void)
{
	if (setresgid(nobody_gid, nobody_gid, nobody_gid) ||
	    setresuid(nobody_uid, nobody_uid, nobody_uid))
		_exit(90);
	_exit(set_ngroups_max("10"));
}

static void write_without_cap_sys_admin(void)
{
	__u64 eff, perm;

	if (get_caps(&eff, &perm))
		_exit(90);
	eff &= ~(1ULL << CAP_SYS_ADMIN);
	if (set_caps(eff, perm))
		_exit(91);
	_exit(set_ngroups_max("10"));
}

/* Root in a new user namespace, mapped to the real root or not. */
static void write_in_user_ns(void)
{
	int fd;

	if (unshare(CLONE_NEWUSER))
		_exit(90);
	fd = open("/proc/self/uid_map", O_WRONLY);
	if (fd < 0 || write(fd, "0 0 1", 5) != 5)
		_exit(91);
	close(fd);
	_exit(set_ngroups_max("10"));
}

static void write_in_unmapped_user_ns(void)
{
	if (unshare(CLONE_NEWUSER))
		_exit(90);
	_exit(set_ngroups_max("10"));
}

/* Only CAP_SYS_ADMIN in the initial user namespace may write it. */
TEST_F(ngroups_max, privilege)
{
	int r;

	if (!self->writable)
		return;

	r = in_child(write_as_nobody);
	EXPECT_TRUE(r == EACCES || r == EPERM) {
		TH_LOG("as nobody: %d", r);
	}
	r = in_child(write_without_cap_sys_admin);
	EXPECT_EQ(EPERM, r);
	r = in_child(write_in_user_ns);
	EXPECT_EQ(EPERM, r);
	r = in_child(write_in_unmapped_user_ns);
	EXPECT_TRUE(r == EACCES || r == EPERM) {
		TH_LOG("unmapped root in a user namespace: %d", r);
	}
	ASSERT_EQ(NGROUPS_MAX, read_ngroups_max());
}

/*
 * kernel.overflowgid set to another value: getgroups(), getgroups16() and
 * /proc/PID/status follow it at once, for the gids their reader cannot see
 * and, through the 16-bit calls, for those above 65535; a reader who sees
 * the gids is not affected.  The fixture puts back the value it found;
 * 6.1's harness runs no teardown for a test that it kills on its timeout:
 * whatever runs the tests has to put the value back then.
 */
#define OTHER_OVERFLOWGID	65000

FIXTURE(overflowgid)
{
	long found;
	gid_t ovf;
	bool changed;
};

FIXTURE_SETUP(overflowgid)
{
	char text[16];

	/* 6.1's harness runs the test and teardown even after a SKIP here. */
	self->changed = false;
	self->found = read_long(OVERFLOWGID_SYSCTL);
	if (self->found < 0)
		SKIP(return, "cannot read %s", OVERFLOWGID_SYSCTL);
	self->ovf = self->found == OTHER_OVERFLOWGID ? OTHER_OVERFLOWGID + 1 :
						       OTHER_OVERFLOWGID;
	snprintf(text, sizeof(text), "%u\n", self->ovf);
	ASSERT_EQ(0, write_text(OVERFLOWGID_SYSCTL, text));
	self->changed = true;
	ASSERT_EQ((long)self->ovf, read_long(OVERFLOWGID_SYSCTL));
}

FIXTURE_TEARDOWN(overflowgid)
{
	char text[32];

	if (!self->changed)
		return;
	snprintf(text, sizeof(text), "%ld\n", self->found);
	EXPECT_EQ(0, write_text(OVERFLOWGID_SYSCTL, text));
	EXPECT_EQ(self->found, read_long(OVERFLOWGID_SYSCTL));
}

/* In the initial namespace, only getgroups16() shows it. */
TEST_F(overflowgid, compat16)
{
	static const gid_t in[] = { 70000, 1, 65536, 65535 };
	static const gid_t sorted[] = { 1, 65535, 65536, 70000 };
	__u16 expect16[] = { 1, BAD_GID16, self->ovf, self->ovf };

	if (!self->changed)
		return;
	if (!HAVE_GROUPS16)
		SKIP(return, NO_GROUPS16);
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(in), in));
	check_groups16(_metadata, expect16, ARRAY_SIZE(expect16));
	check_groups(_metadata, sorted, ARRAY_SIZE(sorted));
	check_proc_groups(_metadata, sorted, ARRAY_SIZE(sorted));
}

/* Does the status file @path contain @text? */
static bool status_has(const char *path, const char *text)
{
	char *status = read_text(path);
	bool found = status && strstr(status, text);

	free(status);
	return found;
}

/*
 * In a user namespace that maps only the egid: the other groups read back
 * as the new overflowgid through every interface, while a reader in the
 * initial namespace still sees the real gids in /proc/PID/status.
 */
TEST_F(overflowgid, user_namespace)
{
	static const gid_t old[] = { 80000, 100, 70000 };
	static const char outside[] = "\nGroups:\t100 70000 80000\x20\n";
	gid_t ovf = self->ovf;
	gid_t before[] = { ovf, ovf, ovf };
	gid_t after[] = { ovf, 5, ovf };
	__u16 before16[] = { ovf, ovf, ovf };
	__u16 after16[] = { ovf, 5, ovf };
	int go[2], status;
	char path[64];
	pid_t pid;

	if (!self->changed)
		return;
	ASSERT_EQ(0, setresgid(70000, 70000, 70000));
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));

	/* a reader that stays in the initial namespace */
	snprintf(path, sizeof(path), "/proc/%d/status", getpid());
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char byte;

		close(go[1]);
		if (read(go[0], &byte, 1) != 1)
			_exit(2);
		_exit(status_has(path, outside) ? 0 : 1);
	}
	close(go[0]);

	if (unshare(CLONE_NEWUSER))
		SKIP(return, "unshare(CLONE_NEWUSER): %s", strerror(errno));
	check_groups(_metadata, before, ARRAY_SIZE(before));
	check_proc_groups(_metadata, before, ARRAY_SIZE(before));
	if (HAVE_GROUPS16)
		check_groups16(_metadata, before16, ARRAY_SIZE(before16));

	ASSERT_EQ(0, write_text("/proc/self/setgroups", "deny"));
	ASSERT_EQ(0, write_text("/proc/self/gid_map", "5 70000 1\n"));
	check_groups(_metadata, after, ARRAY_SIZE(after));
	check_proc_groups(_metadata, after, ARRAY_SIZE(after));
	if (HAVE_GROUPS16)
		check_groups16(_metadata, after16, ARRAY_SIZE(after16));

	ASSERT_EQ(1, write(go[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status)) {
		TH_LOG("%s, read from the initial namespace, has no \"Groups:\t100 70000 80000 \"",
		       path);
	}
}

/* Before the harness starts: the tests run only as root, with nobody looked up. */
static void __attribute__((constructor)) groups_test_setup(void)
{
	const char *why = cannot_run_tests();

	if (why) {
		ksft_print_header();
		ksft_exit_skip("%s\n", why);
	}
	lookup_nobody(&nobody_uid, &nobody_gid);
}

TEST_HARNESS_MAIN
