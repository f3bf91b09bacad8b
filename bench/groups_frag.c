// SPDX-License-Identifier: GPL-2.0
/*
 * make bench-frag: setgroups() of 10,000 and 65,536 gids in fragmented
 * memory and inside a memory cgroup near its limit, run as root inside a
 * guest by qemu/bench_frag.py, on the vanilla and on the patched kernel
 * alike (same config: kconfig/bench.config + kconfig/frag.config).
 *
 *	groups_frag [--fill-mb N] [--keep N] [--calls N] [--clean-calls N]
 *		    [--loop-seconds S] [--fill-seconds S] [--cg-headroom-kb K]
 *		    [--no-cgroup] [--probe]
 *	groups_frag --hold [--fill-mb N] [--keep N]
 *
 * Output, one line each:
 *
 *	BENCH <metric> <N> <value>	machine-parseable, as groups_bench's
 *	FRAG <text>			for people: buddyinfo, pagetypeinfo, notes
 *	groups_frag: <text>		something it needs failed: the run is void
 *
 * --hold fragments memory as below, prints "FRAG held" and keeps it so
 * until it is killed: the fragmented memory of make bench-nfs.
 *
 * In one boot, in this order:
 *
 *   clean	the timed loops and the cgroup test in a freshly booted guest
 *   fragment	(below)
 *   frag	the same timed loops and cgroup test in the fragmented memory
 *
 * Why 10,000 and 65,536: in 6.1 groups_alloc() is kvmalloc(8 + 4 * N,
 * GFP_KERNEL_ACCOUNT), so 40,008 bytes (kmalloc_large(), an order-4 block)
 * and 262,152 bytes (order 7).  kvmalloc_node() (mm/util.c) tries kmalloc
 * first with __GFP_NORETRY | __GFP_NOWARN, then falls back to vmalloc.  The
 * patched kernel takes a header of at most a page and order-0 pages.  Both
 * orders are "costly" (> PAGE_ALLOC_COSTLY_ORDER, 3), the orders that the
 * page allocator gives up on rather than OOM-kill for.
 *
 * ---- Fragmenting memory so that compaction cannot undo it ----
 *
 * The filler.  Anonymous memory (mmap and touch) or tmpfs pages would be
 * the obvious filler, but they are movable: they sit on the LRU and
 * compaction migrates them, rebuilding an order-4 or order-7 block on
 * demand, which is what vanilla's kvmalloc() counts on.  So the pages are
 * pipe buffers: pipe_write() (fs/pipe.c) takes one page per PAGE_SIZE
 * write with alloc_page(GFP_HIGHUSER | __GFP_ACCOUNT), which has no
 * __GFP_MOVABLE (MIGRATE_UNMOVABLE), puts it on no LRU list and gives it
 * no movable_operations: no compaction, migration or reclaim can move or
 * free it while the pipe holds it.  One write, one order-0 page, exactly
 * (a socket's receive queue takes page_frag chunks of order-3 pages and
 * kmalloc()ed heads instead: no such one-to-one control).
 *
 * The pattern.  Page i of the fill goes to a pipe that is kept when
 * i % KEEP == 0 (KEEP 16), else to one that is closed afterwards.
 * Consecutive order-0 allocations come off the per-CPU list in the order
 * rmqueue_bulk() put them there, taken one by one by __rmqueue_smallest()
 * from a split block: ascending pfns.  So every aligned 16-page block keeps
 * one pinned page, and its 15 others come back as free blocks of orders 0,
 * 1, 2 and 3 (one of each) that can never merge to order 4.  Free memory is
 * then 15/16 of what was filled, in non-costly orders only: kernel stacks
 * (order 2), slab pages (up to order 3), fork and threads keep working,
 * while every costly order fails.  Freeing every other page instead would
 * leave only order-0 blocks, and the guest's own order-1 to order-3
 * allocations (which retry and call the OOM killer rather than fail) would
 * break the guest before setgroups() is measured.
 *
 * The rest of memory.  Only --fill-mb MiB are filled (1 GiB of the 2 GiB
 * guest: seconds under TCG, where filling all of it would take twice as
 * long); the free memory left outside would still hold order-10 blocks.
 * So, the "grab": while /proc/buddyinfo shows a free block of an order >=
 * 4, one is taken at the highest such order by an unmovable kernel
 * allocation of exactly that order: an empty pipe whose ring is resized
 * with F_SETPIPE_SZ (pipe_resize_ring() kcalloc()s nr_slots pipe_buffers
 * of 40 bytes: above 2 pages that is kmalloc_large(), a block of order
 * get_order(40 * nr_slots)).  The grab also repairs any aligned 16-page
 * block of the fill that the pfn order above missed.
 *
 * Why compaction cannot undo it.  Vanilla's kmalloc attempt carries
 * __GFP_NORETRY, so its direct compaction runs at COMPACT_PRIO_ASYNC only
 * (__alloc_pages_slowpath()), and async direct compaction for an unmovable
 * request takes pages to migrate only from MIGRATE_UNMOVABLE pageblocks
 * (suitable_migration_source()) and free pages to migrate them to only in
 * movable ones (suitable_migration_target()).  The fill's pageblocks became
 * UNMOVABLE when the unmovable pipe pages stole them (a fallback for an
 * unmovable request claims the whole pageblock) and hold nothing that can
 * migrate; the grabbed blocks are kernel memory.  kcompactd, woken by
 * kswapd for the failed order, compacts synchronously over every block,
 * but what it can move (this program's pages and the initramfs's tmpfs
 * pages, a few MiB) cannot empty an aligned 16-page block that holds a
 * pipe page.
 *
 * How it is verified: buddyinfo and pagetypeinfo at boot, after
 * fragmenting and at the end ("FRAG" lines and buddy_<when> <order> <count>
 * metrics); frag_free_ge4 (free blocks of order >= 4 once fragmented: 0);
 * before each loop the grab runs again and <phase>_free_ge4_before must be
 * 0 (what the loop starts from), <phase>_free_ge4_after says whether
 * anything (kcompactd, frees) rebuilt a costly block during it; and the
 * /proc/vmstat deltas over each loop (compact_stall, compact_fail,
 * compact_success, compact_daemon_*, allocstall_*).
 *
 * ---- The timed loops ----
 *
 * --calls setgroups() (--clean-calls before fragmenting) of N random gids,
 * new ones before each call (filled outside the timed window), each call
 * timed alone with CLOCK_MONOTONIC, at most --loop-seconds per loop; median,
 * 99th percentile (nearest rank), max, ENOMEM failures.  After each call
 * /proc/vmallocinfo is read: "vmalloc_sets" counts the calls whose new set
 * is in a vmalloc area (an area allocated by groups_alloc() that was not
 * there after the previous call), "vmalloc_areas_max" the most such areas
 * alive at once.  In 6.1 the caller shown is kvmalloc_node()'s
 * __builtin_return_address(0), printed with %pS: groups_alloc+0x../0x..
 * (or the setgroups syscall it was inlined into) with CONFIG_KALLSYMS
 * (frag.config), a bare address without; areas are told apart by address,
 * real addresses under kptr_restrict 1 (set here and restored).
 *
 * ---- The memory cgroup test ----
 *
 * Each setgroups() replaces the calling task's set, so one task holds one
 * set whatever it does; sets accumulate only in tasks of their own.  A
 * child process is moved into a new cgroup2 group, sets its oom_score_adj
 * to -1000 and starts T threads (their stacks and kernel stacks charged
 * there); memory.max is then set to memory.current + --cg-headroom-kb.
 * The threads then call the raw setgroups syscall (glibc's setgroups()
 * would change every thread) one after another, each with 65,536 gids,
 * each keeping its set, until one fails.  What is compared between the
 * kernels: how many sets of 65,536 fit in the same headroom (cg_sets),
 * memory.current's growth per set ((after - before) / sets: less than a
 * set's charge when the group's other memory is reclaimed for it), and the
 * memory.events deltas (max: charges that hit the limit; oom; oom_kill).
 * Vanilla charges what kvmalloc() got: a kmalloc_large() block of 128
 * pages (512 KiB) when the order-7 block and its charge succeed, else 65
 * vmalloc()ed pages; the patched kernel 64 pages and a 784-byte table object.
 *
 * The failing call: an order-0 charge that cannot be reclaimed goes to the
 * memcg OOM killer (try_charge_memcg()), which finds no killable task
 * (oom_score_adj -1000), prints its report ("invoked oom-killer", a stack
 * dump) and lets the charge fail: setgroups() returns ENOMEM.  The report
 * is expected: the child is the only task in the group and nothing else is
 * killed.  bench_frag.py accepts a stack dump only inside an OOM or
 * allocation failure report between "groups_frag cgroup-begin" and
 * "groups_frag cgroup-end", which the program also writes to the kernel's
 * log (/dev/kmsg): where the console prints the kernel's messages after
 * the program's own lines (7.3's printing threads, two vCPUs), the
 * kernel's log still has them in order.  oom_dump_tasks is 0 meanwhile,
 * to keep the report short.
 * The parent (outside the group) does every read and write of the cgroup
 * files: in the group, near its limit, even opening a file could fail.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../robust/guest.h"

#define MIN_ORDER	4	/* PAGE_ALLOC_COSTLY_ORDER + 1 */
#define MAX_ORDERS	16
#define PIPE_BUFFER_BYTES 40	/* sizeof(struct pipe_buffer), 64-bit kernels (6.1) */
#define PIPE_PAGES	256	/* pages per fill pipe: 1 MiB, pipe-max-size */
#define MAX_GRABS	4096
#define MAX_AREAS	4096
#define MAX_THREADS	1024
#define CGROOT		"/sys/fs/cgroup"

