// SPDX-License-Identifier: GPL-2.0
/*
 * setgroups() under fault injection (make check-debug).
 *
 * failslab and fail_page_alloc (Documentation/fault-injection/
 * fault-injection.rst) are set up through debugfs to fail about one
 * allocation in ten, sleeping ones included (ignore-gfp-wait=N), for this
 * task only (task-filter=Y plus /proc/self/make-it-fail, which is set just
 * around each call so that nothing else the program does is hit).  Random
 * sets of 0 to 65,536 groups are installed, through the native call and,
 * where the ABI has it, the 16-bit one.  After every call getgroups() must
 * show either exactly the requested set (sorted, duplicates kept) or, if the
 * call failed with ENOMEM, exactly the previous set.  Anything else, any
 * other errno included, is a failure.  getgroups() itself runs with faults
 * enabled too: it allocates nothing and must not fail.
 *
 * Both injectors must fire, and each must make setgroups() fail on its own:
 * the calls run in three phases, failslab alone, fail_page_alloc alone, then
 * both.  Each injector's debugfs "times" counter, which should_fail_ex()
 * (lib/fault-inject.c) decrements once per injected failure and never
 * otherwise, gives how many failures each one injected in each phase.
 *
 * Then memory must come back.  The blocks of a long list are order-0 pages
 * from __get_free_page(), which kmemleak does not track, so a lost block is
 * a leak that only the page counts show.  Before the calls (after a warm-up
 * under fault injection, which leaves the slab caches and KASAN's stack
 * depot as they will stay) and after them and setgroups(0, NULL), with
 * caches settled, the program measures
 *
 *  - pages in use: the sum over the zones of /proc/zoneinfo of managed
 *    pages less free pages less the pages on the per-CPU free lists (the
 *    "count:" of each pageset, which "pages free" leaves out), less this
 *    program's own memory (VmLck of /proc/self/status: it is mlockall()ed,
 *    and glibc's heap may keep a buffer freed after the baseline);
 *  - slab pages: nr_slab_reclaimable + nr_slab_unreclaimable of /proc/vmstat;
 *
 * and each may exceed its baseline by PAGE_BOUND and SLAB_BOUND pages at
 * most (-P, -S).  "Settled" is: 1 s for RCU (credentials, and the group
 * lists with them, are freed after a grace period), every cache in
 * /sys/kernel/slab shrunk ("shrink": that also empties KASAN's quarantine of
 * the cache and frees the empty slabs), twice, then /proc/sys/vm/stat_refresh
 * to fold the per-CPU counter deltas.  The measurement after the calls is
 * repeated up to ATTEMPTS times, a second apart, until it is within bounds:
 * what is only late comes back, a leak does not.  Last, the program holds
 * CAL_PAGES order-0 pages in pipe buffers and measures again: the pages in
 * use must rise by about CAL_PAGES, over the bound, which shows that a leak
 * of that many pages would have failed the check.  No memory cgroup: the
 * guest kernels are tinyconfig ones, without CONFIG_MEMCG.
 *
 *	groups_fault [-c calls] [-s seed] [-p percent] [-P pages] [-S pages]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kselftest.h"
#include "guest.h"

#define TIMES_START	1000000000L
#define WARMUP_MIN	100		/* calls before the baseline, at least ... */
#define WARMUP_DIV	20		/* ... or one in 20 of --calls */
#define PAGE_BOUND	64		/* pages in use above the baseline at most */
#define SLAB_BOUND	32		/* slab pages above the baseline at most */
#define ATTEMPTS	10		/* measurements after the calls, 1 s apart */
#define CAL_PAGES	200		/* pages held in pipes to show the check sees them */
#define CAL_SHORT	8		/* of which it may miss this many */
#define MAX_PIPES	64
#define MAX_VMSTAT	400

enum { FAILSLAB, FAIL_PAGE_ALLOC, NATTRS };
static const char * const attrs[NATTRS] = { "failslab", "fail_page_alloc" };

