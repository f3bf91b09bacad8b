// SPDX-License-Identifier: GPL-2.0
/*
 * setgroups() under fault injection (make check-debug).
 *
 * failslab and fail_page_alloc are set up through debugfs to fail about one
 * allocation in ten, sleeping ones included (ignore-gfp-wait=N), for this
 * task only (task-filter=Y plus /proc/self/make-it-fail, which is set just
 * around each call so that nothing else the program does is hit).  Then
 * random sets of 0 to 65,536 groups are installed, through the native call
 * and, where the ABI has it, the 16-bit one.  After every call getgroups()
 * must show either exactly the requested set (sorted, duplicates kept) or,
 * if the call failed with ENOMEM, exactly the previous set.  Anything else,
 * any other errno included, is a failure.  getgroups() itself runs with
 * faults enabled too: it allocates nothing and must not fail.
 *
 * The number of faults injected is read back from the "times" counters.
 *
 *	groups_fault [--calls N] [--seed S] [--probability P]
 */
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
#include "../selftests/groups.h"

#define TIMES_START	1000000000L

static const char * const attrs[] = { "failslab", "fail_page_alloc" };

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A size in [0, max], log-uniform so that every block count is common. */
static int random_size(int max)
{
	static const int edges[] = { 0, 1, 32, 33, 1023, 1024, 1025, 2048,
				     2049, 16384, 16385, 65535, 65536 };
	int bits;

	if (rnd() % 8 == 0)
		return edges[rnd() % ARRAY_SIZE(edges)];
	bits = rnd() % 17;
	return (int)(rnd() % ((1u << bits) + 1)) % (max + 1);
}

static int fi_write(const char *attr, const char *file, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/debug/%s/%s", attr, file);
	return write_text(path, val);
}

static long fi_times(const char *attr)
{
	char path[128], *text;
	long v;

	snprintf(path, sizeof(path), "/sys/kernel/debug/%s/times", attr);
	text = read_text(path);
	if (!text)
		return -1;
	v = strtol(text, NULL, 10);
	free(text);
	return v;
}

static int fi_setup(int probability)
{
	char prob[16], times[32];
	size_t i;

	snprintf(prob, sizeof(prob), "%d", probability);
	snprintf(times, sizeof(times), "%ld", TIMES_START);
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		if (fi_write(attrs[i], "probability", "0") ||
		    fi_write(attrs[i], "interval", "1") ||
		    fi_write(attrs[i], "times", times) ||
		    fi_write(attrs[i], "space", "0") ||
		    fi_write(attrs[i], "verbose", "0") ||
		    fi_write(attrs[i], "task-filter", "Y") ||
		    fi_write(attrs[i], "ignore-gfp-wait", "N") ||
		    fi_write(attrs[i], "probability", prob))
			return -1;
	}
	if (fi_write("fail_page_alloc", "ignore-gfp-highmem", "N") ||
	    fi_write("fail_page_alloc", "min-order", "0"))
		return -1;
	return 0;
}

static void fi_stop(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		fi_write(attrs[i], "probability", "0");
}

static int make_it_fail = -1;

static void faults(int on)
{
	if (pwrite(make_it_fail, on ? "1" : "0", 1, 0) != 1)
		ksft_exit_fail_msg("make-it-fail: %s\n", strerror(errno));
}

int main(int argc, char **argv)
{
	long calls = 10000, probability = 10, seed = 1;
	long ok = 0, enomem = 0, bad = 0, get_bad = 0, by16 = 0;
	long injected[ARRAY_SIZE(attrs)];
	gid_t *want, *prev, *got;
	uint16_t *list16;
	int nprev = 0, opt;
	long i;
	size_t a;

	while ((opt = getopt(argc, argv, "c:s:p:")) != -1) {
		switch (opt) {
		case 'c':
			calls = atol(optarg);
			break;
		case 's':
			seed = atol(optarg);
			break;
		case 'p':
			probability = atol(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-c calls] [-s seed] [-p percent]\n", argv[0]);
			return 2;
		}
	}
	rng_state = seed;
	setvbuf(stdout, NULL, _IONBF, 0);
	ksft_print_header();
	ksft_set_plan(4);

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
	if (make_it_fail < 0 || fi_setup(probability)) {
		ksft_test_result_fail("failslab and fail_page_alloc are set up: %s\n",
				      strerror(errno));
		ksft_exit_fail();
	}
	ksft_test_result_pass("failslab and fail_page_alloc are set up (%ld%%, task filter)\n",
			      probability);

	for (i = 0; i < calls; i++) {
		int n = random_size(NGROUPS_MAX), j, err, ngot;
		bool use16 = HAVE_GROUPS16 && (rnd() & 1);
		long ret;

		for (j = 0; j < n; j++) {
			if (use16)
				list16[j] = want[j] = rnd() % 0xffff;	/* not 0xffff */
			else
				want[j] = (gid_t)(rnd() % 0xffffffffULL);
		}
		if (n && rnd() % 4 == 0)	/* many duplicates */
			for (j = 0; j < n; j++)
				want[j] = want[rnd() % (j + 1)];
		if (use16)
			for (j = 0; j < n; j++)
				list16[j] = want[j];

		faults(1);
		if (use16)
			ret = syscall(__NR_setgroups, n, list16);
		else
			ret = sys_setgroups(n, want);
		err = errno;
		ngot = sys_getgroups(NGROUPS_MAX, got);
		faults(0);
		by16 += use16;

		if (ret == 0) {
			sort_gids(want, n);
		} else if (err == ENOMEM) {
			memcpy(want, prev, nprev * sizeof(*want));
			n = nprev;
		} else {
			ksft_print_msg("call %ld: setgroups%s(%d) = %ld, %s\n", i,
				       use16 ? "16" : "", n, ret, strerror(err));
			bad++;
			continue;
		}
		if (ngot != n || memcmp(got, want, n * sizeof(*got))) {
			ksft_print_msg("call %ld: setgroups%s(%d) = %ld (%s), then getgroups = %d: %s\n",
				       i, use16 ? "16" : "", n, ret, ret ? strerror(err) : "ok",
				       ngot, ngot < 0 ? strerror(errno) : "wrong set");
			if (ngot < 0)
				get_bad++;
			else
				bad++;
			if (bad + get_bad > 20)
				break;
			ngot = sys_getgroups(NGROUPS_MAX, got);
			if (ngot < 0)
				ksft_exit_fail_msg("getgroups: %s\n", strerror(errno));
			n = ngot;
			memcpy(want, got, n * sizeof(*want));
		}
		if (ret == 0)
			ok++;
		else
			enomem++;
		memcpy(prev, want, n * sizeof(*prev));
		nprev = n;
	}
	fi_stop();
	for (a = 0; a < ARRAY_SIZE(attrs); a++)
		injected[a] = TIMES_START - fi_times(attrs[a]);

	ksft_print_msg("%ld calls (%ld 16-bit): %ld succeeded, %ld failed with ENOMEM, "
		       "%ld wrong; faults injected: failslab %ld, fail_page_alloc %ld\n",
		       i, by16, ok, enomem, bad + get_bad, injected[0], injected[1]);
	ksft_test_result(!bad, "every setgroups installed the whole set or failed with ENOMEM "
			 "and kept the old one\n");
	ksft_test_result(!get_bad, "getgroups never failed under fault injection\n");
	ksft_test_result(injected[0] + injected[1] > 0 && ok > 0 && enomem > 0,
			 "faults were injected and both outcomes were seen\n");
	ksft_finished();
}
