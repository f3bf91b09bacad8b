/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in for linux/stddef.h and uapi/linux/stddef.h. */
#ifndef _BENCH_SHIM_STDDEF_H
#define _BENCH_SHIM_STDDEF_H

#undef NULL
#define NULL ((void *)0)

typedef _Bool bool;
enum {
	false	= 0,
	true	= 1
};

#undef offsetof
#define offsetof(TYPE, MEMBER)	__builtin_offsetof(TYPE, MEMBER)
#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))
#define offsetofend(TYPE, MEMBER) \
	(offsetof(TYPE, MEMBER)	+ sizeof_field(TYPE, MEMBER))

#define __DECLARE_FLEX_ARRAY(TYPE, NAME)	\
	struct {				\
		struct { } __empty_ ## NAME;	\
		TYPE NAME[];			\
	}
#define DECLARE_FLEX_ARRAY(TYPE, NAME) __DECLARE_FLEX_ARRAY(TYPE, NAME)

#define __struct_group(TAG, NAME, ATTRS, MEMBERS...) \
	union { \
		struct { MEMBERS } ATTRS; \
		struct TAG { MEMBERS } ATTRS NAME; \
	}
#define struct_group(NAME, MEMBERS...)	__struct_group(/* no tag */, NAME, /* no attrs */, MEMBERS)

#endif
