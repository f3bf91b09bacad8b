/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: init code is ordinary code; an initcall is kept, never run. */
#ifndef _BENCH_SHIM_INIT_H
#define _BENCH_SHIM_INIT_H

#include <linux/kernel.h>

#define __init
#define __initdata
#define __initconst
#define __exit
#define __exitdata
#define __bench_initcall(fn) \
	static int (*const __bench_initcall_##fn)(void) __used = fn
#define early_initcall(fn)	__bench_initcall(fn)
#define core_initcall(fn)	__bench_initcall(fn)
#define postcore_initcall(fn)	__bench_initcall(fn)
#define arch_initcall(fn)	__bench_initcall(fn)
#define subsys_initcall(fn)	__bench_initcall(fn)
#define fs_initcall(fn)		__bench_initcall(fn)
#define device_initcall(fn)	__bench_initcall(fn)
#define late_initcall(fn)	__bench_initcall(fn)
#define late_initcall_sync(fn)	__bench_initcall(fn)
#define module_init(fn)		__bench_initcall(fn)
#define module_exit(fn)		static void (*const __bench_exitcall_##fn)(void) __used = fn

#endif
