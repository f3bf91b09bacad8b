// SPDX-License-Identifier: GPL-2.0
/*
 * The user side of the native benchmark ("make bench-native"): times one
 * tree's kernel/groups.c, linked in from groups_tu.c, on the host CPU, and
 * supplies what the kernel would around it (memory, user copies, WARN).
 *
 *	groups_native_bench [--seed S] [--cold-bytes B] [--only PREFIX]
 *	groups_native_bench --count METRIC N PASSES
 *
 * --cold-bytes is the size of the cold lookups' working set (the driver,
 * qemu/bench_native.py, passes 4x the last-level cache, capped); --only
 * runs the metrics whose names start with PREFIX.
 *
 * Prints one line per measurement, nanoseconds per call:
 *
 *	BENCH <metric> <N> <ns>
 *
 * and INFO lines (for each N: the cold working set's sets, bytes and
 * milliseconds to build) and ALLOCS lines (allocation attempts per
 * groups_sort(), all and refused).  Every result is checked: each lookup's
 * hit or miss, each sorted list against qsort(), each copy; on a wrong one
 * it says what and where and exits 1.  The data depend only on the seed
 * and N, so two kernels' binaries run the same lookups on the same sets
 * and sort the same lists.
 *
 * --count runs one metric's calls for the driver to count their
 * instructions under callgrind: see count() below.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define BENCH_FLUSH	1
#endif

#include "bench_api.h"
#include "../../robust/guest.h"

#define CANARY		0x5a5a5a5au

static const unsigned int sizes[] = { 1, 8, 32, 33, 1023, 1024, 1025, 10000, 65536 };
#define NSIZES		(sizeof(sizes) / sizeof(sizes[0]))

static uint64_t seed = 1;
static const char *only;
static long long cold_bytes = 256ll << 20;	/* the driver passes 4x the LLC */

/* ------------------------------------------------ the kernel's environment */

int bench_fail_allocs;
unsigned long bench_alloc_calls, bench_alloc_failed;
static unsigned long warnings;

static int may_allocate(void)
{
	bench_alloc_calls++;
	if (bench_fail_allocs) {
		bench_alloc_failed++;
		return 0;
	}
	return 1;
}

/*
 * The flushed lookups' lists live in an arena laid out as the kernel's
 * direct map is: one huge-page-mapped region; order-0 pages handed out in
 * a scattered order from its upper half; slab objects and a kvmalloc()ed
 * array (kmalloc() above a page: contiguous) carved in order from its
 * lower half.  Every piece handed out is noted, so that the list's memory
 * can be flushed from the cache before each lookup.
 */
#define ARENA_BYTES	(512ul << 20)
#define ARENA_MAX_PIECES	1024

static struct {
	char *base;
	size_t next;			/* lower half: the next free byte */
	uint32_t *pages;		/* upper half: free page numbers, shuffled */
	unsigned int npages, used;
	int on;				/* allocations come from the arena */
	unsigned int npieces;
	struct { char *p; size_t size; } piece[ARENA_MAX_PIECES];
} arena;

static int in_arena(const void *p)
{
	return arena.base && (const char *)p >= arena.base &&
	       (const char *)p < arena.base + ARENA_BYTES;
}

static void *arena_take(size_t size, size_t align, int page)
{
	char *p;

	if (page) {
		if (arena.used == arena.npages)
			return NULL;
		p = arena.base + ARENA_BYTES / 2 + (size_t)arena.pages[arena.used++] * 4096;
	} else {
		arena.next = (arena.next + align - 1) & ~(align - 1);
		if (arena.next + size > ARENA_BYTES / 2)
			return NULL;
		p = arena.base + arena.next;
		arena.next += size;
	}
	if (arena.npieces < ARENA_MAX_PIECES) {
		arena.piece[arena.npieces].p = p;
		arena.piece[arena.npieces++].size = size;
	}
	return p;
}

