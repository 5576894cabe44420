"""`personakit review` on corrections, near-duplicates and clashes, through a real pseudo-terminal: a
correction is shown beside what it replaces and approving it retires that one in the same commit; m merges
a near-duplicate; a merge whose target changed state meanwhile changes nothing; clashes are shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from owner import changed_lines, clean, cli, commit_all, subjects, write_memory
from test_review import PROMPT, finish, spawn

from personakit.core.naming import memory_id
from personakit.owner.decisions import decide
from personakit.vault.service import PersonaKit

Capsys = pytest.CaptureFixture[str]


def proposed(vault: Path, *memories: tuple[str, str, str | None]) -> list[str]:
    """Propose (text, quote, replaces) in order, each a second apart in `created`; their ids."""
    kit = PersonaKit(vault, create=False)
    kit.start()
    try:
        ids = []
        for text, quote, replaces in memories:
            result = kit.propose(text, quote, "background", "claude-desktop", replaces)
            ids.append(result["id"])
        return ids
    finally:
        kit.close()


def approve(vault: Path, mid: str) -> None:
    kit = PersonaKit(vault, create=False)
    kit.start()
    decide(kit, mid, "approved")
    kit.close()


def test_a_correction_beside_what_it_replaces_and_its_clashes(vault: Path) -> None:
    old, faro = proposed(
        vault, ("Lives in Lisbon", "I live in Lisbon", None), ("Lives in Faro", "Faro!", None)
    )
    approve(vault, old)
    approve(vault, faro)
    (new,) = proposed(vault, ("Lives in Porto", "we moved to Porto", old))
    before = len(subjects(vault))
    child = spawn(vault)
    child.expect(PROMPT)
    shown = str(child.before)
    for part in (
        "Lives in Porto",
        "evidence: 'we moved to Porto'",
        f"replaces {old} (approved): Lives in Lisbon",
        "its evidence: 'I live in Lisbon'",
        f"approving this retires it (rejected, replaced by {new})",
        f"clashes with {faro} (approved): Lives in Faro",
        "different value for 'lives in': Porto / Faro",
    ):
        assert part in shown, part
    assert f"clashes with {old}" not in shown  # the one it replaces is shown as that, not as a clash
    child.send("a")
    child.expect("approved")
    child.expect(f"{old} is retired \\(rejected, replaced by {new}\\): Lives in Lisbon")
    finish(child)
    assert len(subjects(vault)) == before + 1
    assert subjects(vault)[0] == f"replace {old} with {new}: Lives in Porto"
    assert changed_lines(vault)[0] == ["memories/lives-in-lisbon.md", "memories/lives-in-porto.md"]
    assert clean(vault)


def test_merge_a_near_duplicate_and_a_target_changed_meanwhile(vault: Path, capsys: Capsys) -> None:
    older, newer = memory_id("Prefers blunt feedback"), memory_id("Likes blunt, direct feedback")
    write_memory(vault, "prefers-blunt-feedback.md", "Prefers blunt feedback", created="2026-01-01T09:00:00Z")
    write_memory(
        vault, "likes-blunt-direct-feedback.md", "Likes blunt, direct feedback", created="2026-01-02T09:00:00Z",
        similar=f"[{older}]",
    )  # fmt: skip
    commit_all(vault)
    child = spawn(vault)
    child.expect(f"{older}.*{PROMPT}")
    child.send("n")
    child.expect(PROMPT)
    shown = str(child.before)
    assert f"near-duplicate of {older} (unconfirmed): Prefers blunt feedback" in shown
    assert "its evidence: 'I said prefers blunt feedback'" in shown and f"m: merge into {older}" in shown
    assert "decide [a/r/s/e/c/m/n/q" in shown + str(child.after)
    assert cli(capsys, "restrict", older, "--vault", str(vault))[0] == 0  # decided elsewhere meanwhile
    before = len(subjects(vault))
    child.send("m")
    child.expect(
        f"Could not merge: {older} was unconfirmed when shown and is restricted now; nothing was merged"
    )
    child.send("q")
    finish(child)
    assert len(subjects(vault)) == before and (vault / "memories" / "likes-blunt-direct-feedback.md").exists()

    assert cli(capsys, "approve", older, "--vault", str(vault))[0] == 0
    child = spawn(vault)
    child.expect(f"near-duplicate of {older} \\(approved\\).*{PROMPT}")
    child.send("m")
    child.expect(f"merged into {older}: Prefers blunt feedback")
    out = finish(child)
    assert "1 merged" in out
    assert subjects(vault)[0] == f"merge {newer} into {older}: Prefers blunt feedback"
    assert not (vault / "memories" / "likes-blunt-direct-feedback.md").exists()
    assert (
        "  - I said likes blunt, direct feedback"
        in (vault / "memories" / "prefers-blunt-feedback.md").read_text()
    )
    assert clean(vault)