static const int sizes[] = { 10000, NGROUPS_MAX };
#define NSIZES		((int)(sizeof(sizes) / sizeof(sizes[0])))

static struct {
	long fill_mb, keep, calls, clean_calls, cg_headroom_kb;
	double loop_seconds, fill_seconds;
	int cgroup, probe, hold;
} opt = { 1024, 16, 200, 100, 16384, 120, 300, 1, 0 };

static long page;
static int fragmented;		/* after fragment(): grab() keeps it so */

/* ---------------------------------------------------------------- helpers */

static void report(const char *phase, const char *metric, long n, double value)
{
	printf("BENCH %s%s%s %ld %.1f\n", phase, *phase ? "_" : "", metric, n, value);
	fflush(stdout);
}

/* The number after "key" at the start of a line of @text ("key value" or "key: value") */
static long long key_value(const char *text, const char *key, int *found)
{
	size_t klen = strlen(key);
	const char *p = text;

	*found = 0;
	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] && strchr(" :\t", p[klen])) {
			*found = 1;
			return strtoll(p + klen + 1 + strspn(p + klen + 1, " :\t"), NULL, 10);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static long long file_value(const char *path, const char *key)
{
	char *text = read_file(path);
	long long v = -1;
	int found;

	if (text) {
		v = key_value(text, key, &found);
		if (!found)
			v = -1;
	}
	free(text);
	return v;
}

static void print_file(const char *label, const char *path)
{
	char *text = read_file(path), *line, *save = NULL;

	if (!text) {
		printf("FRAG %s: %s unreadable: %s\n", label, path, strerror(errno));
		return;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("FRAG %s: %s\n", label, line);
	fflush(stdout);
	free(text);
}

static struct rng rng = { .state = 2024 };

/* @n random gids: duplicates possible (rare), never the invalid (gid_t)-1 */
static void fill_random(gid_t *g, int n)
{
	int i;

	for (i = 0; i < n; i++)
		g[i] = 1 + rng_below(&rng, 0x7ffffffe);
}

/* ---------------------------------------------------------------- buddyinfo */

/*
 * Free blocks per order, summed over the zones of /proc/buddyinfo
 * ("Node 0, zone   DMA32    3    1 ..."); returns the number of orders.
 */
static int buddy_read(long long *count)
{
	char *text = read_file("/proc/buddyinfo"), *line, *save = NULL;
	int orders = 0;

	memset(count, 0, sizeof(*count) * MAX_ORDERS);
	if (!text)
		die("/proc/buddyinfo");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strstr(line, "zone");
		int o = 0;

		if (!p)
			continue;
		p += 4;
		p += strspn(p, " ");
		p += strcspn(p, " ");		/* the zone's name */
		while (*p && o < MAX_ORDERS) {
			char *end;
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			count[o++] += v;
			p = end;
		}
		if (o > orders)
			orders = o;
	}
	free(text);
	return orders;
}

static long long free_ge(int min_order)
{
	long long count[MAX_ORDERS], sum = 0;
	int o, orders = buddy_read(count);

	for (o = min_order; o < orders; o++)
		sum += count[o];
	return sum;
}

/* buddy_<when> <order> <free blocks>, and the raw files */
static void buddy_report(const char *when)
{
	long long count[MAX_ORDERS];
	int o, orders = buddy_read(count);
	char name[64];

	snprintf(name, sizeof(name), "buddy_%s", when);
	for (o = 0; o < orders; o++)
		report("", name, o, count[o]);
	snprintf(name, sizeof(name), "buddyinfo[%s]", when);
	print_file(name, "/proc/buddyinfo");
	snprintf(name, sizeof(name), "pagetypeinfo[%s]", when);
	print_file(name, "/proc/pagetypeinfo");
	snprintf(name, sizeof(name), "memfree_kb_%s", when);
	report("", name, 0, file_value("/proc/meminfo", "MemFree"));
}

/* ---------------------------------------------------------------- vmstat */

#define MAX_KV	512

struct kv {
	char name[48];
	long long value;
};

static int vmstat_read(struct kv *kv)
{
	char *text = read_file("/proc/vmstat"), *line, *save = NULL;
	int n = 0;

	if (!text)
		die("/proc/vmstat");
	for (line = strtok_r(text, "\n", &save); line && n < MAX_KV;
	     line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (!sp || sp - line >= (long)sizeof(kv[n].name))
			continue;
		memcpy(kv[n].name, line, sp - line);
		kv[n].name[sp - line] = '\0';
		kv[n].value = strtoll(sp + 1, NULL, 10);
		n++;
	}
	free(text);
	return n;
}

static long long kv_get(const struct kv *kv, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(kv[i].name, name))
			return kv[i].value;
	return 0;
}