void *bench_kmalloc(unsigned long size, int zero)
{
	void *p;

	if (!may_allocate())
		return NULL;
	if (!size)
		return (void *)16;		/* ZERO_SIZE_PTR */
	if (arena.on) {
		p = arena_take(size, size > 4096 ? 4096 : 64, 0);
		if (p && zero)
			memset(p, 0, size);
		return p;
	}
	return zero ? calloc(1, size) : malloc(size);
}

void bench_kfree(const void *p)
{
	if ((uintptr_t)p > 16 && !in_arena(p))
		free((void *)p);
}

unsigned long bench_get_free_pages(unsigned int order, int zero)
{
	size_t size = (size_t)4096 << order;
	void *p;

	if (!may_allocate())
		return 0;
	if (arena.on)
		p = order ? arena_take(size, 4096, 0) : arena_take(4096, 4096, 1);
	else
		p = aligned_alloc(4096, size);
	if (p && zero)
		memset(p, 0, size);
	return (unsigned long)p;
}

void bench_free_pages(unsigned long addr, unsigned int order)
{
	if (!in_arena((void *)addr))
		free((void *)addr);
}

unsigned long bench_copy_user(void *to, const void *from, unsigned long n)
{
	memcpy(to, from, n);
	return 0;
}

void bench_warn(const char *file, int line)
{
	fprintf(stderr, "groups_native_bench: WARNING at %s:%d\n", file, line);
	warnings++;
}

/* ------------------------------------------------------------------ helpers */

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "groups_native_bench: FAIL: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		fail("out of memory (%zu bytes)", size);
	return p;
}

static struct rng rng;

/* Every data set comes from its own stream: (seed, what, N, repeat). */
static void reseed(const char *what, unsigned int n, unsigned int rep)
{
	uint64_t h = seed * 0x9e3779b97f4a7c15ull;

	for (; *what; what++)
		h = (h ^ (unsigned char)*what) * 0x100000001b3ull;
	rng_seed(&rng, h ^ ((uint64_t)n << 32) ^ rep);
}

