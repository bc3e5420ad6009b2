"""This machine, in place of a guest: for `make check-device` (tests/check-device).

`Local` runs commands with /bin/sh on the machine pytest runs on, with the
interface of vm.guest.Guest that the tests use (run, check, the kernel
log's markers, splat scans), so that a test marked `device` runs unchanged
on a real device.  The kernel is the running one; kiobench.ko is loaded by
tests/check-device before the tests and unloaded after them, and
tools/kiobench is first in PATH.
"""
from __future__ import annotations

import os
import platform
import shlex
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .guest import MARK_PREFIX, CommandFailed, CommandTimeout, Result
from .kernels import REPO, Kernel, _read_config
from .splat import Splat, scan_log

TOOLS = REPO / "tools"


def running_kernel() -> Kernel:
    """The running kernel, with its config when /boot or its build tree has it."""
    version = platform.release()
    modules = Path("/lib/modules") / version
    return Kernel(f"local-{version}", Path(f"/boot/vmlinuz-{version}"), modules, version,
                  _read_config([Path(f"/boot/config-{version}"), modules / "build" / ".config"]))


@dataclass(frozen=True)
class LocalImage:
    """What the guest's initramfs would hold: the loaded module, the tool."""
    module: str | None
    tool: str | None


class Local:
    alive = True

    def __init__(self, kernel: Kernel | None = None):
        self.kernel = kernel or running_kernel()
        loaded = Path("/sys/module/kiobench").exists()
        tool = TOOLS / "kiobench"
        self.initramfs = LocalImage("kiobench" if loaded else None,
                                    str(tool) if tool.exists() else None)
        self._marks = 0
        self._env = dict(os.environ, PATH=f"{TOOLS}:{os.environ.get('PATH', '/usr/bin:/bin')}")

    def run(self, cmd: str, timeout: float = 60) -> Result:
        """Run `cmd` with /bin/sh -c here, in its own session; at `timeout`
        its whole process group is killed (CommandTimeout)."""
        p = subprocess.Popen(["/bin/sh", "-c", cmd], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True, env=self._env, cwd="/tmp")
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
            raise CommandTimeout(cmd, Result(p.returncode, out.decode(errors="replace")),
                                 f"killed after {timeout} s") from None
        return Result(p.returncode, out.decode(errors="replace"))

    def check(self, cmd: str, timeout: float = 60) -> str:
        result = self.run(cmd, timeout)
        if not result.ok:
            raise CommandFailed(cmd, result)
        return result.out

    def dmesg_mark(self, name: str) -> str:
        self._marks += 1
        marker = f"{MARK_PREFIX} {os.getpid()}.{self._marks} {name}"
        self.check(f"echo {shlex.quote(marker)} >/dev/kmsg")
        return marker

    def dmesg_since(self, marker: str) -> str:
        res = self.run("dmesg | awk -v m=" + shlex.quote(marker) +
                       " 'f { print } index($0, m) { f = 1 } END { exit !f }'")
        if not res.ok:
            raise CommandFailed("dmesg", res, "lost the test's marker (ring buffer overrun?)")
        return res.out

    def dmesg_next(self, marker: str, name: str) -> tuple[str, str]:
        """As Guest.dmesg_next: the log since marker, and a new marker."""
        return self.dmesg_since(marker), self.dmesg_mark(name)

    @staticmethod
    def scan_log(text: str) -> list[Splat]:
        return scan_log(text)

    def kmemleak(self) -> None:
        """Not on someone's machine: a scan costs tens of seconds and its
        reports would be of everything running there."""
        return None

    def console_text(self, offset: int = 0) -> str:
        return ""

    def shutdown(self) -> None:
        pass
