/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: integer logarithms and powers of two. */
#ifndef _BENCH_SHIM_LOG2_H
#define _BENCH_SHIM_LOG2_H

#include <linux/bitops.h>

#define ilog2(n) \
	((int)(sizeof(n) <= 4 ? 31 - __builtin_clz((u32)(n)) : 63 - __builtin_clzll((u64)(n))))

static inline __attribute_const__ bool is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

static inline __attribute_const__ unsigned long __roundup_pow_of_two(unsigned long n)
{
	return 1UL << fls64(n - 1);
}

static inline __attribute_const__ unsigned long __rounddown_pow_of_two(unsigned long n)
{
	return 1UL << (fls64(n) - 1);
}

#define roundup_pow_of_two(n)	__roundup_pow_of_two(n)
#define rounddown_pow_of_two(n)	__rounddown_pow_of_two(n)
#define order_base_2(n)		((n) > 1 ? ilog2((n) - 1) + 1 : 0)

#endif
