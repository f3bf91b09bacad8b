/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the two halves of the native benchmark, in plain C types:
 *
 *  - the kernel side (groups_tu.c, env.c, sort_tu.c), built against the
 *    stand-in headers of shim/ with a tree's own kernel/groups.c, lib/sort.c
 *    and include/linux/cred.h, offers the tree's functions (bench_groups_*);
 *  - the user side (bench.c), an ordinary C program, offers what the kernel
 *    would (memory, user copies, WARN) and times the tree's functions.
 */
#ifndef _BENCH_NATIVE_API_H
#define _BENCH_NATIVE_API_H

struct group_info;

/* kernel side: the tree's kernel/groups.c */
struct group_info *bench_groups_alloc(int gidsetsize);
void bench_groups_free(struct group_info *gi);
void bench_groups_fill(struct group_info *gi, const unsigned int *gids, unsigned int n);
void bench_groups_sort(struct group_info *gi);
int bench_groups_search(const struct group_info *gi, unsigned int gid);
int bench_groups_to_user(unsigned int *dst, const struct group_info *gi);
int bench_groups_from_user(struct group_info *gi, const unsigned int *src);
int bench_groups_cmp(const struct group_info *a, const struct group_info *b);

/*
 * user side: the memory behind kmalloc(), kvmalloc(), vmalloc() and the
 * page allocator.  While bench_fail_allocs is set every allocation fails;
 * each attempt is counted, the failed ones separately.
 */
extern int bench_fail_allocs;
extern unsigned long bench_alloc_calls, bench_alloc_failed;
void *bench_kmalloc(unsigned long size, int zero);
void bench_kfree(const void *p);
unsigned long bench_get_free_pages(unsigned int order, int zero);
void bench_free_pages(unsigned long addr, unsigned int order);

/* user side: copy_to_user() and copy_from_user() on plain memory */
unsigned long bench_copy_user(void *to, const void *from, unsigned long n);

/* user side: a WARN in kernel code fails the benchmark */
void bench_warn(const char *file, int line);

#endif
