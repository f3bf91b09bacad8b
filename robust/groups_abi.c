// SPDX-License-Identifier: GPL-2.0
/*
 * groups_abi - the exhaustive checks of the supplementary group ABI that the
 * kernel's selftests (selftests/groups_test.c) leave out to stay small: not
 * for the kernel tree, for this repository's guests.
 *
 *  - round trips at many sizes (around the 64-gid copy chunks, the inline
 *    limit, 4K- and 64K-page blocks, NGROUPS_MAX) in random, ascending and
 *    descending order, all equal, with many duplicates, through the 16-bit
 *    calls, with membership probed at every size; and at the block edges
 *    computed from the running kernel's page size;
 *  - the exact /proc/PID/status format, EFAULT at a page boundary after a
 *    page of gids, CAP_SETGID alone, inheritance across fork(), a user
 *    namespace set up in the process itself;
 *  - permission checks on files and directories at every block edge,
 *    execve() as root and as nobody at 10,000 and 65,536 gids, fork()
 *    isolation both ways, SO_PEERGROUPS through socketpair() and
 *    listen()/connect() at several sizes, net.ipv4.ping_group_range at the
 *    ends of the list, iptables' owner match (--suppl-groups) at the ends
 *    of the list and of its pages, key permissions through a group, and user
 *    namespaces whose gid map reorders a list of up to 65,536 gids, and
 *    io_uring's fdinfo of a registered personality.
 *
 * Run as root in the initial user namespace, with no arguments:
 *
 *	groups_abi
 *
 * It prints TAP (kselftest_harness.h) and exits 0 when every test passed or
 * skipped.  It changes net.ipv4.ping_group_range and puts it back, and
 * expects kernel.ngroups_max at its default, 65536.
 * It builds as the other robust/ programs do (qemu/robust.py): static, with
 * -I build/vanilla/tools/testing/selftests; it shares robust/guest.h with
 * them and no header with selftests/.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <netinet/in.h>
#include <linux/capability.h>
#include <linux/keyctl.h>
#include <linux/limits.h>
#include <linux/netfilter_ipv4/ip_tables.h>
#include <linux/netfilter/xt_owner.h>
#include <linux/types.h>

#include "kselftest_harness.h"

#include "guest.h"

/* ---- helpers ---- */

/*
 * include/linux/highuid.h: the default kernel.overflowuid, which uids that
 * cannot be shown read back as (DEFAULT_OVERFLOWGID: guest.h).
 */
#define DEFAULT_OVERFLOWUID	65534

#define OVERFLOWUID_SYSCTL	"/proc/sys/kernel/overflowuid"
#define OVERFLOWGID_SYSCTL	"/proc/sys/kernel/overflowgid"

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

/* @n distinct gids below 2^31, in a random order given by @seed. */
static void fill_random(gid_t *gids, int n, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed);
	rng_gids(&r, gids, n);
}

static bool is_member(const gid_t *sorted, int n, gid_t gid)
{
	return !!bsearch(&gid, sorted, n, sizeof(*sorted), cmp_gid);
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
	val = read_number(OVERFLOWUID_SYSCTL, -1);
	if (val > 0)
		*uid = val;
	val = read_number(OVERFLOWGID_SYSCTL, -1);
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
	map = read_file("/proc/self/uid_map");
	if (!map)
		return "no /proc/self/uid_map: is /proc mounted?";
	n = sscanf(map, "%u %u %u", &first, &lower, &count);
	free(map);
	if (n != 3 || first || lower || count != 4294967295U)
		return "must be run in the initial user namespace";
	return NULL;
}

/* The user nobody, looked up before the tests start */
static uid_t nobody_uid;
static gid_t nobody_gid;

/* An id that cannot be valid: (gid_t)-1 and (old_gid_t)-1 */
#define BAD_GID		((gid_t)-1)
#define BAD_GID16	((__u16)-1)

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
	long val = read_number(OVERFLOWGID_SYSCTL, -1);

	if (val < 0) {
		TH_LOG("cannot read %s, assuming %u", OVERFLOWGID_SYSCTL,
		       DEFAULT_OVERFLOWGID);
		return DEFAULT_OVERFLOWGID;
	}
	return val;
}

/* Entry @i of a list of 16-bit (@wsz 2) or 32-bit gids */
static unsigned int entry(const void *list, int i, size_t wsz)
{
	return wsz == 2 ? ((const __u16 *)list)[i] : ((const gid_t *)list)[i];
}

/* The first entry at which two such lists differ, or -1 */
static int first_diff(const void *a, const void *b, int n, size_t wsz)
{
	int i;

	for (i = 0; i < n; i++)
		if (entry(a, i, wsz) != entry(b, i, wsz))
			return i;
	return -1;
}

static long getgroups_wsz(long n, void *list, size_t wsz)
{
	return wsz == 2 ? sys_getgroups16(n, list) : sys_getgroups(n, list);
}

/*
 * Assert that the current group list is exactly @expect[0..@n), in this
 * order, through getgroups() (getgroups16() if @wsz is 2): through the count
 * query, a buffer of exactly @n entries, a larger buffer (whose tail must
 * stay untouched) and a buffer one entry too small (EINVAL, with nothing
 * written).
 */
static void check_list(struct __test_metadata *_metadata, const void *expect, int n,
		       size_t wsz)
{
	unsigned char *buf = alloc(n + 1, wsz);
	size_t bytes = (n + 1) * wsz;
	int i;

	ASSERT_TRUE(!!(buf));
	ASSERT_EQ(n, getgroups_wsz(0, NULL, wsz));

	memset(buf, POISON, bytes);
	ASSERT_EQ(n, getgroups_wsz(n + 1, buf, wsz));
	i = first_diff(expect, buf, n, wsz);
	ASSERT_EQ(-1, i) {
		TH_LOG("getgroups%s entry %d of %d is %u, expected %u", wsz == 2 ? "16" : "",
		       i, n, entry(buf, i, wsz), entry(expect, i, wsz));
	}
	ASSERT_TRUE(all_poison(buf + n * wsz, wsz));

	if (n > 0) {
		memset(buf, POISON, bytes);
		ASSERT_EQ(n, getgroups_wsz(n, buf, wsz));
		ASSERT_EQ(-1, first_diff(expect, buf, n, wsz));
		ASSERT_TRUE(all_poison(buf + n * wsz, wsz));
	}
	if (n > 1) {
		memset(buf, POISON, bytes);
		ASSERT_ERRNO(EINVAL, getgroups_wsz(n - 1, buf, wsz));
		ASSERT_TRUE(all_poison(buf, bytes));
	}
	free(buf);
}

static void check_groups(struct __test_metadata *_metadata, const gid_t *expect, int n)
{
	check_list(_metadata, expect, n, sizeof(gid_t));
}

static void check_groups16(struct __test_metadata *_metadata, const __u16 *expect, int n)
{
	check_list(_metadata, expect, n, sizeof(__u16));
}

/*
 * Compare the "Groups:" line of the status file @path with @expect[0..@n):
 * -1 if it lists exactly these, as fs/proc/array.c writes them (see
 * parse_groups()), else the index of the first difference (@n for more
 * gids or a malformed line), or -2 if there is no such line.
 */
static int status_groups_diff(const char *path, const gid_t *expect, int n)
{
	gid_t *got = alloc(n + 1, sizeof(*got));
	char *text = read_file(path);
	const char *stop = NULL;
	int i = 0, m = -1;

	if (text && got)
		m = parse_groups(text, got, n + 1, &stop);
	while (i < m && i < n && got[i] == expect[i])
		i++;
	free(text);
	free(got);
	if (!stop)
		return -2;
	return m < 0 ? n : i == m && m == n ? -1 : i;
}

