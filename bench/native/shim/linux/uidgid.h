/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in: kernel ids and their comparisons.  With CONFIG_USER_NS, as in
 * the harness kernels, mapping an id is a call (env.c walks the identity
 * map of init_user_ns).
 */
#ifndef _BENCH_SHIM_UIDGID_H
#define _BENCH_SHIM_UIDGID_H

#include <linux/uidgid_types.h>

struct user_namespace;
extern struct user_namespace init_user_ns;

#define KUIDT_INIT(value)	(kuid_t){ value }
#define KGIDT_INIT(value)	(kgid_t){ value }
#define GLOBAL_ROOT_UID		KUIDT_INIT(0)
#define GLOBAL_ROOT_GID		KGIDT_INIT(0)
#define INVALID_UID		KUIDT_INIT(-1)
#define INVALID_GID		KGIDT_INIT(-1)

static inline uid_t __kuid_val(kuid_t uid) { return uid.val; }
static inline gid_t __kgid_val(kgid_t gid) { return gid.val; }

static inline bool uid_eq(kuid_t l, kuid_t r) { return __kuid_val(l) == __kuid_val(r); }
static inline bool gid_eq(kgid_t l, kgid_t r) { return __kgid_val(l) == __kgid_val(r); }
static inline bool uid_gt(kuid_t l, kuid_t r) { return __kuid_val(l) > __kuid_val(r); }
static inline bool gid_gt(kgid_t l, kgid_t r) { return __kgid_val(l) > __kgid_val(r); }
static inline bool uid_lt(kuid_t l, kuid_t r) { return __kuid_val(l) < __kuid_val(r); }
static inline bool gid_lt(kgid_t l, kgid_t r) { return __kgid_val(l) < __kgid_val(r); }
static inline bool uid_gte(kuid_t l, kuid_t r) { return __kuid_val(l) >= __kuid_val(r); }
static inline bool gid_gte(kgid_t l, kgid_t r) { return __kgid_val(l) >= __kgid_val(r); }
static inline bool uid_lte(kuid_t l, kuid_t r) { return __kuid_val(l) <= __kuid_val(r); }
static inline bool gid_lte(kgid_t l, kgid_t r) { return __kgid_val(l) <= __kgid_val(r); }
static inline bool uid_valid(kuid_t uid) { return __kuid_val(uid) != (uid_t)-1; }
static inline bool gid_valid(kgid_t gid) { return __kgid_val(gid) != (gid_t)-1; }

kuid_t make_kuid(struct user_namespace *from, uid_t uid);
kgid_t make_kgid(struct user_namespace *from, gid_t gid);
uid_t from_kuid(struct user_namespace *to, kuid_t uid);
gid_t from_kgid(struct user_namespace *to, kgid_t gid);
uid_t from_kuid_munged(struct user_namespace *to, kuid_t uid);
gid_t from_kgid_munged(struct user_namespace *to, kgid_t gid);

static inline bool kgid_has_mapping(struct user_namespace *ns, kgid_t gid)
{
	return from_kgid(ns, gid) != (gid_t)-1;
}

#endif
