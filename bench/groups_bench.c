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
 * bytes per group set (what the kernel hands out for it, from the kmem
 * tracepoints: see mem_window()), allocations are counts per setgroups()
 * call.  A "MEM <N>: ..." line per N lists the blocks behind mem_measured.
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

#include "../robust/guest.h"

#define BASE		100000u
#define LOOKUP_FILE	"/sys/kernel/debug/groups_lookup_bench"
#define TRACING		"/sys/kernel/tracing"

static void report(const char *metric, int n, double value)
{
	printf("BENCH %s %d %.1f\n", metric, n, value);
	fflush(stdout);
}

/* How many times to repeat a call of cost ~n, to keep a boot short */
static int reps_for(int n)
{
	int reps = 400000 / (n + 200);

	return reps < 5 ? 5 : reps > 200 ? 200 : reps;
}

static struct rng rng = { .state = 12345 };

enum input { RANDOM, SORTED, REVERSE, DUPLICATES, NR_INPUTS };
static const char * const input_name[] = { "random", "sorted", "reverse", "dups" };

/* n gids from base, distinct unless DUPLICATES, in the order of @kind */
static void fill(gid_t *g, int n, enum input kind, gid_t base)
{
	int i;

	for (i = 0; i < n; i++)
		g[i] = kind == REVERSE ? base + n - 1 - i :
		       kind == DUPLICATES ? base + rng_below(&rng, 16) : base + i;
	if (kind == RANDOM)
		rng_shuffle(&rng, g, n);
}

enum call { SET, GET, SET16, GET16 };
static const char * const call_name[] = { "setgroups", "getgroups", "setgroups16", "getgroups16" };

/* The median time of reps_for(@n) calls of @call with @n gids at @list, each a success */
static void timed(const char *metric, enum call call, int n, void *list)
{
	int reps = reps_for(n), r;
	double *t = malloc(sizeof(*t) * reps), t0;
	long ret;

	if (!t)
		die("malloc");
	for (r = 0; r < reps; r++) {
		t0 = now_ns();
		ret = call == SET ? sys_setgroups(n, list) : call == GET ? sys_getgroups(n, list) :
		      call == SET16 ? sys_setgroups16(n, list) : sys_getgroups16(n, list);
		t[r] = now_ns() - t0;
		if (ret != (call == GET || call == GET16 ? n : 0))
			die(call_name[call]);
	}
	report(metric, n, median(t, reps));
	free(t);
}

static void bench_set_get(int n, gid_t *g, gid_t *buf)
{
	char name[64];
	int kind;

	for (kind = 0; kind < NR_INPUTS; kind++) {
		fill(g, n, kind, BASE);
		snprintf(name, sizeof(name), "setgroups_%s", input_name[kind]);
		timed(name, SET, n, g);
	}
	fill(g, n, RANDOM, BASE);
	if (sys_setgroups(n, g))
		die("setgroups");
	timed("getgroups", GET, n, buf);
}

