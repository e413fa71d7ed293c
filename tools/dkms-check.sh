#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/dkms-check.sh [KREL [KDIR]] - make check's dkms stage: dkms.conf
# builds mrc.ko for Debian's stock kernel (KREL, default: make print-krel;
# KDIR: a kernel tree other than /lib/modules/KREL/build, e.g. the debug
# kernel's: dkms --kernelsourcedir).
# Puts the module's sources in /usr/src/mrc-<version> (make dkms-src),
# "dkms add"s and "dkms build"s them, checks the .ko's
# vermagic and version, and removes every trace ("dkms remove", the
# /usr/src copy) even when interrupted.  Needs root; never loads the
# module.  A host where mrc is already known to dkms is left alone (skip).

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
krel=${1:-$(make -s --no-print-directory -C "$top" print-krel)}
kdir=${2:-}
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
file_ver=$(cat "$top/VERSION")
n=0
fails=0

result() {	# result ok|fail DESC [EVIDENCE]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n dkms: $2"
	else
		echo "not ok $n dkms: $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | tail -20 | sed 's/^/#   /'
		fails=$((fails + 1))
	fi
}

echo "TAP version 13"
if [ "$ver" = "$file_ver" ]; then
	result ok "dkms.conf PACKAGE_VERSION $ver equals the VERSION file"
else
	result fail "dkms.conf PACKAGE_VERSION '$ver' equals the VERSION file '$file_ver'"
fi

if [ "$(id -u)" != 0 ] || ! command -v dkms >/dev/null; then
	echo "ok $((n + 1)) dkms: build # SKIP needs root and dkms (make setup)"
	echo "1..$((n + 1))"
	exit $((fails > 0))
fi
if [ -n "$(dkms status -m mrc 2>/dev/null)" ] || [ -e "/usr/src/mrc-$ver" ] ||
   [ -e /var/lib/dkms/mrc ]; then
	echo "ok $((n + 1)) dkms: build # SKIP mrc is already in dkms or /usr/src on this host: not touching it"
	echo "1..$((n + 1))"
	exit $((fails > 0))
fi

# dkms makes its module signing key on its first build and keeps it: a key
# this run made goes with the run (one that was there stays).
mok=/var/lib/dkms/mok
mok_new=1
[ -e $mok.key ] || [ -e $mok.pub ] && mok_new=0
cleanup() {
	dkms remove -m mrc -v "$ver" --all >/dev/null 2>&1
	rm -rf "/var/lib/dkms/mrc" "/usr/src/mrc-$ver"
	[ $mok_new = 0 ] || rm -f $mok.key $mok.pub
}
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT

# The documented path (Documentation/mrc/install.rst): make dkms-src puts
# the sources, without build products or .git, in /usr/src/mrc-<version>;
# dkms adds them from there.
log=$(make -s --no-print-directory -C "$top" dkms-src 2>&1)
extra=$(cd "/usr/src/mrc-$ver" 2>/dev/null &&
	find . \( -name .git -o -name '*.o' -o -name '*.ko' -o -name '.*.cmd' -o -name results \) -print)
if [ -e "/usr/src/mrc-$ver/dkms.conf" ] && [ -z "$extra" ]; then
	result ok "make dkms-src: /usr/src/mrc-$ver holds the sources, no .git, no build products"
else
	result fail "make dkms-src: /usr/src/mrc-$ver holds the sources only" "$log$extra"
fi
log=$(dkms add -m mrc -v "$ver" 2>&1)
if dkms status -m mrc -v "$ver" | grep -q added; then
	result ok "dkms add -m mrc -v $ver: added from /usr/src/mrc-$ver"
else
	result fail "dkms add -m mrc -v $ver: added" "$log"
fi

log=$(dkms build -m mrc -v "$ver" -k "$krel" ${kdir:+--kernelsourcedir "$kdir"} 2>&1)
rc=$?
ko=/var/lib/dkms/mrc/$ver/$krel/$(uname -m)/module/mrc.ko
[ -e "$ko" ] || ko=$ko.xz
if [ $rc = 0 ] && [ -e "$ko" ]; then
	result ok "dkms build -k $krel: $(basename "$ko") built"
else
	result fail "dkms build -k $krel: mrc.ko built (exit $rc)" \
		"$log$(echo; cat "/var/lib/dkms/mrc/$ver/build/make.log" 2>/dev/null)"
fi
if [ -e "$ko" ]; then
	vm=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
	mv=$(modinfo -F version "$ko")
	if [ "$vm" = "$krel" ]; then
		result ok "vermagic of the dkms-built module is $krel"
	else
		result fail "vermagic of the dkms-built module is $krel (is '$vm')"
	fi
	# outside a git checkout the version comes from the VERSION file
	if [ "$mv" = "$ver" ]; then
		result ok "modinfo version of the dkms-built module is $ver"
	else
		result fail "modinfo version of the dkms-built module is $ver (is '$mv')"
	fi
fi

cleanup
if [ -z "$(dkms status -m mrc 2>/dev/null)" ] && [ ! -e "/usr/src/mrc-$ver" ] &&
   [ ! -e /var/lib/dkms/mrc ] && { [ $mok_new = 0 ] || [ ! -e $mok.key ]; }; then
	result ok "dkms remove: no trace left in dkms, /usr/src, /var/lib/dkms"
else
	result fail "dkms remove: no trace left" "$(dkms status -m mrc 2>&1; ls -d /usr/src/mrc-* /var/lib/dkms/mrc $mok.* 2>&1)"
fi
echo "1..$n"
exit $((fails > 0))