/* What vanilla's failed high-order attempts cost, as /proc/vmstat counts it */
static int vm_wanted(const char *name)
{
	return !strncmp(name, "compact_", 8) || !strncmp(name, "allocstall", 10) ||
	       !strcmp(name, "pageoutrun") || !strcmp(name, "pgscan_direct") ||
	       !strcmp(name, "kswapd_high_wmark_hit_quickly") ||
	       !strcmp(name, "kswapd_low_wmark_hit_quickly");
}

static void vmstat_delta(const char *phase, int n, const struct kv *a, int na,
			 const struct kv *b, int nb)
{
	long long allocstall = 0;
	char name[64];
	int i;

	for (i = 0; i < nb; i++) {
		long long d = b[i].value - kv_get(a, na, b[i].name);

		if (!vm_wanted(b[i].name))
			continue;
		if (!strncmp(b[i].name, "allocstall", 10)) {
			allocstall += d;
			continue;
		}
		snprintf(name, sizeof(name), "vm_%.47s", b[i].name);
		report(phase, name, n, d);
	}
	report(phase, "vm_allocstall", n, allocstall);
}

/* ---------------------------------------------------------------- vmallocinfo */

struct areas {
	unsigned long long addr[MAX_AREAS];
	int n;			/* the group lists' areas */
	int any;		/* every vmalloc area */
};

