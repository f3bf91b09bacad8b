/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in: BUG() stops the benchmark; a WARN is reported to it
 * (bench_warn() in bench.c), which then exits non-zero.
 */
#ifndef _BENCH_SHIM_BUG_H
#define _BENCH_SHIM_BUG_H

#include "../../bench_api.h"

#define BUG()			__builtin_trap()
#define BUG_ON(cond)		do { if (unlikely(cond)) BUG(); } while (0)
#define WARN(cond, fmt...)	({ int __c = !!(cond); if (unlikely(__c)) bench_warn(__FILE__, __LINE__); __c; })
#define WARN_ON(cond)		WARN(cond, "")
#define WARN_ONCE(cond, fmt...)	WARN(cond, "")
#define WARN_ON_ONCE(cond)	WARN(cond, "")

#endif
