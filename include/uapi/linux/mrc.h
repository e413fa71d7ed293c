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
#include <linux/in6.h>
#include <linux/socket.h>
#include <linux/mrc_netlink.h>

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

/* setsockopt()/getsockopt() level of AF_MRC options. */
#define SOL_MRC			299

/**
 * struct sockaddr_mrc - address of an mrc endpoint
 * @smrc_family: the AF_MRC family number (read it from MRC_FAMILY_SYSFS)
 * @smrc_port: port, network byte order; 0 in bind() asks for an ephemeral
 *	port
 * @smrc_ifindex: ifindex of an mrc device to bind to, or 0 for any device
 *	owning @smrc_addr (bind) or chosen by route (connect)
 * @smrc_addr: IPv6 address, IPv4 as v4-mapped (::ffff:a.b.c.d); in6addr_any
 *	in bind() means every mrc device of the network namespace.  Any
 *	address of any rail of a device stands for that device.
 * @smrc_zero: reserved, must be zero
 *
 * 32 bytes, no implicit padding, fits in struct sockaddr_storage.
 */
struct sockaddr_mrc {
	__kernel_sa_family_t	smrc_family;
	__be16			smrc_port;
	__u32			smrc_ifindex;
	struct in6_addr		smrc_addr;
	__u8			smrc_zero[8];
};

#endif /* _UAPI_LINUX_MRC_H */
