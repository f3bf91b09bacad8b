// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of the native benchmark: a tree's own kernel/groups.c,
 * included as it is (BENCH_GROUPS_C is its path) and compiled against the
 * stand-in headers of shim/, which come first on the include path.  The
 * only kernel header used is the tree's include/linux/cred.h, included
 * whole (shim/linux/cred.h), so struct group_info, its accessors and its
 * static_asserts are the tree's; the shim supplies only the kernel around
 * them.  Below, entry points with plain C types for bench.c, including the
 * static groups_to_user() and groups_from_user().
 */
#include BENCH_GROUPS_C

#include "bench_api.h"

#ifndef BENCH_GROUP_INFO_ACCESSORS
/*
 * A tree before patch 0001 (vanilla) has no group_info_set_gid(), which the
 * build detects in its cred.h: use the flat array as 0001's accessors do.
 */
static inline void group_info_set_gid(struct group_info *gi, unsigned int i,
				      kgid_t gid)
{
	gi->gid[i] = gid;
}

static inline kgid_t group_info_gid(const struct group_info *gi, unsigned int i)
{
	return gi->gid[i];
}
#endif

/*
 * The tree's exported functions themselves, under the names bench.c calls:
 * called from another unit, as most of their callers in the kernel are,
 * with no wrapper that gcc inlines them into for one tree and not another.
 */
struct group_info *bench_groups_alloc(int) __attribute__((alias("groups_alloc")));
void bench_groups_free(struct group_info *) __attribute__((alias("groups_free")));
void bench_groups_sort(struct group_info *) __attribute__((alias("groups_sort")));

void bench_groups_fill(struct group_info *gi, const unsigned int *gids,
		       unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		group_info_set_gid(gi, i, KGIDT_INIT(gids[i]));
}

/*
 * groups_search() inlined in every tree, whatever its size, as the search
 * is in in_group_p() (not called here: it looks at the task's credentials).
 */
__attribute__((flatten))
int bench_groups_search(const struct group_info *gi, unsigned int gid)
{
	return groups_search(gi, KGIDT_INIT(gid));
}

/* 0 or -EFAULT: a tree's groups_to_user() may return the count copied */
int bench_groups_to_user(unsigned int *dst, const struct group_info *gi)
{
#ifdef BENCH_TO_USER_MAX
	int ret = groups_to_user((gid_t __user *)dst, gi, gi->ngroups);
#else
	int ret = groups_to_user((gid_t __user *)dst, gi);
#endif

	return ret < 0 ? ret : 0;
}

int bench_groups_from_user(struct group_info *gi, const unsigned int *src)
{
	return groups_from_user(gi, (gid_t __user *)src);
}

#ifndef BENCH_GROUPS_CMP
/*
 * A tree whose kernel/groups.c has no groups_cmp() compares group lists in
 * cred_fscmp() (kernel/cred.c): its loop, as vanilla 6.1 has it.
 */
static int groups_cmp(const struct group_info *ga, const struct group_info *gb)
{
	int g;

	if (ga == gb)
		return 0;
	if (ga == NULL)
		return -1;
	if (gb == NULL)
		return 1;
	if (ga->ngroups < gb->ngroups)
		return -1;
	if (ga->ngroups > gb->ngroups)
		return 1;

	for (g = 0; g < ga->ngroups; g++) {
		if (gid_lt(group_info_gid(ga, g), group_info_gid(gb, g)))
			return -1;
		if (gid_gt(group_info_gid(ga, g), group_info_gid(gb, g)))
			return 1;
	}
	return 0;
}
#endif

int bench_groups_cmp(const struct group_info *a, const struct group_info *b)
{
	return groups_cmp(a, b);
}