/* Assert that the "Groups:" line of /proc/self/status lists @expect[0..@n). */
static void check_proc_groups(struct __test_metadata *_metadata, const gid_t *expect, int n)
{
	int diff = status_groups_diff("/proc/self/status", expect, n);

	ASSERT_EQ(-1, diff) {
		TH_LOG("/proc/self/status: the Groups line differs at entry %d of %d%s", diff, n,
		       diff == -2 ? " (no such line)" : "");
	}
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

/* include/uapi/linux/limits.h; glibc falls back to 8 without it. */
#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS	59
#endif

/* The sets: members BASE_GID + 2 * i, far from 0 and from nobody's gid */
#define BASE_GID	100000U

/* owner of the test files and keys: neither root nor nobody */
static uid_t other_uid;

/* include/linux/key.h (not UAPI): the group permissions of a key */
#define KEY_GRP_VIEW	0x00000100
#define KEY_GRP_READ	0x00000200

/* Exit codes of the children the tests fork */
#define CHILD_OK		0
#define CHILD_FAILED		1
#define CHILD_SETUP_FAILED	200
#define CHILD_NO_USERNS		201

/* The argument that makes the program check its groups and exit */
#define VERIFY_ENV	"GROUPS_VERIFY"

/* gids in one page: where the blocks of a paged group list end */
static int gids_per_page(void)
{
	return sysconf(_SC_PAGESIZE) / sizeof(gid_t);
}

/*
 * A size given either as @n or, if @n is 0, as @blocks pages of gids plus
 * @delta, capped at NGROUPS_MAX.
 */
static int set_size(int n, int blocks, int delta)
{
	if (n)
		return n;
	n = blocks * gids_per_page() + delta;
	return n < NGROUPS_MAX ? n : NGROUPS_MAX;
}

static gid_t member_gid(int i)
{
	return BASE_GID + 2 * (gid_t)i;
}

/* member_gid(0) .. member_gid(n - 1): ascending */
static gid_t *member_list(int n)
{
	gid_t *gids = alloc(n, sizeof(*gids));
	int i;

	if (gids)
		for (i = 0; i < n; i++)
			gids[i] = member_gid(i);
	return gids;
}

/*
 * setgroups() of @gids[0..@n) in an order shuffled with a fixed seed, so
 * that the kernel has to sort; 0 or -errno.
 */
static int set_groups_shuffled(const gid_t *gids, int n)
{
	gid_t *copy = alloc(n, sizeof(*copy));
	struct rng r;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, gids, n * sizeof(*copy));
	rng_seed(&r, n);
	rng_shuffle(&r, copy, n);
	if (sys_setgroups(n, copy))
		err = -errno;
	free(copy);
	return err;
}

/*
 * Compare the current group list with @expect[0..@n), in this order:
 * -1 if equal, else the index of the first difference (@n if only the
 * number differs), or -2 if it cannot be read.
 */
static int groups_diff(const gid_t *expect, int n)
{
	gid_t *buf = alloc(n + 1, sizeof(*buf));
	long got;
	int i;

	if (!buf)
		return -2;
	memset(buf, POISON, (n + 1) * sizeof(*buf));
	got = sys_getgroups(n + 1, buf);
	if (got < 0) {
		free(buf);
		return -2;
	}
	for (i = 0; i < n && i < got; i++)
		if (buf[i] != expect[i])
			break;
	if (i == n && got == n && buf[n] == POISON_GID)
		i = -1;
	free(buf);
	return i;
}

/* In a child: say why it fails, return @code to pass to _exit(). */
static int child_fail(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "# child %d: ", getpid());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

/* Become nobody; as no uid stays 0, all capabilities go. */
static int become_nobody(void)
{
	__u64 eff, perm;

	if (setresgid(nobody_gid, nobody_gid, nobody_gid) ||
	    setresuid(nobody_uid, nobody_uid, nobody_uid))
		return child_fail(-1, "cannot become nobody: %s",
				  strerror(errno));
	if (get_caps(&eff, &perm) || eff || perm)
		return child_fail(-1, "capabilities left as nobody");
	if (getegid() != nobody_gid || (gid_t)setfsgid(-1) != nobody_gid)
		return child_fail(-1, "egid or fsgid is not nobody's");
	return 0;
}

/*
 * Fork a child that holds the @n gids of @gids (given to setgroups() in
 * shuffled order) and, if @nobody, is nobody without capabilities.
 * Returns the pid in the parent and 0 in the child; a child that cannot
 * get there exits with CHILD_SETUP_FAILED.
 */
static pid_t fork_with_groups(const gid_t *gids, int n, bool nobody)
{
	pid_t pid = fork();
	int err;

	if (pid != 0)
		return pid;
	err = set_groups_shuffled(gids, n);
	if (err)
		_exit(child_fail(CHILD_SETUP_FAILED, "setgroups(%d): %s", n,
				 strerror(-err)));
	if (sys_getgroups(0, NULL) != n)
		_exit(child_fail(CHILD_SETUP_FAILED, "getgroups() is not %d",
				 n));
	if (nobody && become_nobody())
		_exit(CHILD_SETUP_FAILED);
	return 0;
}

/* Wait for @pid: its exit status, 128 + the signal that killed it, or -1. */
static int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* ---- 1. the list: sizes, orders, format, faults, privilege ---- */

/*
 * Round trips at sizes around NGROUPS_MAX, page-sized blocks of gids (1024
 * with 4K pages, 16384 with 64K pages), the 1022 gids kept inline with 4K
 * pages, the 64-gid copy chunks and 32.
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

FIXTURE_VARIANT_ADD(sizes, n0) { 0 };
FIXTURE_VARIANT_ADD(sizes, n1) { 1 };
FIXTURE_VARIANT_ADD(sizes, n2) { 2 };
FIXTURE_VARIANT_ADD(sizes, n31) { 31 };
FIXTURE_VARIANT_ADD(sizes, n32) { 32 };
FIXTURE_VARIANT_ADD(sizes, n33) { 33 };
FIXTURE_VARIANT_ADD(sizes, n63) { 63 };
FIXTURE_VARIANT_ADD(sizes, n64) { 64 };
FIXTURE_VARIANT_ADD(sizes, n65) { 65 };
FIXTURE_VARIANT_ADD(sizes, n1021) { 1021 };
FIXTURE_VARIANT_ADD(sizes, n1022) { 1022 };
FIXTURE_VARIANT_ADD(sizes, n1023) { 1023 };
FIXTURE_VARIANT_ADD(sizes, n1024) { 1024 };
FIXTURE_VARIANT_ADD(sizes, n1025) { 1025 };
FIXTURE_VARIANT_ADD(sizes, n2047) { 2047 };
FIXTURE_VARIANT_ADD(sizes, n2048) { 2048 };
FIXTURE_VARIANT_ADD(sizes, n2049) { 2049 };
FIXTURE_VARIANT_ADD(sizes, n10000) { 10000 };
FIXTURE_VARIANT_ADD(sizes, n16383) { 16383 };
FIXTURE_VARIANT_ADD(sizes, n16384) { 16384 };
FIXTURE_VARIANT_ADD(sizes, n16385) { 16385 };
FIXTURE_VARIANT_ADD(sizes, n32767) { 32767 };
FIXTURE_VARIANT_ADD(sizes, n32768) { 32768 };
FIXTURE_VARIANT_ADD(sizes, n32769) { 32769 };
FIXTURE_VARIANT_ADD(sizes, n65535) { 65535 };
FIXTURE_VARIANT_ADD(sizes, n65536) { NGROUPS_MAX };

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
	struct rng r;

	rng_seed(&r, n + 4);
	for (i = 0; i < n; i++)
		self->in[i] = 100 + rng_below(&r, 97);
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

	fd = memfd_create("groups_abi", MFD_CLOEXEC);
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
	struct rng r;

	if (!HAVE_GROUPS16)
		SKIP(return, NO_GROUPS16);

	in = alloc(n, sizeof(*in));
	expect = alloc(n, sizeof(*expect));
	ASSERT_TRUE(!!(in));
	ASSERT_TRUE(!!(expect));
	rng_seed(&r, 7 * n);
	for (i = 0; i < n; i++)
		in[i] = rng_below(&r, 65535);
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
	status = read_file("/proc/self/status");
	ASSERT_TRUE(!!(status));
	line = strstr(status, "\nGroups:\t1 2 3\x20\n");
	ASSERT_TRUE(!!(line)) {
		TH_LOG("no \"Groups:\\t1 2 3 \\n\" in:\n%s", status);
	}
	free(status);

	ASSERT_EQ(0, sys_setgroups(1, seven));
	status = read_file("/proc/self/status");
	ASSERT_TRUE(!!(status));
	ASSERT_TRUE(!!(strstr(status, "\nGroups:\t7\x20\n")));
	free(status);

	ASSERT_EQ(0, sys_setgroups(0, NULL));
	status = read_file("/proc/self/status");
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
		    first_diff(old, buf, 3, sizeof(gid_t)) != -1)
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

	ASSERT_EQ(0, write_file("/proc/self/setgroups", "deny"));
	text = read_file("/proc/self/setgroups");
	ASSERT_TRUE(!!(text));
	ASSERT_STREQ("deny\n", text);
	free(text);
	ASSERT_EQ(0, write_file("/proc/self/gid_map", "5 70000 1\n"));

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

/* ---- 2. what uses the list ---- */

