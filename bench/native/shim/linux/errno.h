/* SPDX-License-Identifier: GPL-2.0 */
/* Stand-in: the error numbers (uapi/asm-generic/errno-base.h). */
#ifndef _BENCH_SHIM_ERRNO_H
#define _BENCH_SHIM_ERRNO_H

#define EPERM		 1
#define ENOENT		 2
#define ESRCH		 3
#define EINTR		 4
#define EIO		 5
#define E2BIG		 7
#define EBADF		 9
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define EINVAL		22
#define ENOSPC		28
#define ERANGE		34
#define EOVERFLOW	75

#endif
