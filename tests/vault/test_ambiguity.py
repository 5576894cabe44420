"""A file or a vault that says two things reads as the most private of them, and a decision settles it:
a key written twice (issue 10, item 1), and several files with one id (item 2)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from owner import changed_lines, cli, commit_all, git, propose, subjects

from personakit.core.memory import parse_memory
from personakit.vault.service import PersonaKit

Capsys = pytest.CaptureFixture[str]


def read(vault: Path, question: str) -> dict:  # type: ignore[type-arg]
    kit = PersonaKit(vault, create=False)
    kit.start()
    try:
        return dict(kit.read(question, record=False))
    finally:
        kit.close()


def yaml_state(path: Path) -> object:
    """What a plain YAML reader (the last key wins) says the state is."""
    return yaml.safe_load(path.read_text().split("---")[1])["state"]


def served(vault: Path, question: str) -> list[str]:
    return [m["text"] for m in read(vault, question)["memories"]]


# -- a key written twice -------------------------------------------------------------------------------


def test_a_state_written_twice_reads_as_restricted_and_a_decision_leaves_one(
    vault: Path, capsys: Capsys
) -> None:
    [tea] = propose(vault, "Drinks green tea")
    cli(capsys, "approve", tea, "--vault", str(vault))
    path = vault / "memories" / "drinks-green-tea.md"
    # A paste from another file leaves two state lines; YAML keeps the last one.
    path.write_text(path.read_text().replace("proposed_by:", "state: approved\nproposed_by:"))
    path.write_text(path.read_text().replace("state: approved\n", "state: restricted\n", 1))
    assert yaml_state(path) == "approved"
    assert served(vault, "green tea") == []  # ambiguous: read as restricted
    assert read(vault, "green tea")["withheld"] == 1

    code, out, _ = cli(capsys, "doctor", "--vault", str(vault))
    assert code == 1 and "memories/drinks-green-tea.md:7: state is written 2 times (lines 4 and 7)" in out

    code, out, _ = cli(capsys, "restrict", tea, "--vault", str(vault))
    assert code == 0 and "restricted" in out
    assert yaml_state(path) == "restricted"  # what YAML says now agrees with the answer
    assert path.read_text().count("state:") == 1
    assert served(vault, "green tea") == []

    code, out, _ = cli(capsys, "approve", tea, "--vault", str(vault))
    assert code == 0 and yaml_state(path) == "approved"
    assert served(vault, "green tea") == ["Drinks green tea"]
    files, lines = changed_lines(vault)
    assert files == ["memories/drinks-green-tea.md"] and lines == ["-state: restricted", "+state: approved"]


def test_a_decision_that_would_not_read_as_decided_is_refused(vault: Path, capsys: Capsys) -> None:
    propose(vault, "Drinks green tea")
    path = vault / "memories" / "drinks-green-tea.md"
    path.write_text(path.read_text().replace("proposed_by:", "id: m_0123456789ab\nproposed_by:"))
    commit_all(vault)
    before = path.read_text(), subjects(vault)
    code, _, err = cli(capsys, "approve", "drinks-green-tea.md", "--vault", str(vault))
    assert code == 1
    assert "personakit: memories/drinks-green-tea.md would still not read as approved" in err
    assert "id is written 2 times" in err and "Nothing was changed" in err
    assert (path.read_text(), subjects(vault)) == before
    assert served(vault, "green tea") == []
    code, _, _ = cli(capsys, "restrict", "drinks-green-tea.md", "--vault", str(vault))
    assert code == 0 and parse_memory(path.read_text()).state == "restricted"


# -- several files with one id -------------------------------------------------------------------------


def test_copies_read_as_the_most_private_and_a_decision_changes_them_all(vault: Path, capsys: Capsys) -> None:
    tea, vim = propose(vault, "Drinks green tea", "Uses vim")
    cli(capsys, "approve", tea, vim, "--vault", str(vault))
    mem = vault / "memories"
    shutil.copy(mem / "drinks-green-tea.md", mem / "drinks-green-tea (conflicted copy).md")
    shutil.copy(mem / "drinks-green-tea.md", mem / "drinks-green-tea copy.md")
    commit_all(vault)
    result = read(vault, "green tea")
    assert [m["text"] for m in result["memories"]][:1] == ["Drinks green tea"]
    assert [m["id"] for m in result["memories"]].count(tea) == 1  # at most once

    n = len(subjects(vault))
    code, out, _ = cli(capsys, "restrict", tea[:8], "--vault", str(vault))
    assert (code, out.strip()) == (0, f"{tea} restricted: Drinks green tea (3 files)")
    assert len(subjects(vault)) == n + 1  # one commit
    files = git(vault, "show", "--format=", "--name-only").splitlines()
    assert len(files) == 3 and changed_lines(vault)[1].count("+state: restricted") == 3
    assert "Drinks green tea" not in served(vault, "green tea")
    assert read(vault, "green tea")["withheld"] == 1

    # One copy set back by hand: the memory still reads as restricted, counted once.
    copy = mem / "drinks-green-tea copy.md"
    copy.write_text(copy.read_text().replace("state: restricted", "state: approved"))
    result = read(vault, "green tea tea green")
    assert tea not in [m["id"] for m in result["memories"]] and result["withheld"] == 1
    code, out, _ = cli(capsys, "export", "--vault", str(vault))
    assert code == 0 and "Drinks green tea" not in out and "Uses vim" in out  # nor exported as approved
    # Rejected and approved copies: rejected, and not counted.
    for path in mem.glob("drinks-green-tea*.md"):
        path.write_text(path.read_text().replace("state: restricted", "state: rejected"))
    result = read(vault, "green tea")
    assert tea not in [m["id"] for m in result["memories"]] and result["withheld"] == 0
    assert tea not in [m["id"] for m in read(vault, "something else entirely")["memories"]]  # nor a fill

    code, out, _ = cli(capsys, "approve", tea, "--vault", str(vault))
    assert out.strip() == f"{tea} approved: Drinks green tea (2 files)"
    assert served(vault, "green tea")[:1] == ["Drinks green tea"]
    code, out, _ = cli(capsys, "forget", tea, "--vault", str(vault))
    assert out.strip() == f"forgot {tea}: Drinks green tea (3 files)"
    assert not list(mem.glob("drinks-green-tea*.md"))
    assert "Drinks green tea" not in served(vault, "green tea")
    assert git(vault, "status", "--porcelain") == ""


def test_a_proposal_reports_the_most_private_state_of_the_copies(vault: Path, capsys: Capsys) -> None:
    [tea] = propose(vault, "Drinks green tea")
    mem = vault / "memories"
    copy = mem / "tea-copy.md"
    copy.write_text((mem / "drinks-green-tea.md").read_text().replace("unconfirmed", "restricted"))
    commit_all(vault)
    kit = PersonaKit(vault, create=False)
    kit.start()
    try:
        again = kit.propose("Drinks green tea", "I said: drinks green tea", "preferences")
        assert again == {"stored": True, "id": tea, "new": False, "state": "restricted"}
    finally:
        kit.close()


def test_a_key_of_the_owners_own_written_twice_is_only_reported() -> None:
    raw = "---\nid: m_0123456789ab\nstate: approved\nmood: sunny\nmood: rainy\n---\nLikes weather\n"
    memory = parse_memory(raw)
    assert memory.state == "approved"  # which mood wins changes nothing PersonaKit reads
    assert memory.problems == (
        "mood is written 2 times (lines 4 and 5): YAML keeps the last one, and "
        "Obsidian cannot read the file; keep only one",
        "category is missing: read as 'other'",
    )
