"""A QEMU (TCG) guest running one of the kernels under test.

    with Guest.boot(kernel, nvme_size=1 << 30) as g:
        print(g.check("uname -r"))

Guest shapes beyond the default (see tests/README.md, "Lanes"): NVMe
namespaces with the features a test needs (Nvme, Zoned: discard, a
volatile write cache and FUA, ZNS, the number of I/O queues), more CPUs
(smp), and SSH from the host (ssh=True, vm/ssh.py).

The guest runs tests/vm/init, whose agent executes the host's commands on a
virtio-serial port; the kernel log goes to the serial console, which QEMU
writes to <workdir>/console.log.  Every wait is bounded: a command that
overruns its timeout is killed in the guest (CommandTimeout), a guest that
stops answering is declared hung (GuestHung) and one whose QEMU exited
(panic, poweroff) dead (GuestDied); QEMU is always killed at shutdown.
"""
from __future__ import annotations

import base64
import ctypes
import os
import select
import shlex
import shutil
import signal
import socket
import sys
import subprocess
import tempfile
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from . import initramfs as initramfs_mod
from . import ssh as ssh_mod
from .initramfs import Initramfs
from .kernels import CACHE, Kernel
from .splat import Splat, scan_log

AGENT_PORT = "org.kiobench.agent"
MARK_PREFIX = "kiobench-mark"
# Seconds the host waits beyond a command's own timeout before declaring the
# guest hung (Guest.grace): the agent's fork/base64 work is slow under TCG.
GRACE = 30
# acpi=noirq: evaluating the PIIX's _PRT under TCG outruns ACPICA's loop
# timeout on the debug kernel (7 s lost, "AE_AML_LOOP_TIMEOUT"); the devices
# the tests use (virtio, NVMe) interrupt through MSI-X anyway.
# trace_options=norecord-cmd: with record-cmd (the default), enabling any
# trace event also hooks sched_switch, which live-patches __schedule() while
# the other vCPU runs it; TCG once ran a stale translation holding the
# patch's int3 after the patch was done ("Oops: int3" in __schedule on the
# RT kernel, as a test enabled a scsi event).  The tests read no comms.
# tsc=reliable: no clocksource watchdog.  On a loaded host the watchdog once
# found TCG's TSC skewed against its HPET and marked it unstable, 76 s into
# a polled NVMe test; that flips the sched_clock_stable static key, whose
# live patch hit the same stale int3 on both vCPUs ("Oops: int3" in
# sched_clock_tick, CI of stop 37).  An unstable TSC would also move
# ktime_get() to the HPET, an MMIO read, in the middle of a measurement.
# TCG's TSC is the host's, the same on every vCPU.
CMDLINE = ("console=ttyS0 loglevel=7 printk.devkmsg=on log_buf_len=8M panic=-1 "
           "panic_on_warn=0 null_blk.nr_devices=0 acpi=noirq trace_options=norecord-cmd "
           "tsc=reliable")


@dataclass(frozen=True)
class Zoned:
    """A zoned namespace (QEMU's ZNS, nvme-ns zoned.*).  Sizes in bytes;
    0 is QEMU's default: capacity = zone size, no open or active limit."""
    zone_size: int = 16 << 20
    zone_capacity: int = 0
    max_open: int = 0
    max_active: int = 0


# QEMU 10 (bookworm-backports), unpacked by tests/install-deps.sh beside the
# kernels and never installed: guests with an FDP or a PI namespace boot it
# (QEMU 7.2 has no Flexible Data Placement), and guests that ask for it
# (boot's qemu10): QEMU 7.2's multi-threaded TCG runs stale code after the
# kernel patches its text, so a static key flipped while another CPU runs
# the site (a tracepoint's first probe attached under I/O) ends in
# "Oops: int3" on 6.12 within a second; QEMU 10 does not (fio alone, 200
# block tracepoint toggles in tracefs: an oops at once on 7.2, none on
# 10, none on 7.2 with thread=single).  Every other guest, and every timing,
# stays on the host's QEMU 7.2.
QEMU10 = CACHE / "qemu-10" / "root"


