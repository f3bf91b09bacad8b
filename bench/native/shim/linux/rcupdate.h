/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: one thread, so RCU is plain pointer access. */
#ifndef _BENCH_SHIM_RCUPDATE_H
#define _BENCH_SHIM_RCUPDATE_H

#include <linux/kernel.h>

#define rcu_read_lock()			do { } while (0)
#define rcu_read_unlock()		do { } while (0)
#define rcu_dereference(p)		(p)
#define rcu_dereference_protected(p, c)	(p)
#define rcu_dereference_raw(p)		(p)
#define rcu_access_pointer(p)		(p)
#define rcu_assign_pointer(p, v)	do { (p) = (v); } while (0)
#define RCU_INIT_POINTER(p, v)		do { (p) = (v); } while (0)
#define rcu_replace_pointer(p, v, c)	({ typeof(p) __old = (p); (p) = (v); __old; })

#endif
