// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrent use of group sets (make check-debug), bounded in time.
 *
 * The sets.  Every task of this program (thread or process) is an "owner"
 * with its own family of sets: set k = owner << 5 | size index has the
 * sizes[size index] gids (k << 20) | i, i = 0 .. n - 1.  Every gid says which
 * set it belongs to, so sets are disjoint and none is a prefix of another,
 * and no set is empty: a reader checks that all the gids it got carry the
 * same k, that they are ascending with no gap (gid i has index i), that
 * their count is n_k and that k is a set of the owner it expects.  A set is
 * always installed in an order the kernel has to sort (reversed, or odd
 * indices first).  The sizes cross every layout edge of the series with 4K
 * and with 64K pages: inline (up to 1,022 / 16,382 gids), paged, a tail in
 * the header or in its own page, up to NGROUPS_MAX.
 *
 * Credentials.  Sets are installed with the raw setgroups system call,
 * which replaces the credentials of the calling thread only; glibc's
 * setgroups() would make every thread of the process install the same list
 * in turn (its setxid broadcast), leaving no two threads with different
 * sets.  So each thread holds a set of its own, and the readers can tell
 * whose set they see.
 *
 * For --seconds seconds (30, as robust.py passes), concurrently:
 *
 *  - writer threads and writer processes install sets of their family
 *    again and again, each checked right away with getgroups();
 *  - reader threads read /proc/PID/task/TID/status of every other thread of
 *    this process and /proc/PID/status of the writer processes: each Groups
 *    line must be one whole set of that task's family (a reader holds a
 *    reference to the task's old credentials while the task replaces them);
 *    between passes they install a new set of their own and check with
 *    getgroups() that no other thread's setgroups() changed theirs;
 *  - a listener thread and connector threads use an AF_UNIX stream socket.
 *    In 6.1, SO_PEERGROUPS reports sk_peer_cred, a reference to credentials
 *    taken once: an accepted socket holds the connector's credentials at
 *    connect() (unix_stream_connect(): init_peercred(newsk)), a connecting
 *    socket the listener's at its last listen() (copy_peercred()).  Each
 *    round a connector installs a new set, connects, checks that its
 *    socket's peer groups are one whole set of the listener's, sends the
 *    number of its set, closes, and installs the next set at once: from then
 *    on the accepted socket holds the only reference to that group list.
 *    The listener checks that SO_PEERGROUPS of each accepted socket is
 *    exactly the set named in the message, keeps the last RING sockets and
 *    checks each again before closing it.  Between connections the listener
 *    installs a new set and calls listen() again, which replaces the
 *    credentials the next connections copy while connectors copy them;
 *  - forker threads install a set, fork, and install another set at once
 *    while the child exits at once, checks with getgroups() that it holds
 *    the set of the fork, or execs this program to check it after exec.
 *
 * Any mixed set, wrong count, gap, unsorted list or unexpected set, and any
 * failed system call (none is expected), is reported with what was seen and
 * fails the program.  Every task stays alive until the readers are done, so
 * a /proc file that cannot be read is a failure too.  The debug kernel's
 * KASAN, lockdep and kmemleak watch the lifetimes of the shared lists.
 *
 *	groups_stress [--seconds S]
 *	groups_stress --child K		(the exec'ed child: do I hold set K?)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "guest.h"

#ifndef SO_PEERGROUPS
#define SO_PEERGROUPS	59	/* include/uapi/asm-generic/socket.h */
#endif

#define DEFAULT_SECONDS	30	/* qemu/robust.py STRESS_SECONDS */
#define SIZE_BITS	5
#define SET_SHIFT	20
#define INDEX_MASK	((1U << SET_SHIFT) - 1)
#define STATUS_MAX	(2 << 20)	/* a status file with 65,536 gids is ~700 KiB */
#define RING		8		/* accepted sockets checked again later */
#define MAX_MESSAGES	40
#define START_TIMEOUT	120		/* seconds for every task to hold its first set */

/* Inline up to 1,022 gids with 4K pages, 16,382 with 64K; blocks of 1,024 or 16,384. */
static const int sizes[] = {
	1, 2, 32, 33, 1021, 1022, 1023, 1024, 1025, 2047, 2048, 2049, 4097,
	10000, 10216, 16381, 16382, 16383, 16384, 16385, 32767, 32769, 65535, 65536,
};
#define NSIZES		((int)ARRAY_SIZE(sizes))
_Static_assert(ARRAY_SIZE(sizes) <= 1U << SIZE_BITS, "size index fits");

/* The tasks, one owner each: owner = slot + 1. */
enum role { MAIN, WRITER, PROC, READER, LISTENER, CONNECTOR, FORKER };
#define WRITERS		3
#define PROCS		2
#define READERS		2
#define CONNECTORS	2
#define FORKERS		2
#define S_WRITER	1
#define S_PROC		(S_WRITER + WRITERS)
#define S_READER	(S_PROC + PROCS)
#define S_LISTENER	(S_READER + READERS)
#define S_CONNECTOR	(S_LISTENER + 1)
#define S_FORKER	(S_CONNECTOR + CONNECTORS)
#define NTASKS		(S_FORKER + FORKERS)
#define OWNER_LISTENER	(S_LISTENER + 1)
_Static_assert((NTASKS + 1) << (SIZE_BITS + SET_SHIFT) <= 1U << 31, "gids below 2^31");

static const char *const role_names[] = {
	"main thread", "writer thread", "writer process", "reader thread",
	"listener thread", "connector thread", "forker thread",
};

/* What the program checks; each is one TAP result. */
enum test { T_OWN, T_THREAD, T_PROC, T_ACCEPT, T_CONNECT, T_FORK, T_TASKS, NTESTS };

static const char *const test_names[NTESTS] = {
	"setgroups then getgroups: every thread and process holds exactly the set it installed",
	"/proc/PID/task/TID/status of other threads: always one whole set of that thread's",
	"/proc/PID/status of other processes: always one whole set of that process's",
	"SO_PEERGROUPS of an accepted socket: exactly the connector's set at connect()",
	"SO_PEERGROUPS of a connecting socket: one whole set of the listener's",
	"fork and exec: the child holds the set of its parent at fork()",
	"every task started, ran until the deadline and ended cleanly",
};

static const char *const test_tags[NTESTS] = {
	"own", "thread status", "process status", "peer accepted", "peer connecting",
	"fork", "tasks",
};

/* Counts of what was done */
enum count { C_SET, C_OWN, C_THREAD, C_PROC, C_ACCEPT, C_CONNECT, C_FORK_EXIT,
	     C_FORK_CHECK, C_EXEC, NCOUNTS };

/* Shared by the threads and the writer processes (MAP_SHARED). */
struct shared {
	double deadline;
	atomic_int ready, go, stop;
	atomic_int readers_left, connectors_left;
	atomic_int messages;
	atomic_long count[NCOUNTS];
	atomic_long fails[NTESTS];
	struct {
		atomic_int pid, tid;
	} task[NTASKS];
	struct sockaddr_un addr;	/* the listener's, in the abstract namespace */
	socklen_t addrlen;
};

static struct shared *sh;

/* One task's state */
struct ctx {
	int slot, owner, k;
	enum role role;
	struct rng rng;
	gid_t *set, *got;
	char *text;
};

static int set_k(int owner, int idx)
{
	return owner << SIZE_BITS | idx;
}

static gid_t set_gid(int k, int i)
{
	return (gid_t)k << SET_SHIFT | (gid_t)i;
}

static int k_owner(int k)
{
	return k >> SIZE_BITS;
}

static int k_size(int k)
{
	return sizes[k & ((1 << SIZE_BITS) - 1)];
}

static int size_index(int n)
{
	int i;

	for (i = 0; i < NSIZES - 1; i++)
		if (sizes[i] == n)
			break;
	return i;
}

/* The role of the task in @slot: the last role whose first slot is not above it */
static enum role slot_role(int slot)
{
	static const int first_slot[] = {
		[MAIN] = 0, [WRITER] = S_WRITER, [PROC] = S_PROC, [READER] = S_READER,
		[LISTENER] = S_LISTENER, [CONNECTOR] = S_CONNECTOR, [FORKER] = S_FORKER,
	};
	int role = FORKER;

	while (slot < first_slot[role])
		role--;
	return role;
}

/* One line to stdout in one write(), so that threads do not mix lines. */
static void vsay(const char *prefix, const char *fmt, va_list ap)
{
	char buf[600];
	int n;

	n = snprintf(buf, sizeof(buf), "# %s", prefix);
	n += vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	if (buf[n - 1] != '\n')
		buf[n++] = '\n';
	if (write(STDOUT_FILENO, buf, n) < 0)
		return;
}

static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("", fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 2, 3))) fail(enum test t, const char *fmt, ...)
{
	char prefix[40];
	va_list ap;

	atomic_fetch_add(&sh->fails[t], 1);
	if (atomic_fetch_add(&sh->messages, 1) >= MAX_MESSAGES)
		return;
	snprintf(prefix, sizeof(prefix), "[%s] ", test_tags[t]);
	va_start(ap, fmt);
	vsay(prefix, fmt, ap);
	va_end(ap);
}

