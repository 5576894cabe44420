"""Every change PersonaKit makes to memories/ is journaled before it is written (`personakit.vault.writing`): an
owner's command killed between writing its files and committing them is finished by the next start as
that command, in one commit, never taken for hand edits (one commit per file, "(by hand)")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from owner import author, git, propose, stuck_before_head_moves, subjects

from personakit.vault.service import PersonaKit


def killed_before_commit(vault: Path, tmp_path: Path, *args: str) -> None:
    """Run `personakit ARGS`, stopped right before it moves HEAD (the files written); kill it there."""
    extra, stuck = stuck_before_head_moves(tmp_path)
    command = [sys.executable, "-m", "personakit", *args, "--vault", str(vault)]
    process = subprocess.Popen(
        command, env=os.environ | extra, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while not (stuck.exists() and stuck.read_text().strip()) and time.monotonic() < deadline:
            assert process.poll() is None, "the command ended without reaching its commit"
            time.sleep(0.01)
        assert stuck.exists(), "the command never reached its commit"
    finally:
        process.kill()
        process.wait()


def next_start(vault: Path) -> None:
    kit = PersonaKit(vault, create=False)
    kit.start()
    kit.close()


def test_a_forget_killed_before_its_commit_is_committed_as_the_forget(vault: Path, tmp_path: Path) -> None:
    [mid] = propose(vault, "Keeps bees on the roof")
    copy = vault / "memories" / "keeps-bees-on-the-roof copy.md"  # two files: both go, in one commit
    shutil.copy(vault / "memories" / "keeps-bees-on-the-roof.md", copy)
    git(vault, "add", "memories")
    git(vault, "commit", "-q", "-m", "a copy made by hand")
    killed_before_commit(vault, tmp_path, "forget", mid)
    assert list((vault / "memories").glob("*.md")) == []  # both removed, nothing committed yet
    next_start(vault)
    assert subjects(vault)[0] == f"forget {mid}: Keeps bees on the roof"
    assert "by hand" not in subjects(vault)[0] and author(vault).startswith("Test Owner")
    shown = git(vault, "show", "--format=", "--name-status", "HEAD").split("\n")
    assert sorted(line for line in shown if line) == [
        "D\tmemories/keeps-bees-on-the-roof copy.md",
        "D\tmemories/keeps-bees-on-the-roof.md",
    ]
    assert git(vault, "status", "--porcelain") == ""
    assert list((vault / ".personakit" / "intents").iterdir()) == []


@pytest.mark.parametrize("lines", [["- Likes rye bread", "- Swims on Sundays", "- Reads Tolstoy"]])
def test_an_import_killed_before_its_commit_is_one_import_commit(
    vault: Path, tmp_path: Path, lines: list[str]
) -> None:
    source = tmp_path / "memories.md"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    killed_before_commit(vault, tmp_path, "import", str(source), "--from", "lines")
    assert len(list((vault / "memories").glob("*.md"))) == 3
    before = len(subjects(vault))
    next_start(vault)
    assert len(subjects(vault)) == before + 1  # one commit for the whole import, not one per file
    assert subjects(vault)[0].startswith("import from lines")
    assert "by hand" not in subjects(vault)[0]
    assert git(vault, "status", "--porcelain") == ""