static int symbolized = -1;	/* does vmallocinfo name its callers? */
static char first_caller[128];

/* Does the vmallocinfo line carry the flag word @flag (" vmalloc", not " vmalloc_user+0x..")? */
static int has_flag(const char *line, const char *flag)
{
	size_t len = strlen(flag);
	const char *p;

	for (p = strstr(line, flag); p; p = strstr(p + 1, flag))
		if (p > line && p[-1] == ' ' && (p[len] == ' ' || p[len] == '\0'))
			return 1;
	return 0;
}

/* Was this area allocated for a group list?  @caller: "sym+0x1/0x2" or "0x..." */
static int group_caller(const char *caller, const char *line, int n)
{
	size_t len = strcspn(caller, "+ ");
	const char *p = strstr(line, " pages=");
	char sym[96];

	if (!symbolized)	/* no KALLSYMS: the area's pages, 8 + 4n bytes rounded up */
		return p && atol(p + 7) == (8 + 4L * n + page - 1) / page;
	if (len >= sizeof(sym))
		return 0;
	memcpy(sym, caller, len);
	sym[len] = '\0';
	return !strcmp(sym, "groups_alloc") || strstr(sym, "setgroups");
}

/*
 * One line of /proc/vmallocinfo into @a:
 * "0xffffc90000123000-0xffffc90000165000  270336 groups_alloc+0x1d/0x50 pages=65 vmalloc N0=65"
 */
static void area_line(struct areas *a, const char *line, int n)
{
	const char *p = line, *caller;

	if (!has_flag(line, "vmalloc"))
		return;
	a->any++;
	p += strcspn(p, " ");			/* range */
	p += strspn(p, " ");
	p += strcspn(p, " ");			/* size */
	caller = p + strspn(p, " ");
	if (!group_caller(caller, line, n) || a->n == MAX_AREAS)
		return;
	if (!first_caller[0])
		snprintf(first_caller, sizeof(first_caller), "%.*s",
			 (int)strcspn(caller, " "), caller);
	a->addr[a->n++] = strtoull(line, NULL, 16);
}

/* The vmalloc areas of group lists of @n gids now, by address */
static void areas_read(struct areas *a, int n)
{
	char *text = read_file("/proc/vmallocinfo"), *line, *save = NULL;

	a->n = a->any = 0;
	if (!text)
		die("/proc/vmallocinfo");
	if (symbolized < 0)
		symbolized = strstr(text, "+0x") != NULL;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		area_line(a, line, n);
	free(text);
}

/* How many areas of @b are not in @a */
static int areas_new(const struct areas *a, const struct areas *b)
{
	int i, j, fresh = 0;

	for (i = 0; i < b->n; i++) {
		for (j = 0; j < a->n && a->addr[j] != b->addr[i]; j++)
			;
		fresh += j == a->n;
	}
	return fresh;
}

/* ---------------------------------------------------------------- fragmenting */

struct fds {
	int *fd;
	int n, cap;
};

static struct fds kept, released, grabbed;

static void fds_add(struct fds *f, int fd)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 1024;
		f->fd = realloc(f->fd, sizeof(int) * f->cap);
		if (!f->fd)
			die("realloc");
	}
	f->fd[f->n++] = fd;
}

/* A pipe of @pages pages (F_SETPIPE_SZ); its read end in @rd, write end returned */
static int pipe_of(long pages, int *rd)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		die("pipe2");
	if (fcntl(p[1], F_SETPIPE_SZ, (int)(pages * page)) < pages * page)
		die("F_SETPIPE_SZ");
	*rd = p[0];
	return p[1];
}

/* Pipe slots whose ring, kcalloc(slots, 40), is a block of exactly @order */
static unsigned long slots_for_order(int order)
{
	unsigned long half = ((unsigned long)page << order) / 2, s = 1;

	while (s * PIPE_BUFFER_BYTES <= half)
		s <<= 1;
	return s;
}

/*
 * Take every free block of order >= MIN_ORDER, largest first, with pipe
 * rings of that order; returns the free blocks of order >= MIN_ORDER left.
 * Reports <phase>_<what>_blocks <n> ... (quiet: only when it took or tried any).
 */
