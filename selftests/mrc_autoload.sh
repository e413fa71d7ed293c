#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mrc_autoload.sh - the module loads on demand, as it does once installed
# (make install, dkms): "ip link add ... type mrc" (rtnl-link-mrc), a
# generic netlink lookup of "mrc" by mrcctl (net-pf-16-proto-16-family-mrc)
# and socket(MRC_FAMILY_DEFAULT, SOCK_SEQPACKET, 0) (net-pf-22) each load
# it; a socket of another family number does not (autoload knows only
# the default family).
#
# The guest's /lib/modules is the host's, read-only: the module under test
# is installed into a staging module tree on the guest's tmpfs (the
# layout make install and dkms give: /lib/modules/<release>/extra), with
# the kernel's modules it depends on, depmod'ed there, and the kernel's
# modprobe helper (/proc/sys/kernel/modprobe) is pointed at a wrapper
# that runs "modprobe -d <staging root>" for the length of the test.

. "$(dirname "$0")/lib.sh"

ko=$(mrc_ko)
rel=$(uname -r)
fam=$(uapi_define MRC_FAMILY_DEFAULT)

if [ -n "${MRC_KO_ARGS:-}" ]; then
	echo "1..0 # SKIP mrc.ko is loaded with '$MRC_KO_ARGS': autoload loads it with defaults"
	exit $KSFT_SKIP
fi

check_eq "modinfo lists the three autoload aliases" \
	"net-pf-16-proto-16-family-mrc net-pf-$fam rtnl-link-mrc" \
	"$(modinfo -F alias "$ko" | sort | xargs)"
ver=$(modinfo -F version "$ko")
check_match "modinfo version is a release or git describe ($ver)" \
	'^[0-9]+\.[0-9]+\.[0-9]+(-[0-9]+-g[0-9a-f]+|-g[0-9a-f]+)?(-dirty)?$' "$ver"

# ---- the staging module tree ------------------------------------------------
root=$(mktemp -d /tmp/mrc-autoload.XXXXXX)
mods=$root/lib/modules/$rel
install -D -m 0644 "$ko" "$mods/extra/mrc.ko"
# udp_tunnel and ip6_udp_tunnel are modules of Debian's kernel (built in
# on the debug kernel, which has no /lib/modules tree)
for dep in $(modinfo -F depends "$ko" | tr , ' '); do
	modprobe -S "$rel" --show-depends "$dep" 2>/dev/null |
	while read -r verb path _; do
		[ "$verb" = insmod ] || continue
		install -D -m 0644 "$path" "$mods/kernel/${path#/lib/modules/"$rel"/kernel/}"
	done
done
for f in modules.builtin modules.builtin.modinfo modules.order; do
	[ -e "/lib/modules/$rel/$f" ] && cp "/lib/modules/$rel/$f" "$mods/"
done
check "depmod -b builds the staging tree's index" depmod -b "$root" "$rel"
check_match "the staging tree's modules.dep lists extra/mrc.ko" \
	"^extra/mrc.ko:" "$(cat "$mods/modules.dep" 2>&1)"

old_helper=$(cat /proc/sys/kernel/modprobe)
cat >"$root/modprobe" <<EOS
#!/bin/sh
exec /sbin/modprobe -d $root "\$@"
EOS
chmod +x "$root/modprobe"
restore() { echo "$old_helper" >/proc/sys/kernel/modprobe; rm -rf "$root"; }
trap restore EXIT
echo "$root/modprobe" >/proc/sys/kernel/modprobe

srcv=$(modinfo -F srcversion "$ko")
# loaded_from_stage DESC: mrc is loaded, and it is the module under test
loaded_from_stage() {
	check_eq "$1" "loaded $srcv $ver" \
		"$( [ -d /sys/module/mrc ] && echo loaded) $(cat /sys/module/mrc/srcversion 2>&1) $(cat /sys/module/mrc/version 2>&1)"
}

# unloaded DESC: unload mrc; it must be gone before the next trigger (a
# module still loaded would pass loaded_from_stage: the same .ko)
unloaded() {
	mrc_unload
	check_fails "mrc is not loaded $1" test -e /sys/module/mrc
}

unloaded "to begin with"

# ---- ip link add ... type mrc ------------------------------------------------
check "ip link add mrc0 type mrc succeeds without mrc loaded" ip link add mrc0 type mrc
loaded_from_stage "ip link add loaded mrc (rtnl-link-mrc): srcversion and version read back"
check_match "mrc0 is an mrc device" "mrc " "$(ip -d -o link show dev mrc0 2>&1)"
check "ip link del mrc0" ip link del mrc0
unloaded "before mrcctl"

# ---- mrcctl: generic netlink family lookup -----------------------------------
check "mrcctl dev show succeeds without mrc loaded" "$MRC_TOP/tools/mrcctl/mrcctl" dev show
loaded_from_stage "mrcctl loaded mrc (genl family \"mrc\")"
unloaded "before socket()"

# ---- socket(): the default family number, and only it ------------------------
sock() {	# sock FAMILY: create and close an AF_MRC socket; prints the errno name
	python3 -c '
import errno, socket, sys
try:
    socket.socket(int(sys.argv[1]), socket.SOCK_SEQPACKET, 0).close()
    print("ok")
except OSError as e:
    print(errno.errorcode.get(e.errno, e.errno))' "$1" 2>&1
}
check_eq "socket($fam, SOCK_SEQPACKET, 0) succeeds without mrc loaded" "ok" "$(sock "$fam")"
loaded_from_stage "socket() loaded mrc (net-pf-$fam)"
unloaded "before the non-default family"
# family 25 is free in 6.1 and 6.12 builds without AF_WANPIPE (no module
# has its alias): documented, not autoloaded
check_eq "socket(25, ...) fails with EAFNOSUPPORT: a non-default family is not autoloaded" \
	"EAFNOSUPPORT" "$(sock 25)"
check_fails "mrc stays unloaded after the non-default family" test -e /sys/module/mrc

restore
trap - EXIT
check_eq "the kernel's modprobe helper is restored" "$old_helper" "$(cat /proc/sys/kernel/modprobe)"
# the module as the harness loaded it, for the tests that follow
check "mrc.ko loads again from the checkout" mrc_load
tap_end
