// SPDX-License-Identifier: GPL-2.0
/*
 * groups_diff - a seeded random differential test of setgroups() and
 * getgroups(), native and 16-bit, in the initial and in user namespaces.
 *
 * It runs --ops operations (default 100000) drawn from --seed (default 1) and
 * checks each result against a user-space model of Linux 6.1's
 * kernel/groups.c and kernel/uid16.c: the order of the checks (EPERM, the
 * size, then each entry in turn, a fault or an invalid gid ending it), the
 * list sorted by kgid with duplicates kept, unmapped gids munged to the
 * overflow gid, and nothing written past what getgroups() returns.
 *
 * After every operation it also looks gids up: for --probes (default 8)
 * gids in and near the current list (members, their neighbours on either
 * side, gids between two members, at the ends and at the block edges of the
 * patched kernel's storage, the fsgid, unmapped and random ones),
 * fchown(fd, -1, gid) on a file the process owns, with CAP_CHOWN out of its
 * effective set (and, in a new user namespace, out of that one's).  6.1's
 * chown_common() and chgrp_ok() (fs/open.c, fs/attr.c) then leave it to
 * in_group_p() alone: EINVAL if the gid has no mapping in the caller's user
 * namespace, else success exactly when the kgid is the file's current group,
 * the fsgid or one of the supplementary groups, EPERM otherwise.  Every few
 * operations it compares the "Groups:" line of /proc/self/status with the
 * model too (fs/proc/array.c: the gids as seen from the reader's namespace,
 * separated by spaces, then one more space).
 *
 * Every return value, errno, list read back and lookup goes into a 64-bit
 * FNV-1a digest, printed last as "# digest: <hex> ops=<n>".  The operations
 * and lookups depend only on the seed, --ops and whether the ABI has the
 * 16-bit calls, never on the page size, pids or timing: a vanilla and a
 * patched kernel must give the same digest for the same ABI and seed.  The
 * lookups draw from a random stream of their own, so the operations are
 * the same as without them.
 *
 * Output is TAP; the exit status is 0 when the model agrees everywhere.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <sys/fsuid.h>
#include <linux/capability.h>

#include "guest.h"

#define GMAX		NGROUPS_MAX	/* the longest list ever built */
#define CAPE		(GMAX + 2048)	/* entries in each buffer */
#define MAX_DIAGS	20
#define CHILD_OPS	400		/* operations per namespace child */
#define FNV_PRIME	0x100000001b3ULL
#define PROBES		8		/* lookups after each operation: --probes */
#define STATUS_EVERY	4		/* Groups line: one operation in 4 ... */
#define STATUS_BIG	4096		/* ... and one in 32 above this many */

/* Operation kinds; a 16-bit kind is K16 + the native one. */
enum { K_SET, K_SET_BADN, K_SET_BADGID, K_SET_FAULT, K_GET, K_GET_FAULT, K16 };
#define NKINDS		(2 * K16)

static const char *const kind_names[NKINDS] = {
	"setgroups", "setgroups/bad-size", "setgroups/bad-gid", "setgroups/fault",
	"getgroups", "getgroups/fault", "setgroups16", "setgroups16/bad-size",
	"setgroups16/bad-gid", "setgroups16/fault", "getgroups16", "getgroups16/fault",
};

/* Per 1000 operations; the 16-bit kinds only where the ABI has them. */
static unsigned int kind_weight[NKINDS] = {
	300, 25, 50, 60, 170, 60,
	150, 15, 40, 45, 100, 35,
};
static unsigned int weight_total;

enum { RES_OK, RES_EINVAL, RES_EFAULT, RES_EPERM, RES_OTHER, NRES };
static const char *const res_names[NRES] = { "ok", "EINVAL", "EFAULT", "EPERM", "other" };

/* ns gids first .. first + count - 1 are kgids lower .. lower + count - 1 */
struct extent {
	uint32_t first, lower, count;
};

static const struct extent map_identity[] = { { 0, 0, 4294967295U } };
static const struct extent map_near[] = { { 0, 0, 4294967294U } };
static const struct extent map_holey[] = {
	{ 0, 100000, 1000 }, { 1000, 0, 1000 }, { 5000, 70000, 100 },
};

/* More than 5 extents: the kernel looks them up in sorted copies. */
static const struct extent map_wide[] = {
	{ 0, 1000, 10 }, { 10, 0, 10 }, { 100, 0xfffffff0U, 15 },
	{ 40000, 50000, 5000 }, { 65530, 65530, 12 },
	{ 0x7fffff00U, 0x7fffff00U, 0x200 }, { 0xfffffff0U, 200, 15 },
};

static const struct ns_variant {
	const char *name;
	const struct extent *map;
	unsigned int map_n;
	bool deny;		/* "deny" in /proc/PID/setgroups */
	unsigned int share;	/* percent of the namespace operations */
} variants[] = {
	{ "user namespace ops (3-extent holey gid_map)", map_holey, 3, false, 35 },
	{ "user namespace ops (7-extent gid_map)", map_wide, 7, false, 25 },
	{ "user namespace ops (setgroups deny)", map_holey, 3, true, 10 },
	{ "user namespace ops (identity gid_map)", map_identity, 1, false, 15 },
	{ "user namespace ops (gid_map 0 0 4294967294)", map_near, 1, false, 15 },
};

enum { PH_NATIVE, PH_16, PH_NS0 };
#define NPHASES		(PH_NS0 + (int)ARRAY_SIZE(variants))

/* Everything a namespace child hands back to its parent */
static struct stats {
	uint64_t digest, ops;
	uint64_t res[NKINDS][NRES];
	uint64_t checked[NPHASES], failed[NPHASES];
	uint64_t probes, members, probes_failed;	/* fchown() lookups */
	uint64_t lines, lines_failed;			/* Groups lines */
	unsigned int diags;
} st = { .digest = 0xcbf29ce484222325ULL };

/* The operations' random stream, and the lookups' own, which leaves it alone */
static struct rng ops_rng, probe_rng;
static uint64_t opt_seed = 1;
static unsigned int opt_probes = PROBES;
static unsigned int ngroups_max = NGROUPS_MAX;
static uint32_t overflowgid = DEFAULT_OVERFLOWGID;

