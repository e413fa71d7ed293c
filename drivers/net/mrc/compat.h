/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the only place that knows kernel versions.
 *
 * mrc builds against Debian 12's stock 6.1 and against 6.12 (the debug
 * kernel).  Every API that differs between them gets one wrapper here,
 * named after the newer API, so the rest of the code reads like 6.12.
 */
#ifndef _MRC_COMPAT_H
#define _MRC_COMPAT_H

#include <linux/version.h>

#endif /* _MRC_COMPAT_H */
