#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/install-check-guest.sh SRC - the checks of tools/install-check.sh,
# run as root inside its bare Debian 12 chroot on SRC, a release tree
# (no .git: the version comes from the VERSION file).  Prints TAP results
# (the caller prints the TAP header).  Never loads a module.

set -uo pipefail
src=$1
cd "$src" || exit 1
ver=$(cat VERSION)
krel=$(basename "$(echo /lib/modules/*)")	# the one kernel whose headers are here
kdir=/lib/modules/$krel/build
multiarch=$(gcc -dumpmachine)
jobs=-j$(nproc)
n=0
fails=0

result() {	# result ok|fail DESC [EVIDENCE]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n install: $2"
	else
		echo "not ok $n install: $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | tail -25 | sed 's/^/#   /'
		fails=$((fails + 1))
	fi
}
check() {	# check DESC EVIDENCE CMD...: ok if CMD succeeds
	local desc=$1 ev=$2

	shift 2
	if "$@"; then result ok "$desc"; else result fail "$desc" "$ev"; fi
}

# every file make install puts under DESTDIR ($1), as install.rst lists
# them: the module, the tools, the man pages, the bash completion, the
# uapi headers, the YNL spec, the ip and Wireshark plugins
expected_files() {
	local d=$1 f

	{
		echo "$d/lib/modules/$krel/extra/drivers/net/mrc/mrc.ko"
		echo "$d/usr/local/sbin/mrcctl"
		echo "$d/usr/local/bin/mrcat"
		for f in include/uapi/linux/*.h; do
			echo "$d/usr/local/include/linux/${f##*/}"
		done
		echo "$d/usr/share/ynl/specs/mrc.yaml"
		echo "$d/usr/local/share/bash-completion/completions/mrcctl"
		echo "$d/usr/lib/$multiarch/ip/link_mrc.so"
		echo "$d/usr/lib/$multiarch/ip/link_mrc_slave.so"
		echo "$d/usr/lib/$multiarch/wireshark/plugins/mrc.lua"
		for f in Documentation/*.[1-8]; do
			[ -e "$f" ] || continue
			echo "$d/usr/local/share/man/man${f##*.}/${f##*/}"
		done
	} | sed 's|//*|/|g' | sort
}

# has_aliases TEXT: modules.alias lines for ip link, genl and socket()
# shellcheck disable=SC2317 # called through check
has_aliases() {
	grep -q '^alias rtnl-link-mrc mrc$' <<<"$1" &&
	grep -q '^alias net-pf-16-proto-16-family-mrc mrc$' <<<"$1" &&
	grep -qE '^alias net-pf-[0-9]+ mrc$' <<<"$1"
}

echo "# chroot: Debian $(cat /etc/debian_version), headers $krel, running kernel $(uname -r)"

# 1. plain make for the running kernel, whose headers are not here: it
# names the package and builds nothing
log=$(make 2>&1)
rc=$?
if [ $rc != 0 ] && grep -q "Debian package linux-headers-$(uname -r)" <<<"$log" &&
   [ ! -e drivers/net/mrc/mrc.ko ]; then
	result ok "make without the running kernel's headers fails naming linux-headers-$(uname -r)"
else
	result fail "make without the running kernel's headers fails naming linux-headers-$(uname -r) (exit $rc)" "$log"
fi

# 2. without libmnl's pkg-config file: names libmnl-dev
log=$(PKG_CONFIG_LIBDIR=/nonexistent make KDIR="$kdir" 2>&1)
rc=$?
if [ $rc != 0 ] && grep -q "Debian package libmnl-dev" <<<"$log" &&
   [ ! -e drivers/net/mrc/mrc.ko ]; then
	result ok "make without libmnl fails naming libmnl-dev"
else
	result fail "make without libmnl fails naming libmnl-dev (exit $rc)" "$log"
fi

# 3. make KDIR=: builds everything, installs nothing
cp -a "$src" /tmp/pristine	# for dkms add: a tree never built in
touch /tmp/marker
sleep 1
SECONDS=0
log=$(make "$jobs" KDIR="$kdir" 2>&1)
rc=$?
check "make KDIR=$kdir builds (exit $rc, ${SECONDS}s)" "$log" [ $rc = 0 ]
ko=drivers/net/mrc/mrc.ko
check "mrc.ko, mrcctl, mrcat and the ip plugin are built" "$(ls -l $ko tools/*/mrcctl tools/*/mrcat tools/iproute2/*.so 2>&1)" \
	[ -f $ko -a -x tools/mrcctl/mrcctl -a -x tools/mrcat/mrcat -a -f tools/iproute2/link_mrc.so ]
v=$(modinfo -F version $ko 2>&1)
check "modinfo version of mrc.ko is $ver (the VERSION file)" "$v" [ "$v" = "$ver" ]
v=$(modinfo -F vermagic $ko 2>&1 | cut -d' ' -f1)
check "vermagic of mrc.ko is $krel" "$v" [ "$v" = "$krel" ]
v=$(tools/mrcctl/mrcctl -V 2>&1)
check "mrcctl -V names version $ver" "$v" grep -qw -- "$ver" <<<"$v"
new=$(find /usr /etc /var /opt -xdev -newer /tmp/marker ! -type d 2>/dev/null | grep -v '^/var/cache/' | head)
check "make installed nothing (no file outside the tree is newer)" "$new" [ -z "$new" ]

