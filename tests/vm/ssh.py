"""SSH from the host into guests booted with Guest.boot(ssh=True).

Such a guest gets a virtio-net NIC on QEMU's user network (restrict=on:
it reaches nothing outside), a host port on 127.0.0.1 forwarded to its
port 22, and dropbear serving root with the host's key.  The key pair is
made once per build tree (ssh-keygen, ed25519, no passphrase) under
build/vm/ssh/; its public half reaches the guest on the kernel command
line (kiobench_ssh=<base64 blob>), so the initramfs holds no key.

    with Guest.boot(kernel, ssh=True, hostname="fleet0") as g:
        subprocess.run(ssh.argv(g.ssh_port, "uname -r"), check=True)
"""
from __future__ import annotations

import fcntl
import socket
import subprocess
from pathlib import Path

from .kernels import BUILD

KEY_DIR = BUILD / "vm" / "ssh"
KEY = KEY_DIR / "id_ed25519"
# Never ask, never remember: each boot makes the guest a new host key.
OPTIONS = ("-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
           "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
           "-o", "IdentitiesOnly=yes", "-o", "ConnectTimeout=20")


def key() -> Path:
    """The private key (made on first use); its public half is KEY.pub."""
    KEY_DIR.mkdir(parents=True, exist_ok=True)
    with open(KEY_DIR / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not KEY.exists() or not KEY.with_suffix(".pub").exists():
            KEY.unlink(missing_ok=True)
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "kiobench-ci",
                            "-f", str(KEY)], check=True)
    return KEY


def public_blob() -> str:
    """The base64 blob of the public key (the middle field of KEY.pub)."""
    kind, blob = key().with_suffix(".pub").read_text().split()[:2]
    assert kind == "ssh-ed25519", kind
    return blob


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (QEMU binds it;
    Guest.boot retries once with another when that races)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def argv(port: int, cmd: str, user: str = "root") -> list[str]:
    """The host's ssh command line that runs `cmd` in the guest on `port`."""
    return ["ssh", "-i", str(key()), "-p", str(port), *OPTIONS, f"{user}@127.0.0.1", cmd]

