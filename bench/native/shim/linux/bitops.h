/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: the bit searches, on the compiler's builtins. */
#ifndef _BENCH_SHIM_BITOPS_H
#define _BENCH_SHIM_BITOPS_H

#include <linux/bits.h>

static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline unsigned long __fls(unsigned long word)
{
	return BITS_PER_LONG - 1 - __builtin_clzl(word);
}

static inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

static inline int ffs(int x)
{
	return __builtin_ffs(x);
}

#define hweight32(w)	__builtin_popcount(w)
#define hweight64(w)	__builtin_popcountll(w)
#define hweight_long(w)	__builtin_popcountl(w)

#endif