/*
 * 1. Membership through real permission checks.
 *
 * For a set of n members, files and directories owned by other_uid are
 * made for a group at every interesting position: first, second, middle,
 * last but one, last and both sides of every block edge, and for the
 * non-member right after each of them and the one before the first.  A
 * child holding the set, as nobody, must be able to read exactly the files
 * (mode 0040) and search exactly the directories (mode 0010) of its groups:
 * EACCES otherwise.
 */
struct probe_set {
	char dir[64];		/* the files and directories */
	gid_t *gids;		/* the set, ascending */
	gid_t *probes;		/* the groups of the files, ascending */
	int n;
	int nprobes;
	bool made;		/* dir exists */
};

FIXTURE(membership)
{
	struct probe_set ps;
};

FIXTURE_VARIANT(membership)
{
	int n;
	int blocks;
	int delta;
};

FIXTURE_VARIANT_ADD(membership, n3) { .n = 3 };
/* 1022 gids with 4K pages: the longest list kept with its header */
FIXTURE_VARIANT_ADD(membership, page_minus_2) { .blocks = 1, .delta = -2 };
FIXTURE_VARIANT_ADD(membership, page_minus_1) { .blocks = 1, .delta = -1 };
FIXTURE_VARIANT_ADD(membership, page_plus_1) { .blocks = 1, .delta = 1 };
FIXTURE_VARIANT_ADD(membership, two_pages_minus_1) { .blocks = 2, .delta = -1 };
FIXTURE_VARIANT_ADD(membership, n10000) { .n = 10000 };
FIXTURE_VARIANT_ADD(membership, n65536) { .n = NGROUPS_MAX };

static void add_probe(struct probe_set *ps, int i)
{
	if (i < 0 || i >= ps->n)
		return;
	ps->probes[ps->nprobes++] = member_gid(i);
	ps->probes[ps->nprobes++] = member_gid(i) + 1;
}

static int probe_path(char *buf, size_t size, const char *dir, char kind,
		      gid_t gid)
{
	return snprintf(buf, size, "%s/%c%u", dir, kind, gid);
}

