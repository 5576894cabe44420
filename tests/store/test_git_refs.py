"""HEAD moved in the process (store/objects/refs.py): the same ref file and reflog lines git's own
`update-ref` writes, read back by git and libgit2; git's own way whenever anything is unusual."""

from __future__ import annotations

import re
import stat
import subprocess
from pathlib import Path

import pygit2
import pytest
from test_git_objects import assert_readable_and_clean, git, history_of

from personakit.store.history import History
from personakit.store.objects import refs

LINE = re.compile(r"[0-9a-f]{40} [0-9a-f]{40} (.+ <.+>) \d+ [+-]\d{4}\t(.*)")


def moves(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Record, for each move of HEAD, whether it was made in the process (True) or left to git."""
    made: list[bool] = []
    real = refs.Refs._moved

    def moved(self: refs.Refs, *args: object) -> bool:
        made.append(real(self, *args))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(refs.Refs, "_moved", moved)
    return made


def commit(history: History, vault: Path, name: str, message: str | None = None) -> str | None:
    (vault / "memories" / f"{name}.md").write_text(f"{name}\n")
    return history.commit([f"memories/{name}.md"], message or f"add {name}")


def started(vault: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[bool], History]:
    """The vault's history, its moves recorded, after a first commit whose move was made in the process."""
    made = moves(monkeypatch)
    history = history_of(vault)
    commit(history, vault, "one")
    assert made == [True]
    return made, history


def shape(vault: Path) -> list[tuple[str, ...]]:
    """The reflogs' lines without ids and times, the ref files' modes and contents' form."""
    found: list[tuple[str, ...]] = []
    for log in (vault / ".git" / "logs" / "HEAD", vault / ".git" / "logs" / "refs" / "heads" / "main"):
        for row in log.read_text().splitlines():
            matched = LINE.fullmatch(row)
            assert matched, row
            found.append(matched.groups())
    for path in (vault / ".git" / "refs" / "heads" / "main", *(vault / ".git" / "logs").rglob("*")):
        if path.is_file():
            found.append((path.name, oct(stat.S_IMODE(path.stat().st_mode))))
    assert re.fullmatch(r"[0-9a-f]{40}\n", (vault / ".git" / "refs" / "heads" / "main").read_text())
    return found


def test_head_moves_as_gits_update_ref_moves_it(
    vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two vaults, the same commits: one moved in the process, one by git; the same lines and modes."""
    twin = tmp_path / "twin"
    subprocess.run(["cp", "-a", str(vault), str(twin)], check=True)
    made = moves(monkeypatch)
    ours = history_of(vault)
    messages = ["one", "  two\twith  spaces ", "three: ünïcode"]
    for i, message in enumerate(messages):
        commit(ours, vault, f"m{i}", message)
    assert made == [True, True, True]
    monkeypatch.setattr(refs.Refs, "_moved", lambda *args: False)
    theirs = history_of(twin)
    for i, message in enumerate(messages):
        commit(theirs, twin, f"m{i}", message)
    assert shape(vault) == shape(twin)
    assert ("Test Owner <owner@example.test>", "commit: two with spaces") in shape(vault)
    head = pygit2.Repository(str(vault)).head
    folded = ["commit: three: ünïcode", "commit: two with spaces", "commit: one"]  # as git folds them
    assert [entry.message for entry in head.log()][:3] == folded
    assert git(vault, "reflog", "--format=%gs", "-3").split("\n")[0] == "commit: three: ünïcode"
    assert_readable_and_clean(vault)


def test_a_branch_only_in_packed_refs_and_a_hand_commit_meanwhile(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made, history = started(vault, monkeypatch)
    git(vault, "pack-refs", "--all")  # as git gc does: the branch is now a line of packed-refs
    assert not (vault / ".git" / "refs" / "heads" / "main").exists()
    two = commit(history, vault, "two")
    assert git(vault, "rev-parse", "HEAD").strip() == two and made[-1] is True
    # The owner commits between PersonaKit's build and its move: the move finds the branch elsewhere and
    # the commit is built again on the owner's.
    (vault / "memories" / "three.md").write_text("three\n")
    built = history.build(["memories/three.md"])
    (vault / "memories" / "by-hand.md").write_text("mine\n")
    git(vault, "add", "memories/by-hand.md")
    git(vault, "commit", "-q", "-m", "by hand")
    history.land(built, "add three")
    assert git(vault, "log", "--format=%s", "-4").split("\n")[:3] == ["add three", "by hand", "add two"]
    assert_readable_and_clean(vault)


def test_a_held_lock_or_an_unusual_config_leaves_the_move_to_git(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made, history = started(vault, monkeypatch)
    lock = vault / ".git" / "HEAD.lock"
    lock.write_text("")  # another program is moving HEAD
    head = git(vault, "rev-parse", "HEAD")
    with pytest.raises(Exception, match=r"HEAD\.lock"):
        commit(history, vault, "two")
    assert git(vault, "rev-parse", "HEAD") == head and made[-1] is False
    lock.unlink()
    git(vault, "config", "core.sharedRepository", "group")  # git makes files group-writable
    commit(history, vault, "three")
    assert made[-1] is False
    git(vault, "config", "core.sharedRepository", "0600")
    commit(history, vault, "four")
    assert made[-1] is True
    assert stat.S_IMODE((vault / ".git" / "refs" / "heads" / "main").stat().st_mode) == 0o600
    git(vault, "checkout", "-q", "--detach")  # HEAD on no branch
    commit(history, vault, "five")
    assert made[-1] is False and git(vault, "log", "-1", "--format=%s").strip() == "add five"


def test_the_locks_of_a_killed_move_are_cleared_at_the_next_start(vault: Path) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    notes = vault / ".personakit"
    notes.mkdir(exist_ok=True)
    (notes / f"git-intent-{dead.pid}.12345").write_text("")  # it died moving HEAD...
    locks = [vault / ".git" / "HEAD.lock", vault / ".git" / "refs" / "heads" / "main.lock"]
    for lock in locks:
        lock.write_text("")  # ...holding both locks
    history = history_of(vault)  # the start's check
    assert not any(lock.exists() for lock in locks)
    assert commit(history, vault, "after") == git(vault, "rev-parse", "HEAD").strip()
    assert not list(notes.glob("git-intent-*"))


def test_another_programs_young_lock_is_left_alone(vault: Path) -> None:
    lock = vault / ".git" / "HEAD.lock"
    lock.write_text("")  # nobody holds it open, but no dead PersonaKit left it, and it is young
    history_of(vault)
    assert lock.exists()
