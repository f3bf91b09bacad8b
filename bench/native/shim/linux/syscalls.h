/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in: SYSCALL_DEFINEn(name, ...) makes "static long sys_name(...)",
 * an ordinary function that nothing calls.
 */
#ifndef _BENCH_SHIM_SYSCALLS_H
#define _BENCH_SHIM_SYSCALLS_H

#include <linux/kernel.h>

#define __MAP0(m, ...)
#define __MAP1(m, t, a, ...) m(t, a)
#define __MAP2(m, t, a, ...) m(t, a), __MAP1(m, __VA_ARGS__)
#define __MAP3(m, t, a, ...) m(t, a), __MAP2(m, __VA_ARGS__)
#define __MAP4(m, t, a, ...) m(t, a), __MAP3(m, __VA_ARGS__)
#define __MAP5(m, t, a, ...) m(t, a), __MAP4(m, __VA_ARGS__)
#define __MAP6(m, t, a, ...) m(t, a), __MAP5(m, __VA_ARGS__)
#define __MAP(n, ...) __MAP##n(__VA_ARGS__)
#define __SC_DECL(t, a)	t a

#define SYSCALL_DEFINE0(sname) static long __maybe_unused sys_##sname(void)
#define SYSCALL_DEFINEx(x, sname, ...) \
	static long __maybe_unused sys##sname(__MAP(x, __SC_DECL, __VA_ARGS__))
#define SYSCALL_DEFINE1(name, ...) SYSCALL_DEFINEx(1, _##name, __VA_ARGS__)
#define SYSCALL_DEFINE2(name, ...) SYSCALL_DEFINEx(2, _##name, __VA_ARGS__)
#define SYSCALL_DEFINE3(name, ...) SYSCALL_DEFINEx(3, _##name, __VA_ARGS__)
#define SYSCALL_DEFINE4(name, ...) SYSCALL_DEFINEx(4, _##name, __VA_ARGS__)
#define SYSCALL_DEFINE5(name, ...) SYSCALL_DEFINEx(5, _##name, __VA_ARGS__)
#define SYSCALL_DEFINE6(name, ...) SYSCALL_DEFINEx(6, _##name, __VA_ARGS__)
#define COMPAT_SYSCALL_DEFINE2(name, ...) SYSCALL_DEFINEx(2, _compat_##name, __VA_ARGS__)

#endif