static void count(enum count c)
{
	atomic_fetch_add(&sh->count[c], 1);
}

static int running(void)
{
	return now_s() < sh->deadline && !atomic_load(&sh->stop);
}

/*
 * Is @g[0..n) one whole set, of @owner's family if @owner, and set @k_want
 * if @k_want >= 0?  If not, say in @why what it is.
 */
static int check_set(const gid_t *g, int n, int owner, int k_want, char *why, size_t len)
{
	unsigned int k, idx, o;
	int i;

	if (n <= 0) {
		snprintf(why, len, "%d gids, but no set of this program is empty", n);
		return -1;
	}
	k = g[0] >> SET_SHIFT;
	idx = k & ((1U << SIZE_BITS) - 1);
	o = k >> SIZE_BITS;
	if (idx >= (unsigned int)NSIZES || o < 1 || o > NTASKS) {
		snprintf(why, len, "%d gids, the first %#x of no set of this program", n, g[0]);
		return -1;
	}
	for (i = 1; i < n; i++) {
		if (g[i] >> SET_SHIFT != k) {
			snprintf(why, len, "a mix of sets: gid[%d] = %#x is of set %u "
				 "(owner %u), gid[0] = %#x of set %u (owner %u), %d gids",
				 i, g[i], g[i] >> SET_SHIFT, g[i] >> (SET_SHIFT + SIZE_BITS),
				 g[0], k, o, n);
			return -1;
		}
	}
	for (i = 1; i < n; i++) {
		if (g[i] <= g[i - 1]) {
			snprintf(why, len, "not ascending: gid[%d] = %#x after %#x (set %u, "
				 "%d gids)", i, g[i], g[i - 1], k, n);
			return -1;
		}
	}
	/* ascending, within one set: gid i must be index i */
	for (i = 0; i < n; i++) {
		if ((g[i] & INDEX_MASK) != (unsigned int)i) {
			snprintf(why, len, "a gap: gid[%d] = %#x, set %u's gid %d is missing "
				 "(%d gids)", i, g[i], k, i, n);
			return -1;
		}
	}
	if (n != sizes[idx]) {
		snprintf(why, len, "%d gids of set %u (owner %u), which has %d: a part of it",
			 n, k, o, sizes[idx]);
		return -1;
	}
	if (owner && (int)o != owner) {
		snprintf(why, len, "set %u (%d gids) of owner %u, a set of another task "
			 "than owner %d", k, n, o, owner);
		return -1;
	}
	if (k_want >= 0 && (int)k != k_want) {
		snprintf(why, len, "set %u (%d gids), not set %d (%d gids)", k, n, k_want,
			 k_size(k_want));
		return -1;
	}
	return 0;
}

