"""Remotes as a new owner meets them (issue 24): a bare remote made without a branch, `personakit clone`,
a plain `git pull` with git's default config, what the device whose decision lost is told, and the small
things (`remote add usb`, `show` after a sync)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from owner import cli, propose

from personakit.core.merging import Note

from devices import TEA, Device, bare_remote, clone, first_device, git, laptop_and_desktop

Capsys = pytest.CaptureFixture[str]


@pytest.fixture
def devices(tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    yield from laptop_and_desktop(tmp_path)


def test_sync_to_a_bare_remote_made_without_a_branch_makes_it_cloneable(
    vault: Path, tmp_path: Path, capsys: Capsys
) -> None:
    bare = tmp_path / "plain.git"
    subprocess.run(["git", "-c", "init.defaultBranch=master", "init", "-q", "--bare", str(bare)], check=True)
    cli(capsys, "remote", "add", "origin", str(bare), "--vault", str(vault))
    propose(vault, "Drinks green tea")
    code, out, _ = cli(capsys, "sync", "--vault", str(vault))
    assert code == 0
    assert git(bare, "symbolic-ref", "HEAD").strip() == "refs/heads/main"
    assert f"personakit clone {bare}" in out  # how to set up the next device
    plain = tmp_path / "plain-clone"
    done = subprocess.run(["git", "clone", "-q", str(bare), str(plain)], capture_output=True, text=True)
    assert "nonexistent ref" not in done.stderr
    assert [p.name for p in (plain / "memories").glob("*.md")] == ["drinks-green-tea.md"]


def test_personakit_clone_checks_out_the_vault_and_installs_the_merge_driver(
    vault: Path, tmp_path: Path, capsys: Capsys
) -> None:
    bare = bare_remote(tmp_path)
    cli(capsys, "remote", "add", "origin", str(bare), "--vault", str(vault))
    propose(vault, "Drinks green tea")
    cli(capsys, "sync", "--vault", str(vault))
    desk = tmp_path / "desk"
    code, out, err = cli(capsys, "clone", str(bare), str(desk))
    assert code == 0, err
    assert [p.name for p in (desk / "memories").glob("*.md")] == ["drinks-green-tea.md"]
    assert "driver %O %A %B %P" in git(desk, "config", "merge.personakit.driver")
    assert git(desk, "config", "pull.rebase").strip() == "false"
    assert str(desk) in out and "1 memory" in out
    code, _, err = cli(capsys, "clone", str(bare), str(desk))
    assert code == 1 and "already exists" in err
    code, _, err = cli(capsys, "clone", str(tmp_path / "not-a-repo.git"), str(tmp_path / "x"))
    assert code == 1 and not (tmp_path / "x").exists()
    # A repository that is not a vault is refused, and nothing is left behind
    other = tmp_path / "other.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(other)], check=True)
    work = tmp_path / "work"
    subprocess.run(["git", "clone", "-q", str(other), str(work)], check=True, capture_output=True)
    (work / "notes.txt").write_text("hello\n")
    git(work, "add", "notes.txt")
    git(work, "commit", "-q", "-m", "notes")
    git(work, "push", "-q", "origin", "main")
    code, _, err = cli(capsys, "clone", str(other), str(tmp_path / "y"))
    assert code == 1 and "not a PersonaKit vault" in err and not (tmp_path / "y").exists()


def test_a_plain_git_pull_with_git_defaults_merges_through_the_driver(devices: tuple[Device, Device]) -> None:
    laptop, desktop = devices
    assert git(desktop.root, "config", "--global", "pull.rebase", check=False) == ""
    laptop.propose("Works in Go and Python")
    laptop.sync()
    desktop.propose("Walks the dog at seven")  # both devices changed: the pull must merge
    done = subprocess.run(["git", "-C", str(desktop.root), "pull", "-q"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert {text for _, text in desktop.memories().values()} >= {
        "Works in Go and Python",
        "Walks the dog at seven",
    }
    for device in (laptop, desktop):
        assert git(device.root, "config", "pull.rebase").strip() == "false"


def test_the_device_whose_decision_lost_is_told(devices: tuple[Device, Device]) -> None:
    laptop, desktop = devices
    mid = next(iter(laptop.memories()))
    laptop.decide(mid, "approved")
    laptop.sync()
    desktop.decide(mid, "restricted")  # without knowing of the laptop's approval
    won = desktop.sync()
    assert [n.sentence() for n in won.notes] == [
        f'{mid} "{TEA}": restricted on this device, approved on the other; kept restricted, the more private'
    ]
    lost = laptop.sync()
    assert laptop.memories()[mid][0] == "restricted"
    assert [n.sentence() for n in lost.notes] == [
        f'{mid} "{TEA}": approved on this device, restricted on the other; kept restricted, the more private'
    ]
    assert "Decide again" in "\n".join(lost.lines())
    assert laptop.sync().notes == []  # told once


def test_forgotten_and_changed_says_where_each_happened() -> None:
    here = Note("kept", "m_0123456789ab", "Tea", here="changed", there="forgotten", kept="changed")
    assert (
        here.sentence()
        == 'm_0123456789ab "Tea": forgotten on the other device, changed on this one; the change was kept'
    )
    there = Note("kept", "m_0123456789ab", "Tea", here="forgotten", there="changed", kept="changed")
    assert (
        there.sentence()
        == 'm_0123456789ab "Tea": forgotten on this device, changed on the other; the change was kept'
    )


def test_remote_add_names_the_remote_to_sync_with(vault: Path, tmp_path: Path, capsys: Capsys) -> None:
    first = bare_remote(tmp_path, "first.git")
    code, out, _ = cli(capsys, "remote", "add", "origin", str(first), "--vault", str(vault))
    assert out.strip().endswith("Now run: personakit sync")
    code, out, _ = cli(
        capsys, "remote", "add", "usb", str(bare_remote(tmp_path, "usb.git")), "--vault", str(vault)
    )
    assert code == 0 and out.strip().endswith("Now run: personakit sync usb")


def test_show_lists_the_other_devices_decision_and_fits_its_column(
    devices: tuple[Device, Device], capsys: Capsys
) -> None:
    laptop, desktop = devices
    mid = next(iter(laptop.memories()))
    laptop.decide(mid, "approved")
    laptop.sync()
    desktop.decide(mid, "restricted")
    desktop.sync()
    laptop.sync()
    laptop.close()
    _, out, _ = cli(capsys, "show", mid, "--vault", str(laptop.root))
    history = out.split("history (git, oldest first):\n")[1].split("last read")[0].splitlines()
    assert any("restricted on one device, approved on the other" in line for line in history), history
    whens = [line for line in history if not line.startswith("      ")]
    assert len({line.index("Test Owner") for line in whens if "Test Owner" in line}) == 1, history


def test_a_clone_made_with_git_gets_the_vault_config_at_first_start(tmp_path: Path) -> None:
    bare = bare_remote(tmp_path)
    first_device(tmp_path, bare)
    desk = Device(clone(tmp_path, bare, "desk"))
    try:
        assert git(desk.root, "config", "pull.rebase").strip() == "false"
        git(desk.root, "config", "--unset", "merge.personakit.driver")
    finally:
        desk.close()
    Device(desk.root).close()  # every start writes them again
    assert "driver %O %A %B %P" in git(desk.root, "config", "merge.personakit.driver")