/* The namespace the model is in: the initial one to start with */
static const struct extent *map = map_identity;
static unsigned int map_n = 1;
static bool may_set = true;
static int ns_phase = -1;

/* The kernel's list as the model has it: kgids, ascending */
static uint32_t *model, *newset, *scratch, *gen, *exp32;
static uint16_t *exp16;
static unsigned int model_n;
static bool exp_valid;
static unsigned char *heap, *guard;

/* The lookups: a file we own, its group and our fsgid, as kgids */
static int probe_fd = -1;
static uint32_t file_kgid, fsgid_k;
static char *status_buf;
static size_t status_size;
static int last_kind = -1;	/* of the operation just done */

static uint32_t rnd32(void)
{
	return rng_u32(&ops_rng);
}

/* uniform in [0, n) */
static uint32_t below(uint32_t n)
{
	return rng_below(&ops_rng, n);
}

static uint32_t pbelow(uint32_t n)
{
	return rng_below(&probe_rng, n);
}

static void seed_streams(uint64_t seed)
{
	rng_seed(&ops_rng, seed);
	rng_seed(&probe_rng, seed ^ 0x6a09e667f3bcc909ULL);
}

/* log-uniform in [0, 2^bits) */
static uint32_t logu(unsigned int bits)
{
	unsigned int b = below(bits + 1);

	return b ? (1U << (b - 1)) + below(1U << (b - 1)) : 0;
}

static void hash(uint32_t v, unsigned int bytes)
{
	while (bytes--) {
		st.digest ^= v & 0xff;
		st.digest *= FNV_PRIME;
		v >>= 8;
	}
}

static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void diag(const char *fmt, ...)
{
	va_list ap;

	if (st.diags++ >= MAX_DIAGS) {
		if (st.diags == MAX_DIAGS + 1)
			printf("# (further disagreements not shown)\n");
		return;
	}
	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
}

static bool to_kgid(uint32_t gid, uint32_t *kgid)
{
	unsigned int i;

	for (i = 0; i < map_n; i++) {
		if (gid - map[i].first < map[i].count) {
			*kgid = map[i].lower + (gid - map[i].first);
			return true;
		}
	}
	return false;
}

/* from_kgid_munged() */
static uint32_t from_kgid(uint32_t kgid)
{
	unsigned int i;

	for (i = 0; i < map_n; i++)
		if (kgid - map[i].lower < map[i].count)
			return map[i].first + (kgid - map[i].lower);
	return overflowgid;
}

/* The gid that list entry @v of a native or a 16-bit call stands for */
static uint32_t entry_gid(uint32_t v, bool w16)
{
	return w16 && v == 0xffff ? 0xffffffffU : v;	/* low2highgid() */
}

static uint16_t high2low(uint32_t gid)
{
	return gid & ~0xffffU ? (uint16_t)overflowgid : gid;
}

/* LSD radix sort, a byte a pass, skipping the passes that would copy */
static void sort32(uint32_t *a, unsigned int n)
{
	uint32_t *src = a, *dst = scratch, *t;
	unsigned int cnt[256], i, shift, sum, c;

	if (n < 64) {
		sort_gids(a, n);
		return;
	}
	for (shift = 0; shift < 32; shift += 8) {
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < n; i++)
			cnt[(src[i] >> shift) & 255]++;
		if (cnt[(src[0] >> shift) & 255] == n)
			continue;
		for (i = 0, sum = 0; i < 256; i++) {
			c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[(src[i] >> shift) & 255]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, (size_t)n * sizeof(*a));
}

static const uint32_t specials[] = {
	0, 1, 2, 99, 100, 999, 1000, 4999, 5000, 65533, 65534, 65535, 65536,
	65537, 69999, 70000, 99999, 100000, 0x7ffffffe, 0x7fffffff, 0x80000000,
	POISON_GID, 0xfffffff0U, 0xfffffffdU, 0xfffffffeU,
};

/* A gid that setgroups() accepts, often at the edge of a mapped range */
static uint32_t pick_mapped(bool w16)
{
	const struct extent *e;
	uint32_t span;
	int tries;

	for (tries = 0; tries < 16 && map_n; tries++) {
		e = &map[below(map_n)];
		span = e->count;
		if (w16 && e->first >= 0xffff)
			continue;
		if (w16 && span > 0xffff - e->first)
			span = 0xffff - e->first;	/* up to 0xfffe */
		switch (below(4)) {
		case 0:
			return e->first;
		case 1:
			return e->first + span - 1;
		}
		return e->first + below(span);
	}
	return map_n ? map[0].first : below(0xffff);	/* every map has a small one */
}

/* A gid that setgroups() must refuse with EINVAL */
static uint32_t pick_unmapped(bool w16)
{
	const struct extent *e = map_n ? &map[below(map_n)] : map_identity;
	uint32_t v, k;
	int tries;

	for (tries = 0; tries < 16; tries++) {
		uint32_t c[4] = { e->first - 1, e->first + e->count,
				  w16 ? below(0x10000) : rnd32(), w16 ? 0xffff : 0xffffffffU };

		v = c[below(4)];
		if ((!w16 || v <= 0xffff) && !to_kgid(entry_gid(v, w16), &k))
			return v;
	}
	return w16 ? 0xffff : 0xffffffffU;
}

enum { V_RANDOM, V_TINY, V_SPECIAL, V_LOW16, V_MAPPED, V_MIX };

/* One valid entry, in the style @mode */
static uint32_t gen_one(int mode, uint32_t base, uint32_t range, bool w16)
{
	uint32_t v, k;

	if (mode == V_MIX)
		mode = below(V_MIX);
	if (mode == V_RANDOM)
		v = rnd32();
	else if (mode == V_TINY)	/* many duplicates */
		v = base + below(range);
	else if (mode == V_SPECIAL)
		v = specials[below(ARRAY_SIZE(specials))] + below(5) - 2;
	else if (mode == V_LOW16)
		v = below(0x10000);
	else
		v = pick_mapped(w16);
	if (w16)
		v &= 0xffff;
	if (!to_kgid(entry_gid(v, w16), &k))
		v = pick_mapped(w16);
	return v;
}