static long long grab(const char *phase, const char *what, int n, int quiet)
{
	long long count[MAX_ORDERS], pages = 0, left;
	int o, orders, blocks = 0, failures = 0, i, ceiling = MAX_ORDERS - 1;
	double t0 = now_s();
	char name[64];

	for (i = 0; i < MAX_GRABS && failures < 4; i++) {
		unsigned long slots;
		int p[2];

		orders = buddy_read(count);
		o = orders - 1 < ceiling ? orders - 1 : ceiling;
		while (o >= MIN_ORDER && !count[o])
			o--;
		if (o < MIN_ORDER)
			break;
		slots = slots_for_order(o);
		if (slots * page > (1UL << 30)) {
			printf("FRAG grab: order %d needs a pipe of %lu pages: too large\n",
			       o, slots);
			break;
		}
		if (pipe2(p, O_CLOEXEC))
			die("pipe2");
		close(p[1]);
		if (fcntl(p[0], F_SETPIPE_SZ, (int)(slots * page)) < 0) {
			/*
			 * Raced, or a block that GFP_KERNEL cannot have (a
			 * highatomic reserve, a zone's lowmem reserve): nor can
			 * kvmalloc().  Go on below it.
			 */
			printf("FRAG grab: order %d: %s\n", o, strerror(errno));
			close(p[0]);
			failures++;
			ceiling = o - 1;
			continue;
		}
		fds_add(&grabbed, p[0]);
		blocks++;
		pages += 1LL << o;
	}
	left = free_ge(MIN_ORDER);
	if (!quiet || blocks || failures) {
		snprintf(name, sizeof(name), "%s_blocks", what);
		report(phase, name, n, blocks);
		snprintf(name, sizeof(name), "%s_pages", what);
		report(phase, name, n, pages);
		snprintf(name, sizeof(name), "%s_failures", what);
		report(phase, name, n, failures);
		snprintf(name, sizeof(name), "%s_ms", what);
		report(phase, name, n, (now_s() - t0) * 1e3);
	}
	return left;
}

/* Fill, release, grab: see the top of the file */
static void fragment(void)
{
	long long memfree = file_value("/proc/meminfo", "MemFree") * 1024;
	long long reserve = 192LL << 20, pages = (long long)opt.fill_mb << 20, i, written = 0;
	int wk = -1, rk = -1, wr = -1, rr = -1, nk = 0, nr = 0, j;
	double t0 = now_s(), t1, t2;
	char *buf = malloc(page);

	if (!buf)
		die("malloc");
	memset(buf, 0x5a, page);
	if (pages > memfree - reserve)
		pages = memfree - reserve;
	pages /= page;
	printf("FRAG fill: %lld pages (%lld MiB of %lld MiB free), one in %ld kept\n",
	       pages, pages * page >> 20, memfree >> 20, opt.keep);
	for (i = 0; i < pages; i++) {
		int keep = i % opt.keep == 0;
		int *w = keep ? &wk : &wr, *r = keep ? &rk : &rr, *count = keep ? &nk : &nr;

		if (*w < 0 || *count == PIPE_PAGES) {
			if (*w >= 0) {
				close(*w);
				fds_add(keep ? &kept : &released, *r);
			}
			*w = pipe_of(PIPE_PAGES, r);
			*count = 0;
		}
		if (write(*w, buf, page) != page) {
			printf("FRAG fill: stopped at page %lld: %s\n", i, strerror(errno));
			break;
		}
		(*count)++;
		written++;
		if (i % 4096 == 4095) {
			if (now_s() - t0 > opt.fill_seconds) {
				printf("FRAG fill: stopped at page %lld: --fill-seconds %.0f\n",
				       i + 1, opt.fill_seconds);
				break;
			}
			if (file_value("/proc/meminfo", "MemFree") * 1024 < reserve) {
				printf("FRAG fill: stopped at page %lld: MemFree below %lld MiB\n",
				       i + 1, reserve >> 20);
				break;
			}
		}
	}
	if (wk >= 0) {
		close(wk);
		fds_add(&kept, rk);
	}
	if (wr >= 0) {
		close(wr);
		fds_add(&released, rr);
	}
	free(buf);
	t1 = now_s();
	for (j = 0; j < released.n; j++)
		close(released.fd[j]);
	t2 = now_s();
	report("frag", "fill_pages", 0, written);
	report("frag", "kept_pages", 0, (written + opt.keep - 1) / opt.keep);
	report("frag", "fill_ms", 0, (t1 - t0) * 1e3);
	report("frag", "release_ms", 0, (t2 - t1) * 1e3);
	fragmented = 1;
	report("frag", "free_ge4", 0, grab("frag", "grab", 0, 0));
}

/* "FRAG <what> <phase>" on the console, and "groups_frag <what> <phase>" in the kernel's log */
static void marker(const char *what, const char *phase)
{
	char text[128];

	printf("FRAG %s %s\n", what, phase);
	fflush(stdout);
	snprintf(text, sizeof(text), "groups_frag %s %s\n", what, phase);
	if (write_file("/dev/kmsg", text))
		printf("FRAG /dev/kmsg: %s\n", strerror(errno));
}

/* ---------------------------------------------------------------- timed loops */

/*
 * x86's "TLB:" line of /proc/interrupts, summed over the CPUs: the TLB-flush
 * IPIs received, among them those of vmalloc's lazy purge after vfree()
 * (flush_tlb_kernel_range()).  -1 where the architecture has no such line
 * (arm64 broadcasts TLB maintenance in hardware, without IPIs).
 */