/* What runs in a phase and what came of it */
struct phase {
	const char *name;
	bool on[NATTRS];
	long calls, ok, enomem, bad, by16;
	long injected[NATTRS];
};

static struct rng rng;

/* A size in [0, max], log-uniform so that every block count is common. */
static int random_size(int max)
{
	static const int edges[] = { 0, 1, 32, 33, 1023, 1024, 1025, 2048,
				     2049, 16384, 16385, 65535, 65536 };
	int bits;

	if (!rng_below(&rng, 8))
		return edges[rng_below(&rng, ARRAY_SIZE(edges))];
	bits = rng_below(&rng, 17);
	return (int)rng_below(&rng, (1u << bits) + 1) % (max + 1);
}

static int fi_write(const char *attr, const char *file, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/debug/%s/%s", attr, file);
	return write_file(path, val);
}

static long fi_times(const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/debug/%s/times", attr);
	return read_number(path, -1);
}

/* Everything but the probability, which stays 0 here. */
static int fi_setup(void)
{
	char times[32];
	size_t i;

	snprintf(times, sizeof(times), "%ld", TIMES_START);
	for (i = 0; i < NATTRS; i++) {
		if (fi_write(attrs[i], "probability", "0") ||
		    fi_write(attrs[i], "interval", "1") ||
		    fi_write(attrs[i], "times", times) ||
		    fi_write(attrs[i], "space", "0") ||
		    fi_write(attrs[i], "verbose", "0") ||
		    fi_write(attrs[i], "task-filter", "Y") ||
		    fi_write(attrs[i], "ignore-gfp-wait", "N") ||
		    fi_times(attrs[i]) != TIMES_START)
			return -1;
	}
	if (fi_write("fail_page_alloc", "ignore-gfp-highmem", "N") ||
	    fi_write("fail_page_alloc", "min-order", "0"))
		return -1;
	return 0;
}

static int fi_probability(int attr, long percent)
{
	char prob[16];

	snprintf(prob, sizeof(prob), "%ld", percent);
	return fi_write(attrs[attr], "probability", prob);
}

static void fi_stop(void)
{
	size_t i;

	for (i = 0; i < NATTRS; i++)
		fi_write(attrs[i], "probability", "0");
}

static int make_it_fail = -1;

static void faults(int on)
{
	if (pwrite(make_it_fail, on ? "1" : "0", 1, 0) != 1)
		ksft_exit_fail_msg("make-it-fail: %s\n", strerror(errno));
}

/* The calls: buffers allocated, mapped and locked before faults are enabled. */
static gid_t *want, *prev, *got;
static uint16_t *list16;
static int nprev;
static long bad_total, get_bad;