def qemu10() -> tuple[list[str], dict[str, str]]:
    """The command line's start and the environment for QEMU 10: its own
    data directory first (-L; the host's /usr/share/qemu, where seabios'
    BIOS is, stays the default after it), its own libraries if it brought
    any."""
    binary = QEMU10 / "usr/bin/qemu-system-x86_64"
    if not binary.exists():
        raise GuestError(f"{binary} missing: FDP guests need QEMU 10 (tests/install-deps.sh)")
    env = dict(os.environ)
    libs = QEMU10 / "usr/lib/x86_64-linux-gnu"
    if libs.is_dir():
        env["LD_LIBRARY_PATH"] = ":".join(filter(None, [str(libs), env.get("LD_LIBRARY_PATH")]))
    return [str(binary), "-L", str(QEMU10 / "usr/share/qemu")], env


@dataclass(frozen=True)
class Fdp:
    """Flexible Data Placement (QEMU 10's nvme-subsys fdp.*, one endurance
    group): `runs` bytes a reclaim unit, `nrg` reclaim groups, `nruh`
    reclaim unit handles; the namespace takes the handles `ruhs` (QEMU's
    list, "0;1;2;3"; placement handle i is the list's i-th), which the
    kernel offers as write streams 1..len (max_write_streams)."""
    nruh: int = 4
    ruhs: str = "0;1;2;3"
    runs: int = 1 << 20
    nrg: int = 1


@dataclass(frozen=True)
class Nvme:
    """One emulated NVMe controller with one namespace (nsid 1) on a sparse
    raw image of `size` bytes, for Guest.boot(nvme=[...]).

    QEMU 7.2's controller always offers DSM (discard), write zeroes and a
    volatile write cache (hence flushes and FUA): its `write-cache`
    property only changes how QEMU writes its image.  discard makes a
    DSM deallocate in the image (drive discard=unmap,
    detect-zeroes=unmap), so that discarded blocks read back as zeroes;
    without it QEMU completes the DSM and keeps the data.  zoned: a ZNS
    namespace.  max_ioqpairs: the controller's I/O queue pairs (default
    QEMU's 64; the kernel uses one per CPU up to that).  fdp: an FDP
    namespace in a subsystem of its own (nvme-subsys kiobench-subsys<i>);
    the guest then runs QEMU 10 (qemu10()), and the kernel names the
    namespace after the subsystem (targets.nvme_dev finds it).  pi: end-to-end
    protection information of that type (1-3; 0: none) in 8 bytes of
    metadata a 512-byte block, in a buffer of its own (ms=8, mset=0: the
    Linux driver takes no extended LBAs), a 16-bit CRC guard (pif=0); the
    kernel registers it as the disk's integrity profile (T10-DIF-TYPE1-CRC
    for type 1).  A guest with one also runs QEMU 10.  lbs: the
    namespace's logical (and physical) block size, 512 or 4096; with pi,
    its protection interval."""
    size: int
    discard: bool = False
    zoned: Zoned | None = None
    max_ioqpairs: int | None = None
    fdp: Fdp | None = None
    pi: int = 0
    lbs: int = 512

    def qemu_args(self, i: int, img: Path) -> list[str]:
        drive = f"file={img},if=none,id=nvme{i},format=raw,cache=unsafe"
        if self.discard:
            drive += ",discard=unmap,detect-zeroes=unmap"
        ctrl = f"nvme,id=nvmec{i},serial=kiobench{i}"
        subsys = []
        if self.fdp is not None:
            f = self.fdp
            subsys = ["-device", f"nvme-subsys,id=nvmes{i},nqn=kiobench-subsys{i},fdp=on,"
                                 f"fdp.runs={f.runs},fdp.nrg={f.nrg},fdp.nruh={f.nruh}"]
            ctrl += f",subsys=nvmes{i}"
        if self.max_ioqpairs is not None:
            ctrl += f",max_ioqpairs={self.max_ioqpairs}"
        ns = f"nvme-ns,bus=nvmec{i},drive=nvme{i},nsid=1"
        z = self.zoned
        if z is not None:
            ns += f",zoned=true,zoned.zone_size={z.zone_size}"
            ns += "".join(f",zoned.{k}={v}" for k, v in (
                ("zone_capacity", z.zone_capacity), ("max_open", z.max_open),
                ("max_active", z.max_active)) if v)
        if self.fdp is not None:
            ns += f",fdp.ruhs={self.fdp.ruhs}"
        if self.lbs != 512:
            ns += f",logical_block_size={self.lbs},physical_block_size={self.lbs}"
        if self.pi:
            ns += f",ms=8,mset=0,pi={self.pi},pif=0,pil=0"
        return [*subsys, "-drive", drive, "-device", ctrl, "-device", ns]