/* A file or directory owned by other_uid:@gid with mode @mode. */
static int make_owned(const char *path, gid_t gid, mode_t mode, bool dir)
{
	char inner[PATH_MAX + 8];
	int fd;

	if (dir) {
		if (mkdir(path, 0700))
			return -1;
		snprintf(inner, sizeof(inner), "%s/x", path);
		fd = open(inner, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	} else {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	}
	if (fd < 0)
		return -1;
	close(fd);
	if (chown(path, other_uid, gid) || chmod(path, mode))
		return -1;
	return 0;
}

FIXTURE_SETUP(membership)
{
	int i, j, bs = gids_per_page(), n = set_size(variant->n, variant->blocks,
						     variant->delta);
	struct probe_set *ps = &self->ps;
	char path[PATH_MAX];

	ps->n = n;
	ps->gids = member_list(n);
	ASSERT_TRUE(!!ps->gids);
	ps->probes = alloc(16 + 4 * (n / bs + 1), sizeof(gid_t));
	ASSERT_TRUE(!!ps->probes);

	ps->probes[ps->nprobes++] = member_gid(0) - 1;
	add_probe(ps, 0);
	add_probe(ps, 1);
	add_probe(ps, n / 2);
	add_probe(ps, n - 2);
	add_probe(ps, n - 1);
	for (i = bs; i < n; i += bs) {
		add_probe(ps, i - 1);
		add_probe(ps, i);
	}
	sort_gids(ps->probes, ps->nprobes);
	for (i = 1, j = 1; i < ps->nprobes; i++)
		if (ps->probes[i] != ps->probes[j - 1])
			ps->probes[j++] = ps->probes[i];
	ps->nprobes = j;

	snprintf(ps->dir, sizeof(ps->dir), "/tmp/groups_abi.XXXXXX");
	ASSERT_TRUE(!!mkdtemp(ps->dir));
	ps->made = true;
	ASSERT_EQ(0, chmod(ps->dir, 0755));
	for (i = 0; i < ps->nprobes; i++) {
		probe_path(path, sizeof(path), ps->dir, 'f', ps->probes[i]);
		ASSERT_EQ(0, make_owned(path, ps->probes[i], 0040, false)) {
			TH_LOG("%s: %s", path, strerror(errno));
		}
		probe_path(path, sizeof(path), ps->dir, 'd', ps->probes[i]);
		ASSERT_EQ(0, make_owned(path, ps->probes[i], 0010, true)) {
			TH_LOG("%s: %s", path, strerror(errno));
		}
	}
}

FIXTURE_TEARDOWN(membership)
{
	struct probe_set *ps = &self->ps;
	char path[PATH_MAX];
	int i;

	for (i = 0; ps->made && i < ps->nprobes; i++) {
		probe_path(path, sizeof(path), ps->dir, 'f', ps->probes[i]);
		unlink(path);
		probe_path(path, sizeof(path), ps->dir, 'd', ps->probes[i]);
		strcat(path, "/x");
		unlink(path);
		path[strlen(path) - 2] = '\0';
		rmdir(path);
	}
	if (ps->made)
		EXPECT_EQ(0, rmdir(ps->dir));
	free(ps->gids);
	free(ps->probes);
}

/*
 * One probe, whose call returned @ret (>= 0 for success) and left @err in
 * errno: 0 if that is what membership says, else 1.
 */
static int probe_result(const char *what, const char *path, bool member,
			int ret, int err)
{
	if (member && ret >= 0)
		return 0;
	if (!member && ret < 0 && err == EACCES)
		return 0;
	child_fail(0, "%s %s, %s: %s", what, path,
		   member ? "a member" : "not a member",
		   ret < 0 ? strerror(err) : "allowed");
	return 1;
}

static int probe_all(struct probe_set *ps)
{
	int i, fd, ret, bad = 0, members = 0;
	char path[PATH_MAX];
	struct stat st;
	bool member;

	for (i = 0; i < ps->nprobes; i++) {
		member = is_member(ps->gids, ps->n, ps->probes[i]);
		members += member;

		probe_path(path, sizeof(path), ps->dir, 'f', ps->probes[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		bad += probe_result("open", path, member, fd, errno);
		if (fd >= 0)
			close(fd);

		probe_path(path, sizeof(path), ps->dir, 'd', ps->probes[i]);
		strcat(path, "/x");
		ret = stat(path, &st);
		bad += probe_result("stat", path, member, ret, errno);
	}
	/* both kinds must have been probed, or the test proves nothing */
	if (!members || members == ps->nprobes)
		return child_fail(CHILD_FAILED, "%d members in %d probes",
				  members, ps->nprobes);
	return bad ? CHILD_FAILED : CHILD_OK;
}

TEST_F(membership, file_and_dir)
{
	pid_t pid;

	pid = fork_with_groups(self->ps.gids, self->ps.n, true);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(probe_all(&self->ps));
	ASSERT_EQ(CHILD_OK, wait_child(pid));
}

/*
 * 2. fork() and execve() keep the set.
 *
 * The test sets a random list and forks a child that, as root or as nobody,
 * runs this program again with VERIFY_ENV set to the size, the seed and its
 * uid: verify_groups() rebuilds the list and compares it with getgroups()
 * and with the "Groups:" line of /proc/self/status.
 */
static int verify_groups(const char *arg)
{
	gid_t *expect;
	int n, diff;
	__u32 seed;
	uid_t uid;

	if (sscanf(arg, "%d %u %u", &n, &seed, &uid) != 3 || n < 0 || n > NGROUPS_MAX)
		return child_fail(CHILD_FAILED, "%s=\"%s\", not \"N SEED UID\"",
				  VERIFY_ENV, arg);
	if (getuid() != uid || geteuid() != uid)
		return child_fail(CHILD_FAILED, "uid %u, euid %u, expected %u",
				  getuid(), geteuid(), uid);
	expect = alloc(n, sizeof(*expect));
	if (!expect)
		return child_fail(CHILD_FAILED, "out of memory");
	fill_random(expect, n, seed);
	sort_gids(expect, n);
	diff = groups_diff(expect, n);
	if (diff != -1)
		return child_fail(CHILD_FAILED,
				  "after execve, getgroups() differs at %d of %d",
				  diff, n);
	diff = status_groups_diff("/proc/self/status", expect, n);
	if (diff != -1)
		return child_fail(CHILD_FAILED,
				  "after execve, /proc/self/status differs at %d of %d",
				  diff, n);
	free(expect);
	return CHILD_OK;
}

FIXTURE(exec)
{
	gid_t *gids;
};

FIXTURE_VARIANT(exec)
{
	int n;
	bool nobody;
};

FIXTURE_VARIANT_ADD(exec, root_n10000) { .n = 10000 };
FIXTURE_VARIANT_ADD(exec, nobody_n10000) { .n = 10000, .nobody = true };
FIXTURE_VARIANT_ADD(exec, root_n65536) { .n = NGROUPS_MAX };

FIXTURE_SETUP(exec)
{
	self->gids = alloc(variant->n, sizeof(gid_t));
	ASSERT_TRUE(!!self->gids);
}

FIXTURE_TEARDOWN(exec)
{
	free(self->gids);
}

TEST_F(exec, keeps_groups)
{
	char verify[64], *argv[] = { "groups_abi", NULL };
	__u32 seed = variant->n + variant->nobody;
	pid_t pid;

	fill_random(self->gids, variant->n, seed);
	ASSERT_EQ(0, sys_setgroups(variant->n, self->gids));
	snprintf(verify, sizeof(verify), "%d %u %u", variant->n, seed,
		 variant->nobody ? nobody_uid : 0);

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (variant->nobody && become_nobody())
			_exit(CHILD_SETUP_FAILED);
		if (setenv(VERIFY_ENV, verify, 1))
			_exit(CHILD_SETUP_FAILED);
		execve("/proc/self/exe", argv, environ);
		_exit(child_fail(CHILD_SETUP_FAILED, "execve: %s",
				 strerror(errno)));
	}
	ASSERT_EQ(CHILD_OK, wait_child(pid));
}

/*
 * A child that changes its groups leaves its parent's alone, and a parent
 * that changes its groups after fork() leaves its child's alone.
 */
TEST(fork_isolation)
{
	static const gid_t small[] = { 30, 10, 20 };
	static const gid_t small_sorted[] = { 10, 20, 30 };
	int n = 10000, m = NGROUPS_MAX, pipefd[2];
	gid_t *a, *a_sorted, *b, *b_sorted;
	pid_t pid;
	char byte;

	a = alloc(n, sizeof(*a));
	a_sorted = alloc(n, sizeof(*a_sorted));
	b = alloc(m, sizeof(*b));
	b_sorted = alloc(m, sizeof(*b_sorted));
	ASSERT_TRUE(a && a_sorted && b && b_sorted);
	fill_random(a, n, 11);
	memcpy(a_sorted, a, n * sizeof(*a));
	sort_gids(a_sorted, n);
	fill_random(b, m, 12);
	memcpy(b_sorted, b, m * sizeof(*b));
	sort_gids(b_sorted, m);
	ASSERT_EQ(0, sys_setgroups(n, a));

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (groups_diff(a_sorted, n) != -1)
			_exit(child_fail(CHILD_FAILED, "not the parent's list"));
		if (sys_setgroups(m, b))
			_exit(child_fail(CHILD_FAILED, "setgroups: %s",
					 strerror(errno)));
		if (groups_diff(b_sorted, m) != -1)
			_exit(child_fail(CHILD_FAILED, "not the new list"));
		_exit(CHILD_OK);
	}
	ASSERT_EQ(CHILD_OK, wait_child(pid));
	ASSERT_EQ(-1, groups_diff(a_sorted, n));
	ASSERT_EQ(-1, status_groups_diff("/proc/self/status", a_sorted, n));

	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(pipefd[1]);
		if (read(pipefd[0], &byte, 1) != 1)
			_exit(child_fail(CHILD_FAILED, "no word from the parent"));
		if (groups_diff(a_sorted, n) != -1)
			_exit(child_fail(CHILD_FAILED, "the list changed"));
		_exit(CHILD_OK);
	}
	close(pipefd[0]);
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(small), small));
	ASSERT_EQ(1, write(pipefd[1], "x", 1));
	close(pipefd[1]);
	ASSERT_EQ(CHILD_OK, wait_child(pid));
	ASSERT_EQ(-1, groups_diff(small_sorted, ARRAY_SIZE(small_sorted)));

	free(a);
	free(a_sorted);
	free(b);
	free(b_sorted);
}

/*
 * 3. SO_PEERGROUPS on AF_UNIX sockets.
 *
 * Check SO_PEERGROUPS on @fd against @expect[0..@n).  optlen is in bytes:
 * no buffer, or one a gid or a byte too small, is ERANGE with the length
 * needed in optlen and nothing written; a buffer of the exact or a larger
 * size gets all the gids, ascending, and optlen says how many bytes.
 * Returns 0 if so, else CHILD_FAILED after saying why.
 */
static int peergroups_diff(int fd, const gid_t *expect, int n)
{
	socklen_t need = n * sizeof(gid_t), size = need + 16 * sizeof(gid_t);
	socklen_t small[] = { 0, need - sizeof(gid_t), need - 1 };
	socklen_t big[] = { need, size };
	gid_t *buf = alloc(n + 16, sizeof(*buf));
	int i, ret, err, result = CHILD_FAILED;
	socklen_t len;

	if (!buf)
		return child_fail(CHILD_FAILED, "out of memory");
	for (i = 0; n > 0 && i < (int)ARRAY_SIZE(small); i++) {
		memset(buf, POISON, size);
		len = small[i];
		errno = 0;
		ret = getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, i ? buf : NULL,
				 &len);
		err = errno;
		if (ret != -1 || err != ERANGE || len != need ||
		    !all_poison(buf, size)) {
			child_fail(0, "SO_PEERGROUPS, optlen %u for %d gids: %d (%s), optlen %u",
				   small[i], n, ret, strerror(err), len);
			goto out;
		}
	}
	for (i = 0; i < (int)ARRAY_SIZE(big); i++) {
		memset(buf, POISON, size);
		len = big[i];
		ret = getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, buf, &len);
		if (ret || len != need) {
			child_fail(0, "SO_PEERGROUPS, optlen %u for %d gids: %d (%s), optlen %u",
				   big[i], n, ret, strerror(errno), len);
			goto out;
		}
		if (memcmp(buf, expect, need) ||
		    !all_poison((char *)buf + need, size - need)) {
			child_fail(0, "SO_PEERGROUPS, optlen %u: wrong gids",
				   big[i]);
			goto out;
		}
	}
	result = 0;
out:
	free(buf);
	return result;
}

FIXTURE(peergroups)
{
	gid_t *gids;
	gid_t *sorted;
	int n;
};

FIXTURE_VARIANT(peergroups)
{
	int n;
	int blocks;
	int delta;
};

