/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in: what a kernel file gets through its includes, whichever it
 * names.  Every stand-in header but types.h, sort.h and export.h includes
 * it: lib/sort.c, which names only those, must not see swap().
 */
#ifndef _BENCH_SHIM_KERNEL_H
#define _BENCH_SHIM_KERNEL_H

#include <linux/types.h>
#include <linux/limits.h>
#include <linux/build_bug.h>
#include <linux/bug.h>
#include <linux/minmax.h>
#include <linux/bits.h>
#include <linux/bitops.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/printk.h>
#include <linux/cleanup.h>
#include <asm/page.h>

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]) + __must_be_array(arr))
#define __ALIGN_KERNEL_MASK(x, mask)	(((x) + (mask)) & ~(mask))
#define ALIGN(x, a)		__ALIGN_KERNEL_MASK(x, (__typeof__(x))(a) - 1)
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define round_up(x, y)		((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define round_down(x, y)	((x) & ~((__typeof__(x))((y) - 1)))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define MAX_ERRNO		4095
#define IS_ERR_VALUE(x)		((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)
#define IS_ERR_OR_NULL(ptr)	(!(ptr) || IS_ERR_VALUE(ptr))

#define might_sleep()		do { } while (0)
#define might_fault()		do { } while (0)
#define cond_resched()		({ 0; })
#define cpu_relax()		barrier()

#endif
