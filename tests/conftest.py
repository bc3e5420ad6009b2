"""pytest fixtures of the kiobench test suite.

Guest tests take the `guest` fixture: a QEMU guest per kernel
(parametrized over the kernels of tests/vm/kernels.py, id = kernel
version) and guest shape, shared by the module's tests, and by the next
modules' when they boot the same shape: the modules run grouped by their
GUEST_ARGS, and a module that shares its predecessor's guest starts with
an empty /tmp (a boot is 4-5 s on Debian's kernels, 15-20 s on the debug
kernel).  Around every such test the harness
writes a marker to the guest's kernel log, then scans the log since it and
fails the test on any kernel splat, printing it.  kmemleak (on kernels that
have it) is scanned at the end of each test module and before a reboot,
not after every test, since a scan takes tens of seconds under KASAN; a
report fails the module (as an error of its last test).  A test whose guest died or hung fails, and the next
test gets a freshly booted guest; so does the test after a splat.

A module may set GUEST_ARGS = {...}: keywords for vm.guest.Guest.boot
(e.g. nvme_size=1 << 30).  @pytest.mark.expect_splat(regex) makes a test
require a splat matching regex (and tolerate it);
@pytest.mark.tolerate_splat(regex) tolerates splats matching regex
without requiring one (the allocation-failure warnings of fault
injection, say).

KIOBENCH_REQUIRE_MODULE=1 (or --require-module) makes a missing
build/<version>/kmod/kiobench.ko or tools/kiobench an error for every
guest test instead of a skip of the tests that need them.

Which kernels run which tests (tests/check's lanes) is chosen by markers:
@pytest.mark.core for what differs between kernels (device open and
close, netlink, the engine, rmmod: run on 6.1 and on 6.12-rt, which is
6.12's source with PREEMPT_RT's other contexts, not on plain 6.12 a
third time), @pytest.mark.debug for what needs the debug kernel's
checkers (fuzzing, fault injection, removal, concurrency under KASAN,
lockdep and kmemleak: run there); a test may have both, and then runs
on 6.1, 6.12-rt and the debug kernel; unless it is also marked
@pytest.mark.api: what differs between kernels only by their interfaces
(zone management, the block operations, netlink's parsing), where 6.12
takes the debug kernel's side of every kmod/compat.h probe it drives
(they differ in integrity, write streams, crc32c, crypto and kthread
affinity), driving code that takes no lock, turns no preemption off and
allocates nothing in atomic context, so PREEMPT_RT's other contexts
change nothing in it: such a test runs on 6.1 and the debug kernel only
(api is refused without both core and debug).  Everything else runs once, on
Debian's 6.12, but for @pytest.mark.fleet: tests of several guests
reachable over SSH (own_guest(ssh=True)), in a lane of their own.
@pytest.mark.timing says where a test runs in its lane, not which lane:
it asserts on a rate, a depth kept, a latency, a CPU share or a time
span, which a second guest on the host's two cores moves (ratios of IOPS,
Little's law, thinktime pauses, spin and hipri, duty cycles); tests/check
runs a lane's timing tests one lane at a time, with no other guest beside
them but the other tests' under SCHED_IDLE (which yield a CPU at once to
a woken vCPU of theirs), and the other tests two lanes at a time.  A floor that load can only raise (a pause
never shorter than asked, say) is no reason for the marker.

Tests that only read their device take the `test_dev` fixture and are
marked @pytest.mark.device: they also run on real devices, the way
blktests takes TEST_DEVS.  $KIOBENCH_TEST_DEVS (device paths, separated
by blanks or commas) names the devices: each such test runs once per
device, on that device instead of a new null_blk.  With KIOBENCH_LOCAL=1
(tests/check-device, `make check-device`) the tests run on this machine
and its running kernel instead of in guests, only those marked `device`
are collected, and kiobench.ko is the one tests/check-device loaded.
Without it, the named devices are inside the guest, which then gets an
emulated NVMe controller (/dev/nvme0n1): tests/check's `device` lane
proves the path that way.  test_dev fails a test during which its
device's write or discard counters moved.

Every test has a time budget for its call phase: DEFAULT_BUDGET seconds,
or @pytest.mark.budget(seconds), times DEBUG_SLOWDOWN on a kernel with
KASAN.  A test over its budget still passes, but is reported at the end
of the run and in $KIOBENCH_TIMES (a JSON file for tests/check), so that
growth is seen before it costs CI its time limit.
"""
from __future__ import annotations

