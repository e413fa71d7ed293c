# SPDX-License-Identifier: GPL-2.0
#
# mrc - Multipath Reliable Connection.  Top-level targets:
#
#   make              build drivers/net/mrc/mrc.ko against the running
#                     kernel (or KDIR) and mrcctl, mrcat; installs nothing,
#                     says which Debian package is missing
#   make install      the module (modules_install + depmod), mrcctl, mrcat,
#                     man pages, uapi headers, the YNL spec (DESTDIR, PREFIX)
#   make uninstall    remove what make install put there
#   make dkms-src     the module's sources, no objects, no .git, in
#                     /usr/src/mrc-<version> for "dkms add" (DKMS_SRC=)
#   make demo         boot a VM, load mrc, show it working (README's first command)
#   make bench        mrc vs TCP, MPTCP, Soft-RoCE in one VM: results/bench/ (QUICK=1: < 5 min)
#   make check        build + style + sparse + unit tests + VM selftests on 6.1
#   make check-debug  the VM selftests on the 6.12 debug kernel + kmemleak,
#                     check-install, dkms on 6.12
#   make check-twovm  only the two-VM test (tools/vm/run2, selftests/mrc_twovm.sh)
#   make check-install make, make install, make uninstall and dkms in a bare
#                     Debian 12 chroot (tools/install-check.sh)
#   make setup        install every Debian package the tests need (apt-get, idempotent)
#   make module       mrc.ko against Debian 12's stock kernel (the VMs' kernel)
#   make tools        every tool and C selftest the VMs run
#   make unit         userspace unit tests of the protocol core (ASan/UBSan)
#   make fuzz         libFuzzer targets of the protocol core (FUZZ_SECS=60 each)
#   make fuzz-kernel  syscall/genl fuzzing (mrcfuzz) for 10 min on the debug kernel
#   make style        checkpatch.pl --strict on all sources, groff warnings of the man pages
#   make nlspec       regenerate the uapi header and Documentation/netlink/mrc.rst from the spec
#   make sparse       sparse (C=2) on the module
#   make debug-kernel build the debug kernel once per machine (cached)
#   make vm-shell     interactive shell in a VM with mrc.ko loaded
#   make clean
#
# KDIR: plain make, make install and make uninstall use the running
# kernel's build tree (/lib/modules/$(uname -r)/build); the test flows
# (module, sparse, check, demo, bench, vm-shell) use the headers of Debian
# 12's stock kernel, which the VMs boot.  KDIR=/path/to/linux on the
# command line overrides both.

TOP := $(CURDIR)
SETUP := $(TOP)/tools/setup.sh
# Release of Debian's default kernel (linux-image-amd64), e.g. 6.1.0-57-amd64.
STOCK_KREL = $(shell dpkg-query -W -f='$${Depends}' linux-image-amd64 2>/dev/null | \
	sed -n 's/.*linux-image-\([^ ,]*\).*/\1/p')
STOCK_KDIR = /lib/modules/$(STOCK_KREL)/build
ifeq ($(origin KDIR),undefined)
KDIR := /lib/modules/$(shell uname -r)/build
KDIR_ORIGIN := default
TEST_KDIR = $(STOCK_KDIR)
else
KDIR_ORIGIN := given
TEST_KDIR = $(KDIR)
endif
# tools/version.sh: git describe, or the VERSION file outside a checkout
MRC_VERSION := $(shell $(TOP)/tools/version.sh)
DEBUG_KDIR = $(shell $(TOP)/tools/vm/debug-kernel.sh --print-dir)
# The debug kernel's module is built in a copy of the sources so both
# kernels' objects can coexist.
DEBUG_BUILD := $(TOP)/.build/debug
SRC_DIRS := Kbuild drivers include
KBUILD_OPTS := W=1 MRC_VERSION=$(MRC_VERSION)

CHECKPATCH_FILES = $(shell find drivers include tools selftests -name '*.[ch]' ! -name '*.mod.c' | sort)

