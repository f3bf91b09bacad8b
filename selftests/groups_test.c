// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of setgroups(2), getgroups(2) and their 16-bit variants (i386, arm),
 * /proc/PID/status, kernel.ngroups_max, and what uses the groups: permission
 * checks, fork() and execve(), SO_PEERGROUPS, net.ipv4.ping_group_range and
 * user namespaces.  As root in the initial user namespace, with the raw
 * system calls (glibc's setgroups() changes every thread).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <sys/fsuid.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>

#include "../kselftest_harness.h"
#include "groups.h"

#if HAVE_GROUPS16
#define NR_setgroups16	__NR_setgroups
#define NR_getgroups16	__NR_getgroups
#else
#define NR_setgroups16	-1L	/* never called: the tests skip first */
#define NR_getgroups16	-1L
#endif

#define NO_GROUPS16	"no 16-bit setgroups/getgroups on this ABI"
#define NOBODY		65534	/* uid and gid: include/linux/highuid.h */
#define VERIFY_ENV	"GROUPS_TEST_VERIFY"	/* see verify() */

/* getgroups() if @get, else setgroups(); the 16-bit calls if @w16 */
static long groups(bool get, bool w16, long size, const void *list)
{
	return syscall(get ? (w16 ? NR_getgroups16 : NR_getgroups) :
			     (w16 ? NR_setgroups16 : NR_setgroups), size, list);
}

#define getg(w16, size, list)	groups(true, w16, size, list)
#define setg(w16, size, list)	groups(false, w16, size, list)

/*
 * The list reads back as @want[0..@n) through getgroups() and getgroups16()
 * (which shows gids above 65535 as kernel.overflowgid): the count for size
 * 0, the list in a buffer of @n + 1 and of @n entries (the extra one left
 * alone), EINVAL for @n - 1, with nothing written.
 */
static void check_list(struct __test_metadata *_metadata, const gid_t *want,
		       int n)
{
	long ovf = read_long(OVERFLOWGID_SYSCTL);
	__u16 *want16 = alloc(n, 2);
	char *buf = malloc((n + 1) * 4);
	int m, w16, sz;

	ASSERT_TRUE(buf && want16);
	for (m = 0; m < n; m++)
		want16[m] = want[m] > 65535 ? ovf : want[m];
	for (w16 = 0; w16 <= HAVE_GROUPS16; w16++) {
		sz = w16 ? 2 : 4;
		ASSERT_EQ(n, getg(w16, 0, NULL));
		for (m = n + 1; m >= n - 1 && m > 0; m--) {
			memset(buf, POISON, (n + 1) * sz);
			if (m < n) {
				ASSERT_ERRNO(EINVAL, getg(w16, m, buf));
				ASSERT_TRUE(all_poison(buf, (n + 1) * sz));
				continue;
			}
			ASSERT_EQ(n, getg(w16, m, buf));
			ASSERT_EQ(0, memcmp(buf, w16 ? (void *)want16 : want,
					    n * sz)) {
				TH_LOG("getgroups%s of %d", w16 ? "16" : "", n);
			}
			ASSERT_TRUE(all_poison(buf + n * sz, sz));
		}
	}
	free(buf);
	free(want16);
}

/* The status file @path lists @gids[0..@n), each followed by a space */
static void check_status(struct __test_metadata *_metadata, const char *path,
			 const gid_t *gids, int n)
{
	char *text = read_text(path), *line = malloc(16 + n * 11L), *p;
	int i;

	ASSERT_TRUE(text && line);
	p = line + sprintf(line, "\nGroups:\t");
	for (i = 0; i < n; i++)
		p += sprintf(p, i ? " %u" : "%u", gids[i]);
	sprintf(p, "\x20\n");
	ASSERT_TRUE(!!strstr(text, line)) {
		TH_LOG("%s does not list the %d gids", path, n);
	}
	free(text);
	free(line);
}

/* Become nobody; as no uid stays 0, all capabilities go. */
static void drop_to_nobody(struct __test_metadata *_metadata)
{
	__u64 eff = 0, perm = 0;

	ASSERT_EQ(0, setresgid(NOBODY, NOBODY, NOBODY));
	ASSERT_EQ(0, setresuid(NOBODY, NOBODY, NOBODY));
	ASSERT_EQ(0, caps(false, &eff, &perm));
	ASSERT_EQ(0, eff | perm);
}

/* Wait for @pid: its exit status, or 128 + the signal that ended it */
static int wait_child(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The last @n bytes of a writable page that a PROT_NONE one follows */
static void *before_hole(struct __test_metadata *_metadata, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, mprotect(map + page, page, PROT_NONE));
	return map + page - n;
}

/*
 * What FIXTURE(sysctl) tests change is put back as found: by the teardown
 * (and the next setup); at exit of the main process, after a test killed on
 * a timeout; if that is killed, by a watchdog SIGTERM wakes when it dies.
 */
static const char *const sysctl_path[] = {
	"/proc/sys/kernel/ngroups_max",
	OVERFLOWGID_SYSCTL,
	"/proc/sys/net/ipv4/ping_group_range",
};

#define NGROUPS_MAX_SYSCTL	(sysctl_path[0])
#define PING_RANGE_SYSCTL	(sysctl_path[2])

static char *sysctl_found[ARRAY_SIZE(sysctl_path)];
static pid_t main_pid, watchdog;

static void restore_sysctls(void)
{
	char *now;
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(sysctl_path); i++) {
		now = read_text(sysctl_path[i]);
		if (now && sysctl_found[i] && strcmp(now, sysctl_found[i]))
			write_text(sysctl_path[i], sysctl_found[i]);
		free(now);
	}
	if (getpid() == main_pid && watchdog > 0 && !kill(watchdog, SIGKILL))
		waitpid(watchdog, NULL, 0);
}