static void run_phase(struct phase *ph, long calls, long probability)
{
	long before[NATTRS], i;
	int a;

	for (a = 0; a < NATTRS; a++) {
		before[a] = fi_times(attrs[a]);
		if (before[a] < 0)
			ksft_exit_fail_msg("%s/times: %s\n", attrs[a], strerror(errno));
		if (fi_probability(a, ph->on[a] ? probability : 0))
			ksft_exit_fail_msg("%s/probability: %s\n", attrs[a], strerror(errno));
	}
	for (i = 0; i < calls && bad_total + get_bad <= 20; i++) {
		int n = random_size(NGROUPS_MAX), j, err, ngot;
		bool use16 = HAVE_GROUPS16 && rng_below(&rng, 2);
		long ret;

		for (j = 0; j < n; j++) {
			/* not 0xffff, nor (gid_t)-1 */
			want[j] = rng_below(&rng, use16 ? 0xffff : 0xffffffffU);
		}
		if (n && !rng_below(&rng, 4))	/* many duplicates */
			for (j = 0; j < n; j++)
				want[j] = want[rng_below(&rng, j + 1)];
		if (use16)
			for (j = 0; j < n; j++)
				list16[j] = want[j];

		faults(1);
		if (use16)
			ret = sys_setgroups16(n, list16);
		else
			ret = sys_setgroups(n, want);
		err = errno;
		ngot = sys_getgroups(NGROUPS_MAX, got);
		faults(0);
		ph->calls++;
		ph->by16 += use16;

		if (ret == 0) {
			sort_gids(want, n);
		} else if (err == ENOMEM) {
			memcpy(want, prev, nprev * sizeof(*want));
			n = nprev;
		} else {
			ksft_print_msg("%s, call %ld: setgroups%s(%d) = %ld, %s\n", ph->name, i,
				       use16 ? "16" : "", n, ret, strerror(err));
			ph->bad++;
			bad_total++;
			continue;
		}
		if (ngot != n || memcmp(got, want, n * sizeof(*got))) {
			ksft_print_msg("%s, call %ld: setgroups%s(%d) = %ld (%s), then getgroups "
				       "= %d: %s\n", ph->name, i, use16 ? "16" : "", n, ret,
				       ret ? strerror(err) : "ok", ngot,
				       ngot < 0 ? strerror(errno) : "wrong set");
			if (ngot < 0) {
				get_bad++;
			} else {
				ph->bad++;
				bad_total++;
			}
			ngot = sys_getgroups(NGROUPS_MAX, got);
			if (ngot < 0)
				ksft_exit_fail_msg("getgroups: %s\n", strerror(errno));
			n = ngot;
			memcpy(want, got, n * sizeof(*want));
		}
		if (ret == 0)
			ph->ok++;
		else
			ph->enomem++;
		memcpy(prev, want, n * sizeof(*prev));
		nprev = n;
	}
	fi_stop();
	for (a = 0; a < NATTRS; a++) {
		long left = fi_times(attrs[a]);

		if (left < 0)
			ksft_exit_fail_msg("%s/times: %s\n", attrs[a], strerror(errno));
		ph->injected[a] = before[a] - left;
	}
}

static void print_phase(const struct phase *ph)
{
	ksft_print_msg("%ld calls %s (%ld 16-bit): %ld succeeded, %ld failed with ENOMEM, "
		       "%ld wrong; faults injected: failslab %ld, fail_page_alloc %ld\n",
		       ph->calls, ph->name, ph->by16, ph->ok, ph->enomem, ph->bad,
		       ph->injected[FAILSLAB], ph->injected[FAIL_PAGE_ALLOC]);
}

/* ---- memory */

struct snapshot {
	long used, managed, free, pcp, own, slab;
	int nvm;
	char name[MAX_VMSTAT][40];
	long val[MAX_VMSTAT];
};

static struct snapshot base, after, cal;
static char text[1 << 18];		/* /proc/zoneinfo, /proc/vmstat, status */
static long page_bound = PAGE_BOUND, slab_bound = SLAB_BOUND;

/* Read a file into text[] (static: measuring must not grow the heap). */
static int read_static(const char *path)
{
	ssize_t len = read_file_into(path, text, sizeof(text));

	return len < 0 ? len : 0;
}

/* Shrink every slab cache; the number shrunk or -errno. */
static int shrink_slabs(void)
{
	char path[300];
	struct dirent *d;
	DIR *dir;
	int fd, n = 0;

	dir = opendir("/sys/kernel/slab");
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/shrink", d->d_name);
		fd = openat(dirfd(dir), path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n += write(fd, "1", 1) == 1;
		close(fd);
	}
	closedir(dir);
	return n ? n : -ENOENT;
}

