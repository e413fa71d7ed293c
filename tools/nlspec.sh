#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/nlspec.sh gen|check - the uapi header of the mrc genl family is
# generated from Documentation/netlink/specs/mrc.yaml by the kernel's own
# generator (tools/net/ynl/ynl-gen-c.py from linux-source-6.12), which
# also validates the spec against the kernel's genetlink schema.
#   gen    rewrite include/uapi/linux/mrc_netlink.h
#   check  fail if the committed header differs from what the spec gives

set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
src=$("$top/tools/linux-src")
hdr=$top/include/uapi/linux/mrc_netlink.h

# ynl wants a kernel-like tree: the schema next to specs/, MAINTAINERS at
# the root (it names the spec relative to it in the header's comment).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/Documentation/netlink/specs"
touch "$tmp/MAINTAINERS"
cp "$top/Documentation/netlink/specs/mrc.yaml" "$tmp/Documentation/netlink/specs/"
ln -s "$src/Documentation/netlink/genetlink-legacy.yaml" "$tmp/Documentation/netlink/"
/usr/bin/python3 "$src/tools/net/ynl/ynl-gen-c.py" --mode uapi --header \
	--spec "$tmp/Documentation/netlink/specs/mrc.yaml" -o "$tmp/mrc_netlink.h" >/dev/null

case "${1:-check}" in
gen)	cp "$tmp/mrc_netlink.h" "$hdr"; echo "wrote ${hdr#"$top"/}" ;;
check)	diff -u "$hdr" "$tmp/mrc_netlink.h" && echo "${hdr#"$top"/} matches the spec" ;;
*)	echo "usage: $0 gen|check" >&2; exit 2 ;;
esac
