#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything kiobench needs to build and to run its test suite,
# from Debian's packages only, on a brand-new Debian 12 (bookworm) machine.
# Run as root.  Idempotent: packages already present are left alone.
#
# Kernels under test:
#   - Debian bookworm 6.1 (newest linux-headers-6.1.0-N-amd64)
#   - Debian bookworm-backports 6.12 (newest linux-headers-6.12.N+deb12-amd64)
#   - the same with PREEMPT_RT (newest linux-headers-6.12.N+deb12-rt-amd64)
# Their images and headers are downloaded and unpacked into $KIOBENCH_CACHE
# (outside the checkout), never installed: bookworm-backports' headers
# packages depend on their images, which would put a kernel into /boot and
# the boot loader's menu.  No linux-image or linux-modules package is ever
# installed on this machine; `install-deps.sh --list` prints the packages it
# installs (tests/unit/test_deps.py simulates their install from nothing).
# The 7.x sources (sid's newest stable for the debug kernel, experimental's
# -rc for the compile tree) are not fetched here but by the steps that use
# them, tests/debug-kernel/{build,rc-tree}, through tests/debug-kernel/
# fetch-source's apt configuration of its own: this machine's apt sources
# stay bookworm's.
set -euo pipefail

CACHE=${KIOBENCH_CACHE:-/var/cache/kiobench}
export DEBIAN_FRONTEND=noninteractive
list_only=false
case ${1-} in
--list) list_only=true ;;
"") ;;
*) echo "usage: tests/install-deps.sh [--list]" >&2; exit 2 ;;
esac

if ! $list_only && [ "$(id -u)" != 0 ]; then
	echo "install-deps: must run as root (apt-get)" >&2
	exit 1
fi

pkgs=(
	build-essential bc bison flex libelf-dev libssl-dev dwarves pkg-config
	libnl-3-dev libnl-genl-3-dev libjson-c-dev libncurses-dev sparse
	# make coccicheck: the kernel's semantic patches on kmod/ (some of them
	# are OCaml scripts, which spatch compiles with ocamlopt and ocamlfind);
	# make sparse: dpkg-source unpacks sid's sparse source (dpkg-dev)
	coccinelle ocaml-nox ocaml-findlib dpkg-dev
	# the tool's log_store_compressed (fio's .fz logs)
	zlib1g-dev
	# tests/build-fio: the guests' static fio links libaio.a, and libnuma.a
	# (numa_cpu_nodes, compared with kiobench's in a guest of two nodes)
	libaio-dev libnuma-dev
	qemu-system-x86 busybox-static cpio kmod xz-utils zstd fio dmsetup mdadm e2fsprogs
	blktrace
	# guests reachable over SSH (the fleet lane): dropbear in the guest,
	# OpenSSH's client and ssh-keygen on the host; util-linux's blkdiscard
	# (-z) and blkzone in every guest
	dropbear-bin openssh-client util-linux
	# the fleet lane's controller and the unit lane's check of the
	# playbook (tools/ansible): ansible-playbook and ansible-lint
	ansible-core ansible-lint
	python3 python3-pytest python3-yaml python3-matplotlib python3-jsonschema
	# the unit step's tests two at a time (pytest -n)
	python3-pytest-xdist
	# tests/guest/test_fiologs.py: fio's fiologparser_hist.py reads logs with them
	python3-numpy python3-pandas
	# tests/unit/test_dkms.py (openssl: dkms's module signing key) and
	# tests/unit/test_install.py (strace: what make install writes)
	dkms openssl strace
	# make deb / make rpm, and tests/unit/test_packages.py, which builds,
	# lints and installs them: debhelper and dh-dkms (dpkg-buildpackage),
	# rpm (rpmbuild, rpm2cpio), lintian, man-db (man -w)
	debhelper dh-dkms rpm lintian man-db
	# tests/guest/test_top.py: kiobench top's curses screen in a tmux pane
	# of the guest (ncurses-base's terminfo is always there)
	tmux
	# bench/fio-compare --profile: perf in a guest of its own
	linux-perf
	# make fuzz-parsers (and make check's short run): the tool's parsers
	# under libFuzzer, ASan and UBSan (clang-14's -fsanitize=fuzzer needs
	# libclang-rt-14-dev's runtime libraries)
	clang-14 libclang-rt-14-dev
	linux-source-6.12
)
if $list_only; then
	printf '%s\n' "${pkgs[@]}"
	exit 0
fi

bpo=/etc/apt/sources.list.d/kiobench-bookworm-backports.sources
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	cat >"$bpo" <<'EOS'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
fi
apt-get update -qq

newest() { # newest package whose name matches the regex $1
	apt-cache search --names-only "$1" | awk '{print $1}' | sort -V | tail -n 1
}
k61=$(newest '^linux-image-6\.1\.0-[0-9]+-amd64$')
k612=$(newest '^linux-image-6\.12\.[0-9]+\+deb12-amd64$')
k612rt=$(newest '^linux-image-6\.12\.[0-9]+\+deb12-rt-amd64$')
[ -n "$k61" ] && [ -n "$k612" ] && [ -n "$k612rt" ] ||
	{ echo "install-deps: no kernel packages found" >&2; exit 1; }

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	boot_before=$(ls -A /boot 2>/dev/null || true)
	apt-get install -y -qq --no-install-recommends "${missing[@]}"
	boot_after=$(ls -A /boot 2>/dev/null || true)
	if [ "$boot_before" != "$boot_after" ]; then
		echo "install-deps: installing ${missing[*]} changed /boot:" >&2
		diff <(echo "$boot_before") <(echo "$boot_after") >&2 || true
		echo "install-deps: kiobench installs no kernel; remove what it added" >&2
		exit 1
	fi