/* @m valid entries: random, sorted, reversed, in kgid order or all equal */
static void gen_list(uint32_t *v, unsigned int m, bool w16)
{
	int mode = below(V_MIX + 1);
	uint32_t base = pick_mapped(w16), range = 1 + logu(5), t;
	unsigned int i, j, r = below(20);

	for (i = 0; i < m; i++)
		v[i] = gen_one(mode, base, range, w16);
	if (m < 2 || r < 7)
		return;
	if (r < 13) {
		sort32(v, m);
		for (i = 0; r >= 10 && i < m / 2; i++) {
			t = v[i];
			v[i] = v[m - 1 - i];
			v[m - 1 - i] = t;
		}
	} else if (r < 19 && map_n) {
		/* the kernel's order: mapping a valid list is one to one */
		for (i = 0; i < m; i++)
			to_kgid(entry_gid(v[i], w16), &v[i]);
		sort32(v, m);
		for (i = 0; i < m; i++)
			v[i] = from_kgid(v[i]);
		for (i = 0; r == 18 && i < 3; i++) {	/* nearly in order */
			j = below(m);
			t = v[j];
			v[j] = v[m - 1 - i % m];
			v[m - 1 - i % m] = t;
		}
	} else {
		for (i = 1; i < m; i++)
			v[i] = v[0];
	}
}

/*
 * Sizes at the edges of how the patched kernel stores a list: inline up to
 * 1022 gids (4K pages) or 16382 (64K), else blocks of 1024 or 16384 with the
 * last one in the header when it fits; and of its 64-gid copy chunks.
 */
static const unsigned int small_edges[] = {
	0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128,
	129, 255, 256, 257, 511, 512, 513, 1021, 1022, 1023, 1024, 1025, 2040,
	2041, 2047, 2048, 2049,
};

static const unsigned int mid_edges[] = {
	3061, 3062, 4093, 4094, 4095, 4096, 4097, 8191, 8192, 8193,
};

static const unsigned int big_edges[] = {
	16381, 16382, 16383, 16384, 16385, 17355, 17356, 32760, 32761, 32767,
	32768, 32769, 49152, 65342, 65343, 65522, 65523, 65535, 65536,
};

/*
 * Mostly short lists: under QEMU TCG a list of 65536 costs some 50ms, so
 * only about one list in 175 is longer than 8192.
 */
static int pick_size(void)
{
	unsigned int r = below(1000), n;

	if (r < 200)
		return small_edges[below(ARRAY_SIZE(small_edges))];
	if (r < 215)
		return mid_edges[below(ARRAY_SIZE(mid_edges))];
	if (r < 220)
		return big_edges[below(ARRAY_SIZE(big_edges))];
	if (r < 223) {
		n = logu(17);
		return n > GMAX ? GMAX : n;
	}
	return r < 283 ? logu(13) : logu(10);
}

static int pick_badn(void)
{
	int n[8] = { -1, INT_MIN, ngroups_max + 1, ngroups_max + 2 + below(1000), INT_MAX,
		     -1 - (int)below(INT_MAX), 1 << (17 + below(14)), NGROUPS_MAX + 1 };

	return n[below(8)];
}

enum { AT_HEAP, AT_GUARD, AT_NULL };

struct op {
	int kind;		/* K_* */
	int n;			/* the size argument */
	int where;		/* AT_* */
	unsigned int k;		/* AT_GUARD: whole entries before the guard page */
	unsigned int part;	/* AT_GUARD: and bytes of entry k */
	unsigned int mis;	/* AT_HEAP: bytes off alignment */
	unsigned int m;		/* entries generated */
};

static int describe1(char *buf, size_t size, const struct op *o)
{
	if (o->where == AT_NULL)
		return snprintf(buf, size, "%s(%d, NULL)", kind_names[o->kind], o->n);
	if (o->where == AT_GUARD)
		return snprintf(buf, size, "%s(%d, %u entries + %u bytes before a guard page)",
				kind_names[o->kind], o->n, o->k, o->part);
	return snprintf(buf, size, "%s(%d, list at +%u)", kind_names[o->kind], o->n, o->mis);
}

/* An operation, and the setgroups() it verifies, if any */
static const char *describe(const struct op *o, const struct op *after)
{
	static char buf[400];
	int len = describe1(buf, sizeof(buf), o);

	if (after) {
		len += snprintf(buf + len, sizeof(buf) - len, " after ");
		describe1(buf + len, sizeof(buf) - len, after);
	}
	return buf;
}

static const char *fmt_res(char *buf, size_t size, long ret, int err)
{
	if (ret >= 0)
		snprintf(buf, size, "%ld", ret);
	else
		snprintf(buf, size, "%ld/%s", ret, err == EINVAL ? "EINVAL" :
			 err == EFAULT ? "EFAULT" : err == EPERM ? "EPERM" : strerror(err));
	return buf;
}

static void end_op(int kind, bool bad, long ret, int err)
{
	int ph = ns_phase >= 0 ? ns_phase : kind >= K16 ? PH_16 : PH_NATIVE;
	int r = RES_OK;

	if (ret < 0)
		r = err == EINVAL ? RES_EINVAL : err == EFAULT ? RES_EFAULT :
		    err == EPERM ? RES_EPERM : RES_OTHER;
	st.res[kind][r]++;
	st.checked[ph]++;
	st.failed[ph] += bad;
	st.ops++;
}

static unsigned char *buffer_at(const struct op *o, unsigned int wsz)
{
	if (o->where == AT_NULL)
		return NULL;
	if (o->where == AT_GUARD)
		return guard - (size_t)o->k * wsz - o->part;
	return heap + o->mis;
}

/* Entry @i of a list of 16- or 32-bit gids, aligned or not */
static uint32_t get_entry(const unsigned char *p, unsigned int i, unsigned int wsz)
{
	uint32_t x;
	uint16_t y;

	if (wsz == 4) {
		memcpy(&x, p + 4 * (size_t)i, 4);
		return x;
	}
	memcpy(&y, p + 2 * (size_t)i, 2);
	return y;
}

