/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: min(), max() and friends, without the kernel's type checks. */
#ifndef _BENCH_SHIM_MINMAX_H
#define _BENCH_SHIM_MINMAX_H

#define __bench_cmp(x, y, op) \
	({ __typeof__(x) __x = (x); __typeof__(y) __y = (y); __x op __y ? __x : __y; })
#define min(x, y)		__bench_cmp(x, y, <)
#define max(x, y)		__bench_cmp(x, y, >)
#define min3(x, y, z)		min((__typeof__(x))min(x, y), z)
#define max3(x, y, z)		max((__typeof__(x))max(x, y), z)
#define min_t(type, x, y)	__bench_cmp((type)(x), (type)(y), <)
#define max_t(type, x, y)	__bench_cmp((type)(x), (type)(y), >)
#define clamp(val, lo, hi)	min(max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi)	clamp_t(__typeof__(val), val, lo, hi)
#define swap(a, b) \
	do { __typeof__(a) __tmp = (a); (a) = (b); (b) = __tmp; } while (0)

#endif
