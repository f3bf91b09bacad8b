/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: the C library's string functions (the compiler's builtins). */
#ifndef _BENCH_SHIM_STRING_H
#define _BENCH_SHIM_STRING_H

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);

#endif
