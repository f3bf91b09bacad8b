/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: module metadata is dropped. */
#ifndef _BENCH_SHIM_MODULE_H
#define _BENCH_SHIM_MODULE_H

#include <linux/export.h>
#include <linux/init.h>

#define MODULE_LICENSE(x)	_Static_assert(1, x)
#define MODULE_DESCRIPTION(x)	_Static_assert(1, x)
#define MODULE_AUTHOR(x)	_Static_assert(1, x)
#define THIS_MODULE		((void *)0)

#endif
