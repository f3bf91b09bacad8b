/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in with the kernel's prototypes: sort_r() and sort() are the tree's lib/sort.c (sort_tu.c). */
#ifndef _BENCH_SHIM_SORT_H
#define _BENCH_SHIM_SORT_H

#include <linux/types.h>

void sort_r(void *base, size_t num, size_t size, cmp_r_func_t cmp_func,
	    swap_r_func_t swap_func, const void *priv);
void sort(void *base, size_t num, size_t size, cmp_func_t cmp_func,
	  swap_func_t swap_func);

#endif
