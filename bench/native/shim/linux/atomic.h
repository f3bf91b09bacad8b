/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: atomic_t and atomic_long_t on the compiler's atomics. */
#ifndef _BENCH_SHIM_ATOMIC_H
#define _BENCH_SHIM_ATOMIC_H

#include <linux/kernel.h>

#define ATOMIC_INIT(i)		{ (i) }
#define __bench_atomic_ops(pfx, v_t, i_t)					\
static inline i_t pfx##_read(const v_t *v)					\
{ return __atomic_load_n(&v->counter, __ATOMIC_RELAXED); }			\
static inline void pfx##_set(v_t *v, i_t i)					\
{ __atomic_store_n(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline void pfx##_add(i_t i, v_t *v)					\
{ __atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline void pfx##_sub(i_t i, v_t *v)					\
{ __atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED); }			\
static inline void pfx##_inc(v_t *v) { pfx##_add(1, v); }			\
static inline void pfx##_dec(v_t *v) { pfx##_sub(1, v); }			\
static inline i_t pfx##_inc_return(v_t *v)					\
{ return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST); }		\
static inline i_t pfx##_dec_return(v_t *v)					\
{ return __atomic_sub_fetch(&v->counter, 1, __ATOMIC_SEQ_CST); }		\
static inline bool pfx##_dec_and_test(v_t *v)					\
{ return pfx##_dec_return(v) == 0; }						\
static inline bool pfx##_sub_and_test(i_t i, v_t *v)				\
{ return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST) == 0; }		\
static inline bool pfx##_inc_not_zero(v_t *v)					\
{										\
	i_t c = pfx##_read(v);							\
										\
	do {									\
		if (!c)								\
			return false;						\
	} while (!__atomic_compare_exchange_n(&v->counter, &c, c + 1, false,	\
					      __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));\
	return true;								\
}

__bench_atomic_ops(atomic, atomic_t, int)
__bench_atomic_ops(atomic64, atomic64_t, s64)
__bench_atomic_ops(atomic_long, atomic_long_t, s64)

#endif