# ---- build and install on a real host: nothing is apt-installed --------
all: build-deps
	$(MAKE) -C $(KDIR) M=$(TOP) MRC_VERSION=$(MRC_VERSION) modules
	$(MAKE) -C tools/mrcctl
	$(MAKE) -C tools/mrcat
	$(MAKE) -C tools/iproute2

build-deps:
	@$(TOP)/tools/build-deps.sh $(KDIR) $(KDIR_ORIGIN)

# make install: FHS paths under PREFIX (/usr/local), everything below
# DESTDIR (a staging tree for packages).  mrcctl configures devices, like
# ip's siblings tc, devlink and ethtool, which Debian ships in /sbin with
# their man pages in section 8; mrcat is a program for any user.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
INCLUDEDIR ?= $(PREFIX)/include
# ynl's cli.py (Linux >= 6.13) finds "--family mrc" only in
# /usr/share/ynl/specs, whatever PREFIX is (like the plugins below);
# 6.12's takes the file: --spec $(YNL_SPECDIR)/mrc.yaml.
YNL_SPECDIR ?= /usr/share/ynl/specs
# bash-completion loads completions/<command> on first use
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# Plugins go where the distribution's programs look, whatever PREFIX is:
# ip's lib dir (IP_LIB_DIR overrides it at run time) and Wireshark's
# global Lua plugin dir (tshark -G folders).
MULTIARCH := $(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || \
	gcc -dumpmachine 2>/dev/null)
IPLIBDIR ?= /usr/lib/$(MULTIARCH)/ip
WIRESHARK_PLUGDIR ?= /usr/lib/$(MULTIARCH)/wireshark/plugins
# The module goes to /lib/modules/<release of KDIR>/$(INSTALL_MOD_DIR)
# (dkms uses updates/dkms, which depmod prefers).
INSTALL_MOD_DIR ?= extra
KREL = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
# A distribution's headers have no signing key (Debian's kernels are built
# with CONFIG_MODULE_SIG_ALL): install unsigned instead of failing to sign
# (Secure Boot: dkms signs with its own key, Documentation/mrc/install.rst).
SIG_KEY = $(shell sed -n 's/^CONFIG_MODULE_SIG_KEY="\(.*\)"/\1/p' $(KDIR)/.config 2>/dev/null)
NO_SIGN = $(if $(shell grep -s '^CONFIG_MODULE_SIG_ALL=y' $(KDIR)/.config),$(if \
	$(filter pkcs11:%,$(SIG_KEY))$(wildcard $(SIG_KEY) $(KDIR)/$(SIG_KEY)),,CONFIG_MODULE_SIG_ALL=))
MOD_INSTALLED = $(DESTDIR)/lib/modules/$(KREL)/$(INSTALL_MOD_DIR)/drivers/net/mrc/mrc.ko
MAN_PAGES := $(wildcard Documentation/*.[1-8])
# What make install copies besides the module: SOURCE:DIRECTORY:MODE.
# More files ship by adding a line here (a Wireshark Lua plugin, an
# iproute2 link_mrc.so); make uninstall removes the same list.
INSTALL_FILES = \
	tools/mrcctl/mrcctl:$(SBINDIR):755 \
	tools/mrcat/mrcat:$(BINDIR):755 \
	$(foreach f,$(wildcard include/uapi/linux/*.h),$(f):$(INCLUDEDIR)/linux:644) \
	Documentation/netlink/specs/mrc.yaml:$(YNL_SPECDIR):644 \
	tools/iproute2/link_mrc.so:$(IPLIBDIR):755 \
	tools/iproute2/link_mrc_slave.so:$(IPLIBDIR):755 \
	tools/wireshark/mrc.lua:$(WIRESHARK_PLUGDIR):644 \
	tools/completion/mrcctl:$(BASHCOMPDIR):644 \
	$(foreach f,$(MAN_PAGES),$(f):$(MANDIR)/man$(subst .,,$(suffix $(f))):644)

install: all
	@[ -n "$(KREL)" ] || { echo "install: no kernel release in $(KDIR)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) MRC_VERSION=$(MRC_VERSION) modules_install \
		INSTALL_MOD_PATH=$(DESTDIR) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) DEPMOD=true $(NO_SIGN)
	@$(if $(NO_SIGN),echo "  NOTE    $(KDIR) has no module signing key: mrc.ko is not signed")
	@set -e; for f in $(INSTALL_FILES); do \
		src=$${f%%:*}; rest=$${f#*:}; dir=$(DESTDIR)$${rest%:*}; \
		echo "  INSTALL $$dir/$${src##*/}"; \
		install -D -m $${rest##*:} $$src $$dir/$${src##*/}; \
	done