static int check_own(struct ctx *c)
{
	char why[300];
	int n;

	n = sys_getgroups(NGROUPS_MAX, c->got);
	count(C_OWN);
	if (n < 0) {
		fail(T_OWN, "%s (owner %d): getgroups: %s\n", role_names[c->role], c->owner,
		     strerror(errno));
		return -1;
	}
	if (check_set(c->got, n, c->owner, c->k, why, sizeof(why))) {
		fail(T_OWN, "%s (owner %d) installed set %d (%d gids), getgroups shows %s\n",
		     role_names[c->role], c->owner, c->k, k_size(c->k), why);
		return -1;
	}
	return 0;
}

/* Install set @idx of this task's family, in an order the kernel must sort. */
static int install(struct ctx *c, int idx)
{
	int k = set_k(c->owner, idx), n = sizes[idx], i, j = 0;

	if (rng_below(&c->rng, 2)) {
		for (i = 0; i < n; i++)
			c->set[i] = set_gid(k, n - 1 - i);
	} else {
		for (i = 1; i < n; i += 2)
			c->set[j++] = set_gid(k, i);
		for (i = 0; i < n; i += 2)
			c->set[j++] = set_gid(k, i);
	}
	if (sys_setgroups(n, c->set)) {
		fail(T_OWN, "%s (owner %d): setgroups of set %d (%d gids): %s\n",
		     role_names[c->role], c->owner, k, n, strerror(errno));
		return -1;
	}
	c->k = k;
	count(C_SET);
	return check_own(c);
}

