/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: attributes, annotations and compiler barriers. */
#ifndef _BENCH_SHIM_COMPILER_H
#define _BENCH_SHIM_COMPILER_H

#define __user
#define __kernel
#define __iomem
#define __rcu
#define __force
#define __percpu
#define __bitwise
#define __randomize_layout
#define __no_randstruct
#define __read_mostly
#define __ro_after_init
#define __cacheline_aligned
#define ____cacheline_aligned
#define __always_inline		inline __attribute__((__always_inline__))
#define noinline		__attribute__((__noinline__))
#define noinline_for_stack	noinline
#define __noreturn		__attribute__((__noreturn__))
#define __maybe_unused		__attribute__((__unused__))
#define __always_unused		__attribute__((__unused__))
#define __used			__attribute__((__used__))
#define __must_check		__attribute__((__warn_unused_result__))
#define __attribute_const__	__attribute__((__const__))
#define __pure			__attribute__((__pure__))
#define __cold			__attribute__((__cold__))
#define __hot			__attribute__((__hot__))
#define __packed		__attribute__((__packed__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __counted_by(m)
#define __nocast
#define notrace
#define fallthrough		__attribute__((__fallthrough__))

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

#define barrier()		__asm__ __volatile__("" : : : "memory")
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)
/* as on x86: loads are not reordered with loads, nor stores with stores */
#define smp_rmb()		barrier()
#define smp_wmb()		barrier()
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)

#define __same_type(a, b)	__builtin_types_compatible_p(__typeof__(a), __typeof__(b))
#define __must_be_array(a)	(sizeof(struct { int:(-!!__same_type((a), &(a)[0])); }))

#endif