FIXTURE_VARIANT_ADD(peergroups, n0) { .blocks = 0 };
FIXTURE_VARIANT_ADD(peergroups, n3) { .n = 3 };
FIXTURE_VARIANT_ADD(peergroups, page_plus_1) { .blocks = 1, .delta = 1 };
FIXTURE_VARIANT_ADD(peergroups, n10000) { .n = 10000 };
FIXTURE_VARIANT_ADD(peergroups, n65536) { .n = NGROUPS_MAX };

FIXTURE_SETUP(peergroups)
{
	int n = set_size(variant->n, variant->blocks, variant->delta);

	self->n = n;
	self->gids = alloc(n, sizeof(gid_t));
	self->sorted = alloc(n, sizeof(gid_t));
	ASSERT_TRUE(self->gids && self->sorted);
	fill_random(self->gids, n, n + 5);
	memcpy(self->sorted, self->gids, n * sizeof(gid_t));
	sort_gids(self->sorted, n);
}

FIXTURE_TEARDOWN(peergroups)
{
	free(self->gids);
	free(self->sorted);
}

/* A socketpair's ends both carry the groups of socketpair() time. */
TEST_F(peergroups, socketpair)
{
	static const int types[] = { SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET };
	static const gid_t other[] = { 42 };
	int i, sv[2];

	for (i = 0; i < (int)ARRAY_SIZE(types); i++) {
		ASSERT_EQ(0, sys_setgroups(self->n, self->gids));
		ASSERT_EQ(0, socketpair(AF_UNIX, types[i] | SOCK_CLOEXEC, 0, sv));
		ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(other), other));
		EXPECT_EQ(0, peergroups_diff(sv[0], self->sorted, self->n));
		EXPECT_EQ(0, peergroups_diff(sv[1], self->sorted, self->n));
		close(sv[0]);
		close(sv[1]);
	}
}

/*
 * Through listen() and connect(): the server sees the client's groups at
 * connect() time, the client the server's at listen() time, which is also
 * what the listening socket itself reports.  Before any of this, a socket
 * has no peer: ENODATA.
 */
TEST_F(peergroups, listen_connect)
{
	static const gid_t at_listen[] = { 30, 10, 20 };
	static const gid_t at_listen_sorted[] = { 10, 20, 30 };
	static const gid_t later[] = { 7 };
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct pollfd pfd;
	socklen_t addrlen, len;
	int lfd, cfd, afd, ret;
	gid_t one;
	pid_t pid;
	char byte;

	/* an abstract name: no file, no permission check */
	snprintf(addr.sun_path + 1, sizeof(addr.sun_path) - 1,
		 "groups_abi.%d", getpid());
	addrlen = offsetof(struct sockaddr_un, sun_path) + 1 +
		  strlen(addr.sun_path + 1);

	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, lfd);
	len = sizeof(one);
	ASSERT_ERRNO(ENODATA,
		     getsockopt(lfd, SOL_SOCKET, SO_PEERGROUPS, &one, &len));
	ASSERT_EQ(0, bind(lfd, (struct sockaddr *)&addr, addrlen));
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(at_listen), at_listen));
	ASSERT_EQ(0, listen(lfd, 4));
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(later), later));
	ASSERT_EQ(0, peergroups_diff(lfd, at_listen_sorted,
				     ARRAY_SIZE(at_listen_sorted)));

	pid = fork_with_groups(self->gids, self->n, false);
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		cfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (cfd < 0 || connect(cfd, (struct sockaddr *)&addr, addrlen))
			_exit(child_fail(CHILD_FAILED, "connect: %s",
					 strerror(errno)));
		if (sys_setgroups(ARRAY_SIZE(later), later))
			_exit(child_fail(CHILD_FAILED, "setgroups: %s",
					 strerror(errno)));
		ret = peergroups_diff(cfd, at_listen_sorted,
				      ARRAY_SIZE(at_listen_sorted));
		if (write(cfd, "x", 1) != 1)
			_exit(child_fail(CHILD_FAILED, "write: %s",
					 strerror(errno)));
		/* wait until the server is done */
		if (read(cfd, &byte, 1) < 0)
			_exit(child_fail(CHILD_FAILED, "read: %s",
					 strerror(errno)));
		_exit(ret);
	}
	pfd.fd = lfd;
	pfd.events = POLLIN;
	ASSERT_EQ(1, poll(&pfd, 1, 20000));
	afd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	ASSERT_LE(0, afd);
	/* the child has changed its groups by now */
	ASSERT_EQ(1, read(afd, &byte, 1));
	EXPECT_EQ(0, peergroups_diff(afd, self->sorted, self->n));
	close(afd);
	ASSERT_EQ(CHILD_OK, wait_child(pid));
	close(lfd);
}

/*
 * 4. net.ipv4.ping_group_range: ping_init_sock() lets a process create an
 * ICMP socket if its egid or one of its groups is in the range, else
 * EACCES.  The children are nobody, whose egid is never in the ranges
 * used here (main() sees to that).  The fixture puts the old range back.
 */
#define PING_RANGE	"/proc/sys/net/ipv4/ping_group_range"

FIXTURE(ping)
{
	char *old;
	gid_t *gids;
	int n;
};

FIXTURE_SETUP(ping)
{
	self->old = read_file(PING_RANGE);
	if (!self->old)
		SKIP(return, "%s: %s", PING_RANGE, strerror(errno));
	self->n = 10000;
	self->gids = member_list(self->n);
	ASSERT_TRUE(!!self->gids);
}

FIXTURE_TEARDOWN(ping)
{
	char *now;

	if (self->old) {
		EXPECT_EQ(0, write_file(PING_RANGE, self->old));
		now = read_file(PING_RANGE);
		EXPECT_TRUE(now && !strcmp(now, self->old));
		free(now);
	}
	free(self->old);
	free(self->gids);
}

static void set_ping_range(struct __test_metadata *_metadata,
			   gid_t low, gid_t high)
{
	char text[32], want[32], *now;

	snprintf(text, sizeof(text), "%u %u\n", low, high);
	snprintf(want, sizeof(want), "%u\t%u\n", low, high);
	ASSERT_EQ(0, write_file(PING_RANGE, text));
	now = read_file(PING_RANGE);
	ASSERT_TRUE(!!now);
	ASSERT_STREQ(want, now);
	free(now);
}

/* In a child holding @gids[0..@n), as nobody: 0 or the errno of socket(). */
static int ping_socket_errno(const gid_t *gids, int n)
{
	pid_t pid = fork_with_groups(gids, n, true);
	int fd;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);
		_exit(fd < 0 ? errno : 0);
	}
	return wait_child(pid);
}

/* One gid in the range, deep inside a list of 10,000: in it or not. */
TEST_F(ping, group_in_list)
{
	gid_t g = member_gid(7777);

	if (!self->old)
		return;
	set_ping_range(_metadata, g, g);
	ASSERT_EQ(0, ping_socket_errno(self->gids, self->n));
	self->gids[7777] = g + 1;	/* still ascending, now without g */
	ASSERT_EQ(EACCES, ping_socket_errno(self->gids, self->n));
}

/* Ranges at and around the ends of the list and between two members */
TEST_F(ping, range_edges)
{
	gid_t first = member_gid(0), last = member_gid(self->n - 1);

	if (!self->old)
		return;
	set_ping_range(_metadata, first - 1, first);
	ASSERT_EQ(0, ping_socket_errno(self->gids, self->n));
	set_ping_range(_metadata, last, last + 1);
	ASSERT_EQ(0, ping_socket_errno(self->gids, self->n));
	set_ping_range(_metadata, first, last);
	ASSERT_EQ(0, ping_socket_errno(self->gids, self->n));

	set_ping_range(_metadata, first - 100, first - 1);
	ASSERT_EQ(EACCES, ping_socket_errno(self->gids, self->n));
	set_ping_range(_metadata, last + 1, last + 100);
	ASSERT_EQ(EACCES, ping_socket_errno(self->gids, self->n));
	set_ping_range(_metadata, member_gid(5000) + 1, member_gid(5001) - 1);
	ASSERT_EQ(EACCES, ping_socket_errno(self->gids, self->n));
}