static int install_random(struct ctx *c)
{
	return install(c, rng_below(&c->rng, NSIZES));
}

/* Until the deadline: 1 once this task holds a new set */
static int next_round(struct ctx *c)
{
	while (running())
		if (!install_random(c))
			return 1;
	return 0;
}

static int ctx_init(struct ctx *c, int slot)
{
	memset(c, 0, sizeof(*c));
	c->slot = slot;
	c->owner = slot + 1;
	c->role = slot_role(slot);
	rng_seed(&c->rng, 0x5eed0000ULL + slot);
	c->set = alloc(NGROUPS_MAX, sizeof(*c->set));
	c->got = alloc(NGROUPS_MAX, sizeof(*c->got));
	if (c->role == READER)
		c->text = malloc(STATUS_MAX);
	if (!c->set || !c->got || (c->role == READER && !c->text)) {
		fail(T_TASKS, "%s (owner %d): out of memory\n", role_names[c->role], c->owner);
		atomic_store(&sh->stop, 1);
		return -1;
	}
	return 0;
}

static void ctx_free(struct ctx *c)
{
	free(c->set);
	free(c->got);
	free(c->text);
}

/* Say who this task is and hold a first set of its own. */
static void first_set(struct ctx *c)
{
	atomic_store(&sh->task[c->slot].pid, getpid());
	atomic_store(&sh->task[c->slot].tid, (int)syscall(SYS_gettid));
	if (install_random(c))
		atomic_store(&sh->stop, 1);
}

/* Say that this task is ready and wait for the start.  0: go on. */
static int ready(void)
{
	atomic_fetch_add(&sh->ready, 1);
	while (!atomic_load(&sh->go) && !atomic_load(&sh->stop))
		usleep(1000);
	return atomic_load(&sh->stop);
}

static int start(struct ctx *c)
{
	first_set(c);
	return ready();
}

/* Stay alive (and readable in /proc) until the readers are done. */
static void linger(void)
{
	double give_up = sh->deadline + 600;

	while (atomic_load(&sh->readers_left) > 0 && !atomic_load(&sh->stop) &&
	       now_s() < give_up)
		usleep(5000);
}

static void *writer(void *arg)
{
	struct ctx c;

	if (ctx_init(&c, (int)(long)arg) || start(&c))
		goto out;
	while (running())
		install_random(&c);
	linger();
out:
	ctx_free(&c);
	return NULL;
}

/* A writer process: the same, forked before any thread exists. */
static int writer_process(int slot, pid_t parent)
{
	struct ctx c;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	if (ctx_init(&c, slot))
		_exit(1);
	if (start(&c))
		_exit(0);	/* stopped: someone else says why */
	while (running() && getppid() == parent)
		install_random(&c);
	linger();
	_exit(0);
}

