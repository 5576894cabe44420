"""Commits built in the process (store/objects/): the same trees git's own `write-tree` makes, commits
git, libgit2 and `fsck --strict` accept, a HEAD moved by the owner's own git taken in, and git's own way
used whenever git would change a file's bytes on the way in or the commit is unusual."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pygit2
import pytest

from personakit.store.files import VaultFiles
from personakit.store.history import History


def git(vault: Path, *args: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(["git", "-C", str(vault), *args], capture_output=True, text=True, check=True,
                          env=os.environ | (env or {})).stdout  # fmt: skip


def history_of(vault: Path) -> History:
    history = History(vault, VaultFiles(vault).lock)
    history.prepare()
    return history


def gits_own_tree(vault: Path) -> str:
    """The tree git itself makes of the work tree (in a scratch index: the owner's stays as it is)."""
    env = {"GIT_INDEX_FILE": str(vault / ".git" / "scratch-index")}
    git(vault, "read-tree", "HEAD", env=env)
    git(vault, "add", "-A", env=env)
    tree = git(vault, "write-tree", env=env).strip()
    (vault / ".git" / "scratch-index").unlink()
    return tree


def assert_readable_and_clean(vault: Path) -> None:
    git(vault, "fsck", "--strict", "--no-dangling")
    repo = pygit2.Repository(str(vault))
    assert str(repo.head.peel().tree.id) == git(vault, "rev-parse", "HEAD^{tree}").strip()
    assert git(vault, "status", "--porcelain", "--untracked-files=all") == ""


@pytest.mark.parametrize("kept_joined", [2 * 1024 * 1024, 0], ids=["joined once", "joined again to write"])
def test_trees_match_gits_own_through_new_folders_removals_and_emptied_folders(
    vault: Path, kept_joined: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tree joined once for its id and its write, and one too big to keep so (at 100k memories), whose
    write joins its entries again: both the tree git makes."""
    monkeypatch.setattr("personakit.store.objects.trees.KEPT_JOINED", kept_joined)
    history = history_of(vault)
    steps = [
        {"memories/b.md": "b\n", "memories/a-b.md": "a-b\n", "memories/a.md": "a\n"},
        {"memories/deep/er/c.md": "c\n", "memories/deep.md": "a file beside a folder of its name\n"},
        {"memories/a.md": None, "memories/deep/er/c.md": None},  # the folder empties: it goes
        {"memories/b.md": "b, changed\n", "top.md": "at the root\n", "memories/z/y.md": "y\n"},
    ]
    for number, step in enumerate(steps):
        for path, text in step.items():
            if text is None:
                (vault / path).unlink()
            else:
                (vault / path).parent.mkdir(parents=True, exist_ok=True)
                (vault / path).write_text(text)
        commit = history.commit(list(step), f"step {number}")
        assert commit == git(vault, "rev-parse", "HEAD").strip()
        assert git(vault, "rev-parse", "HEAD^{tree}").strip() == gits_own_tree(vault)
        assert_readable_and_clean(vault)
    assert "memories/deep/er" not in git(vault, "ls-tree", "-r", "-t", "--name-only", "HEAD")
    assert history.commit(["memories/b.md"], "nothing changed") is None


def test_a_commit_by_the_owners_git_between_two_is_kept(vault: Path) -> None:
    history = history_of(vault)
    (vault / "memories" / "one.md").write_text("one\n")
    history.commit(["memories/one.md"], "one")
    (vault / "memories" / "by-hand.md").write_text("mine\n")
    git(vault, "add", "memories/by-hand.md")
    git(vault, "commit", "-q", "-m", "by hand")
    (vault / "memories" / "two.md").write_text("two\n")
    history.commit(["memories/two.md"], "two")  # its kept trees are one's: it must build on "by hand"
    assert git(vault, "log", "--format=%s", "-3").split() == ["two", "by", "hand", "one"]
    assert {"memories/one.md", "memories/by-hand.md", "memories/two.md"} <= set(
        git(vault, "ls-tree", "-r", "--name-only", "HEAD").split()
    )
    assert_readable_and_clean(vault)


def test_who_and_when_as_git_writes_them(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    history = history_of(vault)
    (vault / "memories" / "one.md").write_text("one\n")
    history.commit(["memories/one.md"], "by an assistant", author=("Host (assistant).", "a@example.invalid"))
    shown = git(vault, "log", "-1", "--format=%an <%ae>|%cn <%ce>|%B")
    owner = git(vault, "var", "GIT_COMMITTER_IDENT").rsplit(" ", 2)[0]
    assert shown == f"Host (assistant) <a@example.invalid>|{owner}|by an assistant\n\n"  # git trims the dot
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2001-02-03T04:05:06+0100")  # git's own way: it reads the date
    (vault / "memories" / "two.md").write_text("two\n")
    history.commit(["memories/two.md"], "dated")
    assert git(vault, "log", "-1", "--format=%aI").strip() == "2001-02-03T04:05:06+01:00"
    monkeypatch.delenv("GIT_AUTHOR_DATE")
    git(vault, "config", "user.name", "Changed Mind")  # a config change is seen at the next commit
    (vault / "memories" / "three.md").write_text("three\n")
    history.commit(["memories/three.md"], "renamed")
    assert git(vault, "log", "-1", "--format=%an|%cn").strip() == "Changed Mind|Changed Mind"
    assert_readable_and_clean(vault)


def test_files_git_would_convert_are_hashed_by_git(vault: Path) -> None:
    history = history_of(vault)
    git(vault, "config", "core.autocrlf", "input")
    (vault / ".gitattributes").write_text("memories/*.md merge=personakit\nmemories/*.txt ident\n")
    git(vault, "add", ".gitattributes")
    git(vault, "commit", "-q", "-m", "attributes")
    (vault / "memories" / "windows.md").write_bytes(b"line one\r\nline two\r\n")
    (vault / "memories" / "stamped.txt").write_text("$Id: made up $\n")
    history.commit(["memories/windows.md", "memories/stamped.txt"], "converted")
    assert git(vault, "show", "HEAD:memories/windows.md") == "line one\nline two\n"  # as git add stores it
    assert git(vault, "show", "HEAD:memories/stamped.txt") == "$Id$\n"
    assert_readable_and_clean(vault)


def test_a_sha256_repository(tmp_path: Path) -> None:
    vault = tmp_path / "sha256"
    vault.mkdir()
    git(vault, "init", "-q", "--object-format=sha256", "-b", "main")
    (vault / "memories").mkdir()
    (vault / "memories" / "one.md").write_text("one\n")
    history = history_of(vault)
    history.commit(["memories/one.md"], "one")
    (vault / "memories" / "two.md").write_text("two\n")
    history.commit(["memories/two.md"], "two")
    assert len(git(vault, "rev-parse", "HEAD").strip()) == 64
    assert git(vault, "rev-parse", "HEAD^{tree}").strip() == gits_own_tree(vault)
    git(vault, "fsck", "--strict", "--no-dangling")
