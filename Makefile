# SPDX-License-Identifier: GPL-2.0
#
# make demo                                  a guest on null_blk (README.md)
# make check                                 every test, with a time table
# KIOBENCH_TEST_DEVS=/dev/nvme0n1 make check-device
#                                            the read-only tests on real devices
# make [KDIR=/lib/modules/<version>/build]   module and tool
# make style                                 checkpatch --strict on kmod/
# make deps                                  install what the tests need

KDIR ?= /lib/modules/$(shell uname -r)/build
PYTHON ?= /usr/bin/python3
KIOBENCH_CACHE ?= /var/cache/kiobench
KIOBENCH_VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo 0.1)
CHECKPATCH ?= $(KIOBENCH_CACHE)/src/linux-source-6.12/scripts/checkpatch.pl
export KIOBENCH_CACHE KIOBENCH_VERSION

all: module tool

module:
	$(MAKE) -C kmod KDIR=$(KDIR)

tool:
	$(MAKE) -C tools

# Debian packages, guest kernels and kernel source (idempotent; a few
# seconds when everything is there).  demo and check call it first.
deps:
	tests/install-deps.sh

# The debug kernel (KUnit, KASAN, lockdep, kmemleak), cached outside the
# checkout; a no-op when its source and config fragment are unchanged.
debug-kernel:
	tests/debug-kernel/build

# kiobench.ko for every kernel of the test matrix, W=1, sparse, -Werror.
modules-matrix: debug-kernel
	$(PYTHON) tests/build-modules

style:
	$(CHECKPATCH) --strict --no-tree --quiet -f kmod/*.c kmod/*.h kmod/uapi/linux/*.h

unit: tool
	$(MAKE) -C tools test
	$(PYTHON) -m pytest -q tests/unit

# Everything: deps, style, unit, the debug kernel, the modules, then the
# guest lanes (tests/check: which kernel runs which tests), and a table of
# each step's and lane's time.  KIOBENCH_LANES=6.1,debug picks lanes.
check:
	@start=$$(date +%s) && tests/install-deps.sh && \
		$(PYTHON) tests/check --deps-seconds=$$(($$(date +%s) - start))

# The tests marked `device` on this machine's kernel and the devices named
# in KIOBENCH_TEST_DEVS, which they only read (tests/check-device: as root;
# builds and insmods kiobench.ko, rmmods it after).  Without devices it
# says so and runs, builds and loads nothing.
export KIOBENCH_TEST_DEVS
check-device:
	@if [ -n "$$KIOBENCH_TEST_DEVS" ]; then $(MAKE) --no-print-directory tool; fi
	$(PYTHON) tests/check-device

# The guest lanes alone (no deps, style or unit).
guest: tool modules-matrix
	$(PYTHON) tests/check --no-steps

# A stock 6.12 guest: no debug kernel is built.
demo: deps tool
	$(PYTHON) tests/vm/demo

clean:
	$(MAKE) -C kmod KDIR=$(KDIR) clean || true
	$(MAKE) -C tools clean
	rm -rf build

.PHONY: all module tool deps debug-kernel modules-matrix style unit guest check check-device \
	demo clean
