/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in: the page allocator, on bench_get_free_pages() (page-aligned
 * memory from the C library).  A struct page * is the page's address.
 */
#ifndef _BENCH_SHIM_GFP_H
#define _BENCH_SHIM_GFP_H

#include <linux/kernel.h>
#include "../../bench_api.h"

#define __GFP_ZERO		0x100u
#define __GFP_NOWARN		0x200u
#define __GFP_NORETRY		0x400u
#define __GFP_RETRY_MAYFAIL	0x800u
#define __GFP_NOFAIL		0x1000u
#define __GFP_ACCOUNT		0x2000u
#define __GFP_HIGHMEM		0x4000u
#define __GFP_COMP		0x8000u
#define GFP_KERNEL		0x1u
#define GFP_KERNEL_ACCOUNT	(GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT		0x2u
#define GFP_ATOMIC		0x4u
#define GFP_NOFS		0x8u
#define GFP_USER		0x10u
#define GFP_HIGHUSER		(GFP_USER | __GFP_HIGHMEM)

struct page;

static inline unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	return bench_get_free_pages(order, !!(gfp & __GFP_ZERO));
}
#define __get_free_page(gfp)	__get_free_pages(gfp, 0)
#define get_zeroed_page(gfp)	__get_free_pages((gfp) | __GFP_ZERO, 0)

static inline void free_pages(unsigned long addr, unsigned int order)
{
	if (addr)
		bench_free_pages(addr, order);
}
#define free_page(addr)		free_pages(addr, 0)

static inline struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	return (struct page *)__get_free_pages(gfp, order);
}
#define alloc_page(gfp)		alloc_pages(gfp, 0)
#define __free_pages(page, order) free_pages((unsigned long)(page), order)
#define __free_page(page)	__free_pages(page, 0)
#define page_address(page)	((void *)(page))
#define virt_to_page(addr)	((struct page *)((unsigned long)(addr) & PAGE_MASK))

#endif
