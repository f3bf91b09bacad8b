/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the kernel's kconfig.h and autoconf.h, forced into every
 * kernel-side unit of the native benchmark (-include linux/kconfig.h): the
 * options of the harness kernels (kconfig/base.config) that kernel/groups.c,
 * lib/sort.c and include/linux/cred.h look at.
 */
#ifndef _BENCH_SHIM_KCONFIG_H
#define _BENCH_SHIM_KCONFIG_H

#define CONFIG_MULTIUSER 1
#define CONFIG_USER_NS 1
#define CONFIG_SYSCTL 1
#define CONFIG_PROC_SYSCTL 1
#define CONFIG_KEYS 1
#define CONFIG_SMP 1
#define CONFIG_MMU 1
#if defined(__LP64__)
#define CONFIG_64BIT 1
#endif
#if defined(__x86_64__) || defined(__aarch64__)
#define CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS 1
#endif

#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val
#define __is_defined(x)			___is_defined(x)
#define ___is_defined(val)		____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)
#define IS_BUILTIN(option)	__is_defined(option)
#define IS_MODULE(option)	__is_defined(option##_MODULE)
#define IS_REACHABLE(option)	IS_BUILTIN(option)
#define IS_ENABLED(option)	(IS_BUILTIN(option) || IS_MODULE(option))

#endif
