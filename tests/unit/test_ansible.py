# SPDX-License-Identifier: GPL-2.0
"""The Ansible playbook and role of tools/ansible: the playbook
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


RENDER = """
- hosts: localhost
  gather_facts: false
  vars_files: [{defaults}]
  tasks:
    - ansible.builtin.template:
        src: {template}
        dest: {dest}
      vars:
        kiobench_dir: /tmp/kiobench.x
        kiobench_bin: /tmp/kiobench.x/kiobench
"""


@pytest.mark.parametrize("extra,writes", [([], False),
                                          (["-e", "kiobench_allow_writes=true"], True),
                                          (["-e", "kiobench_allow_writes=false"], False)])
def test_run_command_allows_writes_only_when_asked(tmp_path, extra, writes):
    """The command the role runs on each host (templates/run.sh.j2) has
    --allow-writes only with kiobench_allow_writes true (the string
    "false" of -e too: it is a boolean), and the host's kiobench_filename,
    json+ into result.json.  Mutation: the template's | bool dropped: red
    (the string "false" is true)."""
    need("ansible-playbook")
    role = ANSIBLE / "roles" / "kiobench"
    (tmp_path / "p.yml").write_text(RENDER.format(
        defaults=role / "defaults" / "main.yml", template=role / "templates" / "run.sh.j2",
        dest=tmp_path / "run.sh"))
    p = subprocess.run(["ansible-playbook", "-i", "localhost,", "-c", "local", "p.yml",
                        "-e", "job=lab.fio", "-e", "kiobench_filename=/dev/nvme0n1", *extra],
                       cwd=tmp_path, capture_output=True, text=True, env=env(tmp_path),
                       timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    cmd = (tmp_path / "run.sh").read_text().splitlines()[-1]
    assert cmd.startswith("exec /tmp/kiobench.x/kiobench run job.fio --filename=/dev/nvme0n1"), cmd
    assert cmd.endswith(" --output-format=json+ --output=result.json"), cmd
    assert ("--allow-writes" in cmd) == writes, cmd


KEEP = """
- hosts: localhost
  gather_facts: false
  roles:
    - role: kiobench
"""


@pytest.mark.parametrize("keep", [False, True])
def test_keep_keeps_the_work_directory(tmp_path, keep):
    """The role's cleanup (tasks/main.yml's always) removes the host's work
    directory unless kiobench_keep, which keeps it (the build and prebuilt
    routes' tool and module live there).  The role runs on localhost with
    the prebuilt route and a module file that does not exist: the copy
    fails after the work directory is made, and the cleanup runs.
    Mutation: the cleanup's rm -rf of the work directory not under
    "if not kiobench_keep" (as it was): red for keep=True."""
    need("ansible-playbook")
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "p.yml").write_text(KEEP)
    p = subprocess.run(["ansible-playbook", "-i", "localhost,", "-c", "local", "p.yml",
                        "-e", "job=lab.fio", "-e", "kiobench_install=prebuilt",
                        "-e", f"kiobench_prebuilt_module={tmp_path}/absent.ko",
                        "-e", f"kiobench_prebuilt_tool={tmp_path}/absent",
                        "-e", f"kiobench_keep={str(keep).lower()}"],
                       cwd=tmp_path, capture_output=True, text=True,
                       env=dict(env(tmp_path), TMPDIR=str(work),
                                ANSIBLE_ROLES_PATH=str(ANSIBLE / "roles")),
                       timeout=120)
    out = p.stdout + p.stderr
    assert p.returncode != 0, out                   # the copy failed ...
    assert "Unload the module and remove the files" in out, out  # ... and the cleanup ran
    kept = list(work.glob("kiobench.*"))
    assert len(kept) == (1 if keep else 0), (kept, out)
    if keep:
        assert f"kiobench: kept in {kept[0]}" in out, out
