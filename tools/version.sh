#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/version.sh - print mrc's version: "git describe" of this checkout
# without the tag's leading "v" ("0.2.0" on the tag v0.2.0, "0.2.0-3-gabc1234"
# three commits after it, "-dirty" with uncommitted changes), or, outside a
# git checkout of mrc (a release tarball, a dkms source tree) or before the
# first tag, the VERSION file ("0.2.0"; "-g<hash>" appended in a checkout).
# The result goes into CFLAGS and make command lines: anything but
# [A-Za-z0-9.+~_-] makes it "<VERSION>-invalid".

top=$(cd "$(dirname "$0")/.." && pwd -P)	# as git prints it: no symlinks
base=$(cat "$top/VERSION" 2>/dev/null) || base=unknown
case $base in
*[!A-Za-z0-9.+~_-]* | '') base=unknown ;;
esac

# safe.directory: root building a checkout another user owns
git_top() { git -c safe.directory="$top" -C "$top" "$@"; }

v=
# Only a checkout whose top is this tree: not a tarball unpacked inside
# some other git repository.
if command -v git >/dev/null 2>&1 &&
   [ "$(git_top rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
	v=$(git_top describe --tags --match 'v[0-9]*' --dirty 2>/dev/null)
	v=${v#v}
	if [ -z "$v" ]; then
		h=$(git_top describe --always --dirty 2>/dev/null)
		[ -n "$h" ] && v="$base-g$h"
	fi
fi
[ -n "$v" ] || v=$base
case $v in
*[!A-Za-z0-9.+~_-]*) v="$base-invalid" ;;
esac
echo "$v"
