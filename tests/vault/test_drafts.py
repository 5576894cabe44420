"""Obsidian's habits: a new note in memories/ (empty, or text with no front matter) is a draft, skipped
without a word and taken in once it is a memory; notes outside memories/ are the owner's, which doctor
notes and does not call problems."""

from __future__ import annotations

from pathlib import Path

from owner import cli_process, subjects

from personakit.core.naming import memory_id


def test_an_empty_new_note_is_a_quiet_draft_until_it_is_a_memory(vault: Path) -> None:
    draft = vault / "memories" / "Untitled.md"
    draft.write_text("")
    (vault / "memories" / "Untitled 1.md").write_text("Prefers tea, maybe\n")  # text, no front matter
    for args in (["list"], ["search", "tea"], ["log"]):
        done = cli_process(*args, "--vault", str(vault))
        assert done.returncode == 0 and done.stderr == "", done.stderr
    doctor = cli_process("doctor", "--vault", str(vault))
    assert doctor.returncode == 0, doctor.stdout
    assert "note: memories/Untitled 1.md, memories/Untitled.md are drafts" in doctor.stdout
    assert "No problems" in doctor.stdout

    draft.write_text("---\ncategory: preferences\nstate: unconfirmed\n---\nDrinks green tea in the morning\n")
    listed = cli_process("list", "--vault", str(vault))
    tea = memory_id("Drinks green tea in the morning")
    assert f"{tea}  unconfirmed preferences    Drinks green tea in the morning" in listed.stdout
    assert subjects(vault)[0] == f"edit {tea}: Drinks green tea in the morning (by hand)"
    assert f"id: {tea}" in draft.read_text()  # taken in as any hand-made file: its id written in


def test_notes_outside_memories_are_the_owners_not_problems(vault: Path) -> None:
    (vault / "Ideas.md").write_text("Things to try\n")
    (vault / "README.md").write_text((vault / "README.md").read_text() + "\nMy own line.\n")
    doctor = cli_process("doctor", "--vault", str(vault))
    assert doctor.returncode == 0, doctor.stdout
    assert "note: Ideas.md, README.md are yours, outside memories/" in doctor.stdout
    assert "No problems" in doctor.stdout
    (vault / ".gitignore").write_text("")  # the vault's own workings are still checked
    assert cli_process("doctor", "--vault", str(vault)).returncode == 1