/* exp32 and exp16: the list as getgroups() and getgroups16() return it */
static void expect_list(void)
{
	unsigned int i;

	if (exp_valid)
		return;
	for (i = 0; i < model_n; i++) {
		exp32[i] = from_kgid(model[i]);
		exp16[i] = high2low(exp32[i]);
	}
	exp_valid = true;
}

/*
 * getgroups() or getgroups16(): EINVAL for a negative size, the count for
 * 0, EINVAL when the list does not fit, EFAULT when it cannot be written.
 * Nothing may be written past the list, nor anything at all unless it
 * succeeds.  @after is the setgroups() this call verifies, if any.
 */
static bool do_get(const struct op *o, const struct op *after)
{
	bool w16 = o->kind >= K16, bad;
	unsigned int wsz = w16 ? 2 : 4, count = model_n, lim, i;
	unsigned char *p = buffer_at(o, wsz);
	size_t bytes = 0, from = 0;
	uint32_t got = 0, want_gid = 0;
	char s1[48], s2[48];
	int want_err = 0, err;
	long want, ret;

	lim = o->where == AT_HEAP ? UINT_MAX : o->where == AT_GUARD ? o->k : 0;
	if (o->n < 0 || (o->n > 0 && count > (unsigned int)o->n))
		want_err = EINVAL;
	else if (o->n > 0 && count > lim)
		want_err = EFAULT;
	want = want_err ? -1 : (long)count;

	/* poison what the kernel may not write */
	if (o->where == AT_HEAP) {
		bytes = o->n > 0 ? (unsigned int)o->n : 0;
		if (bytes > count + 1100)
			bytes = count + 1100;
		bytes = (bytes < 16 ? 16 : bytes) * wsz;
	} else if (o->where == AT_GUARD) {
		bytes = (size_t)o->k * wsz + o->part;
	}
	if (bytes)
		memset(p, POISON, bytes);

	errno = 0;
	ret = syscall(w16 ? NR_getgroups16 : NR_getgroups, (long)o->n, p);
	err = ret < 0 ? errno : 0;
	bad = ret != want || err != want_err;
	if (bad)
		diag("op %" PRIu64 " %s: expected %s, got %s", st.ops, describe(o, after),
		     fmt_res(s1, sizeof(s1), want, want_err), fmt_res(s2, sizeof(s2), ret, err));
	hash(o->kind, 1);
	hash(o->n, 4);
	hash(ret, 4);
	hash(err, 4);
	if (!bad && !want_err && o->n > 0 && count) {
		expect_list();
		for (i = 0; i < count; i++) {
			got = get_entry(p, i, wsz);
			want_gid = w16 ? exp16[i] : exp32[i];
			hash(got, wsz);
			if (got != want_gid)
				break;
		}
		if (i < count) {
			bad = true;
			diag("op %" PRIu64 " %s: entry %u of %u is %u, expected %u", st.ops,
			     describe(o, after), i, count, got, want_gid);
		}
		from = (size_t)count * wsz;
	}
	/* after EFAULT the list may have been written in part */
	if (!bad && want_err != EFAULT && bytes && !all_poison(p + from, bytes - from)) {
		bad = true;
		diag("op %" PRIu64 " %s: wrote past entry %u", st.ops, describe(o, after),
		     (unsigned int)(from / wsz));
	}
	if (!after)
		end_op(o->kind, bad, ret, err);
	return !bad;
}

/* Lay out the list of @o, up to the guard page if it has one */
static void *place(const struct op *o, const uint32_t *v, unsigned int wsz)
{
	unsigned char *p = buffer_at(o, wsz);
	unsigned int i, m = o->m;
	uint16_t x;

	if (!p)
		return NULL;
	if (o->where == AT_GUARD && m > o->k)
		m = o->k;
	if (wsz == 4) {
		memcpy(p, v, (size_t)m * 4);
	} else {
		for (i = 0; i < m; i++) {
			x = v[i];
			memcpy(p + 2 * i, &x, 2);
		}
	}
	if (o->where == AT_GUARD && o->part && o->m > o->k)
		memcpy(p + (size_t)o->k * wsz, &v[o->k], o->part);
	return p;
}

/*
 * The 6.1 setgroups(): EPERM, then the size, then each entry in turn: a
 * fault (only @lim entries are readable) or an invalid gid ends it.
 */
static int model_set(int n, const uint32_t *v, unsigned int lim, bool w16,
		     unsigned int *stop)
{
	unsigned int i;

	*stop = 0;
	if (!may_set)
		return -EPERM;
	if ((unsigned int)n > ngroups_max)
		return -EINVAL;
	for (i = 0; i < (unsigned int)n; i++) {
		*stop = i;
		if (i >= lim)
			return -EFAULT;
		if (!to_kgid(entry_gid(v[i], w16), &newset[i]))
			return -EINVAL;
	}
	return 0;
}

/* setgroups() of @v as @o says, then a full getgroups() to check the list */
static void do_set(const struct op *o, const uint32_t *v)
{
	bool w16 = o->kind >= K16, bad;
	unsigned int wsz = w16 ? 2 : 4, lim, stop;
	struct op g = { .kind = K_GET, .where = AT_HEAP };
	void *p = place(o, v, wsz);
	char s1[48], s2[48];
	int want, err;
	uint32_t *t;
	long ret;

	lim = o->where == AT_HEAP ? UINT_MAX : o->where == AT_GUARD ? o->k : 0;
	want = -model_set(o->n, v, lim, w16, &stop);
	errno = 0;
	ret = syscall(w16 ? NR_setgroups16 : NR_setgroups, (long)o->n, p);
	err = ret < 0 ? errno : 0;
	bad = ret != (want ? -1 : 0) || err != want;
	if (bad)
		diag("op %" PRIu64 " %s: expected %s (at entry %u), got %s", st.ops,
		     describe(o, NULL), fmt_res(s1, sizeof(s1), want ? -1 : 0, want), stop,
		     fmt_res(s2, sizeof(s2), ret, err));
	hash(o->kind, 1);
	hash(o->n, 4);
	hash(ret, 4);
	hash(err, 4);
	if (!bad && !want) {
		sort32(newset, o->n);
		t = model;
		model = newset;
		newset = t;
		model_n = o->n;
		exp_valid = false;
	}

	g.n = model_n + (below(4) ? 0 : 1 + logu(8));
	if (!do_get(&g, o))
		bad = true;
	/* after a disagreement, back to a known state if we can */
	if (bad && syscall(NR_setgroups, 0L, NULL) == 0) {
		model_n = 0;
		exp_valid = false;
	}
	end_op(o->kind, bad, ret, err);
}