static void guard_sysctls(void)
{
	sigset_t term;
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(sysctl_path); i++)
		sysctl_found[i] = read_text(sysctl_path[i]);
	main_pid = getpid();
	atexit(restore_sysctls);
	watchdog = fork();
	if (watchdog)
		return;
	setsid();
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == main_pid)
		sigwait(&term, &i);
	restore_sysctls();
	_exit(0);
}

/* Set kernel.overflowgid to another value than it has; return that. */
static gid_t set_overflowgid(struct __test_metadata *_metadata)
{
	gid_t ovf = read_long(OVERFLOWGID_SYSCTL) == 65000 ? 65001 : 65000;
	char text[16];

	snprintf(text, sizeof(text), "%u\n", ovf);
	ASSERT_EQ(0, write_text(OVERFLOWGID_SYSCTL, text));
	return ovf;
}

/*
 * Sizes just above the 64 gids the kernel copies at a time, around the 1022
 * it keeps inline and a block of 1024 (4K pages), 10,000, above a block of
 * 16384 (64K pages), NGROUPS_MAX; odd ones against shortcuts in the sort.
 * in: distinct gids in random order; want: the same sorted.
 */
FIXTURE(sizes)
{
	gid_t *in, *want;
};

FIXTURE_VARIANT(sizes)
{
	int n;
};

FIXTURE_VARIANT_ADD(sizes, n0) { .n = 0 };
FIXTURE_VARIANT_ADD(sizes, n1) { .n = 1 };
FIXTURE_VARIANT_ADD(sizes, n65) { .n = 65 };
FIXTURE_VARIANT_ADD(sizes, n1023) { .n = 1023 };
FIXTURE_VARIANT_ADD(sizes, n1025) { .n = 1025 };
FIXTURE_VARIANT_ADD(sizes, n10000) { .n = 10000 };
FIXTURE_VARIANT_ADD(sizes, n16385) { .n = 16385 };
FIXTURE_VARIANT_ADD(sizes, n65536) { .n = NGROUPS_MAX };

FIXTURE_SETUP(sizes)
{
	self->in = alloc(variant->n, sizeof(gid_t));
	self->want = alloc(variant->n, sizeof(gid_t));
	ASSERT_TRUE(self->in && self->want);
	fill_random(self->in, variant->n, variant->n);
	memcpy(self->want, self->in, variant->n * sizeof(gid_t));
	sort_gids(self->want, variant->n);
}

FIXTURE_TEARDOWN(sizes)
{
	free(self->in);
	free(self->want);
}