fi

# Guest kernels: vmlinuz + modules, unpacked, never installed on the host.
mkdir -p "$CACHE/kernels"
for img in "$k61" "$k612" "$k612rt"; do
	ver=${img#linux-image-}
	dst=$CACHE/kernels/$ver
	[ -e "$dst/.done" ] && continue
	rm -rf "$dst" && mkdir -p "$dst"
	(cd "$dst" && apt-get download -qq "$img" && dpkg-deb -x ./*.deb root && rm -f ./*.deb)
	touch "$dst/.done"
done
# Their headers, unpacked beside each image: root/lib/modules/<ver>/build
# is the Kbuild tree the modules build against (tests/vm/kernels.py).  The
# headers package's Makefile includes its common part by absolute path, and
# its build and source links are absolute: all three are pointed into the
# cache.
for img in "$k61" "$k612" "$k612rt"; do
	ver=${img#linux-image-}
	dst=$CACHE/kernels/$ver
	[ -e "$dst/.headers" ] && continue
	hdr=linux-headers-$ver
	# the common headers and linux-kbuild the headers package depends on
	mapfile -t parts < <(apt-cache depends --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "$hdr" |
		awk '$1 == "Depends:" && $2 ~ /^linux-(headers|kbuild)-/ {print $2}')
	[ ${#parts[@]} -eq 2 ] ||
		{ echo "install-deps: $hdr: expected a common and a kbuild package, got: ${parts[*]}" >&2; exit 1; }
	dl=$(mktemp -d)
	(cd "$dl" && apt-get download -qq "$hdr" "${parts[@]}")
	for deb in "$dl"/*.deb; do
		dpkg-deb -x "$deb" "$dst/root"
	done
	rm -rf "$dl"
	mods=$dst/root/lib/modules/$ver
	common=$(basename "$(readlink "$mods/source")")
	sed -i "s|^include /usr/src/$common/|include $dst/root/usr/src/$common/|" "$dst/root/usr/src/$hdr/Makefile"
	grep -q "^include $dst/root/usr/src/$common/Makefile" "$dst/root/usr/src/$hdr/Makefile" ||
		{ echo "install-deps: $hdr: its Makefile does not include $common" >&2; exit 1; }
	ln -sfn "../../../usr/src/$hdr" "$mods/build"
	ln -sfn "../../../usr/src/$common" "$mods/source"
	touch "$dst/.headers"
done
# QEMU 10 (bookworm-backports) for the guests with an FDP NVMe namespace
# (tests/vm/guest.py's Fdp; bookworm's QEMU 7.2 has no Flexible Data
# Placement): unpacked, never installed, so the host's qemu-system-x86 (7.2,
# which every other guest and every timing uses) stays.  Its libraries are
# all bookworm's (ldd finds them); the guest harness runs it with -L on its
# own data directory.
qemu10=$CACHE/qemu-10
# the newest bookworm-backports has (an older one leaves the archive)
qemu10_ver=$(apt-cache madison qemu-system-x86 |
	awk -F' *[|] *' '$3 ~ /bookworm-backports/ {print $2; exit}')
[ -n "$qemu10_ver" ] ||
	{ echo "install-deps: bookworm-backports has no qemu-system-x86" >&2; exit 1; }
if [ "$(cat "$qemu10/.done" 2>/dev/null)" != "$qemu10_ver" ]; then
	rm -rf "$qemu10" && mkdir -p "$qemu10"
	(cd "$qemu10" &&
		apt-get download -qq "qemu-system-x86=$qemu10_ver" "qemu-system-data=$qemu10_ver" &&
		for d in ./*.deb; do dpkg-deb -x "$d" root; done && rm -f ./*.deb)
	if ldd "$qemu10/root/usr/bin/qemu-system-x86_64" | grep 'not found'; then
		echo "install-deps: QEMU 10 lacks the libraries above" >&2
		exit 1
	fi
	echo "$qemu10_ver" >"$qemu10/.done"
fi
# Kernel source: checkpatch.pl for `make style`, kunit.py, and
# tools/net/ynl/ynl-gen-c.py for tests/unit/test_ynl_gen.py.
src=$CACHE/src
if [ ! -e "$src/linux-source-6.12/.unpacked" ]; then
	rm -rf "$src/linux-source-6.12" && mkdir -p "$src"
	tar -C "$src" -xf /usr/src/linux-source-6.12.tar.xz
	touch "$src/linux-source-6.12/.unpacked"
fi

# Debian kernels, plus any self-built kernel already listed (tests/debug-kernel).
{ ls -1 "$CACHE/kernels"; grep -s ' ' "$CACHE/kernels.list" || true; } >"$CACHE/kernels.list.new"
mv "$CACHE/kernels.list.new" "$CACHE/kernels.list"
echo "install-deps: ok (kernels: $(awk '{print $1}' "$CACHE/kernels.list" | tr '\n' ' '))"
