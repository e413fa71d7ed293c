/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * mrc: Multipath Reliable Connection - user API.
 *
 * Everything userspace needs to talk to mrc.ko: the socket address, the
 * socket options and the generic netlink family.  The address family
 * number is NOT a compile-time constant for programs: an out-of-tree module
 * has to borrow an unused slot below NPROTO, and the slot actually in use
 * is the module parameter /sys/module/mrc/parameters/family (also reported
 * by the generic netlink family).  MRC_FAMILY_DEFAULT is only the default.
 */
#ifndef _UAPI_LINUX_MRC_H
#define _UAPI_LINUX_MRC_H

#include <linux/types.h>

/*
 * Default address family slot.  22 is AF_SNA ("Linux SNA Project"), which
 * is reserved in <linux/socket.h> but has never had an implementation in
 * the kernel tree.  See Documentation/mrc.rst, "Address family".
 */
#define MRC_FAMILY_DEFAULT	22

/*
 * Default UDP destination port of a new mrc device (changeable per device).
 * Chosen next to RoCEv2 (4791) and Ultra Ethernet (4793); it is not an
 * IANA assignment.  See Documentation/mrc.rst.
 */
#define MRC_UDP_PORT_DEFAULT	4796

/* sysfs file holding the address family number the loaded module uses. */
#define MRC_FAMILY_SYSFS	"/sys/module/mrc/parameters/family"

#endif /* _UAPI_LINUX_MRC_H */