static int measure(struct snapshot *s, const char **what)
{
	char *line, *save;
	int err;
	long v;

	memset(s, 0, sizeof(*s));
	sleep(1);
	*what = "/sys/kernel/slab/*/shrink";
	err = shrink_slabs();
	if (err < 0)
		return err;
	usleep(200000);
	shrink_slabs();
	*what = "/proc/sys/vm/stat_refresh";
	err = write_file("/proc/sys/vm/stat_refresh", "1");
	if (err)
		return err;

	*what = "/proc/zoneinfo";
	err = read_static("/proc/zoneinfo");
	if (err)
		return err;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " pages free %ld", &v) == 1)
			s->free += v;
		else if (sscanf(line, " managed %ld", &v) == 1)
			s->managed += v;
		else if (sscanf(line, " count: %ld", &v) == 1)
			s->pcp += v;
	}
	if (!s->managed)
		return -EINVAL;

	*what = "/proc/self/status";
	err = read_static("/proc/self/status");
	if (err)
		return err;
	line = strstr(text, "\nVmLck:");
	if (!line || sscanf(line, "\nVmLck: %ld kB", &v) != 1)
		return -EINVAL;
	s->own = v * 1024 / sysconf(_SC_PAGESIZE);
	s->used = s->managed - s->free - s->pcp - s->own;

	*what = "/proc/vmstat";
	err = read_static("/proc/vmstat");
	if (err)
		return err;
	for (line = strtok_r(text, "\n", &save); line && s->nvm < MAX_VMSTAT;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%39s %ld", s->name[s->nvm], &s->val[s->nvm]) != 2)
			continue;
		if (!strcmp(s->name[s->nvm], "nr_slab_reclaimable") ||
		    !strcmp(s->name[s->nvm], "nr_slab_unreclaimable"))
			s->slab += s->val[s->nvm];
		s->nvm++;
	}
	return s->nvm ? 0 : -EINVAL;
}

static void print_snapshot(const char *label, const struct snapshot *s)
{
	ksft_print_msg("memory: %s: %ld pages in use (%ld managed, %ld free, %ld on per-CPU "
		       "lists, %ld of this program's), %ld slab pages\n", label, s->used,
		       s->managed, s->free, s->pcp, s->own, s->slab);
}

/* What moved between two snapshots, for the one who has to find the leak. */
static void print_moved(const struct snapshot *a, const struct snapshot *b)
{
	int i, j, shown = 0;

	for (i = 0; i < b->nvm && shown < 40; i++)
		for (j = 0; j < a->nvm; j++)
			if (!strcmp(a->name[j], b->name[i])) {
				if (labs(b->val[i] - a->val[j]) >= 2) {
					ksft_print_msg("memory: vmstat %s %ld -> %ld (%+ld)\n",
						       b->name[i], a->val[j], b->val[i],
						       b->val[i] - a->val[j]);
					shown++;
				}
				break;
			}
}

static bool within(const struct snapshot *s)
{
	return s->used - base.used <= page_bound && s->slab - base.slab <= slab_bound;
}

/* Hold @pages order-0 pages in pipe buffers (pipe_write(): a page per PAGE_SIZE). */
static int hold_pages(int fds[][2], int *npipes, long pages, long page_size)
{
	static char page[65536];
	long held = 0;
	int i;

	if (page_size > (long)sizeof(page))
		return -EINVAL;
	memset(page, 0x5a, sizeof(page));
	for (i = 0; held < pages && i < MAX_PIPES; i++) {
		if (pipe2(fds[i], O_NONBLOCK | O_CLOEXEC))
			return -errno;
		*npipes = i + 1;
		while (held < pages && write(fds[i][1], page, page_size) == page_size)
			held++;
		if (held < pages && errno != EAGAIN)
			return -errno;
	}
	return held == pages ? 0 : -ENOSPC;
}

