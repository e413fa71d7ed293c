#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once per machine) the debug kernel the mrc selftests run on:
# Linux 6.12 from Debian's linux-source-6.12 with KASAN, lockdep,
# kmemleak and everything in selftests/config built in.
#
# The build lives outside the checkout, in $MRC_CACHE (default
# /var/cache/mrc), keyed by a hash of the config fragments and the source
# package version, so every clone on the machine shares it and a changed
# fragment gets a fresh tree.  Prints the build directory on stdout (use it
# as KDIR and as the VM's kernel: $dir/arch/x86/boot/bzImage).
#
# usage: tools/vm/debug-kernel.sh [--print-dir]

set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${MRC_CACHE:-/var/cache/mrc}
frags=("$top/tools/vm/debug.config" "$top/selftests/config")

log() { echo "debug-kernel: $*" >&2; }

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown)
hash=$( (echo "$srcver"; cat "${frags[@]}") | sha256sum | cut -c1-12)
out=$cache/debug-kernel-$hash

if [ "${1:-}" = "--print-dir" ]; then
	echo "$out"
	exit 0
fi

if [ -e "$out/.mrc-built" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$cache"
src=$("$top/tools/linux-src")

log "configuring $out (x86_64_defconfig + kvm_guest.config + ${frags[*]##*/})"
mkdir -p "$out"
make -s -C "$src" O="$out" x86_64_defconfig >&2
(cd "$src" && KCONFIG_CONFIG="$out/.config" scripts/kconfig/merge_config.sh -m -O "$out" \
	"$out/.config" kernel/configs/kvm_guest.config "${frags[@]}" >/dev/null)
make -s -C "$src" O="$out" olddefconfig >&2

# Every option we asked for must have survived olddefconfig (a missing
# dependency silently drops it otherwise).
bad=0
while IFS= read -r line; do
	opt=${line%%=*}
	case "$line" in
	CONFIG_*=n)
		if grep -q "^$opt=" "$out/.config"; then
			log "warning: $opt is set although the fragment disables it"
		fi ;;
	CONFIG_*=*) if ! grep -qx "$line" "$out/.config"; then
			log "error: $line requested, got: $(grep -E "^$opt=|^# $opt is not set" "$out/.config" || echo unset)"
			bad=1
		fi ;;
	esac
done < <(cat "${frags[@]}" | sed -e 's/#.*//' -e '/^\s*$/d')
[ $bad = 0 ] || { log "config fragment not satisfiable, fix it"; exit 1; }

log "building (about 20 min on 2 cores; log: $out/build.log)"
start=$(date +%s)
if ! make -C "$src" O="$out" -j"$(nproc)" bzImage modules >"$out/build.log" 2>&1; then
	tail -40 "$out/build.log" >&2
	log "build failed"
	exit 1
fi
log "built in $(( $(date +%s) - start )) s"
touch "$out/.mrc-built"
echo "$out"