/*
 * In random order with duplicates and gids of 2^31 and up, ascending (which
 * needs no sort) and descending, the list reads back sorted as unsigned with
 * the duplicates, also in /proc/self/status.  The egid and fsgid stay.
 */
TEST_F(sizes, orders)
{
	int i, order, n = variant->n;
	gid_t egid = getegid();

	for (i = 3; i < n; i += 4)
		self->in[i] = self->in[i / 3];
	for (i = 1; i < n; i += 4)
		self->in[i] = 0xfffffffeU - self->in[i];
	memcpy(self->want, self->in, n * sizeof(gid_t));
	sort_gids(self->want, n);
	for (order = 0; order < 3; order++) {
		for (i = 0; order && i < n; i++)
			self->in[i] = self->want[order == 1 ? i : n - 1 - i];
		ASSERT_EQ(0, sys_setgroups(n, self->in));
		check_list(_metadata, self->want, n);
		check_status(_metadata, "/proc/self/status", self->want, n);
	}
	ASSERT_EQ(egid, getegid());
	ASSERT_EQ(egid, (gid_t)setfsgid(-1));
}

/* Set through the 16-bit calls, gids below 65535 read back the same. */
TEST_F(sizes, compat16)
{
	__u16 *in = alloc(variant->n, 2);
	int i, n = variant->n;

	if (!HAVE_GROUPS16)
		SKIP(return, NO_GROUPS16);
	ASSERT_TRUE(!!in);
	for (i = 0; i < n; i++) {
		in[i] = self->in[i] % 65535;
		self->want[i] = in[i];
	}
	sort_gids(self->want, n);
	ASSERT_EQ(0, setg(true, n, in));
	check_list(_metadata, self->want, n);
}

/*
 * Permission checks find the process in exactly these groups.  As nobody: a
 * file of mode 0040 opens only for a member of its group, and the owner of
 * a file may give it one of its groups or its fsgid, no other: probed at
 * both ends of the list, on both sides of every page of gids, and after.
 */
TEST_F(sizes, membership)
{
	int per_page = sysconf(_SC_PAGESIZE) / sizeof(gid_t), n = variant->n;
	gid_t g, others[] = { 0, 0x80000000U, 0xfffffffeU };
	int i, fd, rd[2];
	char path[64];

	fd = memfd_create("groups_test", MFD_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fchown(fd, NOBODY, NOBODY));
	for (i = 0; i < 2 && n; i++) {	/* of the last member and after it */
		rd[i] = memfd_create("groups_test", MFD_CLOEXEC);
		ASSERT_LE(0, rd[i]);
		ASSERT_EQ(0, fchown(rd[i], 0, self->want[n - 1] + i));
		ASSERT_EQ(0, fchmod(rd[i], 0040));
	}
	ASSERT_EQ(0, sys_setgroups(n, self->in));
	drop_to_nobody(_metadata);
	check_list(_metadata, self->want, n);

	for (i = 0; i < 2 && n; i++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", rd[i]);
		EXPECT_EQ(i ? EACCES : 0, open(path, O_RDONLY) < 0 ? errno : 0);
	}
	for (i = 0; i < n + (int)ARRAY_SIZE(others); i++) {
		if (i < n && i > 2 && n - i > 3 && i % per_page > 1 &&
		    i % per_page < per_page - 2)
			continue;
		if (i < n)
			ASSERT_EQ(0, fchown(fd, -1, self->want[i])) {
				TH_LOG("chgrp to member %d of %d", i, n);
			}
		g = i < n ? self->want[i] + 1 : others[i - n];
		if (g != NOBODY && !bsearch(&g, self->want, n, sizeof(g), cmp_gid))
			ASSERT_ERRNO(EPERM, fchown(fd, -1, g));
	}
	ASSERT_EQ(0, fchown(fd, -1, NOBODY));
}

/*
 * Both ends of a socketpair have the list of socketpair() time as
 * SO_PEERGROUPS: optlen (bytes) is what it needs, with ERANGE and nothing
 * written for a buffer too small or none.  Without a peer: ENODATA.
 */