static void op_set(int kind)
{
	struct op o = { .kind = kind, .where = AT_HEAP };
	bool w16 = kind >= K16;
	unsigned int i, nbad = 0;

	switch (kind % K16) {
	case K_SET:
		o.n = o.m = pick_size();
		if (!o.n && below(2))
			o.where = AT_NULL;
		else if (!below(8))
			o.mis = 1 + below(3);
		break;
	case K_SET_BADN:
		o.n = pick_badn();
		o.m = below(4);
		o.where = below(3) ? AT_HEAP : below(2) ? AT_NULL : AT_GUARD;
		break;
	case K_SET_BADGID:
		o.n = o.m = 1 + pick_size() % GMAX;
		nbad = below(4) ? 1 : 2 + below(3);
		break;
	default:
		if (!below(6)) {
			o.where = AT_NULL;
			o.n = 1 + logu(12);
			break;
		}
		/* k entries readable, then maybe part of one, then the guard page */
		o.where = AT_GUARD;
		o.k = below(50) ? logu(12) : below(GMAX);
		o.part = below(3) ? 0 : below(w16 ? 2 : 4);
		o.n = o.k;
		if (below(6))
			o.n += 1 + (below(2) ? below(4) : logu(12));
		if (o.n > GMAX)
			o.n = GMAX;
		o.m = (unsigned int)o.n < o.k + 1 ? (unsigned int)o.n : o.k + 1;
		nbad = o.m && !below(4);	/* before, at or after the fault */
		break;
	}
	gen_list(gen, o.m, w16);
	for (i = 0; i < nbad; i++)
		gen[below(o.m)] = pick_unmapped(w16);
	do_set(&o, gen);
}

static void op_get(int kind)
{
	struct op o = { .kind = kind, .where = AT_HEAP };
	unsigned int count = model_n, r = below(100);

	if (kind % K16 == K_GET_FAULT) {
		o.where = AT_GUARD;
		if (count && r < 60)
			o.k = below(count);
		else
			o.k = r < 80 ? count : count + 1 + logu(6);
		o.part = below(3) ? 0 : below(kind >= K16 ? 2 : 4);
		o.n = below(8) ? count + (below(2) ? 0 : logu(17)) : o.k;
	} else if (r < 12) {
		o.n = 0;
		if (below(2))
			o.where = AT_NULL;
	} else if (r < 22) {
		o.n = below(2) ? -1 : below(2) ? INT_MIN : -1 - (int)logu(20);
	} else if (r < 37) {
		o.n = count > 1 ? 1 + below(count - 1) : count;	/* too short */
	} else if (r < 92) {
		int n[6] = { count, count, count + 1 + below(16), count + logu(14), INT_MAX,
			     NGROUPS_MAX + below(2) };

		o.n = n[below(6)];
		if (!below(8))
			o.mis = 1 + below(3);
	} else {
		o.where = AT_NULL;
		o.n = below(4) ? count + below(2) : 1;
	}
	do_get(&o, NULL);
}

static const char *phase_name(int ph)
{
	return ph == PH_NATIVE ? "native ops" : ph == PH_16 ? "16-bit ops" :
	       variants[ph - PH_NS0].name;
}

/* The operation the lookups follow, for the diagnostics */
static const char *after_what(void)
{
	static char buf[160];

	snprintf(buf, sizeof(buf), "after op %" PRIu64 " (%s%s%s), %u groups",
		 st.ops ? st.ops - 1 : 0, last_kind >= 0 ? kind_names[last_kind] : "start",
		 ns_phase >= 0 ? ", " : "", ns_phase >= 0 ? phase_name(ns_phase) : "",
		 model_n);
	return buf;
}