# 4. make install DESTDIR=: exactly the files install.rst lists, no depmod
stage=/tmp/stage
log=$(make KDIR="$kdir" install DESTDIR=$stage 2>&1)
rc=$?
check "make install DESTDIR=$stage (exit $rc)" "$log" [ $rc = 0 ]
got=$(find $stage ! -type d | sort)
want=$(expected_files $stage)
check "DESTDIR holds exactly the $(wc -l <<<"$want") files of install.rst" \
	"$(diff <(echo "$want") <(echo "$got"))" [ "$want" = "$got" ]
check "DESTDIR: link_mrc_slave.so is link_mrc.so (ip loads it for a rail)" "" \
	cmp -s $stage/usr/lib/"$multiarch"/ip/link_mrc.so $stage/usr/lib/"$multiarch"/ip/link_mrc_slave.so
check "DESTDIR: depmod not run there" "$(ls $stage/lib/modules/"$krel")" \
	[ ! -e $stage/lib/modules/"$krel"/modules.dep ]

# 5. make install into the system, for "the running kernel" (a uname
# that says the release whose headers are here: plain make's KDIR and
# install's KREL come from it); depmod knows mrc and its aliases
mkdir -p /tmp/shim
printf '#!/bin/sh\n[ "$1" = -r ] && { echo %s; exit 0; }\nexec /bin/uname "$@"\n' "$krel" >/tmp/shim/uname
chmod 755 /tmp/shim/uname
log=$(PATH=/tmp/shim:$PATH make 2>&1 && PATH=/tmp/shim:$PATH make install 2>&1)
rc=$?
check "plain make && make install, the running kernel's headers present (exit $rc)" "$log" [ $rc = 0 ]
got=$(expected_files / | while read -r f; do [ -e "$f" ] || echo "missing $f"; done)
check "every file of install.rst is installed" "$got" [ -z "$got" ]
f=$(modinfo -k "$krel" -F filename mrc 2>&1)
check "depmod: modinfo -k $krel mrc finds /lib/modules/$krel/extra/drivers/net/mrc/mrc.ko" "$f" \
	[ "$f" = "/lib/modules/$krel/extra/drivers/net/mrc/mrc.ko" ]
al=$(grep -w mrc "/lib/modules/$krel/modules.alias" 2>&1)
check "modules.alias: rtnl-link-mrc, the genl family and the socket family" "$al" \
	has_aliases "$al"

v=$(/usr/local/sbin/mrcctl -V 2>&1)
check "installed mrcctl runs: $v" "$v" grep -qw -- "$ver" <<<"$v"
check "man mrcctl is where man looks (/usr/local/share/man/man8)" "" \
	[ -f /usr/local/share/man/man8/mrcctl.8 ]

# 6. make uninstall: nothing left
log=$(PATH=/tmp/shim:$PATH make uninstall 2>&1)
rc=$?
left=$(expected_files / | while read -r f; do [ ! -e "$f" ] || echo "left $f"; done)
check "make uninstall removes every file (exit $rc)" "$log$left" [ "$rc" = 0 -a -z "$left" ]
f=$(modinfo -k "$krel" -F filename mrc 2>&1)
check "after uninstall depmod no longer knows mrc" "$f" [ -z "$(grep -w mrc "/lib/modules/$krel/modules.dep")" ]

# 7. dkms from a tree never built in, the way install.rst says
dver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
log=$(make -s -C /tmp/pristine dkms-src 2>&1 && dkms add "mrc/$dver" 2>&1)
check "make dkms-src; dkms add mrc/$dver" "$log" sh -c "dkms status -m mrc -v '$dver' | grep -q added"
check "dkms-src copied no .git and no object" "$(find /usr/src/mrc-"$dver" -name .git -o -name '*.o' -o -name '*.ko')" \
	[ -z "$(find /usr/src/mrc-"$dver" -name .git -o -name '*.o' -o -name '*.ko')" ]
SECONDS=0
log=$(dkms build -m mrc -v "$dver" -k "$krel" 2>&1)
rc=$?
check "dkms build -k $krel (exit $rc, ${SECONDS}s)" "$log$(cat /var/lib/dkms/mrc/"$dver"/build/make.log 2>/dev/null)" [ $rc = 0 ]
log=$(dkms install -m mrc -v "$dver" -k "$krel" 2>&1)
rc=$?
check "dkms install -k $krel (exit $rc)" "$log" [ $rc = 0 ]
f=$(modinfo -k "$krel" -F filename mrc 2>&1)
check "depmod: mrc is /lib/modules/$krel/updates/dkms/mrc.ko" "$f" \
	sh -c "case '$f' in /lib/modules/$krel/updates/dkms/mrc.ko*) exit 0 ;; esac; exit 1"
v=$(modinfo -k "$krel" -F version mrc 2>&1)
check "modinfo version of the dkms module is $ver" "$v" [ "$v" = "$ver" ]
log=$(dkms remove -m mrc -v "$dver" --all 2>&1)
rc=$?
check "dkms remove: nothing left in updates/dkms (exit $rc)" "$log$(ls /lib/modules/"$krel"/updates/dkms 2>&1)" \
	sh -c "[ $rc = 0 ] && ! ls /lib/modules/$krel/updates/dkms/mrc.ko* >/dev/null 2>&1"
# dkms leaves the sources: install.rst's removal deletes them, and then
# the same version's make dkms-src (a checkout updated between releases)
# works again
rm -rf "/usr/src/mrc-$dver"
log=$(make -s -C /tmp/pristine dkms-src 2>&1)
rc=$?
check "after dkms remove and rm -rf /usr/src/mrc-$dver, make dkms-src again (exit $rc)" "$log" \
	[ "$rc" = 0 -a -e "/usr/src/mrc-$dver/dkms.conf" ]
rm -rf "/usr/src/mrc-$dver"

echo "1..$n"
exit $((fails > 0))
