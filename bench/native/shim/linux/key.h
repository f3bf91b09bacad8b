/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: keys are only pointed to. */
#ifndef _BENCH_SHIM_KEY_H
#define _BENCH_SHIM_KEY_H

#include <linux/kernel.h>

struct key;

#endif
