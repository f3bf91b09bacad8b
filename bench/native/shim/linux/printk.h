/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: messages are checked for their format and dropped. */
#ifndef _BENCH_SHIM_PRINTK_H
#define _BENCH_SHIM_PRINTK_H

int printf(const char *fmt, ...);
#define no_printk(fmt, ...)	({ if (0) printf(fmt, ##__VA_ARGS__); 0; })
#define printk(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_emerg(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_warn_once(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define pr_err_once(fmt, ...)	no_printk(fmt, ##__VA_ARGS__)
#define KERN_ERR	""
#define KERN_WARNING	""
#define KERN_INFO	""

#endif