TEST_F(sizes, peergroups)
{
	static const int types[] = { SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET };
	socklen_t need = variant->n * sizeof(gid_t), size = need + 16, len;
	socklen_t lens[] = { 0, need - sizeof(gid_t), need - 1, need, size };
	char *buf = malloc(size);
	int i, t, sv[2];

	ASSERT_TRUE(!!buf);
	for (t = 0; t < (int)ARRAY_SIZE(types) * 2; t++) {
		if (t % 2 == 0) {
			ASSERT_EQ(0, sys_setgroups(variant->n, self->in));
			ASSERT_EQ(0, socketpair(AF_UNIX, types[t / 2], 0, sv));
			ASSERT_EQ(0, sys_setgroups(1, (gid_t[]){ 0xfffffffe }));
		}
		for (i = variant->n ? 0 : 3; i < (int)ARRAY_SIZE(lens); i++) {
			memset(buf, POISON, size);
			len = lens[i];
			errno = 0;
			EXPECT_EQ(len < need ? ERANGE : 0,
				  getsockopt(sv[t % 2], SOL_SOCKET, SO_PEERGROUPS,
					     i ? buf : NULL, &len) ? errno : 0);
			ASSERT_EQ(need, len);
			ASSERT_TRUE(lens[i] < need ? all_poison(buf, size) :
				    !memcmp(buf, self->want, need) &&
				    all_poison(buf + need, size - need));
		}
		close(sv[t % 2]);
	}
	sv[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_ERRNO(ENODATA, getsockopt(sv[0], SOL_SOCKET, SO_PEERGROUPS,
					 buf, &len));
}

/*
 * Errors of the native and 16-bit calls, which leave the list alone: EINVAL
 * for a size above NGROUPS_MAX or negative (before the list is read), for
 * the gid -1 (0xffff), found before a fault behind it, and for a buffer
 * below the list's size; EFAULT for a list or buffer out of reach.  Without
 * CAP_SETGID, as root or nobody, setgroups() is EPERM first, also for a
 * valid list; getgroups() needs nothing.  Lists: 0s, -1 where they say;
 * a page boundary right after a list or buffer is no fault.
 */
enum { L_OLD, L_NULL, L_HOLE, L_2_HOLE, L_3_HOLE, L_BAD_FIRST, L_BAD_HOLE,
	L_BAD_LAST, L_BIG, L_BIG_BAD, L_RO, NR_LISTS };

static const struct { bool get; long size; int list, err; } errno_cases[] = {
	{ false, NGROUPS_MAX + 1, L_BIG, EINVAL }, { false, -1, L_NULL, EINVAL },
	{ false, NGROUPS_MAX + 1, L_NULL, EINVAL }, { false, 3, L_BAD_FIRST, EINVAL },
	{ false, INT_MAX, L_NULL, EINVAL }, { false, 3, L_BAD_LAST, EINVAL },
	{ false, INT_MIN, L_BIG, EINVAL }, { false, 4, L_BAD_HOLE, EINVAL },
	{ false, NGROUPS_MAX, L_BIG_BAD, EINVAL }, { false, 1, L_NULL, EFAULT },
	{ false, NGROUPS_MAX, L_NULL, EFAULT }, { false, 1, L_HOLE, EFAULT },
	{ false, NGROUPS_MAX, L_3_HOLE, EFAULT }, { false, 4, L_3_HOLE, EFAULT },
	{ true, -1, L_BIG, EINVAL }, { true, INT_MIN, L_NULL, EINVAL },
	{ true, 2, L_BIG, EINVAL }, { true, 2, L_NULL, EINVAL },
	{ true, 3, L_NULL, EFAULT }, { true, NGROUPS_MAX, L_HOLE, EFAULT },
	{ true, 3, L_2_HOLE, EFAULT }, { true, 3, L_RO, EFAULT },
	{ false, 3, L_OLD, 0 }, { true, 3, L_OLD, 0 },
};

TEST(errors)
{
	static const gid_t old[] = { 4, 5, 6 };
	static const __u16 old16[] = { 4, 5, 6 };
	int i, k, w16, priv, err, sz;
	char *lists[2][NR_LISTS] = {}, **l;
	__u64 eff = 0, perm = 0, less;
	long ret;

	for (w16 = 0; w16 <= HAVE_GROUPS16; w16++) {
		l = lists[w16];
		sz = w16 ? 2 : 4;
		l[L_OLD] = before_hole(_metadata, 3 * sz);	/* read, written */
		memcpy(l[L_OLD], w16 ? (const void *)old16 : old, 3 * sz);
		l[L_HOLE] = before_hole(_metadata, 0);
		l[L_2_HOLE] = before_hole(_metadata, 2 * sz);
		for (k = L_3_HOLE; k <= L_BAD_LAST; k++) {
			l[k] = before_hole(_metadata, 3 * sz);
			if (k != L_3_HOLE)
				memset(l[k] + (k - L_BAD_FIRST) * sz, 0xff, sz);
		}
		l[L_BIG] = calloc(NGROUPS_MAX + 1, sz);
		l[L_BIG_BAD] = calloc(NGROUPS_MAX, sz);
		l[L_RO] = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		ASSERT_TRUE(l[L_BIG] && l[L_BIG_BAD] && l[L_RO] != MAP_FAILED);
		memset(l[L_BIG_BAD] + (NGROUPS_MAX - 1) * sz, 0xff, sz);

		/* size 0 sets no groups, or counts them, reading no list */
		ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
		ASSERT_EQ(3, getg(w16, 0, l[L_HOLE]));
		ASSERT_EQ(0, setg(w16, 0, l[L_HOLE]));
		check_list(_metadata, NULL, 0);
		check_status(_metadata, "/proc/self/status", NULL, 0);
		ASSERT_EQ(0, getg(w16, NGROUPS_MAX, l[L_HOLE]));
	}
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(old), old));
	ASSERT_EQ(0, caps(false, &eff, &perm));
	for (priv = 0; priv < 3; priv++) {	/* root, without CAP_SETGID, nobody */
		less = priv == 1 ? eff & ~(1ULL << CAP_SETGID) : eff;
		ASSERT_EQ(0, caps(true, &less, &perm));
		if (priv == 2)
			drop_to_nobody(_metadata);
		for (w16 = 0; w16 <= HAVE_GROUPS16; w16++) {
			for (i = 0; i < (int)ARRAY_SIZE(errno_cases); i++) {
				k = errno_cases[i].list;
				errno = 0;
				ret = groups(errno_cases[i].get, w16,
					     errno_cases[i].size, lists[w16][k]);
				err = ret == -1 ? errno : 0;
				EXPECT_EQ(priv && !errno_cases[i].get ?
					  EPERM : errno_cases[i].err, err) {
					TH_LOG("case %d, %d bits, as %d: %ld",
					       i, w16 ? 16 : 32, priv, ret);
				}
			}
		}
		check_list(_metadata, old, ARRAY_SIZE(old));
	}
}