/* Read the Groups line of task @slot and check it. */
static void read_status(struct ctx *c, int slot)
{
	int pid = atomic_load(&sh->task[slot].pid), tid = atomic_load(&sh->task[slot].tid);
	int other = pid != getpid(), n;
	enum test t = other ? T_PROC : T_THREAD;
	char path[80], why[300];
	const char *stop;
	ssize_t len;

	if (other)
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
	else
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", pid, tid);
	len = read_file_into(path, c->text, STATUS_MAX);
	count(other ? C_PROC : C_THREAD);
	if (len < 0) {
		/* Tasks end only once the run is over: then one may be gone. */
		if ((len == -ENOENT || len == -ESRCH) && !running())
			return;
		fail(t, "%s (%s, owner %d): %s\n", path, role_names[slot_role(slot)], slot + 1,
		     strerror(-len));
		return;
	}
	n = parse_groups(c->text, c->got, NGROUPS_MAX, &stop);
	if (!stop)
		snprintf(why, sizeof(why), "no Groups line");
	else if (n < 0)
		snprintf(why, sizeof(why), "malformed Groups line, or more than %d gids: \"%.20s\"",
			 NGROUPS_MAX, stop);
	if (n < 0 || check_set(c->got, n, slot + 1, -1, why, sizeof(why)))
		fail(t, "%s (%s, owner %d): %s\n", path, role_names[slot_role(slot)], slot + 1,
		     why);
}

static void *reader(void *arg)
{
	struct ctx c;
	int s;

	if (ctx_init(&c, (int)(long)arg) || start(&c))
		goto out;
	while (running()) {
		for (s = 0; s < NTASKS; s++)
			if (s != c.slot)
				read_status(&c, s);
		/* nobody else's setgroups() changed this thread's set */
		check_own(&c);
		install_random(&c);
	}
out:
	atomic_fetch_sub(&sh->readers_left, 1);
	ctx_free(&c);
	return NULL;
}

struct hello {
	int32_t k, owner;
};

/* SO_PEERGROUPS of @fd must be a whole set of @owner's, set @k if k >= 0. */
static void check_peer(struct ctx *c, int fd, enum test t, int owner, int k, const char *what)
{
	socklen_t len = NGROUPS_MAX * sizeof(gid_t);
	char why[300];

	count(t == T_ACCEPT ? C_ACCEPT : C_CONNECT);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, c->got, &len)) {
		fail(t, "%s: getsockopt(SO_PEERGROUPS): %s\n", what, strerror(errno));
		return;
	}
	if (len % sizeof(gid_t)) {
		fail(t, "%s: SO_PEERGROUPS returned %u bytes\n", what, (unsigned int)len);
		return;
	}
	if (check_set(c->got, len / sizeof(gid_t), owner, k, why, sizeof(why)))
		fail(t, "%s: SO_PEERGROUPS shows %s\n", what, why);
}

