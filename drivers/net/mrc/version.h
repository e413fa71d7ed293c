/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _MRC_VERSION_H
#define _MRC_VERSION_H

/*
 * MRC_VERSION comes from the build (drivers/net/mrc/Kbuild, from
 * tools/version.sh: "git describe" or the VERSION file), for the objects
 * listed there; include this header only from those.
 */
#ifndef MRC_VERSION
#error "MRC_VERSION is set per object in drivers/net/mrc/Kbuild: add this object there"
#endif

#endif /* _MRC_VERSION_H */
