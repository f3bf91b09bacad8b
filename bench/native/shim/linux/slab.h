/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in: kmalloc(), kvmalloc() and a slab cache's objects are calls into
 * bench.c (malloc); a kmem_cache is only the size of its objects.
 */
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

/* 7.0's typed allocation of a struct with a flexible array of count entries */
#define kmalloc_flex(obj, fam, count, flags)					\
	((typeof(obj) *)kmalloc(offsetof(typeof(obj), fam) +			\
				sizeof((obj).fam[0]) * (count), flags))
#define kvmalloc_flex(obj, fam, count, flags)	kmalloc_flex(obj, fam, count, flags)

#define kvmalloc(size, flags)	kmalloc(size, flags)
#define kvzalloc(size, flags)	kzalloc(size, flags)
#define kvmalloc_array(n, size, flags)	kmalloc_array(n, size, flags)
#define kvcalloc(n, size, flags)	kcalloc(n, size, flags)
#define kvfree(p)		kfree(p)

#define SLAB_PANIC		0x1u
#define SLAB_ACCOUNT		0x2u
#define SLAB_NO_MERGE		0x4u

struct kmem_cache {
	unsigned int size;
};

static inline struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
						   unsigned int align, unsigned int flags,
						   void (*ctor)(void *))
{
	struct kmem_cache *s = kmalloc(sizeof(*s), GFP_KERNEL);

	BUG_ON(!s && (flags & SLAB_PANIC));
	if (s)
		s->size = size;
	return s;
}

static inline void *kmem_cache_alloc(struct kmem_cache *s, gfp_t flags)
{
	return kmalloc(s->size, flags);
}
#define kmem_cache_zalloc(s, flags)	kmem_cache_alloc(s, (flags) | __GFP_ZERO)
#define kmem_cache_free(s, p)		kfree(p)
#define kmem_cache_size(s)		((s)->size)

#endif
