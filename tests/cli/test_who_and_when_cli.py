"""Who and when on the owner's side, through the command line: people notes (`people`, `people add`),
`show`, `list`, `export --format json`, `edit` and `doctor` with about/said/until, clashes between
memories about different people, review offering past memories, and imports keeping their dates."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
import pytest
from owner import cli, commit_all, git, subjects

from personakit.core.memory import parse_memory
from personakit.core.naming import memory_id

Capsys = pytest.CaptureFixture[str]
DATA = Path(__file__).resolve().parents[1] / "data" / "import"


def hand_made(
    vault: Path, name: str, text: str, state: str = "approved", about: str = "", **keys: str
) -> str:
    """A memory file as the owner might write it, committed; its id."""
    lines = ["---", f"id: {memory_id(text)}", "category: background", f"state: {state}", "evidence:",
             f"  - I said {text.lower()}", "proposed_by: cursor", "created: 2026-11-01T09:00:00Z"]  # fmt: skip
    if about:
        lines.append(f"about: {about}")
    lines += [f"{k}: {v}" for k, v in keys.items()]
    (vault / "memories" / name).write_text("\n".join([*lines, "---", text, ""]), encoding="utf-8")
    commit_all(vault)
    return memory_id(text)


def test_people_add_writes_one_note_in_one_commit_and_people_lists_it(vault: Path, capsys: Capsys) -> None:
    code, out, err = cli(capsys, "people", "add", "Carla", "--alias", "my sister", "--alias", "Carla Rossi",
                         "--vault", str(vault))  # fmt: skip
    assert code == 0, err
    assert out.startswith("wrote people/Carla.md (aliases: my sister, Carla Rossi) in commit ")
    note = (vault / "people" / "Carla.md").read_text()
    assert note == '---\naliases: ["my sister", "Carla Rossi"]\n---\n# Carla\n'
    assert subjects(vault)[0] == "people: add Carla"
    assert git(vault, "show", "--format=", "--name-only", "HEAD").split() == ["people/Carla.md"]
    assert git(vault, "status", "--porcelain") == ""

    hand_made(vault, "nuts.md", "Is allergic to nuts", about='["[[Carla]]"]')
    hand_made(vault, "rome.md", "Lives in Rome", "unconfirmed", about="[my sister]")
    hand_made(vault, "dog.md", "Barks at the postman", about='["[[Rex]]"]')
    code, out, _ = cli(capsys, "people", "--vault", str(vault))
    assert code == 0
    assert out.splitlines() == [
        "Carla (aliases: my sister, Carla Rossi): 1 approved, 1 unconfirmed; people/Carla.md",
        "Rex: 1 approved; no note",
    ]
    code, out, _ = cli(capsys, "people", "--json", "--vault", str(vault))
    listed = json.loads(out)
    assert listed[0] == {
        "name": "Carla", "aliases": ["my sister", "Carla Rossi"], "note": "people/Carla.md",
        "memories": {"unconfirmed": 1, "approved": 1, "rejected": 0, "restricted": 0},
    }  # fmt: skip
    assert listed[1]["name"] == "Rex" and listed[1]["note"] is None


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["Carla"], "people/Carla.md already names Carla"),
        (["my sister"], "people/Carla.md already names my sister"),
        (["../etc/passwd"], "a note's name cannot hold /"),
        (["!!!"], "no letter or digit"),
        (["Ben", "--alias", "x" * 81], "keep each to 80"),
    ],
)
def test_people_add_refuses_and_writes_nothing(
    vault: Path, capsys: Capsys, args: list[str], said: str
) -> None:
    assert cli(capsys, "people", "add", "Carla", "--alias", "my sister", "--vault", str(vault))[0] == 0
    before = subjects(vault)
    code, _, err = cli(capsys, "people", "add", *args, "--vault", str(vault))
    assert code == 1 and said in err
    assert subjects(vault) == before and sorted(os.listdir(vault / "people")) == ["Carla.md"]
    assert git(vault, "status", "--porcelain") == ""


def test_show_list_and_export_carry_about_said_and_until(vault: Path, capsys: Capsys) -> None:
    trip = hand_made(vault, "lisbon.md", "Is in Lisbon", about='["[[Carla]]", "[[Ben]]"]', said="2026-10-30",
                     until="2026-12-20")  # fmt: skip
    old = hand_made(vault, "tea.md", "Drinks green tea")  # no said: its created day
    past = hand_made(vault, "race.md", "Trains for the Berlin marathon", until="2020-09-27")
    code, out, _ = cli(capsys, "show", trip[:6], "--vault", str(vault))
    assert code == 0
    assert "about:     Carla, Ben\nsaid:      2026-10-30\nuntil:     2026-12-20\n" in out
    out = cli(capsys, "show", old[:6], "--vault", str(vault))[1]
    assert "said:      2026-11-01 (the day it was proposed)" in out and "about:" not in out
    assert "until:     2020-09-27 (past)" in cli(capsys, "show", past[:6], "--vault", str(vault))[1]
    listed = cli(capsys, "list", "--vault", str(vault))[1]
    assert (
        f"{trip}  approved    background     Is in Lisbon  [about Carla, Ben; said 2026-10-30; until 2026-12-20]"
        in listed
    )
    assert "Trains for the Berlin marathon  [until 2020-09-27, past]" in listed
    record = json.loads(cli(capsys, "show", trip[:6], "--json", "--vault", str(vault))[1])
    assert (record["about"], record["said"], record["until"]) == (
        ["Carla", "Ben"],
        "2026-10-30",
        "2026-12-20",
    )
    exported = json.loads(cli(capsys, "export", "--format", "json", "--vault", str(vault))[1])
    by_id = {e["id"]: e for e in exported}
    assert (by_id[trip]["about"], by_id[trip]["said"], by_id[trip]["until"]) == (
        ["Carla", "Ben"], "2026-10-30", "2026-12-20",
    )  # fmt: skip
    assert (by_id[old]["about"], by_id[old]["said"], by_id[old]["until"]) == ([], "2026-11-01", None)


def test_edit_keeps_who_and_when(
    vault: Path, capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mid = hand_made(
        vault, "lisbon.md", "Is in Lisbon", about='["[[Carla]]"]', said="2026-10-30", until="2026-12-20"
    )
    script = tmp_path / "editor.py"
    script.write_text("import sys, pathlib\np = pathlib.Path(sys.argv[1])\n"
                      "p.write_text(p.read_text().replace('Is in Lisbon', 'Is in Porto'))\n")  # fmt: skip
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    code, out, err = cli(capsys, "edit", mid[:6], "--vault", str(vault))
    assert code == 0, err
    assert "was: Is in Lisbon\n  now: Is in Porto" in out
    memory = parse_memory((vault / "memories" / "lisbon.md").read_text())
    assert (memory.id, memory.about, memory.said, memory.until) == (
        mid,
        ("Carla",),
        "2026-10-30",
        "2026-12-20",
    )


def test_doctor_says_when_about_is_a_number_or_a_map(vault: Path, capsys: Capsys) -> None:
    hand_made(vault, "a.md", "Likes jazz", about="42")
    hand_made(vault, "b.md", "Likes blues", about="{name: Carla}")
    hand_made(vault, "c.md", "Likes soul", said="last week")
    code, out, _ = cli(capsys, "doctor", "--vault", str(vault))
    assert code == 1
    assert "memories/a.md:9: about is not a list of names: read as about no one" in out
    assert "memories/b.md:9: about is a set of keys: read as about no one" in out
    assert "memories/c.md:9: said 'last week' is not a day written YYYY-MM-DD: read as no said" in out
    listed = cli(capsys, "list", "--vault", str(vault))[1]
    assert "Likes jazz\n" in listed + "\n" and "[about" not in listed  # read, with no about


def test_memories_about_different_people_do_not_clash(vault: Path, capsys: Capsys) -> None:
    hand_made(vault, "vegan.md", "Carla is vegan", about='["[[Carla]]"]')
    hand_made(vault, "not-vegan.md", "Is not vegan")
    assert cli(capsys, "clashes", "--vault", str(vault))[1].strip() == "No likely clashes."
    (vault / "memories" / "vegan.md").write_text(
        (vault / "memories" / "vegan.md").read_text().replace('about: ["[[Carla]]"]\n', "")
    )
    commit_all(vault)
    out = cli(capsys, "clashes", "--vault", str(vault))[1]
    assert "Carla is vegan" in out and "Is not vegan" in out  # the same words about the owner: a clash


def test_review_offers_past_memories_for_rejecting(vault: Path) -> None:
    past = hand_made(vault, "race.md", "Trains for the Berlin marathon", until="2020-09-27")
    hand_made(vault, "trip.md", "Is in Lisbon for work", until="2020-03-01")
    hand_made(vault, "tea.md", "Drinks green tea", until="2999-01-01")  # not past: not offered
    child = pexpect.spawn(sys.executable, ["-m", "personakit", "review", "--vault", str(vault)],
                          encoding="utf-8", timeout=20, dimensions=(50, 200))  # fmt: skip
    child.expect("2 approved but past")
    child.expect(r"until 2020-03-01\r?\n  Is in Lisbon for work")
    child.expect(r"reject it\? \[r/n/q\]: ")
    child.send("n")
    child.expect(r"until 2020-09-27\r?\n  Trains for the Berlin marathon")
    child.expect(r"reject it\? \[r/n/q\]: ")
    child.send("r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Done: 1 rejected; 0 still unconfirmed." in str(child.before)
    assert subjects(vault)[0] == f"reject {past}: Trains for the Berlin marathon"
    assert "Drinks green tea" not in str(child.before)


def test_imports_keep_their_source_s_day_as_said(vault: Path, capsys: Capsys) -> None:
    code, _, err = cli(capsys, "import", str(DATA / "claude-export.txt"), "--vault", str(vault))
    assert code == 0, err
    code, _, err = cli(capsys, "import", str(DATA / "mem0-get-all.json"), "--vault", str(vault))
    assert code == 0, err
    # By the text without its full stop: whether an import keeps one is not this test's business.
    read = {
        m.text.rstrip("."): m
        for m in (parse_memory(p.read_text()) for p in (vault / "memories").glob("*.md"))
    }
    feedback = read["Prefers blunt, direct feedback on drafts; skip the praise sandwich"]
    assert feedback.said == "2025-03-14"  # the earlier of its two entries
    assert all("2025-03-14" not in q and "[" not in q for q in feedback.evidence)  # the date is not a quote
    assert read["Is learning Portuguese and likes practice sentences in answers"].said == ""  # "[unknown]"
    assert read["Is a vegetarian and allergic to peanuts"].said == "2025-07-21"  # mem0's created_at
    raw = (vault / "memories").glob("is-a-vegetarian*.md").__next__().read_text()
    assert "\nsaid: 2025-07-21\n" in raw
    assert (
        json.loads(cli(capsys, "show", feedback.id[:6], "--json", "--vault", str(vault))[1])["said"]
        == "2025-03-14"
    )
