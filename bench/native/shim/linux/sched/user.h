/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: user_struct is only pointed to. */
#ifndef _BENCH_SHIM_SCHED_USER_H
#define _BENCH_SHIM_SCHED_USER_H

#include <linux/refcount.h>

struct user_struct {
	refcount_t __count;
};

static inline struct user_struct *get_uid(struct user_struct *u)
{
	refcount_inc(&u->__count);
	return u;
}

#endif