static double minimum(const double *v, int n)
{
	double m = v[0];

	for (int i = 1; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

static int wanted(const char *metric)
{
	return !only || !strncmp(metric, only, strlen(only));
}

static void result(const char *metric, unsigned int n, double ns)
{
	printf("BENCH %s %u %.3f\n", metric, n, ns);
	fflush(stdout);
}

/* Reads @gi back through groups_to_user() and compares it with @want. */
static void check_list(const struct group_info *gi, const uint32_t *want,
		       unsigned int n, const char *what)
{
	static uint32_t buf[NGROUPS_MAX + 1];
	unsigned int i;

	buf[n] = CANARY;
	if (bench_groups_to_user(buf, gi))
		fail("%s N=%u: groups_to_user() failed", what, n);
	if (buf[n] != CANARY)
		fail("%s N=%u: groups_to_user() wrote past the list", what, n);
	for (i = 0; i < n; i++)
		if (buf[i] != want[i])
			fail("%s N=%u: gid %u is %u, the reference has %u", what, n, i,
			     buf[i], want[i]);
}

/* A list of @n gids, set through group_info_set_gid() and sorted. */
static struct group_info *make_list(const uint32_t *gids, unsigned int n)
{
	struct group_info *gi = bench_groups_alloc(n);

	if (!gi)
		fail("groups_alloc(%u) failed", n);
	bench_groups_fill(gi, gids, n);
	bench_groups_sort(gi);
	return gi;
}

/* ------------------------------------------------------------------ lookups */

enum { FIRST, MIDDLE, LAST, RANDOM, MISS, NKINDS };
static const char *const kinds[NKINDS] = { "first", "middle", "last", "random", "miss" };

/* index of the member a lookup of @kind asks for, in a list of @n */
static unsigned int pick(int kind, unsigned int n)
{
	switch (kind) {
	case FIRST:
		return 0;
	case MIDDLE:
		return n / 2;
	case LAST:
		return n - 1;
	default:
		return rng_below(&rng, n);
	}
}

/*
 * groups_search() on sets[i] for gids[i], @len lookups @cycles times over.
 * Every lookup's answer is checked against hit[i].
 */
static double time_lookups(struct group_info *const *sets, const uint32_t *gids,
			   const unsigned char *hit, unsigned int len,
			   unsigned int cycles, const char *metric, unsigned int n)
{
	unsigned long right = 0;
	unsigned int c, i;
	double t0, t1;

	t0 = now_ns();
	for (c = 0; c < cycles; c++)
		for (i = 0; i < len; i++)
			right += bench_groups_search(sets[i], gids[i]) == hit[i];
	t1 = now_ns();
	if (right != (unsigned long)len * cycles)
		for (i = 0; i < len; i++)
			if (bench_groups_search(sets[i], gids[i]) != hit[i])
				fail("%s N=%u: groups_search(%u) says %s", metric, n, gids[i],
				     hit[i] ? "miss, but it is in the list" :
					      "hit, but it is not in the list");
	if (right != (unsigned long)len * cycles)
		fail("%s N=%u: %lu of %lu lookups wrong", metric, n,
		     (unsigned long)len * cycles - right, (unsigned long)len * cycles);
	return (t1 - t0) / ((double)len * cycles);
}

/*
 * Members are even and ascending with random gaps, spread over [0, 2^31);
 * a miss is a member plus one, so that it falls between two members.
 */
static void make_members(uint32_t *gids, unsigned int n)
{
	uint32_t gap = (1u << 30) / n, g = 2 * rng_below(&rng, 1024);
	unsigned int i;

	for (i = 0; i < n; i++) {
		gids[i] = g;
		g += 2 * (1 + rng_below(&rng, gap));
	}
}

#define HOT_LEN		8192
#define HOT_CYCLES	8
#define HOT_REPEATS	7

/* One set, looked up again and again: in cache. */
static void lookups_hot(unsigned int n)
{
	uint32_t *sorted = xmalloc(n * 4), *shuffled = xmalloc(n * 4);
	uint32_t qgid[HOT_LEN];
	unsigned char qhit[HOT_LEN];
	struct group_info *sets[HOT_LEN], *gi;
	double t[HOT_REPEATS];
	char metric[64];
	unsigned int i, r;
	int kind;

	reseed("hot", n, 0);
	make_members(sorted, n);
	memcpy(shuffled, sorted, n * 4);
	rng_shuffle(&rng, shuffled, n);
	gi = make_list(shuffled, n);
	check_list(gi, sorted, n, "lookup set");
	for (i = 0; i < HOT_LEN; i++)
		sets[i] = gi;
	for (kind = 0; kind < NKINDS; kind++) {
		snprintf(metric, sizeof(metric), "search_hot_%s", kinds[kind]);
		if (!wanted(metric))
			continue;
		reseed(metric, n, 0);
		for (i = 0; i < HOT_LEN; i++) {
			qgid[i] = sorted[pick(kind, n)] + (kind == MISS);
			qhit[i] = kind != MISS;
		}
		for (r = 0; r < HOT_REPEATS; r++)
			t[r] = time_lookups(sets, qgid, qhit, HOT_LEN, HOT_CYCLES, metric, n);
		result(metric, n, minimum(t, HOT_REPEATS));
	}
	bench_groups_free(gi);
	free(sorted);
	free(shuffled);
}

#define COLD_LEN	16384
#define COLD_REPEATS	5
#define COLD_MAX_SETS	(1u << 22)

/*
 * Many sets, together far larger than the last-level cache, each lookup in
 * a random one.  Set s holds base[s] + j * step[s] for j < n (even numbers,
 * built in order and then sorted by groups_sort()), so that a lookup's gid
 * and answer follow from s and j alone.  Each repeat draws a new sequence
 * of (set, gid), so that none finds the last one's lines in the cache.
 */
static void lookups_cold(unsigned int n)
{
	unsigned long long bytes = cold_bytes;
	unsigned int nsets, s, i, r, j;
	uint32_t *base, *step, *gids = xmalloc(n * 4);
	struct group_info **all, **sets = xmalloc(COLD_LEN * sizeof(*sets));
	uint32_t *qgid = xmalloc(COLD_LEN * 4);
	unsigned char *qhit = xmalloc(COLD_LEN);
	double t[COLD_REPEATS], t0;
	char metric[64];
	int kind, any = 0;

	for (kind = 0; kind < NKINDS; kind++) {
		snprintf(metric, sizeof(metric), "search_cold_%s", kinds[kind]);
		any |= wanted(metric);
	}
	if (!any)
		return;

	nsets = (bytes + 8 + 4ull * n - 1) / (8 + 4ull * n);
	nsets = nsets < 64 ? 64 : nsets > COLD_MAX_SETS ? COLD_MAX_SETS : nsets;
	base = xmalloc(nsets * 4ull);
	step = xmalloc(nsets * 4ull);
	all = xmalloc(nsets * sizeof(*all));
	t0 = now_ns();
	reseed("cold sets", n, 0);
	for (s = 0; s < nsets; s++) {
		base[s] = 2 * rng_below(&rng, 1u << 20);
		step[s] = 2 * (1 + rng_below(&rng, (1u << 30) / n));
		for (j = 0; j < n; j++)
			gids[j] = base[s] + j * step[s];
		all[s] = make_list(gids, n);
	}
	printf("INFO cold_sets %u %u %llu %.0f\n", n, nsets, (8 + 4ull * n) * nsets,
	       (now_ns() - t0) / 1e6);
	reseed("cold check", n, 0);
	for (i = 0; i < 16; i++) {
		s = rng_below(&rng, nsets);
		for (j = 0; j < n; j++)
			gids[j] = base[s] + j * step[s];
		check_list(all[s], gids, n, "cold set");
	}

	for (kind = 0; kind < NKINDS; kind++) {
		snprintf(metric, sizeof(metric), "search_cold_%s", kinds[kind]);
		if (!wanted(metric))
			continue;
		for (r = 0; r < COLD_REPEATS; r++) {
			reseed(metric, n, r);
			for (i = 0; i < COLD_LEN; i++) {
				s = rng_below(&rng, nsets);
				sets[i] = all[s];
				qgid[i] = base[s] + pick(kind, n) * step[s] + (kind == MISS);
				qhit[i] = kind != MISS;
			}
			t[r] = time_lookups(sets, qgid, qhit, COLD_LEN, 1, metric, n);
		}
		result(metric, n, median(t, COLD_REPEATS));
	}
	for (s = 0; s < nsets; s++)
		bench_groups_free(all[s]);
	free(all);
	free(base);
	free(step);
	free(gids);
	free(sets);
	free(qgid);
	free(qhit);
}

/* ------------------------------------------------- lookups from flushed memory */

#ifdef BENCH_FLUSH
#define FLUSH_LEN	2000
#define FLUSH_REPEATS	5

static double tsc_per_ns;

static void arena_setup(void)
{
	char *m = mmap(NULL, ARENA_BYTES + (2ul << 20), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned int i;
	uint64_t c0;
	double t0;

	if (m == MAP_FAILED)
		fail("no memory for the arena");
	arena.base = (char *)(((uintptr_t)m + (2ul << 20) - 1) & ~((2ul << 20) - 1));
	madvise(arena.base, ARENA_BYTES, MADV_HUGEPAGE);
	memset(arena.base, 0, ARENA_BYTES);	/* fault it in, in huge pages */
	arena.npages = ARENA_BYTES / 2 / 4096;
	arena.pages = xmalloc(arena.npages * 4);
	for (i = 0; i < arena.npages; i++)
		arena.pages[i] = i;
	reseed("arena", 0, 0);
	rng_shuffle(&rng, (gid_t *)arena.pages, arena.npages);
	t0 = now_ns();
	c0 = __rdtsc();
	while (now_ns() - t0 < 50e6)
		;
	tsc_per_ns = (__rdtsc() - c0) / (now_ns() - t0);
}

/* Every cache line of the list's memory out of every cache, then one lookup */
static int flushed_lookup(const struct group_info *gi, uint32_t gid, double *ns)
{
	unsigned int a, c;
	uint64_t t0, t1;
	size_t off;
	int ret;

	for (a = 0; a < arena.npieces; a++)
		for (off = 0; off < arena.piece[a].size; off += 64)
			_mm_clflush(arena.piece[a].p + off);
	_mm_mfence();
	t0 = __rdtscp(&c);
	_mm_lfence();
	ret = bench_groups_search(gi, gid);
	t1 = __rdtscp(&c);
	_mm_lfence();
	*ns += (t1 - t0) / tsc_per_ns;
	return ret;
}

/*
 * One list in the arena, its memory flushed before each lookup of a random
 * member or a miss: what a lookup costs when nothing of the list is cached,
 * with the kernel's layout of the memory.
 */
static void lookups_flushed(unsigned int n)
{
	uint32_t *sorted = xmalloc(n * 4), *shuffled = xmalloc(n * 4);
	struct group_info *gi;
	double t[FLUSH_REPEATS];
	char metric[64];
	unsigned int i, r, wrong;
	int kind;

	if (!wanted("search_flush_"))
		return;
	if (!arena.base)
		arena_setup();
	reseed("flush", n, 0);
	make_members(sorted, n);
	memcpy(shuffled, sorted, n * 4);
	rng_shuffle(&rng, shuffled, n);
	arena.next = arena.used = arena.npieces = 0;
	rng_shuffle(&rng, (gid_t *)arena.pages, arena.npages);
	arena.on = 1;
	gi = make_list(shuffled, n);
	arena.on = 0;
	if (arena.npieces == ARENA_MAX_PIECES)
		fail("flush N=%u: more pieces than the arena notes", n);
	check_list(gi, sorted, n, "flush set");
	for (kind = RANDOM; kind <= MISS; kind++) {
		snprintf(metric, sizeof(metric), "search_flush_%s", kinds[kind]);
		if (!wanted(metric))
			continue;
		for (r = 0; r < FLUSH_REPEATS; r++) {
			reseed(metric, n, r);
			t[r] = 0;
			wrong = 0;
			for (i = 0; i < FLUSH_LEN; i++)
				wrong += flushed_lookup(gi, sorted[pick(kind, n)] + (kind == MISS),
							&t[r]) != (kind != MISS);
			if (wrong)
				fail("%s N=%u: %u lookups wrong", metric, n, wrong);
			t[r] /= FLUSH_LEN;
		}
		result(metric, n, median(t, FLUSH_REPEATS));
	}
	bench_groups_free(gi);
	free(sorted);
	free(shuffled);
}
#else
static void lookups_flushed(unsigned int n)
{
}
#endif

/* ------------------------------------------------------------------ sorting */

enum { IN_RANDOM, IN_SORTED, IN_REVERSE, IN_DUPS, NINPUTS };
static const char *const inputs[NINPUTS] = { "random", "sorted", "reverse", "dups" };

#define SORT_GIDS	65536	/* gids sorted per measurement: lists of N */
#define SORT_REPEATS	5

static void make_input(uint32_t *v, unsigned int n, int input)
{
	uint32_t pool[16];
	unsigned int i;

	for (i = 0; i < 16; i++)
		pool[i] = rng_u32(&rng);
	for (i = 0; i < n; i++) {
		v[i] = input == IN_DUPS ? pool[rng_below(&rng, 16)] : rng_u32(&rng);
		if (v[i] == UINT32_MAX)		/* not a valid gid */
			v[i]--;
	}
	if (input == IN_SORTED || input == IN_REVERSE)
		sort_gids(v, n);
	if (input == IN_REVERSE)
		for (i = 0; i < n / 2; i++) {
			uint32_t x = v[i];

			v[i] = v[n - 1 - i];
			v[n - 1 - i] = x;
		}
}

/*
 * groups_sort() on SORT_GIDS / N lists of N (different ones), timed as a
 * batch, normally and with every allocation failing.  Each result is
 * compared with qsort()'s.
 */
static void sorting(unsigned int n, int input)
{
	unsigned int k, nk = n >= SORT_GIDS ? 1 : SORT_GIDS / n, r;
	uint32_t *in = xmalloc((size_t)nk * n * 4), *ref = xmalloc((size_t)nk * n * 4);
	struct group_info **gi = xmalloc(nk * sizeof(*gi));
	double t[SORT_REPEATS], t0;
	unsigned long calls, failed;
	char metric[64];
	int nomem;

	reseed(inputs[input], n, 0);
	for (k = 0; k < nk; k++) {
		make_input(in + (size_t)k * n, n, input);
		memcpy(ref + (size_t)k * n, in + (size_t)k * n, n * 4);
		sort_gids(ref + (size_t)k * n, n);
		gi[k] = bench_groups_alloc(n);
		if (!gi[k])
			fail("groups_alloc(%u) failed", n);
	}
	for (nomem = 0; nomem < 2; nomem++) {
		snprintf(metric, sizeof(metric), "sort_%s%s", nomem ? "nomem_" : "",
			 inputs[input]);
		if (!wanted(metric))
			continue;
		calls = bench_alloc_calls;
		failed = bench_alloc_failed;
		for (r = 0; r < SORT_REPEATS; r++) {
			for (k = 0; k < nk; k++)
				bench_groups_fill(gi[k], in + (size_t)k * n, n);
			bench_fail_allocs = nomem;
			t0 = now_ns();
			for (k = 0; k < nk; k++)
				bench_groups_sort(gi[k]);
			t[r] = (now_ns() - t0) / nk;
			bench_fail_allocs = 0;
			for (k = 0; k < nk; k++)
				check_list(gi[k], ref + (size_t)k * n, n, metric);
		}
		result(metric, n, minimum(t, SORT_REPEATS));
		printf("ALLOCS %s %u %.3f %.3f\n", metric, n,
		       (double)(bench_alloc_calls - calls) / (nk * SORT_REPEATS),
		       (double)(bench_alloc_failed - failed) / (nk * SORT_REPEATS));
	}
	for (k = 0; k < nk; k++)
		bench_groups_free(gi[k]);
	free(gi);
	free(in);
	free(ref);
}

/* ---------------------------------------------- allocation and user copies */

enum { ALLOC_FILL_FREE, ALLOC_FILL_SORT_FREE, TO_USER, FROM_USER, COMPARE, SEARCH, NCALLS };
static const char *const call_names[NCALLS] = {
	"alloc_fill_free", "alloc_fill_sort_free", "to_user", "from_user", "compare",
	"search"
};

/* for "compare": a second list with the same gids as the one compared */
static struct group_info *twin;

/*
 * @k calls of metric @what (not SEARCH) on lists of @n: an allocation, filled
 * from @src, perhaps sorted, and freed; or @list copied to @dst, or from @src.
 * Returns what the copies returned, or'ed.
 */
static int repeat_calls(int what, struct group_info *list, uint32_t *dst,
			const uint32_t *src, unsigned int n, unsigned int k)
{
	struct group_info *gi;
	int rc = 0;

	for (; k; k--) {
		switch (what) {
		case ALLOC_FILL_FREE:
		case ALLOC_FILL_SORT_FREE:
			gi = bench_groups_alloc(n);
			if (!gi)
				fail("groups_alloc(%u) failed", n);
			bench_groups_fill(gi, src, n);
			if (what == ALLOC_FILL_SORT_FREE)
				bench_groups_sort(gi);
			bench_groups_free(gi);
			break;
		case TO_USER:
			rc |= bench_groups_to_user(dst, list);
			break;
		case FROM_USER:
			rc |= bench_groups_from_user(list, src);
			break;
		case COMPARE:
			rc |= bench_groups_cmp(list, twin) != 0;
			break;
		}
	}
	return rc;
}

#define COPY_GIDS	262144	/* gids per measurement */
#define COPY_REPEATS	5

static void alloc_and_copies(unsigned int n)
{
	unsigned int nk = n >= COPY_GIDS ? 1 : COPY_GIDS / n, r, i;
	uint32_t *src = xmalloc(n * 4), *sorted = xmalloc(n * 4), *dst = xmalloc(n * 4 + 4);
	struct group_info *gi, *list;
	double t[COPY_REPEATS], t0;
	int rc = 0;

	reseed("copies", n, 0);
	make_input(src, n, IN_RANDOM);
	memcpy(sorted, src, n * 4);
	sort_gids(sorted, n);

	if (wanted("alloc_fill_free")) {
		gi = bench_groups_alloc(n);		/* the same calls, checked */
		if (!gi)
			fail("groups_alloc(%u) failed", n);
		bench_groups_fill(gi, src, n);
		check_list(gi, src, n, "alloc_fill_free");
		bench_groups_free(gi);
		for (r = 0; r < COPY_REPEATS; r++) {
			t0 = now_ns();
			repeat_calls(ALLOC_FILL_FREE, NULL, NULL, src, n, nk);
			t[r] = (now_ns() - t0) / nk;
		}
		result("alloc_fill_free", n, minimum(t, COPY_REPEATS));
	}

	list = make_list(src, n);
	if (wanted("to_user")) {
		for (r = 0; r < COPY_REPEATS; r++) {
			memset(dst, 0, n * 4);
			dst[n] = CANARY;
			t0 = now_ns();
			rc |= repeat_calls(TO_USER, list, dst, NULL, n, nk);
			t[r] = (now_ns() - t0) / nk;
			if (rc || memcmp(dst, sorted, n * 4) || dst[n] != CANARY)
				fail("to_user N=%u: groups_to_user() returned %d or wrong gids",
				     n, rc);
		}
		result("to_user", n, minimum(t, COPY_REPEATS));
	}
	if (wanted("from_user")) {
		for (i = 0; i < n; i++)
			dst[i] = ~src[i];	/* not what src holds */
		for (r = 0; r < COPY_REPEATS; r++) {
			bench_groups_fill(list, dst, n);
			t0 = now_ns();
			rc |= repeat_calls(FROM_USER, list, NULL, src, n, nk);
			t[r] = (now_ns() - t0) / nk;
			if (rc)
				fail("from_user N=%u: groups_from_user() returned %d", n, rc);
			check_list(list, src, n, "from_user");
		}
		result("from_user", n, minimum(t, COPY_REPEATS));
	}
	bench_groups_free(list);
	free(src);
	free(sorted);
	free(dst);
}

/* ------------------------------------------------------ instruction counts */

/*
 * The only instructions that --count counts: the driver runs the program
 * under valgrind --tool=callgrind --toggle-collect=count_region.  @passes
 * passes of @len calls: the lookups of @q in @sets[] (each answer checked
 * against @hit), or @len calls of repeat_calls().
 */
static void __attribute__((noipa))
count_region(int what, struct group_info **sets, const uint32_t *q,
	     const unsigned char *hit, uint32_t *dst, unsigned int n,
	     unsigned int len, unsigned int passes)
{
	if (what == SEARCH)
		time_lookups(sets, q, hit, len, passes, "search", n);
	else if (repeat_calls(what, sets[0], dst, q, n, len * passes))
		fail("%s N=%u: a copy failed", call_names[what], n);
}

/*
 * --count METRIC N PASSES: one untimed, checked pass of METRIC on lists of
 * N (so that the counted ones find the allocator and lazy binding warm),
 * then PASSES passes in count_region().  A pass of "search" looks up each
 * member and each gap of the set {2i + 10 : i < N} once: 2N lookups with
 * groups_search(), the search that in_group_p() makes, which needs a task's
 * credentials and cannot run here; a pass of the other metrics is one call,
 * on the copies' random gids ("compare": of two lists holding them).  Prints "COUNT <metric> <N> <calls per pass>".
 * Runs with different PASSES differ only in the calls that count_region()
 * makes: their counts' difference, over the calls, is a call's, exactly.
 */
static void count(const char *metric, unsigned int n, unsigned int passes)
{
	unsigned int len = 1, i;
	uint32_t *q = xmalloc(2 * n * 4), *dst = xmalloc(n * 4 + 4);
	unsigned char *hit = xmalloc(2 * n);
	struct group_info *list, **sets;
	int what;

	for (what = 0; what < NCALLS && strcmp(metric, call_names[what]); what++)
		;
	if (what == NCALLS || (what == SEARCH && !n))
		fail("--count: no metric %s of %u gids", metric, n);
	if (what == SEARCH) {
		for (i = 0; i < n; i++)
			q[i] = 2 * i + 10;
		list = make_list(q, n);
		for (i = 0; i < 2 * n; i++) {
			q[i] = i + 10;
			hit[i] = !(i % 2);
		}
		len = 2 * n;
	} else {
		reseed("copies", n, 0);
		make_input(q, n, IN_RANDOM);
		list = make_list(q, n);
		twin = make_list(q, n);
	}
	sets = xmalloc(len * sizeof(*sets));
	for (i = 0; i < len; i++)
		sets[i] = list;
	count_region(what, sets, q, hit, dst, n, len, 1);
	count_region(what, sets, q, hit, dst, n, len, passes);
	printf("COUNT %s %u %u\n", metric, n, len);
	bench_groups_free(list);
	if (twin)
		bench_groups_free(twin);
	free(sets);
	free(q);
	free(dst);
	free(hit);
}

/* ------------------------------------------------------------------- setup */

static void measure_all(void)
{
	unsigned int i;
	int input;

	for (i = 0; i < NSIZES; i++)
		lookups_hot(sizes[i]);
	for (i = 0; i < NSIZES; i++)
		for (input = 0; input < NINPUTS; input++)
			sorting(sizes[i], input);
	for (i = 0; i < NSIZES; i++)
		alloc_and_copies(sizes[i]);
	for (i = 0; i < NSIZES; i++)
		lookups_cold(sizes[i]);
	for (i = 0; i < NSIZES; i++)
		lookups_flushed(sizes[i]);
}

int main(int argc, char **argv)
{
	char **counted = NULL;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--seed") && a + 1 < argc)
			seed = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--cold-bytes") && a + 1 < argc)
			cold_bytes = strtoll(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--only") && a + 1 < argc)
			only = argv[++a];
		else if (!strcmp(argv[a], "--count") && a + 3 < argc) {
			counted = &argv[a + 1];
			a += 3;
		} else
			fail("usage: %s [--seed S] [--cold-bytes B] [--only PREFIX]\n"
			     "       %s --count METRIC N PASSES", argv[0], argv[0]);
	}
	printf("INFO cold_bytes %lld\n", cold_bytes);

	/* No trimming and no mmap per allocation: the heap only grows. */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);	/* the largest it takes */
	mallopt(M_TRIM_THRESHOLD, -1);

	if (counted)
		count(counted[0], strtoul(counted[1], NULL, 0), strtoul(counted[2], NULL, 0));
	else
		measure_all();
	if (warnings)
		fail("%lu WARNING(s) in kernel code", warnings);
	return 0;
}
