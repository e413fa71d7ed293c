/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MRC_VERSION_H
#define _MRC_VERSION_H

#define MRC_VERSION "0.1.0"

#endif /* _MRC_VERSION_H */
