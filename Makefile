# SPDX-License-Identifier: GPL-2.0
#
# make demo                                  a guest on null_blk (README.md)
# make check                                 every test, with a time table
# KIOBENCH_TEST_DEVS=/dev/nvme0n1 make check-device
#                                            the read-only tests on real devices
# make [KDIR=/lib/modules/<version>/build]   module and tool
# make style                                 checkpatch --strict on kmod/
# make coccicheck                            the kernel's coccinelle scripts on kmod/
# make fuzz [FUZZ_MINUTES=10] [FUZZ_SEED=N]   the netlink fuzzer in a debug guest
# make fuzz-parsers [FUZZ_PARSERS_SECONDS=600]
#                                            the tool's parsers under libFuzzer
# make deps                                  install what the tests need
# make install [PREFIX=/usr/local] [DESTDIR=] tool, kiobench-plot, man page,
#                                            bash completion (uninstall: undo)
# make modules_install [KDIR=] [INSTALL_MOD_PATH=]
#                                            kiobench.ko, through Kbuild
# make dkms-install [DESTDIR=]               kmod/ and dkms.conf to
#                                            /usr/src/kiobench-<version>
# make deb, make rpm [PKGDIR=build/pkg]      the packages kiobench and
#                                            kiobench-dkms (README.md)

KDIR ?= /lib/modules/$(shell uname -r)/build
PYTHON ?= /usr/bin/python3
KIOBENCH_CACHE ?= /var/cache/kiobench
# Once per make (a recursive ?= would run git for every recipe line).
ifeq ($(origin KIOBENCH_VERSION),undefined)
KIOBENCH_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)
endif
CHECKPATCH ?= $(KIOBENCH_CACHE)/src/linux-source-6.12/scripts/checkpatch.pl
export KIOBENCH_CACHE KIOBENCH_VERSION
# The packages' version (make deb, make rpm): KIOBENCH_VERSION as dpkg and
# rpm order versions, which allow no '-'.  A tag's describe, vX.Y or
# vX.Y-N-gHASH[-dirty], is X.Y or X.Y+N.gHASH[.dirty]; an untagged
# checkout's bare HASH[-dirty] is 0~gitN.HASH[.dirty], N its number of
# commits: hashes alone have no order, and a tag's X.Y sorts after it.
PKG_VERSION = $(eval PKG_VERSION := $(shell v='$(KIOBENCH_VERSION)'; \
	if echo "$$v" | grep -Eqx '[0-9a-f]{7,40}(-dirty)?'; then \
		echo "0~git$$(git rev-list --count HEAD 2>/dev/null || echo 0).$$v"; \
	else echo "$$v"; fi | sed 's/^v//; s/-\([0-9]*\)-g/+\1.g/; s/-/./g; /^[0-9]/!s/^/0~/'))$(PKG_VERSION)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# Where dkms looks for sources (its source_tree), whatever PREFIX is.
DKMSDIR ?= /usr/src
INSTALL ?= install

all: module tool

module:
	$(MAKE) -C kmod KDIR=$(KDIR)

tool:
	$(MAKE) -C tools

# Debian packages, guest kernels and kernel source (idempotent; a few
# seconds when everything is there).  demo and check call it first.
deps:
	tests/install-deps.sh

# The debug kernel (KUnit, KASAN, lockdep, kmemleak, UBSAN), from Debian
# sid's newest stable source, cached outside the checkout; a no-op when its
# source and config fragment are unchanged.
debug-kernel:
	tests/debug-kernel/build

# A compile-only Kbuild tree of Debian experimental's newest -rc (no boot);
# skipped, with the reason, on a day there is none to fetch.
rc-tree:
	tests/debug-kernel/rc-tree

# A sparse that the 7.x trees accept (bookworm's fails their
# checker-valid.sh), from Debian sid's source, cached outside the checkout.
sparse:
	tests/debug-kernel/sparse >/dev/null

# kiobench.ko and kiobench_kunit.ko for every kernel of the test matrix and
# the -rc tree: W=1, sparse where it can run, -Werror.
modules-matrix: debug-kernel rc-tree sparse
	$(PYTHON) tests/build-modules

# The netlink fuzzer for FUZZ_MINUTES in a guest of FUZZ_KERNEL (the debug
# kernel by default); a splat's reproducer goes to build/fuzz/
FUZZ_MINUTES ?= 10
FUZZ_KERNEL ?= debug
fuzz: modules-matrix
	tests/fuzz/run --kernel=$(FUZZ_KERNEL) --minutes=$(FUZZ_MINUTES) $(if $(FUZZ_SEED),--seed=$(FUZZ_SEED))

