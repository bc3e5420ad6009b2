# SPDX-License-Identifier: GPL-2.0
"""The Ansible playbook and role of tools/ansible (issue 24): the playbook
parses (ansible-playbook --syntax-check, with the sample inventory) and
ansible-lint passes on it and the role.  The fleet lane runs it
(tests/guest/test_shape_fleet.py)."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ANSIBLE = REPO / "tools" / "ansible"


def need(binary):
    if not shutil.which(binary):
        pytest.skip(f"{binary} is not installed (tests/install-deps.sh installs "
                    f"{'ansible-lint' if binary == 'ansible-lint' else 'ansible-core'})")


def env(tmp_path):
    return dict(os.environ, ANSIBLE_HOME=str(tmp_path / "ansible"), ANSIBLE_NOCOLOR="1",
                ANSIBLE_LOCAL_TEMP=str(tmp_path / "tmp"), HOME=str(tmp_path))


def test_playbook_syntax(tmp_path):
    """Mutation: a task of the role with a module name misspelt
    (ansible.builtin.comand): red."""
    need("ansible-playbook")
    p = subprocess.run(["ansible-playbook", "--syntax-check", "-i",
                        str(ANSIBLE / "inventory.example"), str(ANSIBLE / "kiobench.yml"),
                        "-e", "job=lab.fio"], capture_output=True, text=True,
                       env=env(tmp_path), timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr


def test_ansible_lint(tmp_path):
    """ansible-lint's default (production) profile, no rule skipped.
    Mutation: a shell task piping into grep without pipefail: red."""
    need("ansible-lint")
    p = subprocess.run(["ansible-lint", "--nocolor", "--offline", "kiobench.yml",
                        "roles/kiobench"], cwd=ANSIBLE, capture_output=True, text=True,
                       env=env(tmp_path), timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