static bool model_member(uint32_t kgid)
{
	unsigned int lo = 0, hi = model_n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (model[mid] < kgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < model_n && model[lo] == kgid;
}

static const char *probe_res(char *buf, size_t size, int err)
{
	if (!err)
		return "0";
	snprintf(buf, size, "-1/%s", err == EPERM ? "EPERM" : err == EINVAL ? "EINVAL" :
		 strerror(err));
	return buf;
}

/* The fsgid as this namespace names it, if it can */
static bool fsgid_here(uint32_t *gid)
{
	uint32_t k;

	*gid = from_kgid(fsgid_k);
	return to_kgid(*gid, &k) && k == fsgid_k;
}

/* @len bytes of @p, with \t and \n spelled out, for a diagnostic */
static const char *visible(const char *p, int len)
{
	static char buf[80];
	int i, j = 0;

	for (i = 0; i < len && p[i] && j < (int)sizeof(buf) - 3; i++) {
		if (p[i] == '\n' || p[i] == '\t') {
			buf[j++] = '\\';
			buf[j++] = p[i] == '\n' ? 'n' : 't';
		} else {
			buf[j++] = p[i];
		}
	}
	buf[j] = '\0';
	return buf;
}

/*
 * fchown(probe_fd, -1, @gid) as the owner without CAP_CHOWN: chown_common()
 * refuses a gid without a mapping (EINVAL), then chgrp_ok() allows the
 * file's own group and whatever in_group_p() says yes to: the fsgid or a
 * supplementary group.  Else EPERM.
 */
static void probe(uint32_t gid)
{
	bool mapped, member = false, bad;
	int want = EINVAL, err;
	char s1[48], s2[48];
	uint32_t k = 0, was;

	mapped = to_kgid(gid, &k);
	/* the file's own group proves nothing: move it back to the fsgid */
	if (mapped && k == file_kgid && k != fsgid_k) {
		uint32_t fs;

		if (fsgid_here(&fs))
			probe(fs);
	}
	if (mapped) {
		member = model_member(k);
		want = k == fsgid_k || k == file_kgid || member ? 0 : EPERM;
	}
	was = file_kgid;
	errno = 0;
	err = fchown(probe_fd, (uid_t)-1, gid) ? errno : 0;
	bad = err != want;
	hash(gid, 4);
	hash(err, 2);
	st.probes++;
	st.members += member;
	if (!err && mapped)
		file_kgid = k;
	if (!bad)
		return;
	st.probes_failed++;
	diag("%s: fchown(fd, -1, %u) (%s, kgid %u, fsgid %u, file's group %u): expected %s, got %s",
	     after_what(), gid, !mapped ? "unmapped" : member ? "a member" : "not a member", k,
	     fsgid_k, was, probe_res(s1, sizeof(s1), want), probe_res(s2, sizeof(s2), err));
	/* the file's group is anyone's guess now: back to the fsgid if we can */
	if (fsgid_here(&gid) && !fchown(probe_fd, (uid_t)-1, gid))
		file_kgid = fsgid_k;
}

static uint32_t prnd32(void)
{
	return (pbelow(0x10000) << 16) | pbelow(0x10000);
}

/*
 * A gid (as the caller's namespace names it) to look up: a member, the
 * kgids or the gids right next to one, between two members, at the ends
 * and block edges of the list, the fsgid, the edges of the gid map, or any.
 */
static uint32_t probe_gid(void)
{
	static const unsigned int edges[] = { 1022, 1024, 16382, 16384 };
	unsigned int n = model_n, i = 0, e, r = pbelow(16);
	const struct extent *x;
	uint32_t k = 0, g;

	if (n) {
		e = edges[pbelow(ARRAY_SIZE(edges))];
		switch (pbelow(6)) {
		case 0:
			i = 0;
			break;
		case 1:
			i = n - 1;
			break;
		case 2:	/* the last of a block or the first of the next */
			i = n > e ? (1 + pbelow(n / e)) * e - pbelow(2) : pbelow(n);
			if (i >= n)
				i = n - 1;
			break;
		default:
			i = pbelow(n);
			break;
		}
		k = model[i];
	} else if (r < 11) {
		r = 11 + pbelow(5);
	}
	switch (r) {
	case 0: case 1: case 2: case 3: case 4:
		g = from_kgid(k);
		break;
	case 5: case 6:
		g = from_kgid(k - 1);
		break;
	case 7: case 8:
		g = from_kgid(k + 1);
		break;
	case 9:		/* neighbours in the namespace's numbering */
		g = from_kgid(k) + (pbelow(2) ? 1 : -1);
		break;
	case 10:
		g = from_kgid(i + 1 < n ? k + (model[i + 1] - k) / 2 : k + 1 + pbelow(1000));
		break;
	case 11:
		g = from_kgid(fsgid_k) + pbelow(3) - 1;
		break;
	case 12:
		g = specials[pbelow(ARRAY_SIZE(specials))] + pbelow(5) - 2;
		break;
	case 13:
		if (!map_n) {
			g = prnd32();
			break;
		}
		x = &map[pbelow(map_n)];
		g = pbelow(2) ? x->first - 1 : x->first + x->count;
		break;
	case 14:
		g = prnd32();
		break;
	default:
		g = pbelow(0x10000);
		break;
	}
	return g == 0xffffffffU ? 0xfffffffeU : g;	/* -1 would change nothing */
}

/* /proc/self/status, in a buffer kept from one call to the next */
static const char *read_status(void)
{
	return read_file_buf("/proc/self/status", &status_buf, &status_size, true) < 0 ? NULL :
	       status_buf;
}

/*
 * The "Groups:" line: the list as this namespace sees it (the overflow gid
 * for what it cannot), as parse_groups() reads it, into scratch (which only
 * sort32() uses otherwise).  fs/proc/array.c: "Trailing space shouldn't have
 * been added in the first place.".
 */
static void check_status(void)
{
	const char *text = read_status(), *stop = NULL;
	unsigned int i = 0;
	int n = -1;
	bool bad;

	expect_list();
	if (text)
		n = parse_groups(text, scratch, CAPE, &stop);
	while ((int)i < n && i < model_n && scratch[i] == exp32[i])
		i++;
	bad = n != (int)model_n || i < model_n;
	hash(model_n, 4);
	hash(bad, 1);
	st.lines++;
	if (!bad)
		return;
	st.lines_failed++;
	if (!stop)
		diag("%s: no Groups line in /proc/self/status", after_what());
	else if (n < 0)
		diag("%s: /proc/self/status Groups line malformed at \"%s\"", after_what(),
		     visible(stop, 24));
	else if (i < model_n && (int)i < n)
		diag("%s: /proc/self/status Groups entry %u: expected %u, seen %u", after_what(),
		     i, exp32[i], scratch[i]);
	else
		diag("%s: /proc/self/status Groups line has %d entries, expected %u",
		     after_what(), n, model_n);
}

/*
 * What could let the owner change a file's group without in_group_p():
 * CAP_CHOWN (chgrp_ok()); CAP_FOWNER only for good measure.  Out of the
 * effective and permitted sets, whatever namespace we are in; CAP_SETGID
 * stays, so setgroups() still works.  0 or -1.
 */
#define PROBE_CAPS	((1ULL << CAP_CHOWN) | (1ULL << CAP_FOWNER))

static int drop_caps(uint64_t caps)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	int i;

	memset(data, 0, sizeof(data));
	if (syscall(__NR_capget, &hdr, data))
		return -1;
	for (i = 0; i < 2; i++) {
		data[i].effective &= ~(uint32_t)(caps >> 32 * i);
		data[i].permitted &= ~(uint32_t)(caps >> 32 * i);
		data[i].inheritable &= ~(uint32_t)(caps >> 32 * i);
	}
	return syscall(__NR_capset, &hdr, data);
}