# The tool's parsers (job files, command lines, iologs) under libFuzzer
# with ASan and UBSan, on the host: FUZZ_PARSERS_SECONDS per target
# (tests/fuzz/parsers/run); a crash's input goes to build/fuzz-parsers/
# crashes/.  fuzz-parsers-ci is make check's short run of the same
# (tests/check runs it beside the timing tests, as unit).
FUZZ_PARSERS_SECONDS ?= 600
fuzz-parsers:
	tests/fuzz/parsers/run --seconds=$(FUZZ_PARSERS_SECONDS)

fuzz-parsers-ci:
	tests/fuzz/parsers/run --seconds=20

# The kernel's semantic patches (scripts/coccinelle) over kmod/: any report fails
coccicheck:
	tests/coccicheck

style:
	$(CHECKPATCH) --strict --no-tree --quiet -f kmod/*.c kmod/*.h kmod/uapi/linux/*.h

# pytest -n: a process per CPU (python3-pytest-xdist); the slow tests
# build modules, 160 s one at a time on two cores, 94 s two at a time.
unit: tool
	$(MAKE) -C tools test
	$(PYTHON) -m pytest -q -n auto tests/unit

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

# The tool, kiobench-plot next to it (where `kiobench plot` looks first),
# the man page and the bash completion (also for kiobench-plot).  Writes
# only under $(DESTDIR)$(PREFIX); tests/unit/test_install.py checks it.
install: tool
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 0755 tools/kiobench tools/kiobench-plot $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 0644 tools/kiobench.1 $(DESTDIR)$(MANDIR)/man1/kiobench.1
	$(INSTALL) -m 0644 tools/kiobench.bash-completion $(DESTDIR)$(BASHCOMPDIR)/kiobench
	ln -sf kiobench $(DESTDIR)$(BASHCOMPDIR)/kiobench-plot

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/kiobench $(DESTDIR)$(BINDIR)/kiobench-plot \
		$(DESTDIR)$(MANDIR)/man1/kiobench.1 \
		$(DESTDIR)$(BASHCOMPDIR)/kiobench $(DESTDIR)$(BASHCOMPDIR)/kiobench-plot

# kiobench.ko for KDIR's kernel into INSTALL_MOD_PATH/lib/modules/<version>/
# (Kbuild's INSTALL_MOD_DIR: "updates" on 6.x), compressed as the kernel's
# modules are.  Kbuild signs it with the kernel's key if the tree has it (a
# distribution's headers do not: sign-file would only print errors; use
# DKMS for a module signed with the machine's MOK key).  Kbuild's depmod
# needs a System.map, which headers lack: into the live system, run it.
KRELEASE = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
KSIGKEY = $(shell sed -n 's/^CONFIG_MODULE_SIG_KEY="\(.*\)"$$/\1/p' $(KDIR)/.config 2>/dev/null)
KSIGNER = $(and $(KSIGKEY),$(filter pkcs11:%,$(KSIGKEY))$(wildcard $(KSIGKEY) $(KDIR)/$(KSIGKEY)))
modules_install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod KIOBENCH_VERSION=$(KIOBENCH_VERSION) \
		$(if $(KSIGNER),,CONFIG_MODULE_SIG_ALL=) modules_install
	$(if $(INSTALL_MOD_PATH),,depmod -a $(KRELEASE))

# A DKMS source tree, $(DKMSDIR)/kiobench-<version>: kmod/'s sources and
# dkms.conf, both stamped with the version (the tree has no .git).  Then
# `dkms install kiobench/<version>` (dkms.conf says more).
DKMS_TREE = $(DESTDIR)$(DKMSDIR)/kiobench-$(KIOBENCH_VERSION)
dkms-install:
	@test -n "$(KIOBENCH_VERSION)" || { echo "dkms-install: no version" >&2; exit 1; }
	rm -rf $(DKMS_TREE)
	$(INSTALL) -d $(DKMS_TREE)/uapi/linux
	$(INSTALL) -m 0644 kmod/Kbuild kmod/*.c kmod/*.h $(DKMS_TREE)/
	$(INSTALL) -m 0644 kmod/uapi/linux/*.h $(DKMS_TREE)/uapi/linux/
	sed '/^KIOBENCH_VERSION ?=/i KIOBENCH_VERSION ?= $(KIOBENCH_VERSION)' kmod/Makefile \
		>$(DKMS_TREE)/Makefile
	sed 's|@PACKAGE_VERSION@|$(KIOBENCH_VERSION)|' dkms.conf >$(DKMS_TREE)/dkms.conf
	@echo "dkms-install: now: dkms install kiobench/$(KIOBENCH_VERSION) [-k <kernel>]"

# Packages (README.md, "On a real machine"), built in PKGDIR, outside the
# sources, from git's tracked files as the work tree has them (a -dirty
# version says so): their tarball, then the .debs with their .changes and
# .buildinfo (Debian's debhelper and dh-dkms, debian/: kiobench is what
# `make install` installs, kiobench-dkms what `make dkms-install` does)
# and the .rpms of the same two (kiobench.spec), all in PKGDIR itself.
# tests/unit/test_packages.py builds, compares, installs and purges them.
PKGDIR ?= build/pkg
PKG_TREE = kiobench-$(PKG_VERSION)
pkg-dist:
	@test -n "$(KIOBENCH_VERSION)" || { echo "pkg-dist: no version" >&2; exit 1; }
	mkdir -p $(PKGDIR)
	git ls-files -z | tar --null -T - --transform 's,^,$(PKG_TREE)/,' --owner=0 --group=0 \
		--numeric-owner -czf $(PKGDIR)/$(PKG_TREE).tar.gz

# debian/changelog: this version, the maintainer of debian/control, the
# commit's date.  dpkg-buildpackage writes into the tree's parent, PKGDIR;
# its environment passes KIOBENCH_VERSION on to debian/rules.
deb: pkg-dist
	rm -rf $(PKGDIR)/$(PKG_TREE) $(PKGDIR)/kiobench_* $(PKGDIR)/kiobench-dkms_*
	tar -C $(PKGDIR) -xzf $(PKGDIR)/$(PKG_TREE).tar.gz
	{ printf 'kiobench (%s) unstable; urgency=medium\n\n' '$(PKG_VERSION)' && \
	  printf '  * Built by make deb from git %s.\n\n' '$(KIOBENCH_VERSION)' && \
	  printf ' -- %s  %s\n' "$$(sed -n 's/^Maintainer: //p' debian/control)" \
		"$$(git log -1 --format=%cD 2>/dev/null || date -R)"; } \
		>$(PKGDIR)/$(PKG_TREE)/debian/changelog
	cd $(PKGDIR)/$(PKG_TREE) && dpkg-buildpackage -b -us -uc
	rm -rf $(PKGDIR)/$(PKG_TREE)
	@ls $(PKGDIR)/kiobench*.deb

# Where rpm's database is not the system's packages (Debian's rpm, for the
# tests): BuildRequires, Fedora's names, unchecked; brp-compress run by
# bash, as on Fedora (it uses read -d, which Debian's /bin/sh lacks: the
# man page would stay uncompressed).
RPM_FOREIGN = $(shell rpm -q rpm >/dev/null 2>&1 || \
	echo "--nodeps --define '__brp_compress bash %{_rpmconfigdir}/brp-compress %{?_prefix}'")
rpm: pkg-dist
	rm -rf $(PKGDIR)/rpmbuild $(PKGDIR)/kiobench-*.rpm $(PKGDIR)/kiobench-dkms-*.rpm
	rpmbuild -bb $(RPM_FOREIGN) --define '_topdir $(abspath $(PKGDIR))/rpmbuild' \
		--define '_sourcedir $(abspath $(PKGDIR))' \
		--define 'kb_version $(KIOBENCH_VERSION)' --define 'kb_pkgversion $(PKG_VERSION)' \
		kiobench.spec
	mv $(PKGDIR)/rpmbuild/RPMS/*/*.rpm $(PKGDIR)/
	rm -rf $(PKGDIR)/rpmbuild
	@ls $(PKGDIR)/kiobench*.rpm

clean:
	$(MAKE) -C kmod KDIR=$(KDIR) clean || true
	$(MAKE) -C tools clean
	rm -rf build

.PHONY: all module tool deps debug-kernel rc-tree sparse modules-matrix fuzz fuzz-parsers \
	fuzz-parsers-ci coccicheck style unit guest check check-device \
	demo install uninstall modules_install dkms-install pkg-dist deb rpm clean
