/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: a fixed "per-boot" secret, so that every run takes the same paths. */
#ifndef _BENCH_SHIM_RANDOM_H
#define _BENCH_SHIM_RANDOM_H

#include <linux/types.h>

static inline u64 get_random_u64(void)
{
	return 0x9e3779b97f4a7c15ULL;
}

#endif