static void bench_compat16(int n)
{
#if HAVE_GROUPS16
	uint16_t *g = malloc(2 * (n + 1)), *buf = malloc(2 * (n + 1));
	int i;

	for (i = 0; i < n; i++)
		g[i] = 1 + rng_below(&rng, 65000);
	timed("setgroups16_random", SET16, n, g);
	timed("getgroups16", GET16, n, buf);
	free(g);
	free(buf);
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
 * kernel, the same gids in the same boot can take 1.6-1.7 times as long in
 * one copy as in another (QEMU's software TLB is one likely reason: it is
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
	if (sys_setgroups(lk.n, lk.g))
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
			len += snprintf(cmd + len, sizeof(cmd) - len, " %u",
					BASE + rng_below(&rng, n));
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

/*
 * The memory of one set, exactly: what the kernel hands out for it, from the
 * kmem tracepoints (include/trace/events/kmem.h in 6.1).
 *
 * The window is one setgroups(n) of a buffer that is filled (so faulted in)
 * before it, with gids in random order, the common case that makes both
 * kernels sort: the patched kernel (and the series up to the storage patch)
 * then takes one order-0 page of bucket bounds for the sort and frees it
 * before returning.
 * Tracing is on only around the call and only for this task (set_event_pid),
 * with these events:
 *
 *   kmalloc		call_site ptr bytes_req bytes_alloc gfp_flags node: every
 *			kmalloc(), kvmalloc()'s first try included; bytes_alloc
 *			is the size class handed out, or PAGE_SIZE << order for
 *			a request above KMALLOC_MAX_CACHE_SIZE (2 * PAGE_SIZE on
 *			SLUB), which kmalloc_large() takes from the page
 *			allocator, tracing mm_page_alloc first
 *   kfree		call_site ptr
 *   mm_page_alloc	pfn order gfp_flags migratetype: every page block the
 *			page allocator hands out, per-CPU lists included (not
 *			the bulk allocator's, which vmalloc uses: see below)
 *   mm_page_free,
 *   mm_page_free_batched	pfn (order)
 *
 * Memory of the set = the bytes_alloc of the kmalloc events and of
 * groups_alloc()'s kmem_cache_alloc event + PAGE_SIZE << order of the
 * mm_page_alloc events that are neither a slab refill nor the pages of a
 * large kmalloc counted already (the order-0 pages that follow
 * groups_alloc()'s event, one a block of the list, are the list's), less what the same call frees
 * again of what it allocated (matched by pointer or pfn; so the sort's page
 * nets out, and "mem_peak" is the most held at once, with it).  A slab
 * refill is a page allocation traced right before a kmalloc event of a slab
 * object (mem_event() says why); refills are counted apart
 * ("slab_refills_gt0", order > 0 only), as they depend on how full the
 * cache's slab was when the call came, not on the request.  Of the
 * kmem_cache_alloc events, only groups_alloc()'s count (the header of a paged
 * list, from the group_info cache; the event names its call site with
 * KALLSYMS): the cred that prepare_creds() takes is not the set's.
 *
 * The old set: each measured call switches from an empty set (setgroups(0),
 * one small kmalloc), and the set it replaces is freed by an RCU callback
 * (commit_creds() -> put_cred() -> call_rcu()), which may or may not run in
 * the window (in a softirq on this task).  Only frees of what the window
 * allocated count, so the figure is the new set's whatever RCU does.  To
 * verify that it is the set, and only the set, the set is then replaced by
 * an empty one again, with tracing on for every task, until every block the
 * window left held has been freed ("mem_freed": must equal mem_measured;
 * no file may be opened before that replacement, as a file holds the cred
 * it was opened with, and so the set).  Pointers are traced unhashed
 * (options/hash-ptr off), to match frees with allocations.
 *
 * Each N gets MEM_CALLS such calls, each with other gids; mem_measured is
 * the least (an interrupt on this task could only add to a call's figure),
 * mem_peak the most, the counts are per call.
 *
 * "requests_gt_page" counts the requests above a page: kmalloc() calls
 * asking for more than PAGE_SIZE (a kvmalloc() of that size makes exactly
 * one, whether it ends in a slab, in pages or in vmalloc) and accounted
 * page allocations of order > 0 that back no kmalloc.  "vmalloc_areas"
 * counts the areas the set holds (new lines of /proc/vmallocinfo); as the
 * bulk allocator behind vmalloc() traces no mm_page_alloc, their pages are
 * added to the set from /proc/vmallocinfo.
 */
#define MEM_CALLS	8
#define MEM_MAX_OBJS	1024
#define MEM_FREE_WAIT_NS	3e9

static const char * const mem_events[] = {
	"kmalloc", "kfree", "kmem_cache_alloc", "kmem_cache_free", "mm_page_alloc",
	"mm_page_free", "mm_page_free_batched",
};

struct mem_obj {
	char ptr[24];		/* as traced: kmalloc, or "" for pages alone */
	unsigned long pfn;	/* first pfn of pages, 0 for a slab object */
	long bytes;		/* bytes_alloc, or PAGE_SIZE << order */
	long req;		/* bytes_req of a kmalloc */
	int order;		/* of pages */
	int live;
	int kept;		/* live when the window closed */
	int refill;		/* pages SLUB took to refill a cache */
};

static struct mem_window {
	struct mem_obj obj[MEM_MAX_OBJS];
	int nobj;
	long held, peak, freed;
	int requests, refills_gt0, refills, vmalloc_areas, lost;
	int verified;		/* every block held was seen freed */
	int pending;		/* the page allocation the next event explains, or -1 */
	int blocks;		/* order-0 pages still to come of the list's blocks */
	int n;			/* the size of the set measured */
	long vmalloc_bytes;
} mw;

/* Cleared when frees went unseen for MEM_FREE_WAIT_NS: no more waiting */
static int mem_verify = 1;

/* The value of " key=" in a trace line, as text; 0 if absent */
static int field(const char *line, const char *key, char *out, size_t size)
{
	char pat[32];
	const char *p;
	size_t len = 0;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p)
		return 0;
	p += strlen(pat);
	while (p[len] && p[len] != ' ' && p[len] != '\n' && len + 1 < size)
		len++;
	memcpy(out, p, len);
	out[len] = '\0';
	return 1;
}

static long field_num(const char *line, const char *key)
{
	char v[32];

	return field(line, key, v, sizeof(v)) ? strtol(v, NULL, 0) : -1;
}

static unsigned long field_pfn(const char *line)
{
	char v[32];

	return field(line, "pfn", v, sizeof(v)) ? strtoul(v, NULL, 0) : 0;
}

/* The event of a trace line ("task-pid [cpu] flags ts: event: fields") */
static int is_event(const char *line, const char *event)
{
	char pat[40];

	snprintf(pat, sizeof(pat), ": %s: ", event);
	return strstr(line, pat) != NULL;
}

static int null_ptr(const char *ptr)
{
	return !ptr[0] || strspn(ptr, "0x") == strlen(ptr) || !strcmp(ptr, "(null)");
}

static struct mem_obj *mem_add(void)
{
	if (mw.nobj == MEM_MAX_OBJS) {
		printf("groups_bench: more than %d allocations in one setgroups()\n",
		       MEM_MAX_OBJS);
		exit(1);
	}
	memset(&mw.obj[mw.nobj], 0, sizeof(mw.obj[0]));
	mw.obj[mw.nobj].live = 1;
	return &mw.obj[mw.nobj++];
}

/* The latest live block of the window at @ptr or @pfn, or NULL */
static struct mem_obj *mem_find(const char *ptr, unsigned long pfn)
{
	int i;

	for (i = mw.nobj - 1; i >= 0; i--) {
		struct mem_obj *o = &mw.obj[i];

		if (o->live && ((ptr && !strcmp(o->ptr, ptr)) || (pfn && o->pfn == pfn)))
			return o;
	}
	return NULL;
}

/* A free of what the window holds */
static void mem_free(const char *ptr, unsigned long pfn, int counting)
{
	struct mem_obj *o = mem_find(ptr, pfn);

	if (!o)
		return;
	o->live = 0;
	if (counting)
		mw.held -= o->bytes;
	else
		mw.freed += o->bytes;
}

static void mem_hold(struct mem_obj *o)
{
	mw.held += o->bytes;
	if (mw.held > mw.peak)
		mw.peak = mw.held;
}

/* The pending page allocation was pages of their own: hold them */
static void mem_settle(void)
{
	if (mw.pending >= 0)
		mem_hold(&mw.obj[mw.pending]);
	mw.pending = -1;
}

/*
 * One trace line.  @counting: the measured window (allocations and frees of
 * this task); else the verification, where only frees of what is held matter.
 *
 * A page allocation waits for the next event to say what it was.  SLUB
 * traces the pages it takes to refill a cache, then the kmalloc() served
 * from them; kmalloc_large() traces its pages, then the kmalloc() of that
 * size.  So pages followed at once by a kmalloc() of a slab object are a
 * slab refill, pages followed by a kmalloc() of their size are that
 * kmalloc(), and any other pages (the list's blocks, the sort's page) are
 * held as they are.  (The gfp flags would tell an accounted allocation from
 * a refill, but these kernels' trace output prints them empty.)
 */
static void mem_event(const char *line, long page, int counting)
{
	/* the kmalloc event just before this one, if it was one */
	static struct {
		char ptr[24];
		long req, bytes;
		int valid;
	} last;
	char ptr[24] = "";
	unsigned long pfn;
	struct mem_obj *o;
	long req, bytes;
	int order;

	if (!is_event(line, "kmalloc"))
		last.valid = 0;
	if (line[0] == '#') {
		unsigned long in, written;
		const char *p = strstr(line, "entries-in-buffer/entries-written:");

		if (p && sscanf(p + 34, "%lu/%lu", &in, &written) == 2 && in != written)
			mw.lost = 1;
		return;
	}
	if (is_event(line, "kfree") || is_event(line, "kmem_cache_free")) {
		if (counting)
			mem_settle();
		if (field(line, "ptr", ptr, sizeof(ptr)) && !null_ptr(ptr))
			mem_free(ptr, 0, counting);
		return;
	}
	if (is_event(line, "mm_page_free") || is_event(line, "mm_page_free_batched")) {
		if (counting)
			mem_settle();
		pfn = field_pfn(line);
		if (pfn)
			mem_free(NULL, pfn, counting);
		return;
	}
	if (!counting)
		return;
	if (is_event(line, "mm_page_alloc")) {
		mem_settle();
		pfn = field_pfn(line);
		order = field_num(line, "order");
		if (!pfn || order < 0)
			return;				/* failed */
		o = mem_add();
		o->pfn = pfn;
		o->order = order;
		o->bytes = page << order;
		if (mw.blocks > 0 && order == 0) {	/* a block of the list */
			mw.blocks--;
			mem_hold(o);
			return;
		}
		mw.pending = o - mw.obj;
	} else if (is_event(line, "kmem_cache_alloc")) {
		char site[64];

		int ours;

		field(line, "ptr", ptr, sizeof(ptr));
		bytes = field_num(line, "bytes_alloc");
		/* groups_alloc(), or a clone of it (groups_alloc.part.0+...) */
		ours = field(line, "call_site", site, sizeof(site)) &&
		       !strncmp(site, "groups_alloc", 12) && strchr("+.", site[12]);
		if (mw.pending >= 0 && !null_ptr(ptr)) {	/* its cache's refill */
			o = &mw.obj[mw.pending];
			o->live = 0;
			o->refill = 1;
			mw.refills += ours;
			mw.refills_gt0 += ours && o->order > 0;
			mw.pending = -1;
		}
		if (null_ptr(ptr) || bytes <= 0 || !ours)
			return;
		o = mem_add();
		snprintf(o->ptr, sizeof(o->ptr), "%s", ptr);
		o->bytes = bytes;
		o->req = field_num(line, "bytes_req");
		mem_hold(o);
		/* then a page a block: held as they come, never a refill */
		mw.blocks = (mw.n + page / 4 - 1) / (page / 4);
	} else if (is_event(line, "kmalloc")) {
		field(line, "ptr", ptr, sizeof(ptr));
		req = field_num(line, "bytes_req");
		bytes = field_num(line, "bytes_alloc");
		/*
		 * 6.12's __do_kmalloc_node() traces a kmalloc_large() once more
		 * after __kmalloc_large_node_noprof() has, failed or not: an
		 * event repeating the one before it is that call again, and so
		 * is one for a pointer still held (a block cannot be handed out
		 * twice before its kfree()).
		 */
		if ((last.valid && !strcmp(last.ptr, ptr) && last.req == req &&
		     last.bytes == bytes) || (!null_ptr(ptr) && mem_find(ptr, 0))) {
			mem_settle();
			return;
		}
		snprintf(last.ptr, sizeof(last.ptr), "%s", ptr);
		last.req = req;
		last.bytes = bytes;
		last.valid = 1;
		mw.requests += req > page;
		if (mw.pending >= 0 && !null_ptr(ptr) && bytes > 0) {
			o = &mw.obj[mw.pending];
			if (bytes <= 2 * page) {		/* SLUB refilling a cache */
				o->live = 0;
				o->refill = 1;
				mw.refills++;
				mw.refills_gt0 += o->order > 0;
				mw.pending = -1;
			} else if (bytes == o->bytes) {		/* kmalloc_large() */
				snprintf(o->ptr, sizeof(o->ptr), "%s", ptr);
				o->req = req;
				mem_settle();
				return;
			}
		}
		mem_settle();
		if (null_ptr(ptr) || bytes <= 0)
			return;				/* failed (kvmalloc goes on) */
		o = mem_add();
		snprintf(o->ptr, sizeof(o->ptr), "%s", ptr);
		o->bytes = bytes;
		o->req = req;
		mem_hold(o);
	}
}

/* Feed the complete lines of @text to mem_event(); returns the bytes used */
static size_t mem_lines(char *text, size_t len, long page, int counting)
{
	size_t start = 0, i;

	for (i = 0; i < len; i++)
		if (text[i] == '\n') {
			text[i] = '\0';
			mem_event(text + start, page, counting);
			start = i + 1;
		}
	return start;
}

/* The vmalloc areas with pages in @after but not in @before */
static void mem_vmalloc(const char *before, char *after, long page)
{
	char *line, *save = NULL;

	for (line = strtok_r(after, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *p = strstr(line, " pages=");

		if (!p || !strstr(line, " vmalloc") || strstr(before, line))
			continue;
		mw.vmalloc_areas++;
		mw.vmalloc_bytes += atol(p + 7) * page;
	}
}

static int mem_live(void)
{
	int i, n = 0;

	for (i = 0; i < mw.nobj; i++)
		n += mw.obj[i].live;
	return n;
}

/*
 * Replace the set with an empty one, tracing frees of every task, until
 * what the window left held has all been freed (by RCU), or a timeout.
 */
static void mem_verify_freed(long page)
{
	static char buf[65536];
	size_t len = 0, used;
	double deadline;
	int fd;
	ssize_t r;

	mw.freed = 0;
	if (!mem_verify) {
		if (sys_setgroups(0, NULL))
			die("setgroups");
		return;
	}
	write_file(TRACING "/set_event_pid", "");
	write_file(TRACING "/trace", "");
	write_file(TRACING "/tracing_on", "1");
	if (sys_setgroups(0, NULL))
		die("setgroups");
	/*
	 * Only now: an open file holds the cred it was opened with (f_cred),
	 * and with it the set.  What was freed meanwhile is in the buffer.
	 */
	fd = open(TRACING "/trace_pipe", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		die("trace_pipe");
	deadline = now_ns() + MEM_FREE_WAIT_NS;
	while (mem_live() && now_ns() < deadline) {
		r = read(fd, buf + len, sizeof(buf) - len - 1);
		if (r <= 0) {
			usleep(2000);
			continue;
		}
		len += r;
		used = mem_lines(buf, len, page, 0);
		if (!used && len == sizeof(buf) - 1)
			used = len;		/* a line longer than the buffer */
		memmove(buf, buf + used, len - used);
		len -= used;
	}
	write_file(TRACING "/tracing_on", "0");
	close(fd);
	mw.verified = !mem_live();
	if (!mw.verified) {
		printf("MEM: %d block(s) of the set not seen freed in %.0f s: "
		       "no more verification in this boot\n", mem_live(), MEM_FREE_WAIT_NS / 1e9);
		mem_verify = 0;
	}
}

/* One measured setgroups(n, g) from an empty set; the result is in mw */
static void mem_window(int n, const gid_t *g, long page)
{
	char pid[32], *before, *after, *trace;
	int i, on;

	memset(&mw, 0, sizeof(mw));
	mw.pending = -1;
	mw.n = n;
	if (sys_setgroups(0, NULL))
		die("setgroups");
	before = read_file("/proc/vmallocinfo");
	snprintf(pid, sizeof(pid), "%d", getpid());
	write_file(TRACING "/set_event_pid", pid);
	write_file(TRACING "/trace", "");
	/*
	 * tracing_on is opened before the window: an open() in it would add
	 * its own allocations (getname()'s names_cache object, whose slab a
	 * SLUB_TINY kernel takes as an order-1 block and frees at once).
	 */
	on = open(TRACING "/tracing_on", O_WRONLY | O_CLOEXEC);
	if (on < 0 || write(on, "1", 1) != 1)
		die("tracing_on");
	if (sys_setgroups(n, g))
		die("setgroups");
	if (write(on, "0", 1) != 1)
		die("tracing_on");
	close(on);

	trace = read_file(TRACING "/trace");
	if (!trace)
		die("reading the trace");
	mem_lines(trace, strlen(trace), page, 1);
	mem_settle();
	free(trace);
	if (mw.lost) {
		printf("groups_bench: trace events lost in setgroups(%d)\n", n);
		exit(1);
	}
	/* Pages of order > 0 that no kmalloc took and no slab refill: requests too */
	for (i = 0; i < mw.nobj; i++) {
		struct mem_obj *o = &mw.obj[i];

		mw.requests += o->pfn && o->order > 0 && !o->ptr[0] && !o->refill;
		o->kept = o->live;
	}

	after = read_file("/proc/vmallocinfo");
	if (before && after)
		mem_vmalloc(before, after, page);
	free(before);
	free(after);
	mw.held += mw.vmalloc_bytes;
	mw.peak += mw.vmalloc_bytes;

	mem_verify_freed(page);
}

/* What the window allocated, grouped: "held: 1 x kmalloc 1024 (asked 772), ..." */
static void mem_describe(int n)
{
	char line[1024];
	size_t len;
	int i, j, live;

	len = snprintf(line, sizeof(line), "MEM %d:", n);
	for (live = 1; live >= 0; live--) {
		int done[MEM_MAX_OBJS] = { 0 }, any = 0;

		len += snprintf(line + len, sizeof(line) - len, " %s", live ? "held" : "freed again");
		for (i = 0; i < mw.nobj && len < sizeof(line) - 80; i++) {
			const struct mem_obj *o = &mw.obj[i];
			int count = 0;

			if (done[i] || o->refill || o->kept != live)
				continue;
			for (j = i; j < mw.nobj; j++)
				if (!done[j] && !mw.obj[j].refill && mw.obj[j].kept == live &&
				    mw.obj[j].bytes == o->bytes && !mw.obj[j].pfn == !o->pfn &&
				    !mw.obj[j].ptr[0] == !o->ptr[0] && mw.obj[j].req == o->req) {
					done[j] = 1;
					count++;
				}
			len += snprintf(line + len, sizeof(line) - len, "%s %d x %s %ld",
					any++ ? "," : "", count,
					!o->pfn ? "kmalloc" : o->ptr[0] ? "kmalloc_large" : "pages",
					o->bytes);
			if (o->req)
				len += snprintf(line + len, sizeof(line) - len, " (asked %ld)",
						o->req);
		}
		if (!any)
			len += snprintf(line + len, sizeof(line) - len, " nothing");
		len += snprintf(line + len, sizeof(line) - len, ";");
	}
	printf("%s vmalloc %d area(s) %ld; slab refills %d (order > 0: %d); freed once replaced %ld\n",
	       line, mw.vmalloc_areas, mw.vmalloc_bytes, mw.refills, mw.refills_gt0, mw.freed);
}

static void bench_memory(int n, gid_t *g)
{
	static struct mem_window best;
	long page = sysconf(_SC_PAGESIZE), peak = 0;
	int c, requests = 0, refills_gt0 = 0, areas = 0;
	size_t e;
	char path[128];

	if (access(TRACING "/events/kmem/kmalloc/enable", W_OK))
		return;		/* no tracing: make bench fails on the missing figures */
	write_file(TRACING "/tracing_on", "0");
	write_file(TRACING "/options/hash-ptr", "0");	/* %p as it is */
	for (e = 0; e < sizeof(mem_events) / sizeof(mem_events[0]); e++) {
		snprintf(path, sizeof(path), TRACING "/events/kmem/%s/enable", mem_events[e]);
		if (write_file(path, "1"))
			die(path);
	}
	for (c = 0; c < MEM_CALLS; c++) {
		fill(g, n, RANDOM, BASE + c * (gid_t)n);
		mem_window(n, g, page);
		requests += mw.requests;
		refills_gt0 += mw.refills_gt0;
		areas = mw.vmalloc_areas > areas ? mw.vmalloc_areas : areas;
		peak = mw.peak > peak ? mw.peak : peak;
		/* the least: an interrupt on this task can only add */
		if (!c || mw.held < best.held)
			best = mw;
	}
	/* The events stay off outside: a probe costs even with tracing off. */
	for (e = 0; e < sizeof(mem_events) / sizeof(mem_events[0]); e++) {
		snprintf(path, sizeof(path), TRACING "/events/kmem/%s/enable", mem_events[e]);
		write_file(path, "0");
	}
	write_file(TRACING "/set_event_pid", "");
	write_file(TRACING "/trace", "");

	mw = best;
	mem_describe(n);
	report("mem_measured", n, best.held);
	report("mem_peak", n, peak);
	if (best.verified)
		report("mem_freed", n, best.freed);
	report("requests_gt_page", n, (double)requests / MEM_CALLS);
	report("slab_refills_gt0", n, (double)refills_gt0 / MEM_CALLS);
	report("vmalloc_areas", n, areas);
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

/* Add @n to the sizes, kept in order and once each; @timed: all the benchmarks */
static int add_size(int *sizes, int *timed, int nsizes, int n, int is_timed)
{
	int i, j;

	for (i = 0; i < nsizes && sizes[i] < n; i++)
		;
	if (i < nsizes && sizes[i] == n) {
		timed[i] |= is_timed;
		return nsizes;
	}
	for (j = nsizes; j > i; j--) {
		sizes[j] = sizes[j - 1];
		timed[j] = timed[j - 1];
	}
	sizes[i] = n;
	timed[i] = is_timed;
	return nsizes + 1;
}

int main(int argc, char **argv)
{
	int sizes[16], timed[16], nsizes = 0, i, compat16 = 0, lookups = 0;
	long per_page = sysconf(_SC_PAGESIZE) / sizeof(gid_t);
	gid_t *g = malloc(sizeof(gid_t) * (NGROUPS_MAX + 1));
	gid_t *buf = malloc(sizeof(gid_t) * (NGROUPS_MAX + 1));
	const int fixed[] = { 0, 1, 8, 32, 33 };
	/* The memory of these is measured whatever the page size. */
	const int memory[] = { 1023, 10000, NGROUPS_MAX };

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--compat16"))
			compat16 = 1;
		else if (!strcmp(argv[i], "--lookups"))
			lookups = 1;
		else if (!strcmp(argv[i], "--module") && i + 1 < argc)
			load_module(argv[++i]);
	}
	mount("tracefs", TRACING, "tracefs", 0, NULL);

	/* The sizes of the targets; the block edges follow the page size. */
	for (i = 0; i < 5; i++)
		nsizes = add_size(sizes, timed, nsizes, fixed[i], 1);
	nsizes = add_size(sizes, timed, nsizes, per_page - 1, 1);
	nsizes = add_size(sizes, timed, nsizes, per_page, 1);
	nsizes = add_size(sizes, timed, nsizes, per_page + 1, 1);
	if (per_page + 1 < 10000)
		nsizes = add_size(sizes, timed, nsizes, 10000, 1);
	nsizes = add_size(sizes, timed, nsizes, NGROUPS_MAX, 1);
	/* Memory only: the timed sizes stay those of the targets. */
	for (i = 0; i < 3; i++)
		nsizes = add_size(sizes, timed, nsizes, memory[i], 0);

	printf("BENCH page_size 0 %ld\n", per_page * 4);
	for (i = 0; i < nsizes; i++) {
		int n = sizes[i];

		if (compat16 && timed[i]) {
			bench_compat16(n);
		} else if (lookups && timed[i]) {
			bench_lookup(n, g);
		} else if (!compat16 && !lookups) {
			if (timed[i]) {
				bench_set_get(n, g, buf);
				bench_lookup(n, g);
				bench_fork(n, g);
			}
			bench_memory(n, g);
		}
	}
	return 0;
}
