"""The fleet lane's guests (tests/README.md, "Lanes to come"): two guests
at once, each with sshd on a host port of 127.0.0.1 forwarded by QEMU's
user network (Guest.boot(ssh=True), vm/ssh.py), and Python for the
modules of an Ansible controller on the host (the image
vm.initramfs.FLEET_IMAGE).  Runs in the `fleet` lane only."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from vm import initramfs, ssh, targets

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


# ---- the Ansible role (tools/ansible) against the two guests ---------------------

ROOT = Path(__file__).resolve().parents[2]
PLAYBOOK = "tools/ansible/kiobench.yml"
JOB = "[lab]\nrw=randread\nbs=4k\niodepth=4\nsize=16m\n"


def inventory(path, guests, ko, tool):
    """The two guests as Ansible's hosts: 127.0.0.1 and each its forwarded
    port, the harness' key, the prebuilt module and tool (the guests have
    no compiler).  The guest has no sftp or scp server: files go through
    the SSH session (piped)."""
    lines = ["[kiobench]"]
    lines += [f"fleet{i} ansible_port={g.ssh_port} kiobench_filename=/dev/nullb0"
              for i, g in enumerate(guests)]
    lines += ["[kiobench:vars]", "ansible_host=127.0.0.1", "ansible_user=root",
              f"ansible_ssh_private_key_file={ssh.key()}",
              "ansible_ssh_common_args='" + " ".join(ssh.OPTIONS) + "'",
              "ansible_python_interpreter=/usr/bin/python3", "ansible_pipelining=true",
              # no -C: compressing costs the TCG guest more than it saves
              "ansible_ssh_args='-o ControlMaster=auto -o ControlPersist=60s'",
              "ansible_ssh_transfer_method=piped", "kiobench_install=prebuilt",
              f"kiobench_prebuilt_module={ko}", f"kiobench_prebuilt_tool={tool}"]
    path.write_text("\n".join(lines) + "\n")


def playbook(tmp_path, run, timeout=600):
    """ansible-playbook as from a shell in tmp_path; each run its own
    ANSIBLE_HOME and SSH control sockets, so that no SSH connection of the
    last run (ControlPersist) serves this one.  The sockets' directory is
    short: a Unix socket's path has at most 107 bytes, and pytest's
    tmp_path with Ansible's socket name can exceed them."""
    cp = tempfile.mkdtemp(prefix="kb-cp", dir="/tmp")
    env = dict(os.environ, PWD=str(tmp_path), ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0",
               ANSIBLE_HOME=str(tmp_path / f"ansible-home{run}"),
               ANSIBLE_SSH_CONTROL_PATH_DIR=cp, ANSIBLE_RETRY_FILES_ENABLED="0")
    try:
        return subprocess.run(["ansible-playbook", "-i", "inventory", str(ROOT / PLAYBOOK),
                               "-e", "job=lab.fio",
                               "-e", f"kiobench_results_dir={tmp_path}/results"],
                              cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=timeout)
    finally:
        shutil.rmtree(cp, ignore_errors=True)


def p99_of_sum(docs):
    """kiobench's p99 of the reads' histograms summed (stats.c: the bucket
    of rank ceil(0.99 n), its middle clamped to the smallest and largest
    latency seen), computed here from the documents alone."""
    buckets, lo_seen, hi_seen = {}, [], []
    for doc in docs:
        job = doc["jobs"][0]
        for lo, hi, c in job["kiobench"]["hist"]["read"]:
            buckets[(lo, hi)] = buckets.get((lo, hi), 0) + c
        lo_seen.append(job["read"]["clat_ns"]["min"])
        hi_seen.append(job["read"]["clat_ns"]["max"])
    n = sum(buckets.values())
    rank, cum = max(1, -(-99 * n // 100)), 0
    for (lo, hi), c in sorted(buckets.items()):
        cum += c
        if cum >= rank:
            return min(max(lo + (hi - lo - 1) // 2, min(lo_seen)), max(hi_seen))
    raise AssertionError("rank beyond the histogram")


@pytest.mark.budget(240)
def test_playbook_runs_and_merges(own_guest, kernel, tmp_path):
    """ansible-playbook runs tools/ansible/kiobench.yml from the host against
    both guests (the prebuilt route: the module and tool copied, insmod'ed,
    checked by `features`), a null_blk on each: both JSON documents arrive,
    each with its guest's host name and device; the merged p99 is the p99
    of the two documents' summed buckets, exactly; the module is unloaded
    and the work directory gone after.  With one guest's sshd stopped, the
    other's result is merged, the report names the missing host and the
    playbook exits non-zero.
    Mutations: add_buckets() (tools/merge.c) leaving a shared bucket's
    count out: red (the merged p99); the role's cleanup without rmmod:
    red; merge's exit status 0 with a document missing: red."""
    if not shutil.which("ansible-playbook"):
        pytest.skip("ansible-playbook is not installed (tests/install-deps.sh: ansible-core)")
    ko, tool = kernel.kiobench_ko, initramfs.TOOL
    if not ko.exists() or not tool.exists():
        pytest.skip(f"{ko} or {tool} is not built (tests/build-modules, make)")
    image = initramfs.build(kernel, **initramfs.FLEET_IMAGE)
    guests = [own_guest(ssh=True, hostname=f"fleet{i}", image=image) for i in range(2)]
    for g in guests:
        targets.nullb(g, "nullb0", size_mb=64)
    # shipped as distributions ship them: without debug information
    for src, dst in ((ko, tmp_path / "kiobench.ko"), (tool, tmp_path / "kiobench")):
        subprocess.run(["objcopy", "--strip-debug", str(src), str(dst)], check=True)
    inventory(tmp_path / "inventory", guests, tmp_path / "kiobench.ko", tmp_path / "kiobench")
    (tmp_path / "lab.fio").write_text(JOB)

    p = playbook(tmp_path, 0)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    res = tmp_path / "results"
    docs = [json.loads((res / f"fleet{i}.json").read_text()) for i in range(2)]
    for i, doc in enumerate(docs):
        kb = doc["jobs"][0]["kiobench"]
        assert kb["host"]["hostname"] == f"fleet{i}"
        assert kb["kernel"] == kernel.version
        assert [d["path"] for d in kb["device_ids"]] == ["/dev/nullb0"]
        assert doc["jobs"][0]["read"]["total_ios"] == 4096
    fleet = json.loads((res / "fleet.json").read_text())
    assert fleet["merged"] == 2 and fleet["missing"] == []
    assert [r["host"] for r in fleet["hosts"]] == ["fleet0", "fleet1"]
    clat = fleet["jobs"][0]["read"]["clat_ns"]
    assert clat["N"] == 8192
    assert clat["percentile"]["99.000000"] == p99_of_sum(docs)
    for g in guests:  # left as it was
        assert not g.run("test -d /sys/module/kiobench").ok
        assert g.check("ls /tmp").split() == [], "the role's files stay behind"

    guests[1].check("kill $(cat /run/dropbear.pid)")
    p = playbook(tmp_path, 1)
    assert p.returncode != 0, p.stdout[-4000:]
    assert "kiobench: no result from fleet1" in p.stdout, p.stdout[-4000:]
    text = (res / "fleet.txt").read_text()
    assert "merge: 1 of 2 documents\nmissing: fleet1.json: No such file or directory" in text
    fleet = json.loads((res / "fleet.json").read_text())
    assert fleet["merged"] == 1 and fleet["exit_status"] == 2
    assert [r["host"] for r in fleet["hosts"]] == ["fleet0"]