import functools
import json
import os
import re
from typing import Callable, Iterator

import pytest

from vm import initramfs, kernels
from vm.budget import over_budget
from vm.guest import Guest, GuestError
from vm.initramfs import Initramfs
from vm.local import Local, running_kernel
from vm.splat import Splat
from vm.targets import nullb, remove_nullb, wait_block, write_counts

_CHECK = pytest.StashKey["GuestCheck"]()
# Seconds of a test's call phase (see the module's docstring).
DEFAULT_BUDGET = 30
# KASAN, lockdep and kmemleak under TCG: about three times slower.
DEBUG_SLOWDOWN = 3
# Device mode (see the module's docstring): the named devices, and whether
# the tests run on this machine rather than in guests.
TEST_DEVS = [d for d in re.split(r"[\s,]+", os.environ.get("KIOBENCH_TEST_DEVS", "")) if d]
LOCAL = os.environ.get("KIOBENCH_LOCAL") == "1"
# The emulated NVMe a guest gets when devices are named (its /dev/nvme0n1).
DEVICE_NVME_SIZE = 256 << 20


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--require-module", action="store_true",
                     default=os.environ.get("KIOBENCH_REQUIRE_MODULE") == "1",
                     help="a missing kiobench.ko or tools/kiobench is an error, not a skip "
                          "(default: $KIOBENCH_REQUIRE_MODULE=1)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "expect_splat(regex): the test must cause a kernel "
                                       "splat matching regex; other splats still fail it")
    config.addinivalue_line("markers", "tolerate_splat(regex): kernel splats matching regex "
                                       "do not fail the test (nor are they required)")
    config.addinivalue_line("markers", "core: differs between kernels; runs on 6.1 and 6.12-rt "
                                       "(6.12's source), and on the debug kernel if marked debug")
    config.addinivalue_line("markers", "api: with core and debug, differs between kernels "
                                       "only by their interfaces; runs on 6.1 and the debug "
                                       "kernel, not on 6.12-rt")
    config.addinivalue_line("markers", "debug: needs the debug kernel's KASAN, lockdep, "
                                       "kmemleak or fault injection; runs there")
    config.addinivalue_line("markers", f"budget(seconds): the call phase's time budget "
                                       f"(default {DEFAULT_BUDGET} s, x{DEBUG_SLOWDOWN} on KASAN)")
    config.addinivalue_line("markers", "device: only reads its device (test_dev); also runs "
                                       "on real devices ($KIOBENCH_TEST_DEVS, make check-device)")
    config.addinivalue_line("markers", "fleet: boots guests of its own reachable over SSH "
                                       "(Guest.boot(ssh=True)); runs in the fleet lane only")
    config.addinivalue_line("markers", "timing: asserts on a rate, a depth kept, a latency or "
                                       "another time that a second guest on the host's cores "
                                       "moves; tests/check runs these with no other lane beside")
    if LOCAL and not TEST_DEVS:
        raise pytest.UsageError("KIOBENCH_LOCAL=1 needs KIOBENCH_TEST_DEVS: the devices to read")
    config.stash[_TIMES] = {}


@functools.cache
def _kernels() -> list[kernels.Kernel]:
    # Once: module-scoped fixtures are cached by the identity of their param.
    return [running_kernel()] if LOCAL else kernels.discover()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "kernel" in metafunc.fixturenames:
        ks = _kernels()
        metafunc.parametrize("kernel", ks, ids=[k.version for k in ks], scope="module")
    if "test_dev_name" in metafunc.fixturenames and TEST_DEVS:
        metafunc.parametrize("test_dev_name", TEST_DEVS,
                             ids=[d.rsplit("/", 1)[-1] for d in TEST_DEVS])


def _boot_args(module) -> dict:
    """Guest.boot's keywords for the tests of `module` (its GUEST_ARGS)."""
    boot_args = dict(getattr(module, "GUEST_ARGS", {}))
    if TEST_DEVS and not boot_args.get("nvme_size"):
        boot_args["nvme_size"] = DEVICE_NVME_SIZE  # the device lane names its namespace
    return boot_args