static void *listener(void *arg)
{
	struct { int fd; struct hello h; } ring[RING];
	struct ctx c;
	struct pollfd pfd;
	char what[80];
	int lfd = -1, pos = 0, i, done, r;

	for (i = 0; i < RING; i++)
		ring[i].fd = -1;
	if (ctx_init(&c, (int)(long)arg))
		goto out;
	/* listen() with the first set: the first connections copy it */
	first_set(&c);
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sh->addr, sh->addrlen) || listen(lfd, 64)) {
		fail(T_ACCEPT, "listener: socket, bind or listen: %s\n", strerror(errno));
		atomic_store(&sh->stop, 1);
	}
	if (ready())
		goto out;
	pfd.fd = lfd;
	pfd.events = POLLIN;
	for (;;) {
		done = !running() && !atomic_load(&sh->connectors_left);
		r = poll(&pfd, 1, done ? 0 : 100);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fail(T_ACCEPT, "listener: poll: %s\n", strerror(errno));
			break;
		}
		if (!r) {
			if (done || atomic_load(&sh->stop))
				break;
			continue;
		}
		/* a new set, which the connections still to come copy */
		if (!install_random(&c) && listen(lfd, 64))
			fail(T_CONNECT, "listener: listen() again: %s\n", strerror(errno));
		if (ring[pos].fd >= 0) {
			snprintf(what, sizeof(what), "accepted socket of connector owner %d, "
				 "set %d, again later", ring[pos].h.owner, ring[pos].h.k);
			check_peer(&c, ring[pos].fd, T_ACCEPT, ring[pos].h.owner, ring[pos].h.k,
				   what);
			close(ring[pos].fd);
			ring[pos].fd = -1;
		}
		ring[pos].fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (ring[pos].fd < 0) {
			fail(T_ACCEPT, "listener: accept: %s\n", strerror(errno));
			continue;
		}
		do
			r = read(ring[pos].fd, &ring[pos].h, sizeof(ring[pos].h));
		while (r < 0 && errno == EINTR);
		if (r != (int)sizeof(ring[pos].h)) {
			fail(T_ACCEPT, "listener: read from an accepted socket: %d, %s\n", r,
			     r < 0 ? strerror(errno) : "short");
			close(ring[pos].fd);
			ring[pos].fd = -1;
			continue;
		}
		snprintf(what, sizeof(what), "accepted socket of connector owner %d, set %d",
			 ring[pos].h.owner, ring[pos].h.k);
		check_peer(&c, ring[pos].fd, T_ACCEPT, ring[pos].h.owner, ring[pos].h.k, what);
		pos = (pos + 1) % RING;
	}
	for (i = 0; i < RING; i++) {
		if (ring[i].fd < 0)
			continue;
		snprintf(what, sizeof(what), "accepted socket of connector owner %d, set %d, "
			 "again at the end", ring[i].h.owner, ring[i].h.k);
		check_peer(&c, ring[i].fd, T_ACCEPT, ring[i].h.owner, ring[i].h.k, what);
		close(ring[i].fd);
	}
	linger();
out:
	if (lfd >= 0)
		close(lfd);
	ctx_free(&c);
	return NULL;
}

static void *connector(void *arg)
{
	struct hello h;
	struct ctx c;
	char what[80];
	int fd;

	if (ctx_init(&c, (int)(long)arg) || start(&c))
		goto out;
	/* each round with a new set, which connect() hands to the accepted socket */
	while (next_round(&c)) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sh->addr, sh->addrlen)) {
			fail(T_CONNECT, "connector owner %d: socket or connect: %s\n", c.owner,
			     strerror(errno));
			if (fd >= 0)
				close(fd);
			break;
		}
		snprintf(what, sizeof(what), "connector owner %d, with set %d", c.owner, c.k);
		check_peer(&c, fd, T_CONNECT, OWNER_LISTENER, -1, what);
		h.k = c.k;
		h.owner = c.owner;
		if (write(fd, &h, sizeof(h)) != sizeof(h))
			fail(T_ACCEPT, "connector owner %d: write: %s\n", c.owner, strerror(errno));
		close(fd);
		/* the next install_random() drops this thread's reference to set h.k */
	}
out:
	atomic_fetch_sub(&sh->connectors_left, 1);
	linger();
	ctx_free(&c);
	return NULL;
}

/* In the child of a forker: 0 exit at once, 1 check, 2 exec and check. */
static void __attribute__((noreturn)) forked_child(struct ctx *c, int mode)
{
	char why[300], k[16];
	int n;

	if (mode == 0)
		_exit(0);
	if (mode == 2) {
		snprintf(k, sizeof(k), "%d", c->k);
		execl("/proc/self/exe", "groups_stress", "--child", k, (char *)NULL);
		say("[fork] child of forker owner %d: exec /proc/self/exe: %s\n", c->owner,
		    strerror(errno));
		_exit(127);
	}
	n = sys_getgroups(NGROUPS_MAX, c->got);
	if (n < 0) {
		say("[fork] child of forker owner %d: getgroups: %s\n", c->owner, strerror(errno));
		_exit(1);
	}
	if (check_set(c->got, n, c->owner, c->k, why, sizeof(why))) {
		say("[fork] child of forker owner %d, forked with set %d, holds %s\n", c->owner,
		    c->k, why);
		_exit(1);
	}
	_exit(0);
}