static long long tlb_shootdowns(void)
{
	char line[1024], *p, *end;
	long long sum = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		if (strncmp(p, "TLB:", 4))
			continue;
		for (sum = 0, p += 4;; p = end) {
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			sum += v;
		}
	}
	fclose(f);
	return sum;
}

static void timed_loop(const char *phase, int n, long calls, gid_t *g)
{
	static struct kv before[MAX_KV], after[MAX_KV];
	static struct areas prev, cur;
	double *lat = malloc(sizeof(*lat) * calls), t0, sum = 0, deadline;
	long c, k = 0, enomem = 0, errors = 0, vmalloc_sets = 0, vmalloc_new_any = 0;
	int na, nb, areas_max = 0, last_errno = 0;
	long long tlb = tlb_shootdowns();

	if (!lat)
		die("malloc");
	report(phase, "free_ge4_before", n,
	       fragmented ? grab(phase, "regrab", n, 1) : free_ge(MIN_ORDER));
	na = vmstat_read(before);
	areas_read(&prev, n);
	deadline = now_s() + opt.loop_seconds;
	for (c = 0; c < calls && now_s() < deadline; c++) {
		int any = prev.any;
		long r;

		fill_random(g, n);
		t0 = now_ns();
		r = sys_setgroups(n, g);
		t0 = now_ns() - t0;
		if (r) {
			last_errno = errno;
			if (errno == ENOMEM)
				enomem++;
			else
				errors++;
		} else {
			lat[k++] = t0;
			sum += t0;
		}
		areas_read(&cur, n);
		if (areas_new(&prev, &cur))
			vmalloc_sets++;
		if (cur.any > any)
			vmalloc_new_any += cur.any - any;
		if (cur.n > areas_max)
			areas_max = cur.n;
		prev = cur;
	}
	if (sys_setgroups(0, NULL))
		die("setgroups(0)");
	nb = vmstat_read(after);
	if (tlb >= 0)
		report(phase, "tlb_shootdowns", n, tlb_shootdowns() - tlb);
	report(phase, "free_ge4_after", n, free_ge(MIN_ORDER));
	if (errors)
		printf("FRAG %s N=%d: %ld calls failed with %s\n", phase, n, errors,
		       strerror(last_errno));

	report(phase, "calls", n, c);
	report(phase, "enomem", n, enomem);
	report(phase, "errors", n, errors);
	if (k) {
		long p99 = (99 * k + 99) / 100 - 1;	/* nearest rank */

		report(phase, "lat_median", n, median(lat, k));	/* sorts lat */
		report(phase, "lat_p99", n, lat[p99]);
		report(phase, "lat_max", n, lat[k - 1]);
		report(phase, "lat_mean", n, sum / k);
	}
	report(phase, "vmalloc_sets", n, vmalloc_sets);
	report(phase, "vmalloc_areas_max", n, areas_max);
	report(phase, "vmalloc_new_any", n, vmalloc_new_any);
	vmstat_delta(phase, n, before, na, after, nb);
	free(lat);
}

/* ---------------------------------------------------------------- cgroup test */

struct cg_shared {
	sem_t go, ready, done, finished, quit;
	sem_t turn[MAX_THREADS];
	int result[MAX_THREADS];	/* 0 or the errno of the thread's setgroups */
	int threads, sets, fail_errno, create_errno;
	int n;
	gid_t g[NGROUPS_MAX];
};

static struct cg_shared *sh;

static void *holder(void *arg)
{
	long i = (long)arg;

	while (sem_wait(&sh->turn[i]))
		;
	sh->result[i] = sys_setgroups(sh->n, sh->g) ? errno : 0;
	sem_post(&sh->done);
	for (;;)		/* hold the set until the process exits */
		pause();
	return NULL;
}

static void cg_child(void)
{
	pthread_attr_t attr;
	pthread_t th;
	long i, stack = sysconf(_SC_THREAD_STACK_MIN);

	while (sem_wait(&sh->go))	/* moved into the group */
		;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, stack > 262144 ? stack : 262144);
	for (i = 0; i < sh->threads; i++) {
		int err = pthread_create(&th, &attr, holder, (void *)i);

		if (err) {
			sh->create_errno = err;
			sh->threads = i;
			break;
		}
	}
	sem_post(&sh->ready);
	while (sem_wait(&sh->go))	/* memory.max is set */
		;
	for (i = 0; i < sh->threads; i++) {
		sem_post(&sh->turn[i]);
		while (sem_wait(&sh->done))
			;
		if (sh->result[i]) {
			sh->fail_errno = sh->result[i];
			break;
		}
		sh->sets++;
	}
	sem_post(&sh->finished);
	while (sem_wait(&sh->quit))
		;
	_exit(0);
}

/* Wait for @s up to @seconds: 0, or -1 after saying that @what never happened */
static int sem_wait_s(sem_t *s, double seconds, const char *phase, const char *what)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)seconds;
	while (sem_timedwait(s, &ts)) {
		if (errno != EINTR) {
			printf("groups_frag: cgroup %s: %s\n", phase, what);
			return -1;
		}
	}
	return 0;
}

