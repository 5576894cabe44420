"""The same per-memory rules for a plain `git pull`: the merge driver that `init` and every start install."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from personakit.core.memory import parse_memory
from personakit.core.naming import memory_id
from personakit.vault.gitconfig import ATTRIBUTE, command

from devices import TEA, Device, clone, git, laptop_and_desktop


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    yield from laptop_and_desktop(tmp_path)


def pull(root: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), "pull", "-q", *options, "origin", "main"],
        capture_output=True,
        text=True,
        check=False,
    )


def test_init_and_start_install_the_driver(pair: tuple[Device, Device], tmp_path: Path) -> None:
    laptop, desktop = pair
    for device in (laptop, desktop):
        assert git(device.root, "config", "merge.personakit.driver").strip() == command()
        assert git(device.root, "check-attr", "merge", "--", "memories/x.md").strip().endswith("personakit")
    assert ATTRIBUTE in (laptop.root / ".gitattributes").read_text()
    # a vault from before the driver existed: no .gitattributes; the attribute goes in .git/info
    old = clone(tmp_path, Path(git(laptop.root, "remote", "get-url", "origin").strip()), "old")
    git(old, "rm", "-q", ".gitattributes")
    git(old, "commit", "-qm", "a vault without .gitattributes")
    Device(old).close()
    assert ATTRIBUTE in (old / ".git" / "info" / "attributes").read_text()
    assert git(old, "check-attr", "merge", "--", "memories/x.md").strip().endswith("personakit")
    assert git(old, "status", "--porcelain") == ""


@pytest.mark.parametrize("how", [["--no-rebase"], ["--rebase"]])
def test_a_plain_git_pull_keeps_the_more_private_decision(
    pair: tuple[Device, Device], how: list[str]
) -> None:
    laptop, desktop = pair
    mid = memory_id(TEA)
    laptop.decide(mid, "approved")
    laptop.propose("Works in Go and Python")
    laptop.sync()
    desktop.decide(mid, "restricted")
    done = pull(desktop.root, *how)
    assert done.returncode == 0, done.stderr
    assert "restricted on this device, approved on the other" in done.stderr
    assert desktop.memories()[mid][0] == "restricted"
    assert git(desktop.root, "status", "--porcelain") == ""
    # evidence on both sides is the union, also through git
    laptop.sync()
    laptop.propose(TEA, quote="tea first, then email")
    laptop.sync()
    desktop.propose(TEA, quote="no coffee before nine")
    assert pull(desktop.root, *how).returncode == 0
    (text,) = [t for t in desktop.files().values() if parse_memory(t).id == mid]
    merged = parse_memory(text)  # the memory was decided: new quotes wait for the owner (core.evidence)
    assert {"tea first, then email", "no coffee before nine"} <= set(merged.pending)


def test_a_plain_git_pull_keeps_both_texts_the_second_one_as_a_new_file(pair: tuple[Device, Device]) -> None:
    laptop, desktop = pair
    mid = memory_id(TEA)
    laptop.edit_text(mid, "Drinks green tea before nine")
    laptop.sync()
    desktop.edit_text(mid, "Drinks jasmine tea in the morning")
    done = pull(desktop.root, "--no-rebase")
    assert done.returncode == 0, done.stderr
    second = memory_id("Drinks green tea before nine")
    assert f"is now a second memory, {second}" in done.stderr
    assert desktop.memories()[mid][1] == "Drinks jasmine tea in the morning"
    assert desktop.memories()[second] == ("unconfirmed", "Drinks green tea before nine")
    untracked = git(desktop.root, "status", "--porcelain").split()
    assert untracked == ["??", "memories/drinks-green-tea-before-nine.md"]
    desktop.kit.sync(None)  # PersonaKit's next look commits it, as it does any new file
    assert desktop.clean() and any(s.startswith(f"edit {second}:") for s in desktop.subjects())


def test_without_its_python_the_driver_falls_back_to_gits_text_merge(pair: tuple[Device, Device]) -> None:
    laptop, desktop = pair
    mid = memory_id(TEA)
    name = desktop.name_of(mid)
    git(desktop.root, "config", "merge.personakit.driver", command("/no/longer/here/python3"))
    laptop.decide(mid, "approved")
    laptop.sync()
    desktop.decide(mid, "restricted")
    done = pull(desktop.root, "--no-rebase")
    assert done.returncode != 0 and "CONFLICT (content)" in done.stdout + done.stderr
    text = (desktop.root / "memories" / name).read_text()
    assert "<<<<<<< ours" in text and "state: restricted" in text and "state: approved" in text
    git(desktop.root, "merge", "--abort")
