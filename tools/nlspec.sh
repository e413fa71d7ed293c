#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/nlspec.sh gen|check - the uapi header of the mrc genl family and
# its reference page are generated from Documentation/netlink/specs/mrc.yaml
# by the kernel's own generators (tools/net/ynl/ynl-gen-c.py, which also
# validates the spec against the kernel's genetlink schema, and
# ynl-gen-rst.py, from linux-source-6.12); "make nlspec" runs gen.
#   gen    rewrite include/uapi/linux/mrc_netlink.h and
#          Documentation/netlink/mrc.rst
#   check  fail if a committed file differs from what the spec gives

set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
src=$("$top/tools/linux-src")
hdr=$top/include/uapi/linux/mrc_netlink.h
rst=$top/Documentation/netlink/mrc.rst

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
/usr/bin/python3 "$src/tools/net/ynl/ynl-gen-rst.py" \
	-i "$tmp/Documentation/netlink/specs/mrc.yaml" -o "$tmp/mrc.rst"

case "${1:-check}" in
gen)	cp "$tmp/mrc_netlink.h" "$hdr"; echo "wrote ${hdr#"$top"/}"
	cp "$tmp/mrc.rst" "$rst"; echo "wrote ${rst#"$top"/}" ;;
check)	diff -u "$hdr" "$tmp/mrc_netlink.h" && echo "${hdr#"$top"/} matches the spec" &&
	diff -u "$rst" "$tmp/mrc.rst" && echo "${rst#"$top"/} matches the spec" ;;
*)	echo "usage: $0 gen|check" >&2; exit 2 ;;
esac
