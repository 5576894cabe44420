"""`personakit review` driven through a real pseudo-terminal, as a person at a keyboard: oldest first,
one key per decision, one commit per decision whose diff is exactly it; edits through $EDITOR; and the
ways it can go wrong (no editor, a failing one, files deleted or decided while the review runs)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest
from owner import author, changed_lines, clean, cli, commit_all, git, subjects, write_memory

from personakit.core.naming import memory_id

PROMPT = r"decide( \[[^\]]*\])?: "


def spawn(vault: Path, **env: str) -> pexpect.spawn:
    environment = {k: v for k, v in os.environ.items() if k not in ("EDITOR", "VISUAL")} | env
    child = pexpect.spawn(
        sys.executable, ["-m", "personakit", "review", "--vault", str(vault)],
        env=environment, encoding="utf-8", timeout=20, dimensions=(50, 200),
    )  # fmt: skip
    return child


def edit_first(vault: Path, **env: str) -> pexpect.spawn:
    """`personakit review` with env, at its first memory, with e (edit) pressed."""
    child = spawn(vault, **env)
    child.expect(PROMPT)
    child.send("e")
    return child


def finish(child: pexpect.spawn) -> str:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    return str(child.before)


def editor(tmp_path: Path, body: str, name: str = "editor.py") -> str:
    """An $EDITOR: a small program that runs body with `path` bound to the file it is given."""
    script = tmp_path / name
    script.write_text(f"import sys\nfrom pathlib import Path\npath = Path(sys.argv[1])\n{body}\n")
    return f"{sys.executable} {script}"


def rewriting(tmp_path: Path, old: str, new: str) -> str:
    """An $EDITOR that replaces old with new in the file it is given."""
    return editor(tmp_path, f"path.write_text(path.read_text().replace({old!r}, {new!r}))")


@pytest.fixture
def four(vault: Path) -> list[str]:
    """Four unconfirmed memories, proposed on four days (written out of order)."""
    texts = ["Uses vim", "Drinks green tea", "Hates early calls", "Reads on the train"]
    for day, text in zip((3, 1, 4, 2), texts, strict=True):
        write_memory(vault, f"{text.lower().replace(' ', '-')}.md", text, created=f"2026-01-0{day}T09:00:00Z")
    commit_all(vault)
    return [memory_id(t) for t in ("Drinks green tea", "Reads on the train", "Uses vim", "Hates early calls")]


def test_review_walks_oldest_first_and_each_key_is_one_commit(vault: Path, four: list[str]) -> None:
    n = len(subjects(vault))
    child = spawn(vault)
    child.expect("4 unconfirmed, oldest first")
    for mid, key, said in zip(four, "arsn", ("approved", "rejected", "restricted", "skipped"), strict=True):
        child.expect(rf"\[\d/4\] {mid}")
        child.expect(PROMPT)
        child.send(key)
        child.expect(said)
    out = finish(child)
    assert "Done: 1 approved, 1 rejected, 1 restricted; 1 still unconfirmed." in out
    assert len(subjects(vault)) == n + 3
    for rev, verb, mid, state in (("HEAD~2", "approve", four[0], "approved"), ("HEAD~1", "reject", four[1], "rejected"), ("HEAD", "restrict", four[2], "restricted")):  # fmt: skip
        assert git(vault, "log", "-1", "--format=%s", rev).startswith(f"{verb} {mid}: ")
        assert changed_lines(vault, rev)[1] == ["-state: unconfirmed", f"+state: {state}"]
        assert author(vault, rev) == "Test Owner <owner@example.test>"
    assert clean(vault)


def test_review_shows_what_the_owner_needs_to_decide(vault: Path, four: list[str]) -> None:
    child = spawn(vault)
    child.expect(PROMPT)
    shown = str(child.before)
    for part in (
        "Drinks green tea",
        "(preferences)",
        "proposed by cursor",
        "evidence: 'I said drinks green tea'",
    ):
        assert part in shown
    child.send("?")
    child.expect("restrict: kept, never shown")
    child.send("z")  # an unused key is answered with the keys
    child.expect("a approve")
    child.send("q")
    assert "Done: nothing decided; 4 still unconfirmed." in finish(child)


def test_edit_then_change_category_then_approve(vault: Path, four: list[str], tmp_path: Path) -> None:
    n = len(subjects(vault))
    child = edit_first(vault, EDITOR=rewriting(tmp_path, "Drinks green tea", "Drinks green tea, no sugar"))
    child.expect("edited \\(committed as your edit\\)")
    child.expect("Drinks green tea, no sugar")
    child.expect(PROMPT)
    child.send("c")
    child.expect(r"category \(1-7")
    child.send("3")
    child.expect("tools")
    child.expect(PROMPT)
    child.send("a")
    child.expect("approved")
    child.send("q")
    finish(child)
    assert subjects(vault)[:3] == [
        f"approve {four[0]}: Drinks green tea, no sugar",
        f"categorize {four[0]}: Drinks green tea, no sugar (as tools)",
        f"edit {four[0]}: Drinks green tea, no sugar (by hand)",
    ]
    assert len(subjects(vault)) == n + 3
    assert changed_lines(vault, "HEAD~2")[1] == ["-Drinks green tea", "+Drinks green tea, no sugar"]
    assert changed_lines(vault, "HEAD~1")[1] == ["-category: preferences", "+category: tools"]
    assert changed_lines(vault, "HEAD")[1] == ["-state: unconfirmed", "+state: approved"]
    assert clean(vault)


def test_no_editor_a_failing_editor_and_an_edit_holding_a_secret(
    vault: Path, four: list[str], tmp_path: Path
) -> None:
    path = vault / "memories" / "drinks-green-tea.md"
    before, n = path.read_text(), len(subjects(vault))
    child = edit_first(vault)  # neither $VISUAL nor $EDITOR
    child.expect(r"No editor: neither \$VISUAL nor \$EDITOR is set.*Nothing changed")
    child.send("q")
    finish(child)

    ruin = editor(tmp_path, "path.write_text('half a thought')\nsys.exit(3)")
    child = edit_first(vault, VISUAL=ruin, EDITOR="ignored-when-visual-is-set")
    child.expect(r"failed \(exit status 3\)\. Nothing changed")
    child.send("q")
    finish(child)
    assert path.read_text() == before  # the failed editor's half-save was put back

    child = edit_first(vault, EDITOR="no-such-editor-anywhere")
    child.expect("Could not start the editor 'no-such-editor-anywhere'.*Nothing changed")
    child.send("q")
    finish(child)
    assert len(subjects(vault)) == n and clean(vault)

    child = edit_first(vault, EDITOR=rewriting(tmp_path, "Drinks green tea", "Wifi password is hunter2!x9"))
    child.expect("not kept: it holds something shaped like a password or key.*keeps its old text")
    child.send("q")
    finish(child)
    assert len(subjects(vault)) == n and clean(vault)  # the secret is not left on disk
    assert path.read_text() == before


def test_files_deleted_or_decided_while_reviewing(
    vault: Path, four: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    child = spawn(vault)
    child.expect(rf"{four[0]}.*{PROMPT}")
    (vault / "memories" / "drinks-green-tea.md").unlink()  # the one on screen
    (vault / "memories" / "reads-on-the-train.md").unlink()  # the next one
    assert cli(capsys, "approve", four[2], "--vault", str(vault))[0] == 0  # decided elsewhere meanwhile
    child.send("a")
    child.expect(f"drinks-green-tea.md \\({four[0]}\\) was deleted meanwhile; skipped")
    child.expect(f"reads-on-the-train.md \\({four[1]}\\) was deleted meanwhile; skipped")
    child.expect(f"{four[2]} was approved meanwhile; passed over")
    child.expect(rf"{four[3]}.*{PROMPT}")
    child.send("r")
    child.expect("rejected")
    out = finish(child)
    assert "1 rejected" in out
    found = subjects(vault)
    assert f"forget {four[0]}: Drinks green tea (file deleted by hand)" in found
    assert f"forget {four[1]}: Reads on the train (file deleted by hand)" in found
    assert found[0] == f"reject {four[3]}: Hates early calls"
    assert clean(vault)


def test_nothing_to_review(vault: Path) -> None:
    child = spawn(vault)
    child.expect("Nothing to review: no memory is unconfirmed.")
    finish(child)