static long long cg_value(const char *dir, const char *file, const char *key)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return key ? file_value(path, key) : read_number(path, -1);
}

static void cg_setup(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	mkdir(CGROOT, 0755);
	if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL) && errno != EBUSY)
		die("mount cgroup2 on " CGROOT);
	if (write_file(CGROOT "/cgroup.subtree_control", "+memory"))
		die(CGROOT "/cgroup.subtree_control +memory");
}

static void cgroup_test(const char *phase, int n)
{
	static const char *const events[] = { "max", "oom", "oom_kill" };
	static const char *const stats[] = { "kernel", "vmalloc", "slab_unreclaimable",
					     "kernel_stack" };
	long long ev0[3], st0[4], cur0, cur1, headroom = opt.cg_headroom_kb * 1024;
	char dir[128], path[160], text[64], *old_dump = read_file("/proc/sys/vm/oom_dump_tasks");
	static struct areas areas;
	int status, e, ok = 1;
	pid_t pid;

	cg_setup();
	report(phase, "cg_free_ge4_before", n,
	       fragmented ? grab(phase, "cg_regrab", n, 1) : free_ge(MIN_ORDER));
	snprintf(dir, sizeof(dir), CGROOT "/groups-frag-%s", phase);
	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	memset(sh, 0, sizeof(*sh));		/* touched here: charged to the parent */
	sem_init(&sh->go, 1, 0);
	sem_init(&sh->ready, 1, 0);
	sem_init(&sh->done, 1, 0);
	sem_init(&sh->finished, 1, 0);
	sem_init(&sh->quit, 1, 0);
	sh->threads = headroom / (256 * 1024) + 32;
	if (sh->threads > MAX_THREADS)
		sh->threads = MAX_THREADS;
	for (e = 0; e < sh->threads; e++)
		sem_init(&sh->turn[e], 1, 0);
	sh->n = n;
	fill_random(sh->g, n);
	write_file("/proc/sys/vm/oom_dump_tasks", "0");

	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (write_file("/proc/self/oom_score_adj", "-1000"))
			_exit(3);
		cg_child();
	}
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(text, sizeof(text), "%d", (int)pid);
	if (write_file(path, text))
		die(path);
	marker("cgroup-begin", phase);
	fflush(stdout);
	sem_post(&sh->go);
	ok = !sem_wait_s(&sh->ready, 300, phase, "the holder threads never got ready");
	if (!ok)
		goto out;
	if (sh->create_errno)
		printf("FRAG cgroup %s: %d threads only: %s\n", phase, sh->threads,
		       strerror(sh->create_errno));
	cur0 = cg_value(dir, "memory.current", NULL);
	for (e = 0; e < 3; e++)
		ev0[e] = cg_value(dir, "memory.events", events[e]);
	for (e = 0; e < 4; e++)
		st0[e] = cg_value(dir, "memory.stat", stats[e]);
	snprintf(path, sizeof(path), "%s/memory.max", dir);
	snprintf(text, sizeof(text), "%lld", cur0 + headroom);
	if (cur0 < 0 || write_file(path, text))
		die(path);
	sem_post(&sh->go);
	ok = !sem_wait_s(&sh->finished, 600, phase, "the holders never finished");
	if (!ok)
		goto out;
	cur1 = cg_value(dir, "memory.current", NULL);
	report(phase, "cg_headroom", n, headroom);
	report(phase, "cg_threads", n, sh->threads);
	report(phase, "cg_sets", n, sh->sets);
	report(phase, "cg_enomem", n, sh->fail_errno == ENOMEM);
	if (sh->fail_errno && sh->fail_errno != ENOMEM)
		printf("FRAG cgroup %s: ended on %s\n", phase, strerror(sh->fail_errno));
	report(phase, "cg_charged", n, cur1 - cur0);
	if (sh->sets)
		report(phase, "cg_bytes_per_set", n, (double)(cur1 - cur0) / sh->sets);
	for (e = 0; e < 3; e++) {
		snprintf(text, sizeof(text), "cg_events_%s", events[e]);
		report(phase, text, n, cg_value(dir, "memory.events", events[e]) - ev0[e]);
	}
	for (e = 0; e < 4; e++) {
		snprintf(text, sizeof(text), "cg_stat_%s", stats[e]);
		report(phase, text, n, cg_value(dir, "memory.stat", stats[e]) - st0[e]);
	}
	areas_read(&areas, n);
	report(phase, "cg_vmalloc_sets", n, areas.n);
out:
	sem_post(&sh->quit);
	if (!ok)
		kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("groups_frag: cgroup %s: the holder %s %d\n", phase,
		       WIFEXITED(status) ? "exited with" : "was killed by signal",
		       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	marker("cgroup-end", phase);
	fflush(stdout);
	if (old_dump)
		write_file("/proc/sys/vm/oom_dump_tasks", old_dump);
	free(old_dump);
	for (e = 0; e < 50 && rmdir(dir) && errno == EBUSY; e++)
		usleep(100000);
}

