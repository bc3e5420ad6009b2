"""The fleet lane's guests (tests/README.md, "Lanes to come"): two guests
at once, each with sshd on a host port of 127.0.0.1 forwarded by QEMU's
user network (Guest.boot(ssh=True), vm/ssh.py), and Python for the
modules of an Ansible controller on the host (the image
vm.initramfs.FLEET_IMAGE).  Runs in the `fleet` lane only."""
from __future__ import annotations

import json
import sys

import pytest

from vm import initramfs

pytestmark = pytest.mark.fleet

BOOT_ID = "cat /proc/sys/kernel/random/boot_id"
# What Ansible's modules (AnsiballZ: a zip of Python run from a temporary
# directory) need of the target's Python.
PYTHON = ("python3 -c 'import base64, json, os, runpy, shutil, subprocess, sys, tempfile, "
          "zipfile; print(json.dumps({\"python\": list(sys.version_info[:2])}))'")


def test_two_guests_over_ssh(own_guest, kernel):
    """From the host, ssh to each guest's port runs the command in that
    guest: its kernel, its host name, and the boot ID its agent reads (two
    distinct guests).  Once a guest's sshd is stopped, its port answers
    no more.  Each runs Python with what Ansible's modules import.  The
    host connects as soon as Guest.boot() returns: sshd must be listening.
    Mutations: hostfwd to guest port 23 instead of 22: red; /init without
    the authorized key: red; FLEET_IMAGE without its extra_trees: red;
    /init answering READY before dropbear listens: red."""
    image = initramfs.build(kernel, **initramfs.FLEET_IMAGE)
    fleet, seen = [], []
    for i in range(2):
        g = own_guest(ssh=True, hostname=f"fleet{i}", image=image)
        fleet.append(g)
        res = g.ssh(f"uname -r; hostname; {BOOT_ID}")
        assert res.returncode == 0, res.stderr
        release, name, boot_id = res.stdout.split()
        assert (release, name) == (kernel.version, f"fleet{i}")
        assert boot_id == g.check(BOOT_ID).strip()
        seen.append(boot_id)
        py = g.ssh(PYTHON)
        assert py.returncode == 0, py.stdout + py.stderr
        assert json.loads(py.stdout) == {"python": list(sys.version_info[:2])}
    assert seen[0] != seen[1]
    assert fleet[0].ssh_port != fleet[1].ssh_port
    fleet[1].check("kill $(cat /run/dropbear.pid)")
    assert fleet[1].ssh("true", timeout=30).returncode != 0
    assert fleet[0].ssh("true").returncode == 0
