/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: kuid_t and kgid_t. */
#ifndef _BENCH_SHIM_UIDGID_TYPES_H
#define _BENCH_SHIM_UIDGID_TYPES_H

#include <linux/kernel.h>

typedef struct {
	uid_t val;
} kuid_t;

typedef struct {
	gid_t val;
} kgid_t;

#endif