/* ---------------------------------------------------------------- main */

static void phase_run(const char *phase, long calls, gid_t *g)
{
	int i;

	for (i = 0; i < NSIZES; i++)
		timed_loop(phase, sizes[i], calls, g);
	if (opt.cgroup)
		cgroup_test(phase, NGROUPS_MAX);
}

/* --probe: read and parse what the run reads, change nothing */
static void probe(void)
{
	long long count[MAX_ORDERS];
	int o, orders = buddy_read(count);
	static struct kv kv[MAX_KV];
	static struct areas a;
	int n = vmstat_read(kv), i;

	for (o = 0; o < orders; o++)
		if (o < MIN_ORDER)
			printf("probe: order %2d: %lld free blocks\n", o, count[o]);
		else
			printf("probe: order %2d: %lld free blocks; grabbed by a pipe of %lu pages "
			       "(ring kcalloc(%lu, %d))\n", o, count[o], slots_for_order(o),
			       slots_for_order(o), PIPE_BUFFER_BYTES);
	printf("probe: free blocks of order >= %d: %lld\n", MIN_ORDER, free_ge(MIN_ORDER));
	for (i = 0; i < n; i++)
		if (vm_wanted(kv[i].name))
			printf("probe: vmstat %s %lld\n", kv[i].name, kv[i].value);
	for (i = 0; i < NSIZES; i++) {
		areas_read(&a, sizes[i]);
		printf("probe: vmalloc areas %d, of group lists of %d: %d (callers %s)\n",
		       a.any, sizes[i], a.n, symbolized ? "named" : "not named");
	}
}

static int usage(const char *arg)
{
	printf("groups_frag: unknown argument %s\n", arg);
	return 2;
}

int main(int argc, char **argv)
{
	/* flags, which set @flag to @set, and options with a number after them */
	static const struct arg {
		const char *name;
		int *flag, set;
		long *l;
		double *d;
	} args[] = {
		{ "--no-cgroup", .flag = &opt.cgroup, .set = 0 },
		{ "--hold", .flag = &opt.hold, .set = 1 },
		{ "--probe", .flag = &opt.probe, .set = 1 },
		{ "--fill-mb", .l = &opt.fill_mb },
		{ "--keep", .l = &opt.keep },
		{ "--calls", .l = &opt.calls },
		{ "--clean-calls", .l = &opt.clean_calls },
		{ "--loop-seconds", .d = &opt.loop_seconds },
		{ "--fill-seconds", .d = &opt.fill_seconds },
		{ "--cg-headroom-kb", .l = &opt.cg_headroom_kb },
	}, *a;
	gid_t *g = malloc(sizeof(gid_t) * NGROUPS_MAX);
	struct rlimit rl = { 65536, 65536 };
	char *old_kptr;
	struct utsname u;
	int i;

	page = sysconf(_SC_PAGESIZE);
	for (i = 1; i < argc; i++) {
		for (a = args; a < args + ARRAY_SIZE(args) && strcmp(a->name, argv[i]); a++)
			;
		if (a == args + ARRAY_SIZE(args) || (!a->flag && i + 1 == argc))
			return usage(argv[i]);
		if (a->flag)
			*a->flag = a->set;
		else if (a->l)
			*a->l = atol(argv[++i]);
		else
			*a->d = atof(argv[++i]);
	}
	if (!g || opt.keep < 1 || opt.calls < 1 || opt.clean_calls < 1)
		return 2;
	memset(g, 0, sizeof(gid_t) * NGROUPS_MAX);
	if (opt.probe) {
		probe();
		return 0;
	}
	if (geteuid()) {
		printf("groups_frag: run it as root\n");
		return 1;
	}
	uname(&u);
	printf("FRAG kernel %s %s, page size %ld\n", u.release, u.version, page);
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("RLIMIT_NOFILE");
	if (file_value("/proc/vmstat", "compact_stall") < 0) {
		printf("groups_frag: /proc/vmstat has no compact_stall "
		       "(CONFIG_COMPACTION, CONFIG_VM_EVENT_COUNTERS: kconfig/frag.config)\n");
		return 1;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");
	/* real addresses in vmallocinfo (%pK), to tell areas apart */
	old_kptr = read_file("/proc/sys/kernel/kptr_restrict");
	write_file("/proc/sys/kernel/kptr_restrict", "1");
	report("", "page_size", 0, page);

	buddy_report("boot");
	if (opt.hold) {
		fragment();
		buddy_report("fragmented");
		printf("FRAG held\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	phase_run("clean", opt.clean_calls, g);

	fragment();
	buddy_report("fragmented");
	phase_run("frag", opt.calls, g);
	buddy_report("end");
	if (first_caller[0])
		printf("FRAG group lists' vmalloc areas were allocated at %s\n", first_caller);
	else
		printf("FRAG no group list was vmalloc()ed (callers %s in vmallocinfo)\n",
		       symbolized ? "named" : "not named");
	if (old_kptr)
		write_file("/proc/sys/kernel/kptr_restrict", old_kptr);
	return 0;
}
