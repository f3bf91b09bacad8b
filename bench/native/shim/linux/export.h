/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: nothing is exported; the symbol need only exist. */
#ifndef _BENCH_SHIM_EXPORT_H
#define _BENCH_SHIM_EXPORT_H

#define EXPORT_SYMBOL(sym)		_Static_assert(sizeof(&sym) != 0, #sym)
#define EXPORT_SYMBOL_GPL(sym)		EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)	EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)	EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_IF_KUNIT(sym)	EXPORT_SYMBOL(sym)

#endif
