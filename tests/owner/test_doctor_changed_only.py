"""`personakit doctor` checks again only the memory files changed since its last run (the record in
`.personakit/doctor.json`), finds in them every problem a full check finds, still sees what spans files
(one id in two files, a new clash), and `--full` checks every file."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from owner import cli, commit_all, propose, write_memory

Capsys = pytest.CaptureFixture[str]


def doctor(capsys: Capsys, vault: Path, *extra: str) -> tuple[int, list[str]]:
    code, out, _ = cli(capsys, "doctor", "--vault", str(vault), *extra)
    return code, out.strip().splitlines()


def recorded(vault: Path) -> set[str]:
    return set(json.loads((vault / ".personakit" / "doctor.json").read_text())["files"])


def settle(vault: Path) -> None:
    """Age every memory file's times, as files last changed a while ago are (their stat then says all)."""
    for path in (vault / "memories").glob("*.md"):
        os.utime(path, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))


def test_only_changed_files_are_checked_again_and_problems_in_them_are_found(
    vault: Path, capsys: Capsys
) -> None:
    propose(vault, "Drinks green tea", "Uses vim", "Walks to work")
    settle(vault)
    cli(capsys, "list", "--vault", str(vault))  # indexed as they are now
    assert doctor(capsys, vault) == (0, [f"No problems in {vault} (3 memories)"])
    assert recorded(vault) == {"drinks-green-tea.md", "uses-vim.md", "walks-to-work.md"}

    mem = vault / "memories"
    tea = mem / "drinks-green-tea.md"
    tea.write_text(tea.read_text().replace("state: unconfirmed", "state: aproved"))  # a typo, by hand
    shutil.copy(mem / "uses-vim.md", mem / "uses-vim copy.md")  # a second file with a known file's id
    code, lines = doctor(capsys, vault)
    assert code == 1
    assert any(line.startswith("memories/drinks-green-tea.md:") and "aproved" in line for line in lines)
    assert any("have the same id" in line and "memories/uses-vim copy.md" in line for line in lines)
    assert "drinks-green-tea.md" not in recorded(vault)  # a file with a problem is checked every time

    tea.write_text(tea.read_text().replace("state: aproved", "state: unconfirmed"))  # fixed
    (mem / "uses-vim copy.md").unlink()
    code, lines = doctor(capsys, vault)
    assert not any(line.startswith("memories/") for line in lines), lines
    assert "drinks-green-tea.md" in recorded(vault)


def test_a_new_clash_with_unchanged_memories_is_noted(vault: Path, capsys: Capsys) -> None:
    write_memory(vault, "coffee.md", "Drinks coffee every morning", state="approved")
    settle(vault)
    commit_all(vault)
    _, before = doctor(capsys, vault)
    assert not any("likely disagree" in line for line in before)
    write_memory(vault, "no-coffee.md", "Never drinks coffee in the morning", state="approved")
    commit_all(vault)
    _, after = doctor(capsys, vault)
    assert any("likely disagree" in line for line in after), after


def test_full_checks_every_file_whatever_the_record_says(vault: Path, capsys: Capsys) -> None:
    propose(vault, "Drinks green tea")
    settle(vault)
    cli(capsys, "list", "--vault", str(vault))
    doctor(capsys, vault)
    record_file = vault / ".personakit" / "doctor.json"
    record = json.loads(record_file.read_text())
    tea = vault / "memories" / "drinks-green-tea.md"
    # A file whose record says it was fine with the stat it has now, although it is not (as a record made
    # by an older PersonaKit with laxer rules would): only --full looks at it again.
    tea.write_text(tea.read_text().replace("category: ", "category: pets-"))
    commit_all(vault)
    cli(capsys, "list", "--vault", str(vault))
    st = tea.stat()
    record["files"]["drinks-green-tea.md"][:4] = [st.st_mtime_ns, st.st_size, st.st_ctime_ns, st.st_ino]
    record_file.write_text(json.dumps(record))
    assert doctor(capsys, vault)[0] == 0  # the record is trusted: that is what makes doctor quick
    code, lines = doctor(capsys, vault, "--full")
    assert code == 1 and any(line.startswith("memories/drinks-green-tea.md:") for line in lines), lines
