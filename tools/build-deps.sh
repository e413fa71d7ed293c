#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/build-deps.sh KDIR [default] - what plain "make" needs to build
# mrc.ko against KDIR and the tools (mrcctl, mrcat): says which Debian
# package is missing and fails, never installs anything ("make setup"
# installs what the tests, VMs and demo need).  "default": KDIR is the
# running kernel's, not one given on the command line.

kdir=$1
missing=
hint=
need() {	# need PACKAGE WHY
	missing="$missing $1"
	echo "make: missing $2: Debian package $1" >&2
}

command -v gcc >/dev/null 2>&1 || need build-essential "the C compiler (gcc)"
command -v pkg-config >/dev/null 2>&1 || need pkg-config "pkg-config (mrcctl finds libmnl with it)"
if command -v pkg-config >/dev/null 2>&1 && ! pkg-config --exists libmnl; then
	need libmnl-dev "libmnl's headers (mrcctl links libmnl)"
fi
if [ ! -f "$kdir/Makefile" ]; then
	if [ "${2:-}" = default ]; then
		need "linux-headers-$(uname -r)" \
			"the headers of the running kernel $(uname -r) ($kdir)"
		hint="make: or build against another kernel tree: make KDIR=/path/to/tree"
	else
		echo "make: KDIR=$kdir is not a configured kernel tree (no Makefile)" >&2
		missing="$missing KDIR"
	fi
fi
[ -z "$missing" ] && exit 0
pkgs=$(echo "$missing" | sed 's/ KDIR//')
[ -n "$pkgs" ] && echo "make: install them with: apt-get install$pkgs" >&2
[ -n "${hint:-}" ] && echo "$hint" >&2
exit 1
