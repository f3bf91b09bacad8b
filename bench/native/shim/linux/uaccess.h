/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in: "user" memory is plain memory.  The block copies are calls
 * (bench_copy_user(), a memcpy), as _copy_to_user() is; get_user() and
 * put_user() are single volatile accesses, which the compiler can neither
 * merge nor vectorise, as it cannot the kernel's asm.
 */
#ifndef _BENCH_SHIM_UACCESS_H
#define _BENCH_SHIM_UACCESS_H

#include <linux/kernel.h>
#include "../../bench_api.h"

#define access_ok(addr, size)	({ (void)(addr); (void)(size); 1; })

static inline __must_check unsigned long
copy_to_user(void __user *to, const void *from, unsigned long n)
{
	return bench_copy_user((void __force *)to, from, n);
}

static inline __must_check unsigned long
copy_from_user(void *to, const void __user *from, unsigned long n)
{
	return bench_copy_user(to, (const void __force *)from, n);
}

#define get_user(x, ptr) \
	({ (x) = *(const volatile __typeof__(*(ptr)) __force *)(ptr); 0; })
#define put_user(x, ptr) \
	({ *(volatile __typeof__(*(ptr)) __force *)(ptr) = (x); 0; })
#define __get_user(x, ptr)	get_user(x, ptr)
#define __put_user(x, ptr)	put_user(x, ptr)

#endif
