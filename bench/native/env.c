// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side's environment, out of line as in the kernel: the task and
 * its credentials, init_user_ns with the identity maps, the id mapping
 * calls that kernel/user_namespace.c makes, and the credential calls that
 * set_current_groups() references (never made by the benchmark).
 */
#include <linux/cred.h>
#include <linux/user_namespace.h>

#define BENCH_IDENTITY_MAP { .nr_extents = 1, .extent[0] = { 0, 0, 4294967295U } }

struct user_namespace init_user_ns = {
	.uid_map	= BENCH_IDENTITY_MAP,
	.gid_map	= BENCH_IDENTITY_MAP,
	.projid_map	= BENCH_IDENTITY_MAP,
};

static struct cred bench_cred = {
	.user_ns	= &init_user_ns,
};

struct task_struct bench_task = {
	.real_cred	= &bench_cred,
	.cred		= &bench_cred,
};

#define OVERFLOW_ID	65534

/* the id that @id maps to through the extents of @map, or (u32)-1 */
static u32 map_id(const struct uid_gid_map *map, u32 id, bool down)
{
	unsigned int extents = READ_ONCE(map->nr_extents), i;

	smp_rmb();
	for (i = 0; i < extents && i < UID_GID_MAP_MAX_BASE_EXTENTS; i++) {
		const struct uid_gid_extent *e = &map->extent[i];
		u32 from = down ? e->first : e->lower_first;
		u32 to = down ? e->lower_first : e->first;

		if (id >= from && id - from < e->count)
			return to + (id - from);
	}
	return (u32)-1;
}

kuid_t make_kuid(struct user_namespace *ns, uid_t uid)
{
	return KUIDT_INIT(map_id(&ns->uid_map, uid, true));
}

kgid_t make_kgid(struct user_namespace *ns, gid_t gid)
{
	return KGIDT_INIT(map_id(&ns->gid_map, gid, true));
}

uid_t from_kuid(struct user_namespace *ns, kuid_t kuid)
{
	return map_id(&ns->uid_map, __kuid_val(kuid), false);
}

gid_t from_kgid(struct user_namespace *ns, kgid_t kgid)
{
	return map_id(&ns->gid_map, __kgid_val(kgid), false);
}

uid_t from_kuid_munged(struct user_namespace *ns, kuid_t kuid)
{
	uid_t uid = from_kuid(ns, kuid);

	return uid == (uid_t)-1 ? OVERFLOW_ID : uid;
}

gid_t from_kgid_munged(struct user_namespace *ns, kgid_t kgid)
{
	gid_t gid = from_kgid(ns, kgid);

	return gid == (gid_t)-1 ? OVERFLOW_ID : gid;
}

bool userns_may_setgroups(const struct user_namespace *ns)
{
	return true;
}

bool in_userns(const struct user_namespace *ancestor,
	       const struct user_namespace *child)
{
	return true;
}

struct cred *prepare_creds(void)
{
	return NULL;
}

int commit_creds(struct cred *new)
{
	return 0;
}

void abort_creds(struct cred *new)
{
}

void __put_cred(struct cred *cred)
{
}
