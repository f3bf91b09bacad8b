/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: cache line annotations (see linux/compiler.h). */
#ifndef _BENCH_SHIM_CACHE_H
#define _BENCH_SHIM_CACHE_H

#include <linux/kernel.h>

#define L1_CACHE_BYTES	64
#define SMP_CACHE_BYTES	64

#endif