int main(int argc, char **argv)
{
	long calls = 10000, probability = 10, seed = 1, warmup, page_size;
	struct phase phases[] = {
		{ .name = "with failslab alone", .on = { true, false } },
		{ .name = "with fail_page_alloc alone", .on = { false, true } },
		{ .name = "with both", .on = { true, true } },
	}, warm = { .name = "warming up, with both", .on = { true, true } }, total = {
		.name = "in all" };
	int fds[MAX_PIPES][2], npipes = 0, opt, err, attempt, i;
	const char *what = "";
	bool mem_ok, cal_ok;
	long grown, slab_grown, seen;
	long *value[128] = {
		['c'] = &calls, ['s'] = &seed, ['p'] = &probability, ['P'] = &page_bound,
		['S'] = &slab_bound,
	};

	while ((opt = getopt(argc, argv, "c:s:p:P:S:h")) != -1) {
		if (opt > 0 && opt < 128 && value[opt]) {
			*value[opt] = atol(optarg);
			continue;
		}
		fprintf(stderr, "usage: %s [-c calls] [-s seed] [-p percent] "
			"[-P page bound] [-S slab page bound]\n"
			"  defaults: -c 10000 -s 1 -p 10 -P %d -S %d\n",
			argv[0], PAGE_BOUND, SLAB_BOUND);
		return opt == 'h' ? 0 : 2;
	}
	if (calls < 3 || probability < 1 || probability > 100) {
		fprintf(stderr, "%s: -c must be 3 or more, -p 1 to 100\n", argv[0]);
		return 2;
	}
	rng_seed(&rng, seed);
	page_size = sysconf(_SC_PAGESIZE);
	warmup = calls / WARMUP_DIV > WARMUP_MIN ? calls / WARMUP_DIV : WARMUP_MIN;
	setvbuf(stdout, NULL, _IONBF, 0);
	ksft_print_header();
	ksft_set_plan(8);

	/* Everything is mapped and faulted in before faults are enabled. */
	want = calloc(NGROUPS_MAX, sizeof(*want));
	prev = calloc(NGROUPS_MAX, sizeof(*prev));
	got = calloc(NGROUPS_MAX, sizeof(*got));
	list16 = calloc(NGROUPS_MAX, sizeof(*list16));
	if (!want || !prev || !got || !list16)
		ksft_exit_fail_msg("out of memory\n");
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		ksft_exit_fail_msg("mlockall: %s\n", strerror(errno));
	if (sys_setgroups(0, NULL))
		ksft_exit_fail_msg("setgroups(0): %s\n", strerror(errno));

	make_it_fail = open("/proc/self/make-it-fail", O_WRONLY | O_CLOEXEC);
	if (make_it_fail < 0 || fi_setup()) {
		ksft_test_result_fail("failslab and fail_page_alloc are set up: %s\n",
				      strerror(errno));
		ksft_exit_fail();
	}
	ksft_test_result_pass("failslab and fail_page_alloc are set up (task filter)\n");

	/* Warm up, then the baseline (measured twice: the first fills caches of its own). */
	run_phase(&warm, warmup, probability);
	print_phase(&warm);
	if (sys_setgroups(0, NULL))
		ksft_exit_fail_msg("setgroups(0): %s\n", strerror(errno));
	nprev = 0;
	err = measure(&base, &what);
	if (!err)
		err = measure(&base, &what);
	if (err)
		ksft_print_msg("memory: %s: %s\n", what, strerror(-err));
	else
		print_snapshot("baseline", &base);

	for (i = 0; i < (int)ARRAY_SIZE(phases); i++) {
		run_phase(&phases[i], i < 2 ? calls / 3 : calls - 2 * (calls / 3), probability);
		print_phase(&phases[i]);
		total.calls += phases[i].calls;
		total.ok += phases[i].ok;
		total.enomem += phases[i].enomem;
		total.bad += phases[i].bad;
		total.by16 += phases[i].by16;
		total.injected[FAILSLAB] += phases[i].injected[FAILSLAB];
		total.injected[FAIL_PAGE_ALLOC] += phases[i].injected[FAIL_PAGE_ALLOC];
	}
	total.bad += warm.bad;
	print_phase(&total);

	ksft_test_result(!bad_total, "every setgroups installed the whole set or failed with "
			 "ENOMEM and kept the old one\n");
	ksft_test_result(!get_bad, "getgroups never failed under fault injection\n");
	ksft_test_result(phases[0].injected[FAILSLAB] > 0 && phases[0].enomem > 0 &&
			 !phases[0].injected[FAIL_PAGE_ALLOC],
			 "failslab alone injected failures and setgroups failed with ENOMEM\n");
	ksft_test_result(phases[1].injected[FAIL_PAGE_ALLOC] > 0 && phases[1].enomem > 0 &&
			 !phases[1].injected[FAILSLAB],
			 "fail_page_alloc alone injected failures and setgroups failed with "
			 "ENOMEM\n");
	ksft_test_result(phases[2].injected[FAILSLAB] > 0 &&
			 phases[2].injected[FAIL_PAGE_ALLOC] > 0 &&
			 phases[2].ok > 0 && phases[2].enomem > 0,
			 "both injectors fired together and both outcomes were seen\n");

	/* Memory: back to the baseline, within the bounds. */
	if (sys_setgroups(0, NULL) || sys_getgroups(0, NULL) != 0)
		ksft_exit_fail_msg("setgroups(0) after the calls: %s\n", strerror(errno));
	for (attempt = 1; !err && attempt <= ATTEMPTS; attempt++) {
		err = measure(&after, &what);
		if (!err && within(&after))
			break;
	}
	if (err) {
		ksft_print_msg("memory: %s: %s\n", what, strerror(-err));
		ksft_test_result_fail("the page and slab counts are back to their baseline\n");
		ksft_test_result_fail("the page count sees pages held in pipes\n");
		ksft_finished();
	}
	attempt = attempt > ATTEMPTS ? ATTEMPTS : attempt;
	print_snapshot("after", &after);
	grown = after.used - base.used;
	slab_grown = after.slab - base.slab;
	mem_ok = grown <= page_bound && slab_grown <= slab_bound;
	ksft_print_msg("memory: pages in use %ld -> %ld (%+ld, bound %ld), slab pages %ld -> %ld "
		       "(%+ld, bound %ld), %d measurement%s after %ld calls, %ld-byte pages\n",
		       base.used, after.used, grown, page_bound, base.slab, after.slab,
		       slab_grown, slab_bound, attempt, attempt > 1 ? "s" : "",
		       total.calls + warm.calls, page_size);
	if (!mem_ok) {
		ksft_print_msg("memory: %s did not come back: a leak of %ld pages in %ld calls\n",
			       grown > page_bound ? "pages in use" : "slab pages",
			       grown > page_bound ? grown : slab_grown, total.calls);
		print_moved(&base, &after);
	}
	ksft_test_result(mem_ok, "the page and slab counts are back to their baseline\n");

	/* Would the check have seen a leak of CAL_PAGES pages? */
	err = hold_pages(fds, &npipes, CAL_PAGES, page_size);
	if (err)
		ksft_print_msg("memory: holding %d pages in pipes: %s\n", CAL_PAGES,
			       strerror(-err));
	else
		err = measure(&cal, &what);
	seen = cal.used - after.used;
	cal_ok = !err && seen >= CAL_PAGES - CAL_SHORT && seen <= CAL_PAGES + page_bound &&
		 cal.used - base.used > page_bound;
	if (!err)
		ksft_print_msg("memory: %d pages held in pipes: pages in use %ld -> %ld (%+ld), "
			       "%+ld over the baseline against the bound of %ld\n", CAL_PAGES,
			       after.used, cal.used, seen, cal.used - base.used, page_bound);
	for (i = 0; i < npipes; i++) {
		close(fds[i][0]);
		close(fds[i][1]);
	}
	ksft_test_result(cal_ok, "the page count sees pages held in pipes\n");
	ksft_finished();
}