def _shape(item: pytest.Item) -> str | None:
    """The guest an item runs in: its kernel and its module's boot
    keywords; None for an item without the module's guest."""
    callspec = getattr(item, "callspec", None)
    kernel = callspec.params.get("kernel") if callspec else None
    if kernel is None or "_vm" not in getattr(item, "fixturenames", ()):
        return None
    return f"{kernel.name} {sorted(_boot_args(item.module).items())!r}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On this machine (KIOBENCH_LOCAL=1), only the tests marked `device`:
    whatever -m or -k say, no other test runs on someone's devices.  Then
    run the tests kernel by kernel, and a kernel's test modules grouped by
    the guest they boot (their GUEST_ARGS), each module's tests together:
    the modules of one shape share one guest (_vm), so a boot serves
    several modules (pytest's own reordering interleaves kernels when
    tests have further parameters)."""
    lone = [it.nodeid for it in items if it.get_closest_marker("api") is not None
            and (it.get_closest_marker("core") is None or it.get_closest_marker("debug") is None)]
    if lone:
        raise pytest.UsageError("marked api without both core and debug (it would run on no "
                                "kernel of 6.12's source): " + ", ".join(lone))
    if LOCAL:
        other = [it for it in items if it.get_closest_marker("device") is None]
        if other:
            config.hook.pytest_deselected(items=other)
            items[:] = [it for it in items if it.get_closest_marker("device") is not None]
    modules: dict[str, int] = {}
    shapes: dict[str | None, int] = {}
    order = {k.version: i for i, k in enumerate(_kernels())} if any(
        "kernel" in getattr(it, "fixturenames", ()) for it in items) else {}

    # a module's shape is that of its tests that take its guest; a module
    # with none is a group of its own
    of_module: dict[tuple[str, str], str] = {}
    for item in items:
        shape = _shape(item)
        if shape:
            of_module.setdefault((item.nodeid.split("::")[0], shape.split()[0]), shape)

    def key(item: pytest.Item) -> tuple[int, int, int]:
        mod = modules.setdefault(item.nodeid.split("::")[0], len(modules))
        callspec = getattr(item, "callspec", None)
        kernel = callspec.params.get("kernel") if callspec else None
        shape = of_module.get((item.nodeid.split("::")[0], kernel.name if kernel else ""))
        group = shapes.setdefault(shape or f"module {mod}", len(shapes))
        return order[kernel.version] if kernel else -1, group, mod
    items.sort(key=key)


_NEXT_SHARES = pytest.StashKey[dict]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """For each test module and kernel: whether the next module to run
    boots the same guest, which then stays up for it (see _vm)."""
    runs: list[tuple[tuple[str, str], str | None]] = []   # ((module, kernel), shape)
    for item in session.items:
        callspec = getattr(item, "callspec", None)
        kernel = callspec.params.get("kernel") if callspec else None
        run = (item.nodeid.split("::")[0], kernel.version if kernel else "")
        if not runs or runs[-1][0] != run:
            runs.append((run, None))
        if runs[-1][1] is None:     # a module's shape: that of its tests with its guest
            runs[-1] = (run, _shape(item))
    session.config.stash[_NEXT_SHARES] = {
        run: shape is not None and nxt == shape
        for (run, shape), (_, nxt) in zip(runs, runs[1:] + [(("", ""), None)])}


@pytest.fixture(scope="session")
def _images(pytestconfig: pytest.Config) -> Callable[[kernels.Kernel], Initramfs]:
    """Initramfs of a kernel, built (or found up to date) once per session."""
    built: dict[kernels.Kernel, Initramfs] = {}

    def get(kernel: kernels.Kernel) -> Initramfs:
        if kernel not in built:
            image = initramfs.build(kernel)
            if pytestconfig.getoption("require_module"):
                absent = [str(p) for p, there in ((kernel.kiobench_ko, image.module),
                                                  (initramfs.TOOL, image.tool)) if not there]
                if absent:
                    pytest.fail(f"KIOBENCH_REQUIRE_MODULE=1 but {', '.join(absent)} "
                                "not built (run make)", pytrace=False)
            built[kernel] = image
        return built[kernel]
    return get


class VM:
    """The guest of a kernel and shape, for one test module or several in
    a row (_vm); rebooted after a test left it dead, hung or splatted (not
    after a splat while booting: that one fails the first test only)."""

    def __init__(self, kernel: kernels.Kernel, image: Initramfs, workdir, boot_args: dict):
        self.kernel, self.image, self.workdir, self.boot_args = kernel, image, workdir, boot_args
        self.guest: Guest | None = None
        self.dirty = False
        self.boots = 0
        self.leaks: list[str] = []  # kmemleak reports, one per guest that had any
        self.shape = ""             # what _vm shares it by

    def get(self) -> tuple[Guest, list[Splat]]:
        """The guest, booted if needed; with the splats of its boot if it just booted."""
        if self.guest is not None and self.guest.alive and not self.dirty:
            return self.guest, []
        self.close()
        self.boots += 1
        self.guest = Guest.boot(self.kernel, image=self.image,
                                workdir=self.workdir / f"boot{self.boots}", **self.boot_args)
        self.dirty = False
        return self.guest, self.guest.scan_log(self.guest.console_text())

    def scan_leaks(self) -> None:
        """Scan for leaks (kernels with kmemleak: once per guest and test
        module, since a scan takes tens of seconds under KASAN); a report
        is kept in self.leaks, and cleared in the guest."""
        if self.guest is not None and self.guest.alive:
            try:
                leaks = self.guest.kmemleak()
            except GuestError as e:
                leaks = f"kmemleak scan failed: {e}"
            if leaks:
                self.leaks.append(leaks)

    def close(self, scan: bool = True) -> None:
        """Scan for leaks (unless the module's end just did), then shut
        the guest down."""
        if self.guest is not None:
            if scan:
                self.scan_leaks()
            self.guest.shutdown()
            self.guest = None

    def next_module(self) -> None:
        """A test module that shares this guest starts: it gets an empty
        /tmp, as after a boot (what the last module's tests left there)."""
        if self.guest is not None and self.guest.alive and not self.dirty:
            try:
                self.guest.check("rm -rf /tmp/* /tmp/.[!.]*; true")
            except GuestError:
                self.dirty = True


class LocalVM:
    """This machine in place of a module's guest (KIOBENCH_LOCAL=1): never
    rebooted, nothing to shut down."""

    def __init__(self, kernel: kernels.Kernel):
        self.kernel = kernel
        self.machine = Local(kernel)
        self.image = self.machine.initramfs
        self.dirty = False
        self.leaks: list[str] = []

    def get(self) -> tuple[Local, list[Splat]]:
        return self.machine, []

    def close(self) -> None:
        pass


@pytest.fixture(scope="session")
def _shared() -> Iterator[dict]:
    """{"vm": the guest the last test module left up for the next, which
    boots the same shape on the same kernel}; shut down at the end."""
    shared: dict = {"vm": None}
    yield shared
    if shared["vm"] is not None:
        shared["vm"].close(scan=False)


@pytest.fixture(scope="module")
def _vm(kernel: kernels.Kernel, _images, _shared: dict, request: pytest.FixtureRequest,
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[VM]:
    """The guest of a test module on a kernel: the one the module before
    left up when it boots the same shape (the same GUEST_ARGS; see
    pytest_collection_modifyitems), else a new one.  kmemleak is scanned
    at every module's end, so that a leak fails the module that made it."""
    if LOCAL:
        yield LocalVM(kernel)
        return
    name = re.sub(r"\W", "_", request.module.__name__)
    boot_args = _boot_args(request.module)
    shape = f"{kernel.name} {sorted(boot_args.items())!r}"
    vm = _shared["vm"]
    _shared["vm"] = None
    if vm is not None and vm.shape != shape:
        vm.close(scan=False)
        vm = None
    if vm is None:
        vm = VM(kernel, _images(kernel), tmp_path_factory.mktemp(f"{name}-{kernel.version}"),
                boot_args)
        vm.shape = shape
    else:
        vm.next_module()
    yield vm
    vm.scan_leaks()
    run = (request.node.nodeid, kernel.version)
    if request.config.stash.get(_NEXT_SHARES, {}).get(run):
        _shared["vm"] = vm
    else:
        vm.close(scan=False)
    if vm.leaks:
        leaks, vm.leaks = vm.leaks, []
        pytest.fail(f"kmemleak reports in {request.module.__name__} on {kernel.name}:\n"
                    + "\n".join(leaks), pytrace=False)


class GuestCheck:
    """Kernel-log bookkeeping of one test: marker, expected splats, findings."""

    def __init__(self, vm: VM, guest: Guest, nodeid: str, expect: str | None,
                 tolerate: str | None = None):
        self.vm, self.guest, self.nodeid, self.expect = vm, guest, nodeid, expect
        self.tolerate = tolerate
        self.marker = guest.dmesg_mark(f"begin {nodeid}")
        self.death_reported = False

    def problems(self, phase: str) -> str | None:
        """What went wrong in the kernel since the marker (None: nothing);
        moves the marker on.  In the call phase, also enforces expect_splat."""
        g = self.guest
        if not g.alive:
            self.vm.dirty = True
            if self.death_reported:
                return None
            self.death_reported = True
            splats = g.scan_log(g.dmesg_since(self.marker))
            return (f"the guest died or hung during the test ({phase}); console: {g.console_log}"
                    + "".join(f"\n\n{s}" for s in splats))
        text, self.marker = g.dmesg_next(self.marker, f"after {phase} {self.nodeid}")
        splats = [s for s in g.scan_log(text)
                  if not (self.tolerate and re.search(self.tolerate, s.text))]
        msgs = []
        if phase == "call" and self.expect:
            expected = [s for s in splats if re.search(self.expect, s.text)]
            splats = [s for s in splats if s not in expected]
            if expected:  # a tainted kernel (lockdep off, say) is no base for the next test
                self.vm.dirty = True
            else:
                msgs.append(f"expected a kernel splat matching {self.expect!r}, saw none")
        if splats:
            self.vm.dirty = True
            msgs.append(f"{len(splats)} kernel splat(s) during the test ({phase}):"
                        + "".join(f"\n\n{s}" for s in splats))
        return "\n".join(msgs) or None


@pytest.fixture
def guest(_vm: VM, request: pytest.FixtureRequest) -> Iterator[Guest]:
    """The module's guest for this kernel; the test fails on kernel splats."""
    # A test that will skip for want of kiobench skips before any boot.
    if "kiobench_module" in request.fixturenames:
        _need(_vm.image.module, str(_vm.kernel.kiobench_ko), request)
    if "kiobench_tool" in request.fixturenames:
        _need(_vm.image.tool, str(initramfs.TOOL), request)
    g, boot_splats = _vm.get()
    if boot_splats:  # reported once, by the first test of this boot
        pytest.fail(f"kernel splat(s) while booting {_vm.kernel.name}:"
                    + "".join(f"\n\n{s}" for s in boot_splats), pytrace=False)
    marker = request.node.get_closest_marker("expect_splat")
    tolerate = request.node.get_closest_marker("tolerate_splat")
    check = GuestCheck(_vm, g, request.node.nodeid, marker.args[0] if marker else None,
                       tolerate.args[0] if tolerate else None)
    request.node.stash[_CHECK] = check
    yield g
    # Fixtures using the guest (devices, modules) are torn down by now.
    problem = check.problems("teardown")
    if problem:
        pytest.fail(problem, pytrace=False)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):
    outcome = yield
    check = item.stash.get(_CHECK, None)
    if check is None:
        return
    try:
        problem = check.problems("call")
    except GuestError as e:
        problem = str(e)
    if problem is None:
        return
    if outcome.excinfo is None:
        pytest.fail(problem, pytrace=False)  # fails the test itself
    item.add_report_section("call", "kernel", problem)


@pytest.fixture
def own_guest(kernel: kernels.Kernel, _images, tmp_path) -> Iterator[Callable[..., Guest]]:
    """own_guest(**boot_args) -> a guest of this test alone (one it may
    crash, say), without the splat checks of `guest`; shut down after.
    boot_args may name another image (image=initramfs.build(...))."""
    if LOCAL:
        pytest.fail("own_guest on a real machine: only tests marked device run there",
                    pytrace=False)
    booted: list[Guest] = []

    def boot(**kw) -> Guest:
        kw.setdefault("image", _images(kernel))
        g = Guest.boot(kernel, workdir=tmp_path / f"boot{len(booted)}", **kw)
        booted.append(g)
        return g
    yield boot
    for g in booted:
        g.shutdown()


@pytest.fixture
def make_nullb(guest: Guest) -> Iterator[Callable[..., str]]:
    """make_nullb(name, **kw) -> /dev/nullbN (see vm.targets.nullb); the
    devices are removed after the test."""
    if LOCAL:
        pytest.fail("make_nullb on a real machine: a test marked device takes test_dev",
                    pytrace=False)
    names: list[str] = []

    def make(name: str, **kw) -> str:
        dev = nullb(guest, name, **kw)
        names.append(name)
        return dev
    yield make
    if guest.alive:
        for name in reversed(names):
            remove_nullb(guest, name)


def _need(image_has: str | None, what: str, request: pytest.FixtureRequest) -> str:
    if image_has is None:
        if request.config.getoption("require_module"):
            pytest.fail(f"{what} is not built (KIOBENCH_REQUIRE_MODULE=1)", pytrace=False)
        pytest.skip(f"{what} is not built (run make)")
    return image_has


@pytest.fixture
def kiobench_module(guest: Guest, request: pytest.FixtureRequest) -> Iterator[str]:
    """kiobench.ko loaded in the guest (its guest path); unloaded after the
    test.  On this machine (KIOBENCH_LOCAL=1): the module tests/check-device
    loaded for the whole run."""
    if LOCAL:
        if guest.run("test -d /sys/module/kiobench").ok:
            yield "kiobench"
            return
        pytest.fail("kiobench is not loaded (tests/check-device loads it)", pytrace=False)
    path = _need(guest.initramfs.module, str(guest.kernel.kiobench_ko), request)
    guest.check("modprobe kiobench")
    yield path
    if guest.alive:
        guest.check("rmmod kiobench")


@pytest.fixture
def kiobench_tool(guest: Guest, request: pytest.FixtureRequest) -> str:
    """Guest path of the kiobench tool."""
    return _need(guest.initramfs.tool, str(initramfs.TOOL), request)


# ---- the device of a read-only test ---------------------------------------------

@pytest.fixture
def test_dev_name() -> str | None:
    """The device named for this test ($KIOBENCH_TEST_DEVS; pytest_generate_tests
    parametrizes it, one run per device), or None: the test makes its own."""
    return None


@pytest.fixture
def test_dev(guest: Guest, test_dev_name: str | None,
             request: pytest.FixtureRequest) -> Iterator[str]:
    """The block device of a test marked `device`, which only reads it: the
    named one ($KIOBENCH_TEST_DEVS), else a new 64 MiB memory-backed
    null_blk /dev/nullb0 (removed after the test).  The test fails if the
    device's write or discard count moved while it ran."""
    if request.node.get_closest_marker("device") is None:
        pytest.fail("test_dev is for tests marked device (read-only)", pytrace=False)
    made = test_dev_name is None
    if made:
        dev = nullb(guest, "nullb0", size_mb=64)
    else:
        dev = test_dev_name
        if not LOCAL:  # the guest's emulated NVMe: its driver is a module
            guest.run("modprobe -q nvme")
        try:
            wait_block(guest, dev)
        except GuestError as e:
            pytest.fail(f"KIOBENCH_TEST_DEVS: {dev} is not a block device here:\n{e}",
                        pytrace=False)
    before = write_counts(guest, dev)
    yield dev
    if guest.alive:
        after = write_counts(guest, dev)
        if made:
            remove_nullb(guest, "nullb0")
        if after != before:
            pytest.fail(f"{dev} was written during a read-only (device) test: "
                        f"writes, discards {before} -> {after}", pytrace=False)


# ---- time budgets ------------------------------------------------------------

_TIMES = pytest.StashKey[dict]()


def budget(item: pytest.Item) -> float:
    """The call phase's budget of `item` in seconds, on its kernel."""
    mark = item.get_closest_marker("budget")
    seconds = float(mark.args[0]) if mark else DEFAULT_BUDGET
    callspec = getattr(item, "callspec", None)
    kernel = callspec.params.get("kernel") if callspec else None
    if kernel is not None and kernel.has("KASAN"):
        seconds *= DEBUG_SLOWDOWN
    return seconds


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    outcome = yield
    report = outcome.get_result()
    times = item.config.stash[_TIMES]
    entry = times.setdefault(item.nodeid, {"budget": budget(item), "outcome": "passed"})
    entry[report.when] = round(report.duration, 3)
    if report.failed:
        entry["outcome"] = "failed" if report.when == "call" else "error"
    elif report.skipped and entry["outcome"] == "passed":
        entry["outcome"] = "skipped"


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    times = config.stash.get(_TIMES, {})
    over = over_budget(times)
    if over:
        terminalreporter.section("over their time budget")
        for nodeid, took, limit in over:
            terminalreporter.line(f"{took:7.1f} s  budget {limit:5.0f} s  {nodeid}")
    path = os.environ.get("KIOBENCH_TIMES")
    if path:
        with open(path, "w") as f:
            json.dump(times, f, indent=1)
