#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/install-check.sh - "make check-install": on a bare Debian 12
# system that has only a compiler, the kernel headers, dkms, kmod and
# libmnl, the tree builds and installs the way install.rst says.
#
# A chroot made by mmdebstrap from the Debian archive (the packages in
# PKGS below and what they depend on, no recommends) is cached as a
# tarball in .build/install-check/ (rebuilt when PKGS changes, or with
# --rebuild).  Each run unpacks it afresh, copies in a clean "git archive"
# of the tree (committed files plus uncommitted changes to them, no build
# products, no .git: a release tarball), and in the chroot, in a mount
# namespace of its own, runs and checks:
#   make                       fails, naming the headers of the running kernel
#   make (no libmnl.pc)        fails, naming libmnl-dev
#   make KDIR=<headers>        mrc.ko (version, vermagic), mrcctl, mrcat
#   make install DESTDIR=      every file where install.rst says, no depmod
#   make install               the same in /, depmod knows mrc and its aliases
#   make uninstall             nothing of it left
#   dkms add/build/install     mrc.ko in updates/dkms, version, then dkms remove
# The chroot's kernel headers are Debian 12's linux-headers-amd64 (6.1).
# Nothing is loaded: the module is never inserted, here or in the chroot.
# Needs root.  Prints TAP.
#
# usage: tools/install-check.sh [--rebuild] [--keep]
#   --keep  leave the unpacked chroot in .build/install-check/root

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=$top/.build/install-check
mirror=${MRC_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${MRC_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
# What a fresh Debian 12 host needs for "make && make install" and dkms
# (tools/build-deps.sh names each of them when it is missing).
PKGS="build-essential linux-headers-amd64 dkms kmod libmnl-dev pkg-config"
rebuild=0
keep=0
for a in "$@"; do
	case $a in
	--rebuild) rebuild=1 ;;
	--keep) keep=1 ;;
	*) echo "usage: $0 [--rebuild] [--keep]" >&2; exit 2 ;;
	esac
done

echo "TAP version 13"
if [ "$(id -u)" != 0 ] || ! command -v mmdebstrap >/dev/null; then
	echo "not ok 1 install: needs root and mmdebstrap (make setup)"
	echo "1..1"
	exit 1
fi

key=$(echo "$PKGS $mirror $security" | md5sum | cut -c1-8)
tarball=$cache/bookworm-$key.tar
root=$cache/root
mkdir -p "$cache"
if [ $rebuild = 1 ] || [ ! -s "$tarball" ]; then
	echo "# building the chroot tarball $tarball (mmdebstrap, once)"
	rm -rf "$cache"/bookworm-*.tar "$cache/build"
	# A directory first: mmdebstrap may leave its /proc mounted there
	# ("target is busy"); it is let go of before the tar is made.
	mmdebstrap --variant=apt --format=directory --include="${PKGS// /,}" \
		--aptopt='APT::Install-Recommends "false"' bookworm "$cache/build" \
		"deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
		"deb $security bookworm-security main" >"$cache/mmdebstrap.log" 2>&1
	rc=$?
	awk -v d="$cache/build/" 'index($2, d) == 1 { print $2 }' /proc/mounts |
		sort -r | xargs -r -n1 umount -l
	if [ $rc != 0 ] ||
	   ! tar --one-file-system -C "$cache/build" -cf "$tarball.tmp" .; then
		echo "not ok 1 install: mmdebstrap made the chroot (exit $rc)"
		tail -20 "$cache/mmdebstrap.log" | sed 's/^/#   /'
		echo "1..1"
		rm -rf "$tarball.tmp" "$cache/build"
		exit 1
	fi
	rm -rf "$cache/build"
	mv "$tarball.tmp" "$tarball"
fi

cleanup() {
	[ $keep = 1 ] || rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rm -rf "$root"
mkdir -p "$root"
tar -xf "$tarball" -C "$root"
mkdir -p "$root/src"
# the tree as a release tarball: tracked files with their uncommitted
# changes (git stash create), nothing built
rev=$(git -C "$top" stash create 2>/dev/null)
git -C "$top" archive "${rev:-HEAD}" | tar -xf - -C "$root/src"
cp "$top/tools/install-check-guest.sh" "$root/install-check-guest.sh"

# A mount namespace of its own: its mounts go away with it.
# shellcheck disable=SC2016 # expanded by that sh
unshare --mount --propagation private sh -c '
	root=$1
	mount -t proc proc "$root/proc" &&
	mount --rbind /dev "$root/dev" &&
	mount -t tmpfs tmpfs "$root/tmp" &&
	exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 /bin/bash /install-check-guest.sh /src
' sh "$root"