/* With VERIFY_ENV="N UID": UID, in fill_random(N, N)?  Then drop them. */
static int verify(const char *arg)
{
	unsigned int n, uid;
	gid_t *want, *buf;

	if (sscanf(arg, "%u %u", &n, &uid) != 2 || n > NGROUPS_MAX)
		return 2;
	want = alloc(n, sizeof(gid_t));
	buf = alloc(n + 1, sizeof(gid_t));
	if (!want || !buf)
		return 3;
	fill_random(want, n, n);
	sort_gids(want, n);
	return getuid() != uid || sys_getgroups(n + 1, buf) != n ||
	       memcmp(buf, want, n * sizeof(gid_t)) ||
	       (!uid && sys_setgroups(0, NULL));
}

/* A child has its parent's list, also after execve(), as nobody or root. */
TEST(fork_and_exec)
{
	gid_t *gids = alloc(NGROUPS_MAX, sizeof(gid_t));
	char env[32];
	int i, n;
	pid_t pid;

	ASSERT_TRUE(!!gids);
	for (i = 0; i < 2; i++) {
		n = i ? NGROUPS_MAX : 10000;
		fill_random(gids, n, n);
		ASSERT_EQ(0, sys_setgroups(n, gids));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			if (!i)
				drop_to_nobody(_metadata);
			snprintf(env, sizeof(env), "%d %u", n, getuid());
			setenv(VERIFY_ENV, env, 1);
			execl("/proc/self/exe", "groups_test", NULL);
			_exit(127);
		}
		ASSERT_EQ(0, wait_child(pid)) {
			TH_LOG("%d groups after execve", n);
		}
		sort_gids(gids, n);
		check_list(_metadata, gids, n);
	}
}

