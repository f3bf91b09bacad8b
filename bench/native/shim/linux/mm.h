/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: see linux/gfp.h. */
#ifndef _BENCH_SHIM_MM_H
#define _BENCH_SHIM_MM_H

#include <linux/gfp.h>

#endif
