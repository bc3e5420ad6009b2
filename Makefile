# SPDX-License-Identifier: GPL-2.0
#
# make [KDIR=/lib/modules/<version>/build]   module and tool
# make check                                 every test (README.md)
# make style                                 checkpatch --strict on kmod/

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

# Every guest test on every kernel: Debian's, then the debug kernel (KASAN,
# lockdep, kmemleak), where each test module ends with a kmemleak scan.
DEBIAN_KERNELS = $(shell awk 'NF == 1' $(KIOBENCH_CACHE)/kernels.list 2>/dev/null)

guest: tool modules-matrix
	KIOBENCH_REQUIRE_MODULE=1 KIOBENCH_KERNELS="$(DEBIAN_KERNELS)" \
		$(PYTHON) -m pytest -q -rs tests/guest
	KIOBENCH_REQUIRE_MODULE=1 KIOBENCH_KERNELS=debug \
		$(PYTHON) -m pytest -q -rs tests/guest

check: style unit guest

demo: tool modules-matrix
	$(PYTHON) tests/vm/demo

clean:
	$(MAKE) -C kmod KDIR=$(KDIR) clean || true
	$(MAKE) -C tools clean
	rm -rf build

.PHONY: all module tool debug-kernel modules-matrix style unit guest check demo clean
