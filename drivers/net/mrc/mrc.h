/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mrc.h - declarations shared by the files of mrc.ko.
 *
 * Reading order for newcomers: main.c (module init/exit and parameters).
 */
#ifndef _MRC_H
#define _MRC_H

#include <linux/types.h>
#include <uapi/linux/mrc.h>

#include "compat.h"
#include "version.h"

/**
 * struct mrc_module_params - load-time configuration of the module
 * @family: address family slot registered for AF_MRC sockets; fixed after
 *	load (parameter is read-only), so no locking is needed.
 * @udp_port: default UDP destination port given to new mrc devices; read
 *	once per device creation, fixed after load.
 */
struct mrc_module_params {
	int family;
	int udp_port;
};

extern struct mrc_module_params mrc_params;

#endif /* _MRC_H */
