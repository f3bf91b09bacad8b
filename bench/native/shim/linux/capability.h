/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: capabilities; the benchmark's task holds all of them. */
#ifndef _BENCH_SHIM_CAPABILITY_H
#define _BENCH_SHIM_CAPABILITY_H

#include <linux/kernel.h>

#define _KERNEL_CAPABILITY_U32S	2
#define CAP_CHOWN		0
#define CAP_DAC_OVERRIDE	1
#define CAP_SETGID		6
#define CAP_SETUID		7
#define CAP_SYS_ADMIN		21
#define CAP_SYS_RESOURCE	24

typedef struct kernel_cap_struct {
	__u32 cap[_KERNEL_CAPABILITY_U32S];
} kernel_cap_t;

struct user_namespace;
struct task_struct;

static inline kernel_cap_t cap_intersect(const kernel_cap_t a, const kernel_cap_t b)
{
	kernel_cap_t dest;
	unsigned int i;

	for (i = 0; i < _KERNEL_CAPABILITY_U32S; i++)
		dest.cap[i] = a.cap[i] & b.cap[i];
	return dest;
}

static inline bool cap_issubset(const kernel_cap_t a, const kernel_cap_t set)
{
	unsigned int i;

	for (i = 0; i < _KERNEL_CAPABILITY_U32S; i++)
		if (a.cap[i] & ~set.cap[i])
			return false;
	return true;
}

static inline bool capable(int cap) { return true; }
static inline bool ns_capable(struct user_namespace *ns, int cap) { return true; }
static inline bool ns_capable_noaudit(struct user_namespace *ns, int cap) { return true; }
static inline bool ns_capable_setid(struct user_namespace *ns, int cap) { return true; }
static inline bool has_capability(struct task_struct *t, int cap) { return true; }

#endif
