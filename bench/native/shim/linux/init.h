/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in: init code is ordinary code; an initcall runs before main(), a
 * constructor, the levels in the kernel's order.  An exitcall never runs.
 */
#ifndef _BENCH_SHIM_INIT_H
#define _BENCH_SHIM_INIT_H

#include <linux/kernel.h>

#define __init
#define __initdata
#define __initconst
#define __exit
#define __exitdata
#define __bench_initcall(fn, level) \
	static void __attribute__((__constructor__(101 + level))) __bench_initcall_##fn(void) \
	{ fn(); }
#define early_initcall(fn)	__bench_initcall(fn, 0)
#define core_initcall(fn)	__bench_initcall(fn, 1)
#define postcore_initcall(fn)	__bench_initcall(fn, 2)
#define arch_initcall(fn)	__bench_initcall(fn, 3)
#define subsys_initcall(fn)	__bench_initcall(fn, 4)
#define fs_initcall(fn)		__bench_initcall(fn, 5)
#define device_initcall(fn)	__bench_initcall(fn, 6)
#define late_initcall(fn)	__bench_initcall(fn, 7)
#define late_initcall_sync(fn)	__bench_initcall(fn, 8)
#define module_init(fn)		device_initcall(fn)
#define module_exit(fn)		static void (*const __bench_exitcall_##fn)(void) __used = fn

#endif