/*
 * 5. iptables' owner match, --gid-owner with --suppl-groups: owner_mt()
 * matches a packet whose socket was opened by a process whose fsgid or
 * one of whose groups is in the range.  In a network namespace of its
 * own, the test gives the filter table's OUTPUT chain one rule, UDP from
 * such a socket to DROP, which sendto() reports as EPERM.  The children
 * are nobody, whose fsgid is never in the ranges.  The harness's kernels
 * have the filter table and the owner match (kconfig/base.config, which
 * the harness checks against each .config); without them it skips.
 */
#define STD_SIZE	XT_ALIGN(sizeof(struct xt_standard_target))
#define ERROR_SIZE	XT_ALIGN(sizeof(struct xt_error_target))
#define OWNER_SIZE	(XT_ALIGN(sizeof(struct xt_entry_match)) + \
			 XT_ALIGN(sizeof(struct xt_owner_match_info)))
#define HOOKS		(1 << NF_INET_LOCAL_IN | 1 << NF_INET_FORWARD | \
			 1 << NF_INET_LOCAL_OUT)

/*
 * Append at @off of @entries an entry with its target: with @rule, one
 * that matches UDP from the owners it names; 0 for the error entry that
 * ends a table.  Returns the offset after it.
 */
static unsigned int add_entry(unsigned char *entries, unsigned int off,
			      const struct xt_owner_match_info *rule, int verdict)
{
	struct ipt_entry *e = (struct ipt_entry *)(entries + off);
	bool error = !verdict;
	unsigned int size = error ? ERROR_SIZE : STD_SIZE;
	struct xt_entry_target *target;
	struct xt_entry_match *m;

	e->target_offset = sizeof(*e);
	if (rule) {
		m = (struct xt_entry_match *)e->elems;
		e->ip.proto = IPPROTO_UDP;
		m->u.user.match_size = OWNER_SIZE;
		strcpy(m->u.user.name, "owner");
		m->u.user.revision = 1;
		memcpy(m->data, rule, sizeof(*rule));
		e->target_offset += OWNER_SIZE;
	}
	e->next_offset = e->target_offset + size;
	target = (struct xt_entry_target *)((char *)e + e->target_offset);
	target->u.user.target_size = size;
	if (error) {
		strcpy(target->u.user.name, XT_ERROR_TARGET);
		strcpy(((struct xt_error_target *)target)->errorname,
		       XT_ERROR_TARGET);
	} else {
		((struct xt_standard_target *)target)->verdict = verdict;
	}
	return off + e->next_offset;
}

/*
 * Make the filter table three empty chains that accept, OUTPUT holding
 * first a rule that drops UDP from owners in [@low, @high] (a group or
 * the fsgid); 0 or errno.
 */
static int set_owner_rule(gid_t low, gid_t high)
{
	struct xt_owner_match_info info = {
		.gid_min = low, .gid_max = high,
		.match = XT_OWNER_GID | XT_OWNER_SUPPL_GROUPS,
	};
	struct ipt_getinfo have = { .name = "filter" };
	socklen_t len = sizeof(have);
	struct xt_counters *counters = NULL;
	struct ipt_replace *r;
	unsigned char *entries;
	unsigned int off = 0;
	int fd, err = 0;

	r = calloc(1, sizeof(*r) + 1024);
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_RAW);
	if (!r || fd < 0) {
		err = errno;
		goto out;
	}
	if (getsockopt(fd, IPPROTO_IP, IPT_SO_GET_INFO, &have, &len)) {
		err = errno;
		goto out;
	}
	if (have.valid_hooks != HOOKS) {
		err = EPROTO;
		goto out;
	}
	entries = (unsigned char *)(r + 1);
	strcpy(r->name, "filter");
	r->valid_hooks = HOOKS;
	r->hook_entry[NF_INET_LOCAL_IN] = off;
	r->underflow[NF_INET_LOCAL_IN] = off;
	off = add_entry(entries, off, NULL, -NF_ACCEPT - 1);
	r->hook_entry[NF_INET_FORWARD] = off;
	r->underflow[NF_INET_FORWARD] = off;
	off = add_entry(entries, off, NULL, -NF_ACCEPT - 1);
	r->hook_entry[NF_INET_LOCAL_OUT] = off;
	off = add_entry(entries, off, &info, -NF_DROP - 1);
	r->underflow[NF_INET_LOCAL_OUT] = off;
	off = add_entry(entries, off, NULL, -NF_ACCEPT - 1);
	off = add_entry(entries, off, NULL, 0);
	r->num_entries = 5;
	r->size = off;
	r->num_counters = have.num_entries;
	counters = calloc(have.num_entries, sizeof(*counters));
	r->counters = counters;
	if (!counters || setsockopt(fd, IPPROTO_IP, IPT_SO_SET_REPLACE, r,
				    sizeof(*r) + off))
		err = errno;
out:
	if (fd >= 0)
		close(fd);
	free(counters);
	free(r);
	return err;
}

/* Bring up the loopback interface of a new network namespace */
static int loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		err = errno;
	ifr.ifr_flags |= IFF_UP;
	if (!err && ioctl(fd, SIOCSIFFLAGS, &ifr))
		err = errno;
	close(fd);
	return err;
}

FIXTURE(owner)
{
	gid_t *gids;
	int n;
};

FIXTURE_VARIANT(owner)
{
	int n;
	int blocks;
	int delta;
};

/* one inline list, one whose last page holds one gid, and NGROUPS_MAX */
FIXTURE_VARIANT_ADD(owner, n1021) { .n = 1021 };
FIXTURE_VARIANT_ADD(owner, three_pages_plus_1) { .blocks = 3, .delta = 1 };
FIXTURE_VARIANT_ADD(owner, n65536) { .n = NGROUPS_MAX };

FIXTURE_SETUP(owner)
{
	int err;

	self->n = set_size(variant->n, variant->blocks, variant->delta);
	self->gids = member_list(self->n);
	ASSERT_TRUE(!!self->gids);
	/* the test's process is a child of the harness: its own namespace */
	ASSERT_EQ(0, unshare(CLONE_NEWNET)) TH_LOG("unshare: %s", strerror(errno));
	ASSERT_EQ(0, loopback_up());
	err = set_owner_rule(1, 1);
	if (err == ENOPROTOOPT || err == ENOENT)
		SKIP(return, "no iptables filter table or owner match: %s",
		     strerror(err));
	ASSERT_EQ(0, err) TH_LOG("IPT_SO_SET_REPLACE: %s", strerror(err));
}

FIXTURE_TEARDOWN(owner)
{
	free(self->gids);
}

/* In a child holding @gids[0..@n), as nobody: 0 or the errno of sendto() */
static int owner_send_errno(const gid_t *gids, int n)
{
	struct sockaddr_in to = {
		.sin_family = AF_INET,
		.sin_port = htons(9),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	pid_t pid = fork_with_groups(gids, n, true);
	int fd;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			_exit(child_fail(CHILD_SETUP_FAILED, "socket: %s",
					 strerror(errno)));
		if (sendto(fd, "x", 1, 0, (struct sockaddr *)&to, sizeof(to)) != 1)
			_exit(errno);
		_exit(0);
	}
	return wait_child(pid);
}

