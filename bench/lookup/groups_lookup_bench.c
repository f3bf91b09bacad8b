// SPDX-License-Identifier: GPL-2.0
/*
 * Times supplementary-group lookups in the kernel, where they happen: a
 * permission check calls in_group_p(), which searches the caller's group
 * list.  At the syscall level the search is invisible under TCG, so the
 * benchmark loads this module into both kernels and asks it.
 *
 * Write "<iterations> <gid> [<gid> ...]" (up to 8 gids) to
 * /sys/kernel/debug/groups_lookup_bench, then read back one line per gid:
 * "<gid> <hit> <total ns>" for that many in_group_p() calls made by the
 * writing task against its own groups.
 */
#include <linux/cred.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#define MAX_GIDS	8

static struct dentry *file;
static DEFINE_MUTEX(lock);
static char result[MAX_GIDS * 48];

static ssize_t bench_write(struct file *f, const char __user *ubuf,
			   size_t len, loff_t *ppos)
{
	unsigned int gids[MAX_GIDS], iters, n = 0, i, k;
	char buf[160], *p, *tok;
	size_t used = 0;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	p = buf;
	tok = strsep(&p, " \n");
	if (!tok || kstrtouint(tok, 0, &iters) || !iters)
		return -EINVAL;
	while (n < MAX_GIDS && (tok = strsep(&p, " \n")) && *tok)
		if (kstrtouint(tok, 0, &gids[n++]))
			return -EINVAL;
	if (!n)
		return -EINVAL;

	mutex_lock(&lock);
	for (k = 0; k < n; k++) {
		kgid_t gid = KGIDT_INIT(gids[k]);
		int hit = in_group_p(gid);
		u64 t0, t1;

		t0 = ktime_get_ns();
		for (i = 0; i < iters; i++)
			hit &= in_group_p(gid) == hit;
		t1 = ktime_get_ns();
		used += scnprintf(result + used, sizeof(result) - used,
				  "%u %d %llu\n", gids[k], in_group_p(gid),
				  t1 - t0);
	}
	mutex_unlock(&lock);
	return len;
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
