/* SPDX-License-Identifier: GPL-2.0 */
/*
 * core/types.h - the only header the protocol core includes.
 *
 * Files under core/ are plain C: no allocation, no locking, no kernel
 * calls.  They build inside mrc.ko and, unchanged, in the userspace unit
 * tests (selftests/unit/) under ASan and UBSan.  This header maps the few
 * kernel types and helpers they use onto their userspace equivalents.
 */
#ifndef _MRC_CORE_TYPES_H
#define _MRC_CORE_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/compiler.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/build_bug.h>
#include <asm/byteorder.h>
#else
#include <assert.h>	/* static_assert */
#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/types.h>	/* the uapi __u32 & co. of linux-libc-dev */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#ifndef BIT
#define BIT(n)		(1UL << (n))
#endif
#ifndef U32_MAX
#define U32_MAX		((u32)~0U)
#endif

#define cpu_to_be16(x)	((__be16)htobe16(x))
#define cpu_to_be32(x)	((__be32)htobe32(x))
#define cpu_to_be64(x)	((__be64)htobe64(x))
#define be16_to_cpu(x)	be16toh((__u16)(x))
#define be32_to_cpu(x)	be32toh((__u32)(x))
#define be64_to_cpu(x)	be64toh((__u64)(x))

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif
#endif /* __KERNEL__ */

#endif /* _MRC_CORE_TYPES_H */