static int clamp_index(int i, int n)
{
	return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/*
 * Ranges holding one member each, at the ends of the list, at the ends
 * of its first and last page, in the middle; and ranges between members
 * and beyond the ends, which hold none.
 */
TEST_F(owner, suppl_groups)
{
	int per_page = gids_per_page(), n = self->n, i;
	int at[] = { 0, per_page - 1, per_page, n / 2, n - per_page, n - 1 };
	gid_t first = member_gid(0), last = member_gid(n - 1);

	for (i = 0; i < (int)ARRAY_SIZE(at); i++) {
		int k = clamp_index(at[i], n);
		gid_t g = member_gid(k);

		ASSERT_EQ(0, set_owner_rule(g, g));
		EXPECT_EQ(EPERM, owner_send_errno(self->gids, n))
			TH_LOG("the member at index %d (gid %u) not matched", k, g);
		ASSERT_EQ(0, set_owner_rule(g + 1, g + 1));
		EXPECT_EQ(0, owner_send_errno(self->gids, n))
			TH_LOG("gid %u, between two members, matched", g + 1);
	}
	ASSERT_EQ(0, set_owner_rule(first - 100, first - 1));
	EXPECT_EQ(0, owner_send_errno(self->gids, n));
	ASSERT_EQ(0, set_owner_rule(last + 1, last + 100));
	EXPECT_EQ(0, owner_send_errno(self->gids, n));
	ASSERT_EQ(0, set_owner_rule(first, last));
	EXPECT_EQ(EPERM, owner_send_errno(self->gids, n));
}

/*
 * 6. A key readable only through its group.  security/keys/permission.c
 * uses a key's group permissions if its gid is the caller's fsgid or one
 * of its groups.  The keys belong to other_uid and live in this process's
 * keyring, which a child does not inherit: the children do not possess
 * them and name them by their (global) serial number.
 */
static long sys_keyctl(int cmd, long arg2, long arg3, long arg4)
{
	return syscall(__NR_keyctl, cmd, arg2, arg3, arg4, 0L);
}

static void key_payload(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "payload of key %s", name);
}

/* A "user" key of other_uid:@gid with only the permissions @perm. */
static long make_key(struct __test_metadata *_metadata, const char *name,
		     gid_t gid, long perm)
{
	char desc[64], payload[64];
	long id;

	snprintf(desc, sizeof(desc), "groups_abi:%d:%s", getpid(),
		 name);
	key_payload(payload, sizeof(payload), name);
	id = syscall(__NR_add_key, "user", desc, payload, strlen(payload),
		     (long)KEY_SPEC_PROCESS_KEYRING);
	ASSERT_LT(0, id) {
		TH_LOG("add_key %s: %s", desc, strerror(errno));
	}
	ASSERT_EQ(0, sys_keyctl(KEYCTL_CHOWN, id, other_uid, gid)) {
		TH_LOG("KEYCTL_CHOWN: %s", strerror(errno));
	}
	ASSERT_EQ(0, sys_keyctl(KEYCTL_SETPERM, id, perm, 0)) {
		TH_LOG("KEYCTL_SETPERM: %s", strerror(errno));
	}
	return id;
}

/* In a child: 0 if key @id reads as made by make_key(), else the errno. */
static int read_key(long id, const char *name)
{
	char buf[128], want[64];
	long len;

	key_payload(want, sizeof(want), name);
	len = sys_keyctl(KEYCTL_READ, id, (long)buf, sizeof(buf));
	if (len < 0)
		return errno;
	if (len != (long)strlen(want) || memcmp(buf, want, len))
		return -1;
	return 0;
}

/* In a child: 0 if key @id can be described, else the errno. */
static int describe_key(long id)
{
	char buf[256];

	return sys_keyctl(KEYCTL_DESCRIBE, id, (long)buf, sizeof(buf)) < 0 ?
	       errno : 0;
}

/* The errnos of reading @in, @out and @view, and of describing @view */
struct key_access {
	int read_in;
	int read_out;
	int read_view;
	int describe_view;
};

static int check_keys(const long *id, const struct key_access *want)
{
	struct key_access got = {
		.read_in = read_key(id[0], "in"),
		.read_out = read_key(id[1], "out"),
		.read_view = read_key(id[2], "view"),
		.describe_view = describe_key(id[2]),
	};

	if (memcmp(&got, want, sizeof(got)))
		return child_fail(CHILD_FAILED,
				  "read in, out, view, describe view: %d %d %d %d, expected %d %d %d %d",
				  got.read_in, got.read_out, got.read_view,
				  got.describe_view, want->read_in,
				  want->read_out, want->read_view,
				  want->describe_view);
	return CHILD_OK;
}

TEST(key_group_permission)
{
	static const struct key_access with_in = {
		.read_out = EACCES, .read_view = EACCES,
	};
	static const struct key_access with_out = {
		.read_in = EACCES, .read_view = EACCES,
		.describe_view = EACCES,
	};
	int n = 10000, pos = 7777;
	gid_t g_in = member_gid(pos), g_out = g_in + 1, *gids;
	long id[3];
	pid_t pid;

	if (access("/proc/key-users", F_OK))
		SKIP(return, "no /proc/key-users: a kernel without CONFIG_KEYS");
	gids = member_list(n);
	ASSERT_TRUE(!!gids);
	id[0] = make_key(_metadata, "in", g_in, KEY_GRP_VIEW | KEY_GRP_READ);
	id[1] = make_key(_metadata, "out", g_out, KEY_GRP_VIEW | KEY_GRP_READ);
	id[2] = make_key(_metadata, "view", g_in, KEY_GRP_VIEW);

	/* g_in deep inside the list, g_out not in it */
	pid = fork_with_groups(gids, n, true);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(check_keys(id, &with_in));
	ASSERT_EQ(CHILD_OK, wait_child(pid));

	/* the other way round */
	gids[pos] = g_out;
	pid = fork_with_groups(gids, n, true);
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(check_keys(id, &with_out));
	ASSERT_EQ(CHILD_OK, wait_child(pid));
	free(gids);
}

/*
 * With "allow" (the default) and a gid map written by the parent, root in
 * the namespace may set any mapped gids; unmapped ones are EINVAL.  Inside,
 * the list reads back in the namespace's gids, ordered by the kernel's
 * (which need not be ascending in the namespace); the parent sees the
 * kernel's gids in /proc/PID/status.
 */
struct extent {
	gid_t first;
	gid_t lower;
	gid_t count;
};

struct userns_lists {
	gid_t *gids;	/* in the namespace, as set */
	gid_t *inside;	/* in the namespace, as read back */
	gid_t *outside;	/* in the initial namespace */
	int n;
};

FIXTURE(userns)
{
	struct userns_lists l;
};

FIXTURE_VARIANT(userns)
{
	const char *gid_map;
	struct extent map[2];
	int n;
};

FIXTURE_VARIANT_ADD(userns, one_extent_n10000) {
	.gid_map = "0 100000 65536\n",
	.map = { { 0, 100000, 65536 } },
	.n = 10000,
};

/* the upper half of the namespace's gids maps below the lower half */
FIXTURE_VARIANT_ADD(userns, swapped_halves_n65536) {
	.gid_map = "0 200000 32768\n32768 100000 32768\n",
	.map = { { 0, 200000, 32768 }, { 32768, 100000, 32768 } },
	.n = NGROUPS_MAX,
};

/* @gid mapped down through @map to a kgid, or (@up) a kgid back up; -1 if unmapped */
static gid_t map_gid(const struct extent *map, gid_t gid, bool up)
{
	gid_t from, to;
	int i;

	for (i = 0; i < 2; i++) {
		from = up ? map[i].lower : map[i].first;
		to = up ? map[i].first : map[i].lower;
		if (gid - from < map[i].count)
			return gid - from + to;
	}
	return (gid_t)-1;
}

FIXTURE_SETUP(userns)
{
	int i, n = variant->n;

	self->l.n = n;
	self->l.gids = alloc(n, sizeof(gid_t));
	self->l.inside = alloc(n, sizeof(gid_t));
	self->l.outside = alloc(n, sizeof(gid_t));
	ASSERT_TRUE(self->l.gids && self->l.inside && self->l.outside);
	/* distinct gids below 65536: 6553 is odd, so i -> i * 6553 is 1:1 */
	for (i = 0; i < n; i++) {
		self->l.gids[i] = (i * 6553U + 1) & 0xffff;
		self->l.outside[i] = map_gid(variant->map, self->l.gids[i], false);
		ASSERT_NE((gid_t)-1, self->l.outside[i]);
	}
	sort_gids(self->l.outside, n);
	for (i = 0; i < n; i++)
		self->l.inside[i] = map_gid(variant->map, self->l.outside[i], true);
}

FIXTURE_TEARDOWN(userns)
{
	free(self->l.gids);
	free(self->l.inside);
	free(self->l.outside);
}