/* The tests that change sysctls, last: see guard_sysctls(). */
FIXTURE(sysctl) {};

FIXTURE_SETUP(sysctl)
{
	restore_sysctls();
}

FIXTURE_TEARDOWN(sysctl)
{
	restore_sysctls();
}

/*
 * Through getgroups16(), gids above 65535 read back as kernel.overflowgid
 * (set to another value for the test) and 65535 as 0xffff, which
 * setgroups16() takes for -1: EINVAL.  0xfffe is a gid like any other.
 */
TEST_F(sysctl, compat16)
{
	static const gid_t in[] = {
		70000, 65535, 1, 0xfffffffeU, 65536, 65534, 0x7fffffff,
	}, sorted[] = {
		1, 65534, 65535, 65536, 70000, 0x7fffffff, 0xfffffffeU,
	}, top[] = { 0, 65534 };
	static const __u16 bad16[] = { 1, 0xffff }, top16[] = { 0xfffe, 0 };

	if (!HAVE_GROUPS16)
		SKIP(return, NO_GROUPS16);
	set_overflowgid(_metadata);
	ASSERT_EQ(0, sys_setgroups(ARRAY_SIZE(in), in));
	check_list(_metadata, sorted, ARRAY_SIZE(sorted));
	check_status(_metadata, "/proc/self/status", sorted, ARRAY_SIZE(sorted));
	ASSERT_ERRNO(EINVAL, setg(true, ARRAY_SIZE(bad16), bad16));
	check_list(_metadata, sorted, ARRAY_SIZE(sorted));
	ASSERT_EQ(0, setg(true, ARRAY_SIZE(top16), top16));
	check_list(_metadata, top, ARRAY_SIZE(top));
}

/* ns gids 0-32767 are kgids 200000-232767, 32768-65535 100000-132767 */
#define GID_MAP_SWAPPED	"0 200000 32768\n32768 100000 32768\n"

static gid_t map_swapped(gid_t gid, bool up)
{
	if (up)
		return gid < 200000 ? gid - 100000 + 32768 : gid - 200000;
	return gid < 32768 ? gid + 200000 : gid - 32768 + 100000;
}

/*
 * In a user namespace without a gid map, every group reads back as
 * kernel.overflowgid (changed for the test) and setgroups() is EPERM; with
 * "deny" it stays so after the egid is mapped, for good.  With maps from the
 * parent, root there sets mapped gids (EINVAL for others), can no longer
 * deny, and reads them back in the kernel's order (which the map swaps); a
 * reader outside sees the kernel's gids.
 */
