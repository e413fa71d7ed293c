# SPDX-License-Identifier: GPL-2.0
#
# mrc - Multipath Reliable Connection.  Top-level targets:
#
#   make              build drivers/net/mrc/mrc.ko (against KDIR) and the tools
#   make demo         boot a VM, load mrc, show it working (README's first command)
#   make bench        mrc vs TCP, MPTCP, Soft-RoCE in one VM: results/bench/ (QUICK=1: < 5 min)
#   make check        build + style + sparse + unit tests + VM selftests on 6.1
#   make check-debug  the VM selftests on the 6.12 debug kernel + kmemleak
#   make check-twovm  only the two-VM test (tools/vm/run2, selftests/mrc_twovm.sh)
#   make setup        install every Debian package needed (apt-get, idempotent)
#   make unit         userspace unit tests of the protocol core (ASan/UBSan)
#   make fuzz         libFuzzer targets of the protocol core (FUZZ_SECS=60 each)
#   make fuzz-kernel  syscall/genl fuzzing (mrcfuzz) for 10 min on the debug kernel
#   make style        checkpatch.pl --strict on all sources
#   make sparse       sparse (C=2) on the module
#   make debug-kernel build the debug kernel once per machine (cached)
#   make vm-shell     interactive shell in a VM with mrc.ko loaded
#   make clean
#
# KDIR defaults to the headers of Debian 12's stock kernel; any other
# built tree works: make KDIR=/path/to/linux.

TOP := $(CURDIR)
SETUP := $(TOP)/tools/setup.sh
# Release of Debian's default kernel (linux-image-amd64), e.g. 6.1.0-57-amd64.
STOCK_KREL = $(shell dpkg-query -W -f='$${Depends}' linux-image-amd64 2>/dev/null | \
	sed -n 's/.*linux-image-\([^ ,]*\).*/\1/p')
KDIR ?= /lib/modules/$(STOCK_KREL)/build
DEBUG_KDIR = $(shell $(TOP)/tools/vm/debug-kernel.sh --print-dir)
# The debug kernel's module is built in a copy of the sources so both
# kernels' objects can coexist.
DEBUG_BUILD := $(TOP)/.build/debug
SRC_DIRS := Kbuild drivers include
KBUILD_OPTS := W=1

CHECKPATCH_FILES = $(shell find drivers include tools selftests -name '*.[ch]' ! -name '*.mod.c' | sort)

all: module tools

setup:
	@$(SETUP)

module: setup
	$(MAKE) -C $(KDIR) M=$(TOP) $(KBUILD_OPTS) modules

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
	echo "checkpatch: clean"

sparse: setup
	@$(MAKE) -s -C $(KDIR) M=$(TOP) C=2 modules 2>&1 | tee $(TOP)/.sparse.log
	@! grep -qE '(warning|error):' $(TOP)/.sparse.log && echo "sparse: clean"

check: setup
	@$(TOP)/tools/check.sh stock

check-debug: setup
	@$(TOP)/tools/check.sh debug

# check-debug with every selftest, sysfuzz 60 s (two VMs; the first runs
# the tests check-debug leaves out: about 45 min).
check-debug-full: setup
	@$(TOP)/tools/check.sh debug-full

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

print-krel:
	@echo $(STOCK_KREL)
print-debug-ko:
	@echo $(DEBUG_BUILD)/drivers/net/mrc/mrc.ko

clean:
	-$(MAKE) -C $(KDIR) M=$(TOP) clean
	$(MAKE) -C selftests/unit clean
	$(MAKE) -C tools/mrcctl clean
	$(MAKE) -C tools/mrcat clean
	$(MAKE) -C tools/mrcinject clean
	$(MAKE) -C tools/mrcfuzz clean
	$(MAKE) -C selftests clean
	rm -rf .build results

.PHONY: all setup module module-debug tools debug-kernel unit fuzz fuzz-kernel style sparse \
	check check-debug check-debug-full check-twovm demo bench vm-shell print-krel print-debug-ko clean