static int mapped_child(const struct userns_lists *l, int to_parent,
			int from_parent)
{
	static const gid_t unmapped[] = { 1, 70000, 2 };
	static const gid_t just_above[] = { 65536 };
	char byte = 'u';
	int diff, err;

	if (unshare(CLONE_NEWUSER))
		return child_fail(CHILD_NO_USERNS, "unshare: %s",
				  strerror(errno));
	/* no gid map yet */
	if (sys_setgroups(0, NULL) != -1 || errno != EPERM)
		return child_fail(CHILD_FAILED, "setgroups() before the map");
	if (write(to_parent, &byte, 1) != 1 ||
	    read(from_parent, &byte, 1) != 1)
		return child_fail(CHILD_FAILED, "no maps from the parent");

	/* with a gid map, setgroups can no longer be denied */
	if (write_file("/proc/self/setgroups", "deny") != -EPERM)
		return child_fail(CHILD_FAILED, "deny after the gid map");
	err = set_groups_shuffled(l->gids, l->n);
	if (err)
		return child_fail(CHILD_FAILED, "setgroups(%d): %s", l->n,
				  strerror(-err));
	diff = groups_diff(l->inside, l->n);
	if (diff != -1)
		return child_fail(CHILD_FAILED, "getgroups() differs at %d",
				  diff);
	diff = status_groups_diff("/proc/self/status", l->inside, l->n);
	if (diff != -1)
		return child_fail(CHILD_FAILED, "own status differs at %d",
				  diff);
	if (sys_setgroups(ARRAY_SIZE(unmapped), unmapped) != -1 ||
	    errno != EINVAL)
		return child_fail(CHILD_FAILED, "setgroups() of gid 70000");
	if (sys_setgroups(ARRAY_SIZE(just_above), just_above) != -1 ||
	    errno != EINVAL)
		return child_fail(CHILD_FAILED, "setgroups() of gid 65536");
	if (groups_diff(l->inside, l->n) != -1)
		return child_fail(CHILD_FAILED, "a failed setgroups() changed the list");

	/* let the parent look, then wait until it is done */
	byte = 'g';
	if (write(to_parent, &byte, 1) != 1 ||
	    read(from_parent, &byte, 1) < 0)
		return child_fail(CHILD_FAILED, "lost the parent");
	return CHILD_OK;
}

TEST_F(userns, mapped_groups)
{
	int up[2], down[2], status;
	char path[64], byte;
	pid_t pid;

	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		_exit(mapped_child(&self->l, up[1], down[0]));
	}
	close(up[1]);
	close(down[0]);

	if (read(up[0], &byte, 1) != 1) {
		status = wait_child(pid);
		if (status == CHILD_NO_USERNS)
			SKIP(return, "cannot create a user namespace");
		ASSERT_EQ(CHILD_OK, status);
	}
	snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
	ASSERT_EQ(0, write_file(path, "0 100000 65536\n"));
	snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
	ASSERT_EQ(0, write_file(path, variant->gid_map));
	ASSERT_EQ(1, write(down[1], "m", 1));

	ASSERT_EQ(1, read(up[0], &byte, 1)) {
		TH_LOG("child: %d", wait_child(pid));
	}
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	ASSERT_EQ(-1, status_groups_diff(path, self->l.outside, self->l.n));
	close(down[1]);
	ASSERT_EQ(CHILD_OK, wait_child(pid));
	close(up[0]);
}

/*
 * 8. io_uring's fdinfo: each personality registered with
 * IORING_REGISTER_PERSONALITY prints its credentials' groups, ascending,
 * one space between them, as "\tGroups:\t1 2 3\n" (io_uring/fdinfo.c, 5.12 to
 * 6.x; 7.x prints no credentials there, and the test skips).
 */
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup	425
#endif
#ifndef __NR_io_uring_register
#define __NR_io_uring_register	427
#endif
#define IORING_REGISTER_PERSONALITY	9

FIXTURE(uring)
{
	gid_t *gids;
	int n;
};

FIXTURE_VARIANT(uring)
{
	int n;
	int blocks;
	int delta;
};

/* an inline list, a paged one whose last page holds one gid, NGROUPS_MAX */
FIXTURE_VARIANT_ADD(uring, n16) { .n = 16 };
FIXTURE_VARIANT_ADD(uring, three_pages_plus_1) { .blocks = 3, .delta = 1 };
FIXTURE_VARIANT_ADD(uring, n65536) { .n = NGROUPS_MAX };

FIXTURE_SETUP(uring)
{
	self->n = set_size(variant->n, variant->blocks, variant->delta);
	self->gids = member_list(self->n);
	ASSERT_TRUE(!!self->gids);
}

FIXTURE_TEARDOWN(uring)
{
	free(self->gids);
}

/*
 * The gids of the first "\tGroups:\t" line of @text into @list (at most
 * @max): how many, or -1 if the line is not gids separated by single
 * spaces and ended by a newline, or -2 if there is no such line.
 */
static int parse_uring_groups(const char *text, gid_t *list, int max)
{
	const char *p = strstr(text, "\tGroups:\t");
	unsigned long long v;
	int n = 0;

	if (!p)
		return -2;
	p += strlen("\tGroups:\t");
	if (*p == '\n')
		return 0;
	for (;;) {
		const char *digits = p;

		for (v = 0; *p >= '0' && *p <= '9' && v <= UINT32_MAX; p++)
			v = v * 10 + (*p - '0');
		if (p == digits || v > UINT32_MAX || n == max)
			return -1;
		list[n++] = v;
		if (*p == '\n')
			return n;
		if (*p++ != ' ')
			return -1;
	}
}

TEST_F(uring, personality_groups)
{
	/* struct io_uring_params: 120 bytes, zero asks for the defaults */
	__u32 params[30] = { 0 };
	int fd, id, n = self->n, got, i;
	gid_t *list;
	char path[64];
	char *text;

	ASSERT_EQ(0, set_groups_shuffled(self->gids, n));
	fd = syscall(__NR_io_uring_setup, 1, params);
	if (fd < 0 && (errno == ENOSYS || errno == EPERM))
		SKIP(return, "no io_uring: %s", strerror(errno));
	ASSERT_LE(0, fd) TH_LOG("io_uring_setup: %s", strerror(errno));
	id = syscall(__NR_io_uring_register, fd, IORING_REGISTER_PERSONALITY, NULL, 0);
	ASSERT_LT(0, id) TH_LOG("IORING_REGISTER_PERSONALITY: %s", strerror(errno));

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	text = read_file(path);
	ASSERT_TRUE(!!text) TH_LOG("%s: %s", path, strerror(errno));
	list = alloc(n + 1, sizeof(*list));
	ASSERT_TRUE(!!list);
	got = parse_uring_groups(text, list, n + 1);
	free(text);
	close(fd);
	if (got == -2) {
		free(list);
		SKIP(return, "this kernel's io_uring fdinfo prints no credentials");
	}
	for (i = 0; i < got && i < n && list[i] == self->gids[i]; i++)
		;
	free(list);
	EXPECT_EQ(n, got) TH_LOG("the Groups line holds %d gids or is malformed (-1)", got);
	EXPECT_EQ(n, i) TH_LOG("the Groups line differs at entry %d of %d", i, n);
}

/*
 * Before the harness starts: a child run with VERIFY_ENV checks its groups
 * and exits, and the tests run only as root, with nobody looked up.
 */
static void __attribute__((constructor)) groups_abi_setup(void)
{
	const char *verify = getenv(VERIFY_ENV), *why;
	static char clash[80];

	if (verify)
		exit(verify_groups(verify));
	lookup_nobody(&nobody_uid, &nobody_gid);
	other_uid = nobody_uid != 65535 ? 65535 : 65533;
	why = cannot_run_tests();
	/* the tests take nobody's egid for one that is in none of their sets */
	if (!why && nobody_gid - (BASE_GID - 1000) < 2 * NGROUPS_MAX + 2000) {
		snprintf(clash, sizeof(clash), "nobody's gid %u is among the gids the tests use",
			 nobody_gid);
		why = clash;
	}
	if (why) {
		ksft_print_header();
		ksft_exit_skip("%s\n", why);
	}
}

TEST_HARNESS_MAIN

