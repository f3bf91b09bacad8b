/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: the one task, with the credentials of env.c. */
#ifndef _BENCH_SHIM_SCHED_H
#define _BENCH_SHIM_SCHED_H

#include <linux/rcupdate.h>

struct cred;

struct task_struct {
	const struct cred __rcu	*real_cred;
	const struct cred __rcu	*cred;
};

extern struct task_struct bench_task;
#define current		(&bench_task)

#endif
