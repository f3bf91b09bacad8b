/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for linux/limits.h, vdso/limits.h and uapi/linux/limits.h. */
#ifndef _BENCH_SHIM_LIMITS_H
#define _BENCH_SHIM_LIMITS_H

#define NGROUPS_MAX	65536	/* supplemental group IDs are available */

#define USHRT_MAX	((unsigned short)~0U)
#define SHRT_MAX	((short)(USHRT_MAX >> 1))
#define INT_MAX		((int)(~0U >> 1))
#define INT_MIN		(-INT_MAX - 1)
#define UINT_MAX	(~0U)
#define LONG_MAX	((long)(~0UL >> 1))
#define LONG_MIN	(-LONG_MAX - 1)
#define ULONG_MAX	(~0UL)
#define LLONG_MAX	((long long)(~0ULL >> 1))
#define ULLONG_MAX	(~0ULL)
#define SIZE_MAX	(~(size_t)0)
#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define S32_MAX		((s32)(U32_MAX >> 1))
#define S32_MIN		((s32)(-S32_MAX - 1))
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))

#endif