/* A new file of our own to look gids up with: owned by our fsuid and fsgid */
static int probe_file(void)
{
	int fd = memfd_create("groups_diff", MFD_CLOEXEC);

	if (fd < 0)
		fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	file_kgid = fsgid_k;
	return fd;
}

/* After each operation: PROBES lookups, and now and then the Groups line */
static void lookups(void)
{
	unsigned int i;

	for (i = 0; probe_fd >= 0 && i < opt_probes; i++)
		probe(probe_gid());
	if (!pbelow(STATUS_EVERY) && (model_n <= STATUS_BIG || !pbelow(8)))
		check_status();
}

static void run_op(int kind)
{
	last_kind = kind;
	if (kind % K16 >= K_GET)
		op_get(kind);
	else
		op_set(kind);
	lookups();
}

static int pick_kind(void)
{
	uint32_t r = below(weight_total);
	int k;

	for (k = 0; k < NKINDS - 1 && r >= kind_weight[k]; k++)
		r -= kind_weight[k];
	return k;
}

/* Before a child: kgids at the edges of its mapping, mapped there or not */
static void set_inherited(const struct ns_variant *nv)
{
	struct op o = { .kind = K_SET, .where = AT_HEAP };
	unsigned int i;
	uint32_t v;

	o.n = o.m = below(5) ? 1 + logu(9) : logu(13);
	for (i = 0; i < o.m; i++) {
		const struct extent *e = &nv->map[below(nv->map_n)];
		uint32_t c[8] = { e->lower - 1, e->lower, e->lower + e->count - 1,
				  e->lower + e->count, e->lower + below(e->count),
				  specials[below(ARRAY_SIZE(specials))], below(200000), rnd32() };

		v = c[below(8)];
		gen[i] = v == 0xffffffffU ? 0xfffffffeU : v;
	}
	last_kind = K_SET;
	do_set(&o, gen);
	lookups();
}

_Static_assert(sizeof(struct stats) <= PIPE_BUF, "the report must fit a pipe write");

/* In a new user namespace: a few operations before its gid_map, then @nops */
static void __attribute__((noreturn))
ns_child(const struct ns_variant *nv, int ph, unsigned int nops, int wfd, int rfd)
{
	char c = 'r';
	unsigned int i;

	ns_phase = ph;
	/* a file of its own: the parent's keeps the group the parent gave it */
	if (probe_fd >= 0) {
		close(probe_fd);
		probe_fd = probe_file();
		if (probe_fd < 0)
			st.probes_failed++;
	}
	if (unshare(CLONE_NEWUSER)) {
		diag("unshare(CLONE_NEWUSER): %s", strerror(errno));
		c = 'u';
	} else {
		/* all capabilities in the new namespace: CAP_CHOWN goes again */
		if (probe_fd >= 0 && drop_caps(PROBE_CAPS)) {
			diag("capset in the user namespace: %s", strerror(errno));
			close(probe_fd);
			probe_fd = -1;
			st.probes_failed++;
		}
		/* no gid_map yet: every gid unmapped, setgroups() EPERM */
		map_n = 0;
		may_set = false;
		exp_valid = false;
		run_op(K_GET);
		run_op(K_SET);
		run_op(HAVE_GROUPS16 ? K16 + K_GET : K_SET_FAULT);
	}
	if (write(wfd, &c, 1) != 1 || c != 'r' || read(rfd, &c, 1) != 1 || c != 'g') {
		st.checked[ph]++;
		st.failed[ph]++;
	} else {
		map = nv->map;
		map_n = nv->map_n;
		may_set = !nv->deny;
		exp_valid = false;
		for (i = 0; i < nops; i++)
			run_op(pick_kind());
	}
	/* no more than PIPE_BUF: one write, one read */
	_exit(write(wfd, &st, sizeof(st)) == sizeof(st) ? 0 : 1);
}

static int proc_write(pid_t pid, const char *file, const char *text)
{
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	ret = write_file(path, text);
	if (ret)
		printf("# writing %s: %s\n", path, strerror(-ret));
	return ret;
}

