#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/version.sh - print mrc's version: "git describe" of this checkout
# without the tag's leading "v" ("0.2.0" on the tag v0.2.0, "0.2.0-3-gabc1234"
# three commits after it, "-dirty" with uncommitted changes), or, outside a
# git checkout of mrc (a release tarball, a dkms source tree) or before the
# first tag, the VERSION file ("0.2.0"; "-g<hash>" appended in a checkout).

top=$(cd "$(dirname "$0")/.." && pwd)
base=$(cat "$top/VERSION" 2>/dev/null) || base=unknown

# Only a checkout whose top is this tree: not a tarball unpacked inside
# some other git repository.
if command -v git >/dev/null 2>&1 &&
   [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
	v=$(git -C "$top" describe --tags --match 'v[0-9]*' --dirty 2>/dev/null)
	if [ -n "$v" ]; then
		echo "${v#v}"
		exit 0
	fi
	h=$(git -C "$top" describe --always --dirty 2>/dev/null)
	[ -n "$h" ] && { echo "$base-g$h"; exit 0; }
fi
echo "$base"