TEST_F(sysctl, user_namespace)
{
	int i, deny, up[2], down[2], status, n = 10000, pos = 7777;
	gid_t *set = alloc(n, sizeof(gid_t)), *ns = alloc(n, sizeof(gid_t));
	gid_t *kgids = alloc(n, sizeof(gid_t)), bad = 65536, ovf;
	char path[64], c;
	pid_t pid;

	ASSERT_TRUE(set && ns && kgids);
	ovf = set_overflowgid(_metadata);
	for (deny = 1; deny >= 0; deny--) {
		for (i = 0; i < n; i++) {
			set[i] = deny ? 100000 + 2 * i : (i * 6553 + 1) & 0xffff;
			kgids[i] = deny ? set[i] : map_swapped(set[i], false);
		}
		sort_gids(kgids, n);
		for (i = 0; i < n; i++)
			ns[i] = deny ? ovf : map_swapped(kgids[i], true);
		ASSERT_EQ(0, pipe(up));
		ASSERT_EQ(0, pipe(down));
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			close(down[1]);
			if (deny) {
				ASSERT_EQ(0, setresgid(set[pos], set[pos], set[pos]));
				ASSERT_EQ(0, sys_setgroups(n, set));
			}
			if (unshare(CLONE_NEWUSER))
				_exit(KSFT_SKIP);
			ASSERT_ERRNO(EPERM, sys_setgroups(0, NULL));
			if (deny) {
				check_list(_metadata, ns, n);
				ASSERT_EQ(0, write_text("/proc/self/setgroups", "deny"));
				snprintf(path, sizeof(path), "0 %u 1\n", set[pos]);
				ASSERT_EQ(0, write_text("/proc/self/gid_map", path));
				ns[pos] = 0;
				ASSERT_ERRNO(EPERM, sys_setgroups(1, ns + pos));
				ASSERT_EQ(-EPERM, write_text("/proc/self/setgroups", "allow"));
			} else {
				ASSERT_EQ(1, write(up[1], "u", 1));
				ASSERT_EQ(1, read(down[0], &c, 1));
				ASSERT_EQ(-EPERM, write_text("/proc/self/setgroups", "deny"));
				ASSERT_EQ(0, sys_setgroups(n, set));
				ASSERT_ERRNO(EINVAL, sys_setgroups(1, &bad));
			}
			check_list(_metadata, ns, n);
			check_status(_metadata, "/proc/self/status", ns, n);
			ASSERT_EQ(1, write(up[1], "g", 1));
			ASSERT_EQ(0, read(down[0], &c, 1));	/* parent done */
			_exit(0);
		}
		close(up[1]);
		close(down[0]);
		if (!deny && read(up[0], &c, 1) == 1) {
			snprintf(path, sizeof(path), "/proc/%d/uid_map", pid);
			ASSERT_EQ(0, write_text(path, "0 100000 65536\n"));
			snprintf(path, sizeof(path), "/proc/%d/gid_map", pid);
			ASSERT_EQ(0, write_text(path, GID_MAP_SWAPPED));
			ASSERT_EQ(1, write(down[1], "m", 1));
		}
		if (read(up[0], &c, 1) == 1) {
			snprintf(path, sizeof(path), "/proc/%d/status", pid);
			check_status(_metadata, path, kgids, n);
		}
		close(up[0]);
		close(down[1]);
		status = wait_child(pid);
		if (status == KSFT_SKIP)
			SKIP(return, "cannot create a user namespace");
		ASSERT_EQ(0, status);
	}
}

/*
 * An ICMP socket needs the egid or a group in net.ipv4.ping_group_range:
 * one gid deep inside a list of 10,000 is enough, its neighbour is not.
 */
TEST_F(sysctl, ping_group_range)
{
	int i, in, n = 10000;
	gid_t *gids = alloc(n, sizeof(gid_t)), g = 100000 + 2 * 7777;
	char text[32];
	pid_t pid;

	if (!sysctl_found[2])
		SKIP(return, "no %s", PING_RANGE_SYSCTL);
	ASSERT_TRUE(!!gids);
	for (i = 0; i < n; i++)
		gids[i] = 100000 + 2 * i;
	snprintf(text, sizeof(text), "%u %u\n", g, g);
	ASSERT_EQ(0, write_text(PING_RANGE_SYSCTL, text));
	for (in = 1; in >= 0; in--) {
		gids[7777] = g + !in;
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			ASSERT_EQ(0, sys_setgroups(n, gids));
			drop_to_nobody(_metadata);
			i = socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
			_exit(i < 0 ? errno : 0);
		}
		ASSERT_EQ(in ? 0 : EACCES, wait_child(pid));
	}
}

/*
 * The limit applies to setgroups() and setgroups16() at once, down to 8, and
 * sysconf() follows it.  Lowering it takes nothing from a process holding
 * more, nor from its children, which cannot set that many.
 */