static void *forker(void *arg)
{
	static const char *const modes[] = { "exit", "check", "exec" };
	struct ctx c;
	int mode, status, k;
	pid_t pid;

	if (ctx_init(&c, (int)(long)arg) || start(&c))
		goto out;
	while (next_round(&c)) {
		k = c.k;
		mode = rng_below(&c.rng, 3);
		pid = fork();
		if (pid == 0)
			forked_child(&c, mode);
		if (pid < 0) {
			fail(T_FORK, "forker owner %d: fork: %s\n", c.owner, strerror(errno));
			break;
		}
		/* the child may be the last one holding set k now */
		install_random(&c);
		if (waitpid(pid, &status, 0) != pid) {
			fail(T_FORK, "forker owner %d: waitpid: %s\n", c.owner, strerror(errno));
			continue;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fail(T_FORK, "child (%s) of forker owner %d, forked with set %d: %s %d\n",
			     modes[mode], c.owner, k, WIFEXITED(status) ? "exit" : "signal",
			     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
			continue;
		}
		count(mode == 0 ? C_FORK_EXIT : mode == 1 ? C_FORK_CHECK : C_EXEC);
	}
	linger();
out:
	ctx_free(&c);
	return NULL;
}

/* groups_stress --child K: the exec'ed child of a forker. */
static int exec_child(const char *arg)
{
	gid_t *g = alloc(NGROUPS_MAX, sizeof(*g));
	int k = atoi(arg), n;
	char why[300];

	if (!g)
		return 1;
	n = sys_getgroups(NGROUPS_MAX, g);
	if (n < 0) {
		printf("# [fork] exec'ed child: getgroups: %s\n", strerror(errno));
		return 1;
	}
	if (check_set(g, n, k_owner(k), k, why, sizeof(why))) {
		printf("# [fork] exec'ed child of forker owner %d, forked with set %d, holds %s\n",
		       k_owner(k), k, why);
		return 1;
	}
	return 0;
}

static void usage(const char *argv0)
{
	fprintf(stderr, "usage: %s [--seconds S]   (default %d)\n"
		"       %s --child K       (internal: the exec'ed child)\n",
		argv0, DEFAULT_SECONDS, argv0);
}

#define CNT(x)	atomic_load(&sh->count[x])

/* What was done, and a TAP result per test: each must have run, and never failed */
static void report(double seconds)
{
	bool ran[NTESTS] = {
		[T_OWN] = CNT(C_SET) > NTASKS && CNT(C_OWN) > 0,
		[T_THREAD] = CNT(C_THREAD) > 0,
		[T_PROC] = CNT(C_PROC) > 0,
		[T_ACCEPT] = CNT(C_ACCEPT) > 0,
		[T_CONNECT] = CNT(C_CONNECT) > 0,
		[T_FORK] = CNT(C_FORK_EXIT) > 0 && CNT(C_FORK_CHECK) > 0 && CNT(C_EXEC) > 0,
		[T_TASKS] = true,
	};
	long n = 0;
	int i;

	for (i = 0; i < NTESTS; i++)
		n += atomic_load(&sh->fails[i]);
	ksft_print_msg("%.0fs: %ld setgroups, %ld getgroups, %ld thread status reads, "
		       "%ld process status reads, %ld SO_PEERGROUPS of accepted and %ld of "
		       "connecting sockets, %ld fork+exit, %ld fork+check, %ld fork+exec; "
		       "%ld failures\n", seconds, CNT(C_SET), CNT(C_OWN), CNT(C_THREAD),
		       CNT(C_PROC), CNT(C_ACCEPT), CNT(C_CONNECT), CNT(C_FORK_EXIT),
		       CNT(C_FORK_CHECK), CNT(C_EXEC), n);
	for (i = 0; i < NTESTS; i++) {
		if (!ran[i])
			ksft_print_msg("[%s] never ran\n", test_tags[i]);
		ksft_test_result(ran[i] && !atomic_load(&sh->fails[i]), "%s\n", test_names[i]);
	}
}

int main(int argc, char **argv)
{
	static void *(*const thread_fn[])(void *) = {
		[WRITER] = writer, [READER] = reader, [LISTENER] = listener,
		[CONNECTOR] = connector, [FORKER] = forker,
	};
	pthread_t th[NTASKS];
	bool started[NTASKS] = { false };
	pid_t procs[PROCS], parent = getpid();
	double seconds = DEFAULT_SECONDS, t0;
	struct ctx c;
	int i, status;

	if (argc == 3 && !strcmp(argv[1], "--child"))
		return exec_child(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--seconds")) {
		char *end;

		seconds = strtod(argv[2], &end);
		if (*end || !(seconds > 0)) {
			usage(argv[0]);
			return 2;
		}
	} else if (argc != 1) {
		usage(argv[0]);
		return argc == 2 && !strcmp(argv[1], "--help") ? 0 : 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	ksft_print_header();
	ksft_set_plan(NTESTS);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	sh->deadline = now_s() + 3600;	/* until the start */
	atomic_store(&sh->readers_left, READERS);
	atomic_store(&sh->connectors_left, CONNECTORS);
	sh->addr.sun_family = AF_UNIX;
	sh->addrlen = offsetof(struct sockaddr_un, sun_path) + 1 +
		snprintf(sh->addr.sun_path + 1, sizeof(sh->addr.sun_path) - 1,
			 "groups_stress.%d", (int)getpid());

	/* The main thread holds a paged set all along; threads start with it. */
	if (ctx_init(&c, 0))
		ksft_exit_fail_msg("out of memory\n");
	atomic_store(&sh->task[0].pid, getpid());
	atomic_store(&sh->task[0].tid, getpid());
	if (install(&c, size_index(10000)))
		ksft_exit_fail_msg("cannot install the first set\n");
	atomic_fetch_add(&sh->ready, 1);

	for (i = 0; i < PROCS; i++) {
		procs[i] = fork();
		if (procs[i] == 0)
			writer_process(S_PROC + i, parent);
		if (procs[i] < 0) {
			fail(T_TASKS, "fork of writer process %d: %s\n", i, strerror(errno));
			atomic_store(&sh->stop, 1);
		}
	}
	for (i = 1; i < NTASKS; i++) {
		if (!thread_fn[slot_role(i)])
			continue;	/* the main thread, a writer process */
		errno = pthread_create(&th[i], NULL, thread_fn[slot_role(i)], (void *)(long)i);
		started[i] = !errno;
		if (!started[i]) {
			fail(T_TASKS, "pthread_create (%s, owner %d): %s\n",
			     role_names[slot_role(i)], i + 1, strerror(errno));
			atomic_store(&sh->stop, 1);
			if (slot_role(i) == READER)
				atomic_fetch_sub(&sh->readers_left, 1);
			if (slot_role(i) == CONNECTOR)
				atomic_fetch_sub(&sh->connectors_left, 1);
		}
	}

	/* Every task holds its first set: go. */
	t0 = now_s();
	while (atomic_load(&sh->ready) < NTASKS && !atomic_load(&sh->stop)) {
		if (now_s() > t0 + START_TIMEOUT) {
			fail(T_TASKS, "only %d of %d tasks ready after %ds\n",
			     atomic_load(&sh->ready), NTASKS, START_TIMEOUT);
			atomic_store(&sh->stop, 1);
		}
		usleep(1000);
	}
	sh->deadline = now_s() + seconds;
	atomic_store(&sh->go, 1);
	while (running()) {
		check_own(&c);
		usleep(100000);
	}

	for (i = 1; i < NTASKS; i++)
		if (started[i])
			pthread_join(th[i], NULL);
	for (i = 0; i < PROCS; i++) {
		if (procs[i] <= 0)
			continue;
		if (waitpid(procs[i], &status, 0) != procs[i])
			fail(T_TASKS, "waitpid of writer process %d: %s\n", i, strerror(errno));
		else if (!WIFEXITED(status) || WEXITSTATUS(status))
			fail(T_TASKS, "writer process %d (owner %d) ended with %s %d\n", i,
			     S_PROC + i + 1, WIFEXITED(status) ? "exit" : "signal",
			     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	}
	check_own(&c);
	if (atomic_load(&sh->stop))
		fail(T_TASKS, "stopped early\n");

	report(seconds);
	ctx_free(&c);
	ksft_finished();
}
