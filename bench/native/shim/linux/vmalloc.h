/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: vmalloc() is kmalloc() (linux/slab.h). */
#ifndef _BENCH_SHIM_VMALLOC_H
#define _BENCH_SHIM_VMALLOC_H

#include <linux/slab.h>

#define vmalloc(size)		kmalloc(size, GFP_KERNEL)
#define vzalloc(size)		kzalloc(size, GFP_KERNEL)
#define vfree(p)		kfree(p)

#endif
