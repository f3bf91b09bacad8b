/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in: sysctl tables compile and register nowhere; the handlers do
 * nothing.  The benchmark does not write kernel.ngroups_max.
 */
#ifndef _BENCH_SHIM_SYSCTL_H
#define _BENCH_SHIM_SYSCTL_H

#include <linux/kernel.h>

struct ctl_table;
struct ctl_table_header;

typedef int proc_handler(struct ctl_table *ctl, int write, void *buffer,
			 size_t *lenp, loff_t *ppos);

struct ctl_table {
	const char	*procname;
	void		*data;
	int		maxlen;
	umode_t		mode;
	struct ctl_table *child;
	proc_handler	*proc_handler;
	void		*poll;
	void		*extra1;
	void		*extra2;
};

static const int __bench_sysctl_vals[] __maybe_unused = {
	-1, 0, 1, 2, 4, 100, 200, 1000, 3000, INT_MAX, 65535, -1
};
#define SYSCTL_NEG_ONE		((void *)&__bench_sysctl_vals[0])
#define SYSCTL_ZERO		((void *)&__bench_sysctl_vals[1])
#define SYSCTL_ONE		((void *)&__bench_sysctl_vals[2])
#define SYSCTL_TWO		((void *)&__bench_sysctl_vals[3])
#define SYSCTL_INT_MAX		((void *)&__bench_sysctl_vals[9])

#define __bench_proc_handler(name) \
static inline int __maybe_unused name(struct ctl_table *table, int write, void *buffer, \
				      size_t *lenp, loff_t *ppos) { return 0; }
__bench_proc_handler(proc_dointvec)
__bench_proc_handler(proc_dointvec_minmax)
__bench_proc_handler(proc_dointvec_minmax_sysadmin)
__bench_proc_handler(proc_dointvec_minmax_coredump)
__bench_proc_handler(proc_dou8vec_minmax)
__bench_proc_handler(proc_douintvec)
__bench_proc_handler(proc_douintvec_minmax)
__bench_proc_handler(proc_dointvec_minmax_warn_RT_change)
__bench_proc_handler(proc_dointvec_jiffies)
__bench_proc_handler(proc_dointvec_ms_jiffies)
__bench_proc_handler(proc_dostring)
__bench_proc_handler(proc_doulongvec_minmax)

static inline struct ctl_table_header *register_sysctl(const char *path,
							  const struct ctl_table *table)
{
	return NULL;
}
#define register_sysctl_init(path, table)	((void)register_sysctl(path, table))
#define register_sysctl_table(table)		register_sysctl("", table)

#endif