ifeq ($(DESTDIR),)
	depmod -a $(KREL)
else
	@echo "  DEPMOD  skipped (DESTDIR): run depmod -a $(KREL) where it is installed"
endif

uninstall:
	@[ -n "$(KREL)" ] || { echo "uninstall: no kernel release in $(KDIR)" >&2; exit 1; }
	rm -f $(MOD_INSTALLED) $(addprefix $(MOD_INSTALLED),.gz .xz .zst)
	@d=$(DESTDIR)/lib/modules/$(KREL)/$(INSTALL_MOD_DIR); \
	for sub in drivers/net/mrc drivers/net drivers; do \
		[ ! -d $$d/$$sub ] || rmdir --ignore-fail-on-non-empty $$d/$$sub; done
	@set -e; for f in $(INSTALL_FILES); do \
		src=$${f%%:*}; rest=$${f#*:}; dir=$(DESTDIR)$${rest%:*}; \
		echo "  RM      $$dir/$${src##*/}"; rm -f $$dir/$${src##*/}; \
	done
ifeq ($(DESTDIR),)
	depmod -a $(KREL)
endif

# ---- test flows: Debian packages via make setup, Debian's stock kernel ----
setup:
	@$(SETUP)

module: setup
	$(MAKE) -C $(TEST_KDIR) M=$(TOP) $(KBUILD_OPTS) modules

module-debug: setup debug-kernel
	@mkdir -p $(DEBUG_BUILD)
	rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
		--exclude='.*.cmd' --exclude='modules.order' --exclude='Module.symvers' \
		$(SRC_DIRS) $(DEBUG_BUILD)/
	$(MAKE) -C $(DEBUG_KDIR) M=$(DEBUG_BUILD) $(KBUILD_OPTS) modules

tools: setup
	$(MAKE) -C tools/mrcctl
	$(MAKE) -C tools/mrcat
	$(MAKE) -C tools/mrcinject
	$(MAKE) -C tools/mrcfuzz
	$(MAKE) -C tools/iproute2
	$(MAKE) -C selftests

debug-kernel: setup
	@$(TOP)/tools/vm/debug-kernel.sh >/dev/null

# libFuzzer targets of the protocol core, FUZZ_SECS (60) seconds each.
fuzz: setup
	$(MAKE) -C selftests/fuzz run

# The hardening bar: 10 minutes of selftests/mrc_sysfuzz.sh (tools/mrcfuzz)
# on the debug kernel with kmemleak, no kernel report.  Run as a command,
# not through selftests/run.sh, whose per-test timeout (selftests/settings,
# 600 s) is shorter than the run.
fuzz-kernel: module-debug tools
	$(TOP)/tools/vm/run --kernel debug --kmemleak --timeout 1500 \
		--module $(DEBUG_BUILD)/drivers/net/mrc/mrc.ko --env MRC_SYSFUZZ_SECS=600 \
		-- $(TOP)/selftests/mrc_sysfuzz.sh

unit: setup
	$(MAKE) -C selftests/unit run
	$(MAKE) -s -C tools/mrcctl test

# compat.h exists to test LINUX_VERSION_CODE; nothing else may.  A BPF
# program has no kernel attribute macros.
style: setup
	@src=$$($(TOP)/tools/linux-src) && cp=$$src/scripts/checkpatch.pl && \
	opts="--strict --no-tree --terse --show-types --ignore FILE_PATH_CHANGES" && \
	$$cp $$opts -f $(filter-out %/compat.h %/trace.h %.bpf.c,$(CHECKPATCH_FILES)) && \
	$$cp $$opts --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON \
		-f drivers/net/mrc/compat.h && \
	$$cp $$opts --ignore PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE \
		-f drivers/net/mrc/trace.h && \
	$$cp $$opts --ignore PREFER_DEFINED_ATTRIBUTE_MACRO \
		-f selftests/mrc_trim.bpf.c && \
	echo "checkpatch: clean" && \
	$(TOP)/tools/mancheck.sh

# include/uapi/linux/mrc_netlink.h and Documentation/netlink/mrc.rst from
# Documentation/netlink/specs/mrc.yaml (make check: tools/nlspec.sh check)
nlspec: setup
	@$(TOP)/tools/nlspec.sh gen

sparse: setup
	@$(MAKE) -s -C $(TEST_KDIR) M=$(TOP) MRC_VERSION=$(MRC_VERSION) C=2 modules 2>&1 | tee $(TOP)/.sparse.log
	@! grep -qE '(warning|error):' $(TOP)/.sparse.log && echo "sparse: clean"

check: setup
	@$(TOP)/tools/check.sh stock

check-debug: setup
	@$(TOP)/tools/check.sh debug

# check-debug with every selftest, sysfuzz 60 s (two VMs; the first runs
# the tests check-debug leaves out: about 45 min).
check-debug-full: setup
	@$(TOP)/tools/check.sh debug-full

# A chroot of Debian 12 with only a compiler, the 6.1 headers, dkms, kmod
# and libmnl (mmdebstrap, cached in .build/install-check/): make names
# the missing package, make install/uninstall and dkms work there.
check-install: setup
	@$(TOP)/tools/install-check.sh

# Two VMs linked by 4 multiqueue virtio-net NICs each (part of make check).
check-twovm: module tools
	$(TOP)/tools/vm/run2 --tap $(TOP)/selftests/mrc_twovm.sh $(TOP)/selftests/mrc_twovm_b.sh

demo: module tools
	@$(TOP)/tools/demo.sh

# Documentation/mrc/performance.rst; QUICK=1 for fewer, shorter runs.
bench: module tools
	@QUICK=$(QUICK) $(TOP)/tools/bench/run.sh

vm-shell: module
	$(TOP)/tools/vm/run --shell

# What DKMS builds from: the Kbuild sources, VERSION (the module's version
# outside a git checkout) and dkms.conf; build products are left out.
DKMS_SRC = /usr/src/mrc-$(shell cat $(TOP)/VERSION)
dkms-src:
	@[ ! -e "$(DKMS_SRC)" ] || { echo "dkms-src: $(DKMS_SRC) exists" >&2; exit 1; }
	mkdir -p "$(DKMS_SRC)"
	tar -C $(TOP) -c --exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
		--exclude='.*.cmd' --exclude='*.a' --exclude=modules.order --exclude=Module.symvers \
		Kbuild VERSION dkms.conf LICENSE LICENSES drivers include tools/version.sh | \
		tar -C "$(DKMS_SRC)" -x

print-krel:
	@echo $(STOCK_KREL)
print-version:
	@echo $(MRC_VERSION)
print-debug-ko:
	@echo $(DEBUG_BUILD)/drivers/net/mrc/mrc.ko

clean:
	-$(MAKE) -C $(TEST_KDIR) M=$(TOP) clean
	$(MAKE) -C selftests/unit clean
	$(MAKE) -C tools/mrcctl clean
	$(MAKE) -C tools/mrcat clean
	$(MAKE) -C tools/mrcinject clean
	$(MAKE) -C tools/mrcfuzz clean
	$(MAKE) -C selftests clean
	rm -rf .build results

.PHONY: all build-deps install uninstall setup module module-debug tools debug-kernel unit fuzz fuzz-kernel style nlspec sparse \
	check check-debug check-debug-full check-twovm check-install demo bench vm-shell print-krel print-version print-debug-ko clean \
	dkms-src
