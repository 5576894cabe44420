"""Hand edits are first-class: whether a running server's watcher or the next CLI command sees them, each
editor save becomes one commit signed by the owner, whose diff is the edit; nothing is lost when a hand
edit and a proposal land at the same moment; a half-written or secret-bearing file is never committed."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from owner import author, changed_lines, clean, cli, propose, subjects

from personakit.store.watcher import MOST_WAIT
from personakit.vault.service import PersonaKit

Capsys = pytest.CaptureFixture[str]


@pytest.fixture
def running(vault: Path) -> Iterator[PersonaKit]:
    """A PersonaKit watching the vault, as `personakit serve` runs it."""
    propose(vault, "Drinks green tea", "Uses vim")
    kit = PersonaKit(vault)
    kit.start(watch=True)
    yield kit
    kit.close()


def settled(vault: Path, count: int, seconds: float = 3.0) -> list[str]:
    """Wait for `count` commits, then long enough that a stray extra commit would show; the subjects."""
    deadline = time.monotonic() + seconds
    while len(subjects(vault)) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(MOST_WAIT + 0.3)
    return subjects(vault)


def test_an_in_place_save_is_one_commit_by_the_owner(vault: Path, running: PersonaKit) -> None:
    n = len(subjects(vault))
    path = vault / "memories" / "drinks-green-tea.md"
    path.write_text(path.read_text().replace("state: unconfirmed", "state: approved"))
    found = settled(vault, n + 1)
    assert len(found) == n + 1 and found[0].endswith(": Drinks green tea (by hand)")
    assert changed_lines(vault) == (
        ["memories/drinks-green-tea.md"],
        ["-state: unconfirmed", "+state: approved"],
    )
    assert author(vault) == "Test Owner <owner@example.test>" and clean(vault)


def test_a_save_by_atomic_rename_is_one_commit(vault: Path, running: PersonaKit) -> None:
    n = len(subjects(vault))
    path = vault / "memories" / "uses-vim.md"
    tmp = path.with_name(".uses-vim.md.tmp")
    tmp.write_text(path.read_text().replace("Uses vim", "Uses neovim"))
    os.replace(tmp, path)
    found = settled(vault, n + 1)
    assert len(found) == n + 1 and found[0].endswith(": Uses neovim (by hand)")
    assert changed_lines(vault)[1] == ["-Uses vim", "+Uses neovim"] and clean(vault)


def test_a_burst_of_saves_is_one_commit_and_a_half_written_file_none(
    vault: Path, running: PersonaKit
) -> None:
    n = len(subjects(vault))
    path = vault / "memories" / "uses-vim.md"
    whole = path.read_text()
    for i in range(5):  # an editor saving as you type
        with open(path, "w") as handle:
            handle.write(whole[: len(whole) // 2])  # half-written: not a readable memory
            handle.flush()
            time.sleep(0.01)
            handle.write(whole[len(whole) // 2 :].replace("Uses vim", f"Uses vim {i}"))
        time.sleep(0.03)
    found = settled(vault, n + 1)
    assert len(found) == n + 1 and found[0].endswith(": Uses vim 4 (by hand)")
    assert changed_lines(vault)[1] == ["-Uses vim", "+Uses vim 4"] and clean(vault)


def test_a_hand_edit_and_a_proposal_at_the_same_moment_lose_neither(vault: Path, running: PersonaKit) -> None:
    n = len(subjects(vault))
    path = vault / "memories" / "drinks-green-tea.md"
    rounds = 4
    for i in range(rounds):
        start = threading.Barrier(2)

        def edit(i: int = i, start: threading.Barrier = start) -> None:
            raw = path.read_text()
            start.wait()
            path.write_text(raw.replace("\nproposed_by", f"\nround: {i}\nproposed_by"))

        editor = threading.Thread(target=edit)
        editor.start()
        start.wait()
        result = running.propose(f"Owns {i} bicycles", "bikes!", "background", host="cursor")
        editor.join()
        assert result["stored"] is True
        time.sleep(MOST_WAIT + 0.2)  # let this round's edit be committed before the next one
    found = settled(vault, n + 2 * rounds)
    assert len(found) == n + 2 * rounds
    assert sum(s.startswith("propose ") and "bicycles" in s for s in found) == rounds
    assert sum(s.endswith("(by hand)") for s in found) == rounds
    assert f"round: {rounds - 1}" in path.read_text() and clean(vault)


def test_a_hand_edit_with_a_secret_is_not_committed(
    vault: Path, running: PersonaKit, caplog: pytest.LogCaptureFixture
) -> None:
    n = len(subjects(vault))
    path = vault / "memories" / "uses-vim.md"
    path.write_text(path.read_text().replace("Uses vim", "Uses vim; sudo password is hunter2!x9"))
    assert len(settled(vault, n + 1, seconds=1.0)) == n
    assert not clean(vault)
    assert "memories/uses-vim.md holds something shaped like a password or key" in caplog.text


def test_without_a_server_the_next_command_commits_the_hand_edit(vault: Path, capsys: Capsys) -> None:
    propose(vault, "Uses vim")
    path = vault / "memories" / "uses-vim.md"
    path.write_text(path.read_text().replace("category: preferences", "category: tools"))
    (vault / "memories" / "drinks-tea.md").write_text(
        "---\ncategory: preferences\nstate: approved\n---\nDrinks tea\n"
    )
    code, out, _ = cli(capsys, "list", "--vault", str(vault))
    assert code == 0 and "Drinks tea" in out
    assert sorted(s.split(":")[0].split()[0] for s in subjects(vault)[:2]) == ["categorize", "edit"]
    assert {s.split(": ", 1)[1] for s in subjects(vault)[:2]} == {
        "Uses vim (as tools) (by hand)",  # a change of only the category is the decision it is
        "Drinks tea (by hand)",
    }
    assert clean(vault)
    rev = "HEAD" if "vim" in subjects(vault)[0] else "HEAD~1"
    files, lines = changed_lines(vault, rev)
    assert files == ["memories/uses-vim.md"] and lines == ["-category: preferences", "+category: tools"]


def test_a_proposals_own_file_is_not_taken_in_again_but_a_hand_edit_after_it_is(
    vault: Path, running: PersonaKit
) -> None:
    """The watcher sees the proposal's own write too: it was committed and indexed as it is, so nothing is
    done for it (before, each proposal's file took the vault lock and a git command once more). A save
    made to that file afterwards is the owner's, and is taken in and committed as always."""
    looked_at: list[set[str]] = []
    take_in = running.sync

    def sync(names: Iterable[str] | None = None, commit: bool = True) -> None:
        looked_at.append({"*"} if names is None else set(names))
        take_in(names, commit)

    running.sync = sync  # type: ignore[method-assign]
    n = len(subjects(vault))
    assert running.propose("Owns a sea kayak", "my kayak!", "background", host="cursor")["stored"]
    assert len(settled(vault, n + 1)) == n + 1
    name = changed_files(vault)[0].removeprefix("memories/")
    assert not [names for names in looked_at if name in names or "*" in names]
    path = vault / "memories" / name
    path.write_text(path.read_text().replace("Owns a sea kayak", "Owns two sea kayaks"))
    found = settled(vault, n + 2)
    assert len(found) == n + 2 and found[0].endswith("(by hand)")
    assert any(name in names for names in looked_at)
    assert running.read("kayaks")["memories"][0]["text"] == "Owns two sea kayaks"


def changed_files(vault: Path) -> list[str]:
    return subprocess.run(["git", "-C", str(vault), "show", "--name-only", "--format=", "HEAD"],
                          check=True, capture_output=True, text=True).stdout.split()  # fmt: skip


def test_a_start_takes_in_what_changed_while_no_server_ran_and_leaves_the_rest(vault: Path) -> None:
    """The full pass at a start drops each file level with the index as the folder is listed (one stat
    per memory held, not two): a changed, a removed, a new and a group-readable file are each taken in."""
    propose(vault, "Uses vim", "Drinks green tea", "Walks the dog", "Reads at night")
    kit = PersonaKit(vault)
    kit.start()
    kit.close()
    memories = vault / "memories"
    path = memories / "uses-vim.md"
    path.write_text(path.read_text().replace("Uses vim", "Uses neovim"))
    (memories / "walks-the-dog.md").unlink()
    (memories / "plays-chess.md").write_text(
        "---\ncategory: preferences\nstate: approved\n---\nPlays chess\n"
    )
    (memories / "reads-at-night.md").chmod(0o644)
    kit = PersonaKit(vault)
    kit.start()
    try:
        texts = {hit.memory.text for hit in kit.index.all()}
        assert texts == {"Uses neovim", "Drinks green tea", "Plays chess", "Reads at night"}
        assert (memories / "reads-at-night.md").stat().st_mode & 0o077 == 0
        assert set(kit.index.stats()) == {p.name for p in memories.glob("*.md")}
    finally:
        kit.close()
    assert clean(vault)
