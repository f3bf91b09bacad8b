/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: kmalloc() and kvmalloc() are calls into bench.c (malloc). */
#ifndef _BENCH_SHIM_SLAB_H
#define _BENCH_SHIM_SLAB_H

#include <linux/gfp.h>
#include <linux/overflow.h>

#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

static inline void *kmalloc(size_t size, gfp_t flags)
{
	return bench_kmalloc(size, !!(flags & __GFP_ZERO));
}
#define kzalloc(size, flags)	kmalloc(size, (flags) | __GFP_ZERO)

static inline void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes))
		return NULL;
	return kmalloc(bytes, flags);
}
#define kcalloc(n, size, flags)	kmalloc_array(n, size, (flags) | __GFP_ZERO)

static inline void kfree(const void *p)
{
	bench_kfree(p);
}
#define kfree_sensitive(p)	kfree(p)

#define kvmalloc(size, flags)	kmalloc(size, flags)
#define kvzalloc(size, flags)	kzalloc(size, flags)
#define kvmalloc_array(n, size, flags)	kmalloc_array(n, size, flags)
#define kvcalloc(n, size, flags)	kcalloc(n, size, flags)
#define kvfree(p)		kfree(p)

#endif
