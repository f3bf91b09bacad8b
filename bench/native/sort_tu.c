// SPDX-License-Identifier: GPL-2.0
/*
 * The tree's own lib/sort.c (BENCH_SORT_C), in a unit of its own as in the
 * kernel, so that the compiler cannot specialise sort() for the caller's
 * compare function: vanilla's groups_sort() pays its indirect calls.
 */
#include BENCH_SORT_C
