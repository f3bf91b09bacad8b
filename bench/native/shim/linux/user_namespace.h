/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in: a user namespace is its id maps.  init_user_ns (env.c) maps
 * every id to itself with one extent, as the kernel's does.
 */
#ifndef _BENCH_SHIM_USER_NAMESPACE_H
#define _BENCH_SHIM_USER_NAMESPACE_H

#include <linux/uidgid.h>

#define UID_GID_MAP_MAX_BASE_EXTENTS 5
#define UID_GID_MAP_MAX_EXTENTS 340

struct uid_gid_extent {
	u32 first;
	u32 lower_first;
	u32 count;
};

struct uid_gid_map {
	u32 nr_extents;
	union {
		struct uid_gid_extent extent[UID_GID_MAP_MAX_BASE_EXTENTS];
		struct {
			struct uid_gid_extent *forward;
			struct uid_gid_extent *reverse;
		};
	};
};

struct user_namespace {
	struct uid_gid_map	uid_map;
	struct uid_gid_map	gid_map;
	struct uid_gid_map	projid_map;
	struct user_namespace	*parent;
	int			level;
	kuid_t			owner;
	kgid_t			group;
	unsigned long		flags;
};

bool userns_may_setgroups(const struct user_namespace *ns);
bool in_userns(const struct user_namespace *ancestor,
	       const struct user_namespace *child);

#endif
