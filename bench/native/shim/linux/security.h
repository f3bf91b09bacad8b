/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: no LSM objects to anything. */
#ifndef _BENCH_SHIM_SECURITY_H
#define _BENCH_SHIM_SECURITY_H

#include <linux/kernel.h>

struct cred;

static inline int security_task_fix_setgroups(struct cred *new, const struct cred *old)
{
	return 0;
}

static inline int security_task_fix_setuid(struct cred *new, const struct cred *old, int flags)
{
	return 0;
}

#endif
