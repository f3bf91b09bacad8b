// SPDX-License-Identifier: GPL-2.0
/*
 * Times supplementary-group lookups in the kernel, where they happen: a
 * permission check calls in_group_p(), which searches the caller's group
 * list.  At the syscall level the search is invisible under TCG, so the
 * benchmark loads this module into both kernels and asks it.
 *
 * Write "<iterations> <repeats> <gid> [<gid> ...]" (up to 64 gids) to
 * /sys/kernel/debug/groups_lookup_bench, then read back one line per gid:
 * "<gid> <hit> <ns>", where ns is the fastest of <repeats> timed loops of
 * <iterations> in_group_p() calls made by the writing task against its own
 * groups.  The minimum drops the loops that an interrupt or a TCG
 * translation hit; the gids take turns between repeats so that a slow
 * stretch of the host does not fall on one of them only.
 */
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#define MAX_GIDS	64

static struct dentry *file;
static DEFINE_MUTEX(lock);
static char result[MAX_GIDS * 48];

static unsigned int gids[MAX_GIDS];
static u64 best[MAX_GIDS];

static ssize_t bench_write(struct file *f, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	unsigned int iters, repeats, n = 0, i, k, r;
	char *buf, *p, *tok;
	size_t used = 0;
	ssize_t ret = len;

	if (len >= PAGE_SIZE)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	p = buf;
	mutex_lock(&lock);
	tok = strsep(&p, " \n");
	if (!tok || kstrtouint(tok, 0, &iters) || !iters)
		goto inval;
	tok = strsep(&p, " \n");
	if (!tok || kstrtouint(tok, 0, &repeats) || !repeats)
		goto inval;
	while (n < MAX_GIDS && (tok = strsep(&p, " \n")) && *tok)
		if (kstrtouint(tok, 0, &gids[n++]))
			goto inval;
	if (!n)
		goto inval;

	for (k = 0; k < n; k++)
		best[k] = U64_MAX;
	for (r = 0; r < repeats; r++) {
		for (k = 0; k < n; k++) {
			kgid_t gid = KGIDT_INIT(gids[k]);
			int hit = in_group_p(gid);
			u64 t0, t1;

			t0 = ktime_get_ns();
			for (i = 0; i < iters; i++)
				hit &= in_group_p(gid) == hit;
			t1 = ktime_get_ns();
			best[k] = min(best[k], t1 - t0);
		}
		cond_resched();
	}
	for (k = 0; k < n; k++)
		used += scnprintf(result + used, sizeof(result) - used,
				  "%u %d %llu\n", gids[k],
				  in_group_p(KGIDT_INIT(gids[k])), best[k]);
	goto out;
inval:
	ret = -EINVAL;
out:
	mutex_unlock(&lock);
	kfree(buf);
	return ret;
}

static ssize_t bench_read(struct file *f, char __user *ubuf, size_t len,
			  loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&lock);
	ret = simple_read_from_buffer(ubuf, len, ppos, result, strlen(result));
	mutex_unlock(&lock);
	return ret;
}

static const struct file_operations bench_fops = {
	.owner	= THIS_MODULE,
	.write	= bench_write,
	.read	= bench_read,
};

static int __init bench_init(void)
{
	file = debugfs_create_file("groups_lookup_bench", 0600, NULL, NULL,
				   &bench_fops);
	return 0;
}

static void __exit bench_exit(void)
{
	debugfs_remove(file);
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_DESCRIPTION("Time in_group_p() lookups of the calling task");
MODULE_LICENSE("GPL");
