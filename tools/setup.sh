#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/setup.sh - install (idempotently, with apt-get) every Debian 12
# package that building, testing and demonstrating mrc needs.  Cheap when
# everything is present, so every make target runs it first.
#
# usage: tools/setup.sh [--check]   (--check: only report what is missing)

set -euo pipefail

pkgs=(
	# build: the module against Debian's 6.1 and against 6.12 (debug kernel)
	build-essential bc bison flex libelf-dev libssl-dev cpio kmod xz-utils rsync
	linux-headers-amd64 linux-source-6.12 sparse file
	# make check: dkms builds mrc.ko from dkms.conf (tools/dkms-check.sh)
	dkms
	# make check: docutils parses every rst (tools/doc-check.sh)
	python3-docutils
	# make check-install: a bare Debian 12 chroot (tools/install-check.sh)
	mmdebstrap
	# VMs: Debian's stock kernel image, QEMU, busybox for the initramfs
	linux-image-amd64 qemu-system-x86 busybox-static
	# tools and tests inside the VM (the host root is the VM's root)
	iproute2 ethtool iperf3 procps util-linux libcap2-bin python3
	python3-yaml python3-jsonschema libmnl-dev pkg-config
	# the Wireshark dissector's test (mrc_dissect.sh): capture, decode
	tcpdump tshark
	# make style: the man pages format without groff warnings (tools/mancheck.sh)
	man-db
	# libFuzzer targets of the protocol core (make fuzz)
	clang-14 libclang-rt-14-dev
	# make bench: MPTCP (mptcpize), Soft-RoCE (perftest), plots, event
	# counts per GB (perf stat)
	mptcpd perftest rdma-core ibverbs-utils libibverbs1 ibverbs-providers
	librdmacm1 python3-matplotlib python3-numpy linux-perf
)

installed=$(dpkg-query -W -f='${Package} ${Status}\n' "${pkgs[@]}" 2>/dev/null |
	awk '$2 == "install" && $3 == "ok" && $4 == "installed" { print $1 }' || true)
missing=()
for p in "${pkgs[@]}"; do
	grep -qx -- "$p" <<<"$installed" || missing+=("$p")
done

[ ${#missing[@]} -eq 0 ] && exit 0
if [ "${1:-}" = --check ]; then
	echo "missing packages: ${missing[*]}"
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "setup: need root to install: ${missing[*]}" >&2
	exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