TEST_F(sysctl, ngroups_max_limit)
{
	static const int limits[] = { NGROUPS_MAX, 10, 8 };
	gid_t *gids = alloc(NGROUPS_MAX + 1, sizeof(gid_t));
	static const __u16 zeros16[11];
	static const gid_t zeros[11];
	int i, k, max;
	char text[16];
	pid_t pid;

	if (access(NGROUPS_MAX_SYSCTL, W_OK))	/* before it became writable */
		SKIP(return, "kernel.ngroups_max is read-only");
	ASSERT_TRUE(!!gids);
	for (i = 0; i <= NGROUPS_MAX; i++)
		gids[i] = 1000 + i;
	for (k = 0; k < (int)ARRAY_SIZE(limits); k++) {
		max = limits[k];
		snprintf(text, sizeof(text), "%d\n", max);
		ASSERT_EQ(0, write_text(NGROUPS_MAX_SYSCTL, text));
		ASSERT_EQ(max, read_long(NGROUPS_MAX_SYSCTL));
#ifdef __GLIBC__	/* glibc reads the file, musl's is a constant */
		ASSERT_EQ(max, sysconf(_SC_NGROUPS_MAX));
#endif
		if (k == 1) {
			check_list(_metadata, gids, 1000);
			ASSERT_ERRNO(EINVAL, sys_getgroups(max, gids + 1000));
			pid = fork();
			ASSERT_LE(0, pid);
			if (pid == 0) {
				check_list(_metadata, gids, 1000);
				ASSERT_ERRNO(EINVAL, sys_setgroups(1000, gids));
				_exit(0);
			}
			ASSERT_EQ(0, wait_child(pid));
		}
		ASSERT_EQ(0, sys_setgroups(max, gids));
		ASSERT_ERRNO(EINVAL, sys_setgroups(max + 1, gids));
		check_list(_metadata, gids, max);
		if (HAVE_GROUPS16 && max < 11) {
			ASSERT_EQ(0, setg(true, max, zeros16));
			ASSERT_ERRNO(EINVAL, setg(true, max + 1, zeros16));
			check_list(_metadata, zeros, max);
		}
		if (k == 0)
			ASSERT_EQ(0, sys_setgroups(1000, gids));
	}
}

/*
 * Values out of [8, NGROUPS_MAX] or not numbers are EINVAL, leaving the
 * value; an empty write does what it does to kernel.overflowgid.  Only
 * CAP_SYS_ADMIN in the initial user namespace may write it: not nobody,
 * root without it, root in a user namespace without or with a uid map.
 */
TEST_F(sysctl, ngroups_max_writes)
{
	static const char * const bad[] = {
		"65537", "7", "0", "-1", "abc", "2147483648", "", "\n", " ",
	};
	__u64 eff = 0, perm = 0;
	int i, err;
	pid_t pid;

	if (access(NGROUPS_MAX_SYSCTL, W_OK))
		SKIP(return, "kernel.ngroups_max is read-only");
	ASSERT_EQ(0, write_text(NGROUPS_MAX_SYSCTL, "100"));
	for (i = 0; i < (int)ARRAY_SIZE(bad); i++) {
		err = i < 6 ? -EINVAL : write_text(OVERFLOWGID_SYSCTL, bad[i]);
		EXPECT_EQ(err, write_text(NGROUPS_MAX_SYSCTL, bad[i])) {
			TH_LOG("writing \"%s\"", bad[i]);
		}
		ASSERT_EQ(100, read_long(NGROUPS_MAX_SYSCTL));
	}
	for (i = 0; i < 4; i++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			if (i == 0)
				drop_to_nobody(_metadata);
			if (i == 1) {
				ASSERT_EQ(0, caps(false, &eff, &perm));
				eff &= ~(1ULL << CAP_SYS_ADMIN);
				ASSERT_EQ(0, caps(true, &eff, &perm));
			}
			if (i >= 2 && unshare(CLONE_NEWUSER))
				_exit(255);
			if (i == 3)
				ASSERT_EQ(0, write_text("/proc/self/uid_map", "0 0 1"));
			_exit(-write_text(NGROUPS_MAX_SYSCTL, "10"));
		}
		err = wait_child(pid);
		if (err == 255)
			continue;	/* no user namespaces here */
		EXPECT_TRUE(err == EPERM || (err == EACCES && !(i & 1))) {
			TH_LOG("writer %d: %d", i, err);
		}
	}
	ASSERT_EQ(100, read_long(NGROUPS_MAX_SYSCTL));
}

/* Before the harness: a copy run by fork_and_exec, or the tests as root */
static void __attribute__((constructor)) groups_test_setup(void)
{
	const char *why = getenv(VERIFY_ENV);

	if (why)
		exit(verify(why));
	why = cannot_run_tests();
	if (why) {
		ksft_print_header();
		ksft_exit_skip("%s\n", why);
	}
	guard_sysctls();
}

TEST_HARNESS_MAIN