/* @nops operations in a child in a new user namespace; its stats come back */
static void ns_run(unsigned int v, unsigned int chunk, unsigned int nops)
{
	const struct ns_variant *nv = &variants[v];
	int ph = PH_NS0 + v, c2p[2] = { -1, -1 }, p2c[2] = { -1, -1 }, status = -1;
	char c = 0, text[512];
	pid_t pid = -1;
	struct stats rep;
	size_t len = 0;
	unsigned int i;
	bool ok;

	set_inherited(nv);
	for (i = 0; i < nv->map_n; i++)
		len += snprintf(text + len, sizeof(text) - len, "%u %u %u\n",
				nv->map[i].first, nv->map[i].lower, nv->map[i].count);
	if (!pipe(c2p) && !pipe(p2c))
		pid = fork();
	if (!pid) {
		close(c2p[0]);
		close(p2c[1]);
		seed_streams(opt_seed ^ (0x2545f4914f6cdd1dULL * (v * 100003ULL + chunk + 1)));
		ns_child(nv, ph, nops, c2p[1], p2c[0]);
	}
	close(c2p[1]);
	close(p2c[0]);
	ok = pid > 0 && read(c2p[0], &c, 1) == 1;
	if (ok && c == 'r') {
		if ((nv->deny && proc_write(pid, "setgroups", "deny")) ||
		    proc_write(pid, "uid_map", "0 0 4294967295\n") ||
		    proc_write(pid, "gid_map", text))
			c = 'x';
		else
			c = 'g';
		ok = write(p2c[1], &c, 1) == 1;
	}
	ok = ok && read(c2p[0], &rep, sizeof(rep)) == sizeof(rep);
	close(c2p[0]);
	close(p2c[1]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (ok && WIFEXITED(status) && !WEXITSTATUS(status)) {
		st = rep;
		return;
	}
	diag("%s: child %u failed (status %#x)", nv->name, chunk, status);
	st.checked[ph]++;
	st.failed[ph]++;
	hash(0xdeadbeef, 4);
}

static bool setup(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = ((size_t)CAPE * sizeof(uint32_t) + page - 1) / page * page;
	uint32_t *mem = calloc(7 * (size_t)CAPE, sizeof(uint32_t));
	unsigned char *r;
	int k;

	ngroups_max = read_number("/proc/sys/kernel/ngroups_max", NGROUPS_MAX);
	overflowgid = read_number("/proc/sys/kernel/overflowgid", DEFAULT_OVERFLOWGID);
	if (ngroups_max > GMAX || !mem)
		return false;
	/* in the initial namespace, kgids are gids */
	fsgid_k = setfsgid((gid_t)-1);
	probe_fd = probe_file();
	if (probe_fd < 0)
		printf("# no file to look gids up with: %s\n", strerror(errno));
	else if (drop_caps(PROBE_CAPS))
		return false;
	for (k = 0; k < NKINDS; k++) {
		if (k >= K16 && !HAVE_GROUPS16)
			kind_weight[k] = 0;
		weight_total += kind_weight[k];
	}
	model = mem;
	newset = mem + CAPE;
	scratch = mem + 2 * CAPE;
	gen = mem + 3 * CAPE;
	exp32 = mem + 4 * CAPE;
	exp16 = (uint16_t *)(mem + 5 * CAPE);
	heap = (unsigned char *)(mem + 6 * CAPE);
	/* a guard page right after the buffer that lists end at */
	r = mmap(NULL, len + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED || mprotect(r + len, page, PROT_NONE))
		return false;
	guard = r + len;
	return true;
}

int main(int argc, char **argv)
{
	unsigned long ops = 100000, ns_ops, share, done, c;
	double t0;
	bool all_ok = true;
	unsigned int v;
	int i, k, r;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			opt_seed = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--ops") && i + 1 < argc) {
			ops = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--probes") && i + 1 < argc) {
			opt_probes = strtoul(argv[++i], NULL, 0);
		} else {
			fprintf(stderr, "usage: %s [--seed S] [--ops N] [--probes N]\n", argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	signal(SIGPIPE, SIG_IGN);
	printf("TAP version 13\n");
	if (!setup()) {
		printf("Bail out! setup: ngroups_max %u, %s\n", ngroups_max, strerror(errno));
		return 1;
	}
	printf("1..%d\n", NPHASES + 2);
	printf("# seed %" PRIu64 ", %lu ops, ngroups_max %u, overflowgid %u, %s16-bit calls",
	       opt_seed, ops, ngroups_max, overflowgid, HAVE_GROUPS16 ? "" : "no ");
	printf(", fsgid %u, %u lookups an op\n", fsgid_k, opt_probes);
	t0 = now_s();
	seed_streams(opt_seed);

	/* a known list to start from, then the initial namespace's share */
	do_set(&(struct op){ .kind = K_SET, .where = AT_NULL }, gen);
	ns_ops = ops >= 20 ? ops / 10 : 0;
	for (c = 0; c < ops - ns_ops; c++)
		run_op(pick_kind());
	for (v = 0, done = 0; v < ARRAY_SIZE(variants); v++) {
		share = v + 1 < ARRAY_SIZE(variants) ? ns_ops * variants[v].share / 100 :
			ns_ops - done;
		done += share;
		for (c = 0; share; c++) {
			k = share < CHILD_OPS ? share : CHILD_OPS;
			ns_run(v, c, k);
			share -= k;
		}
	}
	printf("# %" PRIu64 " ops in %.1fs\n", st.ops, now_s() - t0);

	for (i = 0; i < NPHASES; i++) {
		const char *name = phase_name(i);

		if (!st.checked[i]) {
			printf("ok %d %s agree with the 6.1 model # SKIP %s\n", i + 1, name,
			       i == PH_16 && !HAVE_GROUPS16 ? "no 16-bit calls on this ABI" :
			       "too few --ops");
			continue;
		}
		printf("# %s: %" PRIu64 " checked, %" PRIu64 " disagreed\n", name,
		       st.checked[i], st.failed[i]);
		r = st.failed[i] != 0;
		all_ok &= !r;
		printf("%sok %d %s agree with the 6.1 model\n", r ? "not " : "", i + 1, name);
	}
	if (!st.probes && !st.probes_failed) {
		printf("ok %d lookups (chgrp as the owner) agree with the 6.1 model # SKIP %s\n",
		       NPHASES + 1, probe_fd < 0 ? "no file to chgrp" : "too few --ops");
	} else {
		printf("# lookups: %" PRIu64 " gids (%" PRIu64 " members), %" PRIu64 " disagreed\n",
		       st.probes, st.members, st.probes_failed);
		all_ok &= !st.probes_failed;
		printf("%sok %d lookups (chgrp as the owner) agree with the 6.1 model\n",
		       st.probes_failed ? "not " : "", NPHASES + 1);
	}
	if (!st.lines) {
		printf("ok %d /proc/self/status Groups lines agree with the 6.1 model # SKIP %s\n",
		       NPHASES + 2, "too few --ops");
	} else {
		printf("# Groups lines: %" PRIu64 " checked, %" PRIu64 " disagreed\n",
		       st.lines, st.lines_failed);
		all_ok &= !st.lines_failed;
		printf("%sok %d /proc/self/status Groups lines agree with the 6.1 model\n",
		       st.lines_failed ? "not " : "", NPHASES + 2);
	}
	for (k = 0; k < NKINDS; k++) {
		char line[256] = "";
		uint64_t sum = 0;
		size_t len = 0;

		for (r = 0; r < NRES; r++) {
			sum += st.res[k][r];
			if (st.res[k][r])
				len += snprintf(line + len, sizeof(line) - len, " %s %" PRIu64,
						res_names[r], st.res[k][r]);
		}
		if (sum)
			printf("# totals: %s %" PRIu64 ":%s\n", kind_names[k], sum, line);
	}
	printf("# digest: %016" PRIx64 " ops=%" PRIu64 "\n", st.digest, st.ops);
	return all_ok ? 0 : 1;
}