class GuestError(Exception):
    """The guest failed; the message carries the end of the console log."""


class GuestDied(GuestError):
    """QEMU exited (kernel panic, poweroff) or the agent connection broke."""


class GuestHung(GuestError):
    """The agent did not answer within the command's timeout plus GRACE."""


@dataclass(frozen=True)
class Result:
    rc: int
    out: str  # stdout and stderr, interleaved as written

    @property
    def ok(self) -> bool:
        return self.rc == 0


class CommandFailed(GuestError):
    def __init__(self, cmd: str, result: Result, why: str = ""):
        self.cmd, self.result = cmd, result
        super().__init__(f"guest command {why or f'exited {result.rc}'}: {cmd}\n"
                         f"--- output ---\n{result.out}")


class CommandTimeout(CommandFailed):
    """The guest killed the command at its timeout; the guest is still usable."""


def _pdeathsig() -> None:
    """In the child: die (SIGTERM, forwarded to QEMU by timeout) with the parent."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Guest:
    def __init__(self, kernel: Kernel, image: Initramfs, workdir: Path):
        self.kernel = kernel
        self.initramfs = image
        self.workdir = workdir
        self.console_log = workdir / "console.log"
        self.qemu_log = workdir / "qemu.log"
        self.alive = False
        self.boot_seconds = 0.0
        self.ssh_port: int | None = None  # host port forwarded to the guest's sshd
        self.grace = GRACE
        self._proc: subprocess.Popen | None = None
        self._sock: socket.socket | None = None
        self._sockdir = Path(tempfile.mkdtemp(prefix="kiobench-agent-"))
        self._lines: deque[bytes] = deque()  # complete lines from the agent
        self._partial = b""  # and the start of the next one
        self._seq = 0
        self._marks: dict[str, int] = {}  # marker -> console.log size when written
        self._own_workdir = False  # made by boot(): removed at shutdown
        self._has_kmemleak: bool | None = None

    # -- lifecycle ---------------------------------------------------------

    @classmethod
    def boot(cls, kernel: Kernel, *, image: Initramfs | None = None, workdir: Path | None = None,
             mem: str = "2G", smp: int = 2, nvme_size: int | None = None,
             nvme_sizes: Sequence[int] = (), nvme: Sequence[Nvme] = (),
             ssh: bool = False, hostname: str | None = None,
             extra_qemu_args: Sequence[str] = (), qemu10: bool = False,
             append: str = "", boot_timeout: float = 180, lifetime: int = 3600) -> "Guest":
        """Start QEMU and wait until the agent answers.

        nvme_size adds one emulated NVMe controller with a sparse raw image of
        that many bytes; nvme_sizes adds one controller per entry (after it);
        nvme adds one per Nvme (after those), with the features it names.
        Controller i has serial kiobench<i> (see targets.nvme_dev).
        ssh=True gives the guest a NIC on QEMU's user network, isolated,
        with sshd reachable from the host on 127.0.0.1:<guest.ssh_port>
        (vm/ssh.py); hostname names the guest (default kiobench-guest).
        qemu10=True boots QEMU 10 whatever the devices (see QEMU10).
        The whole QEMU process lives at most `lifetime` seconds."""
        image = image or initramfs_mod.build(kernel)
        own = workdir is None
        workdir = Path(workdir or tempfile.mkdtemp(prefix="kiobench-vm-"))
        if hostname:
            append = f"{append} kiobench_hostname={hostname}"
        if ssh:
            append = f"{append} kiobench_ssh={ssh_mod.public_blob()}"
        for attempt in (1, 2):
            workdir.mkdir(parents=True, exist_ok=True)
            g = cls(kernel, image, workdir)
            g._own_workdir = own
            extra = list(extra_qemu_args)
            if ssh:
                g.ssh_port = ssh_mod.free_port()
                extra += ["-netdev", f"user,id=net0,restrict=on,"
                                     f"hostfwd=tcp:127.0.0.1:{g.ssh_port}-:22",
                          "-device", "virtio-net-pci,netdev=net0"]
            try:
                g._start(mem, smp, [*([nvme_size] if nvme_size else []), *nvme_sizes],
                         list(nvme), extra, append, boot_timeout, lifetime, qemu10)
            except GuestDied as e:
                g.shutdown()
                # The free port was taken before QEMU bound it: another one.
                if attempt == 1 and ssh and "hostfwd" in str(e):
                    continue
                # Debian's 6.12-rt once panicked in its own init under TCG
                # (sched_clock_cpu, before any module of ours is loaded:
                # modules load after the agent answers).  Boot again, once,
                # and say so; a second panic fails the test.
                if attempt == 1 and "Kernel panic" in str(e):
                    print(f"warning: {kernel.name} panicked while booting, before any "
                          f"test ran; booting again", file=sys.stderr, flush=True)
                    continue
                raise
            except BaseException:
                g.shutdown()
                raise
            return g
        raise AssertionError("unreachable")

    def _start(self, mem: str, smp: int, nvme: list[int], spec: list[Nvme],
               extra: Sequence[str], append: str, boot_timeout: float, lifetime: int,
               qemu10_wanted: bool = False) -> None:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        path = str(self._sockdir / "agent.sock")
        listener.bind(path)
        listener.listen(1)
        # la57=off: with 5-level paging, an interrupt that lands while
        # identify_cpu() re-reads the CPU's features (LA57 briefly unset,
        # alternatives not yet patched) makes 6.12's KASAN take the direct
        # map for a wild access: a splat at 0.003 s in some debug boots.
        #
        # cx16=off under QEMU 7.2, whose CMPXCHG16B takes its starting flags
        # from a stale condition-code state: RFLAGS can hold the low half of
        # a register (NT, AC, reserved bits), which an interrupt saves and
        # IRET restores.  It runs in SLUB's fast path; a 6.12 guest died of
        # a double fault in kmalloc of it.  Without the feature the kernel
        # emulates the exchange (pushf, cli, compare, popf).  QEMU 10 is
        # right.  vm/cx16probe.c shows which; test_harness.py runs it.
        qemu, env, cpu = ["qemu-system-x86_64"], None, "max,la57=off"
        if qemu10_wanted or any(c.fdp is not None or c.pi for c in spec):
            qemu, env = qemu10()
        else:
            cpu += ",cx16=off"
        args = ["timeout", "--kill-after=10", str(lifetime),
                *qemu, "-accel", "tcg,thread=multi", "-cpu", cpu,
                "-smp", str(smp), "-m", mem, "-nographic", "-no-reboot", "-nodefaults",
                "-serial", f"file:{self.console_log}",
                "-kernel", str(self.kernel.vmlinuz), "-initrd", str(self.initramfs.path),
                "-append", f"{CMDLINE} {append}".strip(),
                "-device", "virtio-serial-pci,id=vser0",
                "-chardev", f"socket,id=agent,path={path}",
                "-device", f"virtserialport,bus=vser0.0,chardev=agent,name={AGENT_PORT}"]
        for i, size in enumerate(nvme):
            img = self.workdir / f"nvme{i}.img"
            with open(img, "wb") as f:
                f.truncate(size)
            args += ["-drive", f"file={img},if=none,id=nvme{i},format=raw,cache=unsafe",
                     "-device", f"nvme,serial=kiobench{i},drive=nvme{i}"]
        for i, ctrl in enumerate(spec, len(nvme)):
            img = self.workdir / f"nvme{i}.img"
            with open(img, "wb") as f:
                f.truncate(ctrl.size)
            args += ctrl.qemu_args(i, img)
        args += list(extra)
        (self.workdir / "qemu.cmd").write_text(shlex.join(args) + "\n")
        start = time.monotonic()
        with open(self.qemu_log, "wb") as qlog:
            self._proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=qlog,
                                          stderr=subprocess.STDOUT, process_group=0,
                                          preexec_fn=_pdeathsig, env=env)
        self.alive = True
        listener.settimeout(0.5)
        try:
            while self._sock is None:
                try:
                    self._sock, _ = listener.accept()
                except socket.timeout:
                    self._check_running("QEMU exited before connecting the agent")
                    if time.monotonic() - start > boot_timeout:
                        raise self._hung(f"QEMU did not connect the agent in {boot_timeout} s")
        finally:
            listener.close()
        self._sock.setblocking(False)
        line = self._readline(start + boot_timeout, f"no READY from the guest in {boot_timeout} s")
        if not line.startswith("READY "):
            raise self._hung(f"unexpected first line from the agent: {line!r}")
        self.boot_seconds = time.monotonic() - start

    def ssh(self, cmd: str, timeout: float = 60) -> subprocess.CompletedProcess:
        """Run `cmd` in the guest through its sshd (boot(ssh=True)), from
        the host's ssh client; its exit status and output (text)."""
        if self.ssh_port is None:
            raise GuestError(f"guest of {self.kernel.name} was booted without ssh=True")
        return subprocess.run(ssh_mod.argv(self.ssh_port, cmd), capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)

    def collect_gcov(self, into: Path) -> int:
        """Copy the guest's gcov counts (/sys/kernel/debug/gcov: kiobench.ko's,
        built with KIOBENCH_GCOV) into a new directory under `into`, the
        guest's paths kept; the number of .gcda files (0: none, or no gcov).
        debugfs gives each file's size as 0, so each is read with cat."""
        script = ("d=/sys/kernel/debug/gcov; [ -d $d ] || exit 0; t=/tmp/.gcov; rm -rf $t; "
                  "cd $d && find . -name '*.gcda' | while read -r f; do "
                  "mkdir -p \"$t/${f%/*}\" && cat \"$f\" >\"$t/$f\" || exit 1; done && "
                  "[ -d $t ] && tar -czf - -C $t . | base64; rm -rf $t")
        r = self.run(script, timeout=120)
        if not r.ok:
            raise GuestError(f"gcov counts not read: {r.out[-400:]}")
        data = base64.b64decode("".join(r.out.split()))
        if not data:
            return 0
        into.mkdir(parents=True, exist_ok=True)
        out = Path(tempfile.mkdtemp(prefix=f"{self.kernel.name}-", dir=into))
        subprocess.run(["tar", "-xzf", "-", "-C", str(out)], input=data, check=True)
        return sum(1 for _ in out.rglob("*.gcda"))

    def shutdown(self, timeout: float = 20) -> None:
        """Power the guest off; kill QEMU if it has not exited after `timeout` s.
        Deletes the NVMe images, and the workdir if boot() made it; keeps
        the console log of a workdir given to boot().  With $KIOBENCH_GCOV_DIR
        set, a guest still answering gives its gcov counts first (collect_gcov)."""
        if self._proc is not None:
            gcov_dir = os.environ.get("KIOBENCH_GCOV_DIR")
            if gcov_dir and self.alive and self._sock is not None:
                try:
                    self.collect_gcov(Path(gcov_dir))
                except (GuestError, subprocess.CalledProcessError, ValueError) as e:
                    print(f"guest: {self.kernel.name}: gcov counts lost: {e}", file=sys.stderr)
            if self.alive and self._sock is not None:
                try:
                    self._send("poweroff -f", 5)
                except GuestError:
                    pass
            try:
                self._proc.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
            self.kill()
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        shutil.rmtree(self._sockdir, ignore_errors=True)
        for img in self.workdir.glob("nvme*.img"):
            img.unlink()
        if self._own_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def kill(self) -> None:
        """Kill QEMU at once."""
        self.alive = False
        if self._proc is not None and self._proc.poll() is None:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._proc.wait()

    def freeze(self) -> None:
        """Stop QEMU (SIGSTOP), as if the guest hung: for tests of the harness."""
        assert self._proc is not None
        os.killpg(self._proc.pid, signal.SIGSTOP)

    def __enter__(self) -> "Guest":
        return self

    def __exit__(self, *exc) -> None:
        self.shutdown()

    # -- commands ----------------------------------------------------------

    def run(self, cmd: str, timeout: float = 60) -> Result:
        """Run `cmd` with /bin/sh -c in the guest; its exit status and output.

        Raises CommandTimeout if the guest had to kill it at `timeout`,
        GuestHung/GuestDied if the guest stops answering or dies.  With
        $KIOBENCH_CMD_LOG set, a line per command is appended to that
        file: its seconds, the test (pytest's) and the command, where a
        lane's time goes."""
        if not self.alive:
            raise GuestDied(f"guest of {self.kernel.name} is not running")
        if os.environ.get("KIOBENCH_CMD_LOG"):
            t0 = time.monotonic()
            try:
                return self._run(cmd, timeout)
            finally:
                with open(os.environ["KIOBENCH_CMD_LOG"], "a") as f:
                    test = os.environ.get("PYTEST_CURRENT_TEST", "?").split(" ")[0]
                    f.write(f"{time.monotonic() - t0:.2f}\t{test}\t{cmd[:300]!r}\n")
        return self._run(cmd, timeout)

    def _run(self, cmd: str, timeout: float) -> Result:
        seq = self._send(cmd, timeout)
        deadline = time.monotonic() + timeout + self.grace
        why = f"no answer to {cmd!r} within {timeout} + {self.grace} s"
        while self._readline(deadline, why) != f"BEGIN {seq}":
            pass  # the rest of an answer we stopped waiting for
        chunks = []
        while not (line := self._readline(deadline, why)).startswith(f"END {seq} "):
            chunks.append(line)
        _, _, rc, timed_out = line.split()
        out = base64.b64decode("".join(chunks)).decode(errors="replace")
        result = Result(int(rc), out)
        if timed_out == "1":
            raise CommandTimeout(cmd, result, f"killed after {timeout} s")
        return result

    def check(self, cmd: str, timeout: float = 60) -> str:
        """Run `cmd`; its output, or CommandFailed (with the output) unless it exits 0."""
        result = self.run(cmd, timeout)
        if not result.ok:
            raise CommandFailed(cmd, result)
        return result.out

    def _send(self, cmd: str, timeout: float) -> int:
        assert self._sock is not None
        self._seq += 1
        line = f"{self._seq} {timeout:g} {base64.b64encode(cmd.encode()).decode()}\n"
        self._sock.settimeout(10)
        try:
            self._sock.sendall(line.encode())
        except OSError as e:
            raise self._hung(f"cannot send to the agent: {e}") from e
        finally:
            self._sock.setblocking(False)
        return self._seq

    def _readline(self, deadline: float, why: str) -> str:
        assert self._sock is not None
        while not self._lines:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._hung(why)
            ready, _, _ = select.select([self._sock], [], [], min(left, 0.5))
            if not ready:
                self._check_running("QEMU exited")
                continue
            data = self._sock.recv(1 << 20)
            if not data:
                self._check_running("the agent connection closed")
                raise self._died("the agent connection closed")
            *lines, self._partial = (self._partial + data).split(b"\n")
            self._lines.extend(lines)
        return self._lines.popleft().decode(errors="replace")

    def _check_running(self, why: str) -> None:
        assert self._proc is not None
        if self._proc.poll() is not None:
            raise self._died(f"{why} (QEMU exit status {self._proc.returncode})")

    def _died(self, why: str) -> GuestDied:
        self.kill()
        return GuestDied(self._report(why))

    def _hung(self, why: str) -> GuestHung:
        self.kill()
        return GuestHung(self._report(why))

    def _report(self, why: str) -> str:
        """What a dead or hung guest left: its first kernel splats whole
        (the first names the fault: an oops's header is more than 60
        lines above a panic's end), then the console's last lines; the
        console's file is in pytest's temporary directory, which later
        runs recycle."""
        text = self.console_text()
        splats = "".join(f"\n--- kernel splat ---\n{s}" for s in self.scan_log(text)[:3])
        tail = "\n".join(text.splitlines()[-60:])
        qemu = self.qemu_log.read_text(errors="replace").strip() if self.qemu_log.exists() else ""
        return (f"{self.kernel.name}: {why}{splats}\n--- console ({self.console_log}), "
                f"last lines ---\n{tail}" + (f"\n--- qemu ---\n{qemu}" if qemu else ""))

    # -- kernel log --------------------------------------------------------

    def console_text(self, offset: int = 0) -> str:
        """The serial console (kernel log) from byte `offset` on."""
        try:
            with open(self.console_log, "rb") as f:
                f.seek(offset)
                return f.read().decode(errors="replace").replace("\r\n", "\n")
        except FileNotFoundError:
            return ""

    def dmesg_mark(self, name: str) -> str:
        """Write a unique marker line to the kernel log; returns the marker."""
        marker = f"{MARK_PREFIX} {len(self._marks) + 1} {name}"
        self._marks[marker] = self.console_log.stat().st_size if self.console_log.exists() else 0
        self.check(f"echo {shlex.quote(marker)} >/dev/kmsg")
        return marker

    def dmesg_since(self, marker: str) -> str:
        """Kernel log after `marker`: from dmesg while the guest lives and the
        marker is still in the ring buffer, else from the console log."""
        if self.alive:
            res = self.run("dmesg | awk -v m=" + shlex.quote(marker) +
                           " 'f { print } index($0, m) { f = 1 } END { exit !f }'")
            if res.ok:
                return res.out
        return self.console_text(self._marks.get(marker, 0))

    def dmesg_next(self, marker: str, name: str) -> tuple[str, str]:
        """dmesg_since(marker), then dmesg_mark(name), in one command (one
        round trip to the agent instead of two, for every phase of every
        test): the new marker is written first and the text is the log
        between the two, so nothing logged meanwhile is lost or read
        twice.  Returns (text, the new marker)."""
        if not self.alive:
            return self.dmesg_since(marker), self.dmesg_mark(name)
        new = f"{MARK_PREFIX} {len(self._marks) + 1} {name}"
        self._marks[new] = self.console_log.stat().st_size if self.console_log.exists() else 0
        res = self.run(f"echo {shlex.quote(new)} >/dev/kmsg || exit 2; dmesg | awk -v m="
                       + shlex.quote(marker) + " -v n=" + shlex.quote(new)
                       + " 'index($0, n) { exit } f { print } index($0, m) { f = 1 }"
                         " END { exit !f }'")
        if res.rc == 2:
            raise CommandFailed(f"echo {new} >/dev/kmsg", res)
        return (res.out if res.ok else self.console_text(self._marks.get(marker, 0))), new

    @staticmethod
    def scan_log(text: str) -> list[Splat]:
        """The kernel splats in `text` (see splat.py)."""
        return scan_log(text)

    def kmemleak(self) -> str | None:
        """Trigger a kmemleak scan; the leak report (then cleared), or None
        when the kernel has no kmemleak."""
        if self._has_kmemleak is None:
            self._has_kmemleak = self.run("test -e /sys/kernel/debug/kmemleak").ok
        if not self._has_kmemleak:
            return None
        return self.check("k=/sys/kernel/debug/kmemleak; echo scan >$k && cat $k && echo clear >$k",
                          timeout=600)
