/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: the kernel's basic types, as on a 64-bit kernel. */
#ifndef _BENCH_SHIM_TYPES_H
#define _BENCH_SHIM_TYPES_H

#include <linux/compiler.h>
#include <linux/stddef.h>

typedef signed char		s8;
typedef unsigned char		u8;
typedef signed short		s16;
typedef unsigned short		u16;
typedef signed int		s32;
typedef unsigned int		u32;
typedef signed long long	s64;
typedef unsigned long long	u64;
typedef u8  __u8;
typedef u16 __u16;
typedef u32 __u32;
typedef u64 __u64;
typedef s32 __s32;
typedef s64 __s64;
typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u16 __be16;
typedef u32 __be32;
typedef u64 __be64;

typedef __SIZE_TYPE__		size_t;
typedef long			ssize_t;
typedef __PTRDIFF_TYPE__	ptrdiff_t;
typedef unsigned long		uintptr_t;
typedef long long		loff_t;
typedef unsigned short		umode_t;
typedef int			pid_t;
typedef unsigned int		uid_t;		/* __kernel_uid32_t */
typedef unsigned int		gid_t;		/* __kernel_gid32_t */
typedef unsigned short		old_uid_t;
typedef unsigned short		old_gid_t;
typedef unsigned int		gfp_t;
typedef unsigned long		phys_addr_t;

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	s64 counter;
} atomic64_t;

typedef atomic64_t atomic_long_t;

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#define rcu_head callback_head

typedef void (*rcu_callback_t)(struct rcu_head *head);
typedef void (*swap_r_func_t)(void *a, void *b, int size, const void *priv);
typedef void (*swap_func_t)(void *a, void *b, int size);
typedef int (*cmp_r_func_t)(const void *a, const void *b, const void *priv);
typedef int (*cmp_func_t)(const void *a, const void *b);


#endif
