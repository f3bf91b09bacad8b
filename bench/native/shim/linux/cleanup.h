/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: scope-based cleanup classes (6.12's and 7.3's cred.h define them). */
#ifndef _BENCH_SHIM_CLEANUP_H
#define _BENCH_SHIM_CLEANUP_H

#define DEFINE_CLASS(_name, _type, _exit, _init, _init_args...)		\
typedef _type class_##_name##_t;						\
static inline void class_##_name##_destructor(_type *p)			\
{ _type _T = *p; _exit; }							\
static inline _type class_##_name##_constructor(_init_args)			\
{ _type t = _init; return t; }

#define DEFINE_FREE(_name, _type, _free)					\
static inline void __free_##_name(void *p) { _type _T = *(_type *)p; _free; }

#endif
