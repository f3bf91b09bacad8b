/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Not a stand-in: the tree's own include/linux/cred.h, whose path the build
 * passes as BENCH_CRED_H.  Its includes resolve to the other headers here;
 * struct group_info and its accessors are the tree's, as they are.
 */
#include BENCH_CRED_H
