/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: checked arithmetic; sizes saturate at SIZE_MAX as in the kernel. */
#ifndef _BENCH_SHIM_OVERFLOW_H
#define _BENCH_SHIM_OVERFLOW_H

#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d)	__builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)

static inline size_t size_mul(size_t a, size_t b)
{
	size_t bytes;

	return check_mul_overflow(a, b, &bytes) ? SIZE_MAX : bytes;
}

static inline size_t size_add(size_t a, size_t b)
{
	size_t bytes;

	return check_add_overflow(a, b, &bytes) ? SIZE_MAX : bytes;
}

#define array_size(a, b)	size_mul(a, b)
#define array3_size(a, b, c)	size_mul(size_mul(a, b), c)
#define flex_array_size(p, member, count) \
	size_mul(count, sizeof(*(p)->member) + __must_be_array((p)->member))
#define struct_size(p, member, count) \
	size_add(sizeof(*(p)), flex_array_size(p, member, count))

#endif
