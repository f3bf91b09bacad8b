/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: 4 KiB pages, as on x86_64 and the harness's arm64 kernel. */
#ifndef _BENCH_SHIM_ASM_PAGE_H
#define _BENCH_SHIM_ASM_PAGE_H

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))
#define PAGE_ALIGN(addr) ALIGN(addr, PAGE_SIZE)

#endif
