"""Imports need no cleaning by hand: the words choose the category, the trailing full stop goes, and the
evidence is empty rather than a copy of the text; an empty evidence list is read, served, checked,
exported and added to like any other."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from owner import cli_process, git, propose

from personakit.core.categories import guess_category
from personakit.core.memory import parse_memory
from personakit.core.naming import memory_id

SAVED = """\
Saved memories
User has a peanut allergy.
User prefers short answers, no padding.
User works in Go and Python.
Lives in Porto with his wife.
Never schedule calls before 10am.
Memory full
"""


def pk(vault: Path, *args: str) -> str:
    done = cli_process(*args, "--vault", str(vault))
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Has a peanut allergy", "constraints"),
        ("Never schedule calls before 10am", "constraints"),
        ("Prefers short answers, no padding", "communication"),
        ("Works in Go and Python", "tools"),
        ("Lives in Porto with his wife", "background"),
        ("Likes green tea", "preferences"),
        ("Works best in the morning", "work-style"),
        ("Has a soft spot for puns", "other"),
    ],
)
def test_the_words_choose_the_category(text: str, category: str) -> None:
    assert guess_category(text) == category


def test_an_import_reads_like_proposals_and_keeps_no_copy_as_evidence(vault: Path, tmp_path: Path) -> None:
    source = tmp_path / "saved.txt"
    source.write_text(SAVED)
    out = pk(vault, "import", str(source))
    assert "5 new" in out
    files = {p.name: parse_memory(p.read_text(), p.name) for p in (vault / "memories").glob("*.md")}
    by_text = {m.text: m for m in files.values()}
    assert {t: m.category for t, m in by_text.items()} == {
        "Has a peanut allergy": "constraints",
        "Prefers short answers, no padding": "communication",
        "Works in Go and Python": "tools",
        "Lives in Porto with his wife": "background",
        "Never schedule calls before 10am": "constraints",
    }
    assert all(m.evidence == () for m in files.values())
    raw = (vault / "memories" / by_text["Works in Go and Python"].name).read_text()
    assert "evidence: []\n" in raw and "Works in Go and Python.\n" not in raw

    # An empty evidence list is valid everywhere: doctor, search, show, export, and a later quote.
    done = cli_process("doctor", "--vault", str(vault))
    assert done.returncode == 0 and "No problems" in done.stdout, done.stdout
    found = json.loads(pk(vault, "search", "which languages do I work in?", "--json"))["memories"][0]
    assert found["text"] == "Works in Go and Python" and found["evidence"] == []
    assert "Works in Go and Python" in pk(vault, "show", memory_id("Works in Go and Python"))
    pk(vault, "approve", memory_id("Works in Go and Python"))
    assert json.loads(pk(vault, "export", "--format", "json"))[0]["evidence"] == []
    propose(vault, "Works in Go and Python.", quote="mostly Go these days, some Python")
    again = parse_memory((vault / "memories" / by_text["Works in Go and Python"].name).read_text())
    # approved: the assistant's later quote waits for the owner (core.evidence), also on an empty list
    assert again.pending == ("mostly Go these days, some Python",) and again.state == "approved"
    assert again.evidence == ()
    assert git(vault, "status", "--porcelain") == ""
