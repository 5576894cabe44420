"""Git's index given entries in the process (store/objects/gitindex.py) is the file `git update-index` makes.

Each case runs the same change both ways on two copies of one real repository, by git (`update-index
--add --cacheinfo`, `--force-remove`) and in the process, and compares the index files byte for byte; then
git, libgit2 and `git fsck` read the result. Whatever the module leaves to git leaves the file untouched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import tracemalloc
from pathlib import Path

import pygit2
import pytest

from personakit.store.objects.gitindex import MOST, GitIndex


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "a"
    git(tmp_path, "init", "-q", "-b", "main", str(repo))
    for name in ["README.md", "memories/a.md", "memories/b.md", "memories/c-d.md", "memories/c/e.md", "z.md"]:
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(f"{name}\n")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@e.invalid", "commit", "-qm", "first")
    git(repo, "read-tree", "HEAD")  # a whole cache tree (TREE), as after a checkout
    old = time.time() - 60  # no entry racily clean: the index is written after every file's time
    for path in repo.rglob("*.md"):
        os.utime(path, (old, old))
    git(repo, "update-index", "--refresh", "-q")
    return repo


def blob(repo: Path, text: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "hash-object", "-w", "--stdin"], input=text,
                          check=True, capture_output=True, text=True).stdout.strip()  # fmt: skip


def both_ways(repo: Path, changes: dict[str, tuple[str, str] | None]) -> tuple[bytes, bytes, bool]:
    """The index after git's update-index and after GitIndex.apply, from the same start; apply's answer."""
    theirs = repo.parent / "theirs"
    shutil.copytree(repo, theirs)
    args = [a for p, e in changes.items() if e is not None for a in ("--cacheinfo", f"{e[0]},{e[1]},{p}")]
    gone = [p for p, e in changes.items() if e is None]
    git(theirs, "update-index", "--add", *args, *(["--force-remove", "--", *gone] if gone else []))
    applied = GitIndex(repo / ".git" / "index", 20, "sha1").apply(changes)
    return (theirs / ".git" / "index").read_bytes(), (repo / ".git" / "index").read_bytes(), applied


@pytest.mark.parametrize(
    "paths",
    [
        ["memories/a.md"],  # replaced
        ["memories/new.md"],  # inserted between two
        ["memories/c/f.md"],  # inserted in a subfolder
        ["aaa.md", "zzz.md", "memories/a.md"],  # at the start, at the end, and replaced
        ["memories/" + "x" * 4200 + ".md"],  # a name longer than the flags can count
    ],
)
def test_entries_given_in_the_process_are_what_git_writes(repo: Path, paths: list[str]) -> None:
    sha = blob(repo, "new text\n")
    expected, got, applied = both_ways(repo, {p: ("100644", sha) for p in paths})
    assert applied
    assert got == expected
    assert git(repo, "fsck", "--strict", "--no-progress") == ""
    entries = {e.path: e.id for e in pygit2.Repository(str(repo)).index}
    assert all(str(entries[p]) == sha for p in paths)


def test_a_removed_entry_and_an_absent_one_are_what_git_writes(repo: Path) -> None:
    expected, got, applied = both_ways(repo, {"memories/b.md": None, "memories/never.md": None})
    assert applied
    assert got == expected
    assert "memories/b.md" not in git(repo, "ls-files")


def test_several_kinds_of_change_at_once_are_what_git_writes(repo: Path) -> None:
    sha = blob(repo, "new text\n")
    changes = {"aaa.md": ("100644", sha), "memories/a.md": ("100644", sha), "memories/b.md": None,
               "memories/b0.md": ("100644", sha), "memories/c-d.md": None, "zzz.md": ("100644", sha)}  # fmt: skip
    expected, got, applied = both_ways(repo, changes)
    assert applied
    assert got == expected
    assert git(repo, "fsck", "--strict", "--no-progress") == ""


def test_a_removal_makes_room_for_a_folder_in_the_same_change(repo: Path) -> None:
    sha = blob(repo, "x\n")
    assert GitIndex(repo / ".git" / "index", 20, "sha1").apply({"z.md": None, "z.md/in.md": ("100644", sha)})
    assert "z.md/in.md" in git(repo, "ls-files", "-s")
    assert "z.md\n" not in git(repo, "ls-files")
    assert len(pygit2.Repository(str(repo)).index) == 6


def test_a_big_index_is_never_held_whole(repo: Path) -> None:
    """At 100k memories git's index is 12 MB: a copy of it for each proposal, freed on a worker thread,
    left malloc holding 50-100 MB it never gave back (the server's peak RSS)."""
    sha = blob(repo, "x\n")
    lines = "".join(f"100644 {sha}\tmemories/generated-memory-number-{n:06d}.md\n" for n in range(30_000))
    subprocess.run(
        ["git", "-C", str(repo), "update-index", "--index-info"], input=lines, text=True, check=True
    )
    index = GitIndex(repo / ".git" / "index", 20, "sha1")
    size = (repo / ".git" / "index").stat().st_size
    assert index.apply({"memories/first.md": ("100644", sha)})  # where each entry starts, read once
    tracemalloc.start()
    try:
        assert index.apply({"memories/second.md": ("100644", sha), "memories/a.md": ("100644", sha)})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert size > 3_000_000
    assert peak < size / 4
    assert git(repo, "fsck", "--strict", "--no-progress") == ""
    assert len(git(repo, "ls-files").split()) == 30_008


def test_a_second_change_in_the_same_process_uses_what_it_kept(repo: Path) -> None:
    index = GitIndex(repo / ".git" / "index", 20, "sha1")
    sha = blob(repo, "one\n")
    for number in range(5):
        assert index.apply({f"memories/n{number}.md": ("100644", sha), "memories/a.md": ("100644", sha)})
    listed = git(repo, "ls-files", "-s").splitlines()
    assert [line.split("\t")[1] for line in listed] == sorted(line.split("\t")[1] for line in listed)
    assert sum(sha in line for line in listed) == 6
    git(repo, "update-index", "--add", "--cacheinfo", f"100644,{sha},memories/by-git.md")  # another writer
    assert index.apply({"memories/after.md": ("100644", sha)})
    assert {"memories/by-git.md", "memories/after.md"} <= set(git(repo, "ls-files").split())


def test_the_old_file_is_closed_once_replaced_and_every_descriptor_let_go(repo: Path) -> None:
    """The file each update replaces is closed on a thread of its own (its blocks are freed then, off the
    commit's path): none stays open, whether the update was made or left to git."""

    def index_files_open() -> list[str]:
        found = []
        for fd in os.listdir("/proc/self/fd"):
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                continue
            if "/.git/index" in target:
                found.append(target)
        return found

    index = GitIndex(repo / ".git" / "index", 20, "sha1")
    sha = blob(repo, "one\n")
    for number in range(20):
        assert index.apply({f"memories/n{number}.md": ("100644", sha)})
    assert not index.apply({"memories/a.md/in.md": ("100644", sha)})  # left to git, after opening the file
    deadline = time.monotonic() + 5
    while index_files_open() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert index_files_open() == []
    assert git(repo, "fsck", "--no-progress") == ""


def leaves_it_to_git(repo: Path, changes: dict[str, tuple[str, str] | None]) -> None:
    before = (repo / ".git" / "index").read_bytes()
    assert not GitIndex(repo / ".git" / "index", 20, "sha1").apply(changes)
    assert (repo / ".git" / "index").read_bytes() == before
    assert not (repo / ".git" / "index.lock").exists()


def test_what_is_unusual_is_left_to_git(repo: Path) -> None:
    sha = blob(repo, "x\n")
    new = {"memories/new.md": ("100644", sha)}
    (repo / ".git" / "index.lock").write_text("")  # another program writes the index
    assert not GitIndex(repo / ".git" / "index", 20, "sha1").apply(new)
    assert (repo / ".git" / "index.lock").read_text() == ""  # left as it was
    (repo / ".git" / "index.lock").unlink()
    leaves_it_to_git(repo, {"memories/a.md/inside.md": ("100644", sha)})  # a file where its folder would be
    leaves_it_to_git(repo, {"memories/c": ("100644", sha)})  # a folder where the file would be
    leaves_it_to_git(repo, {"memories/q.md": ("100644", sha), "memories/q.md/r.md": ("100644", sha)})  # both
    leaves_it_to_git(repo, {f"memories/m{n}.md": ("100644", sha) for n in range(MOST + 1)})  # an import
    git(repo, "update-index", "--untracked-cache")
    leaves_it_to_git(repo, new)  # an extension this module does not keep
    git(repo, "update-index", "--no-untracked-cache", "--index-version", "4")
    leaves_it_to_git(repo, new)


def test_an_entry_git_would_check_again_is_left_to_git(repo: Path) -> None:
    sha = blob(repo, "x\n")
    (repo / "memories" / "a.md").write_text("edited in the same second\n")
    git(repo, "add", "memories/a.md")  # its time is the index's own second: git smudges it when it writes
    leaves_it_to_git(repo, {"memories/new.md": ("100644", sha)})


def test_a_path_in_conflict_is_left_to_git(repo: Path) -> None:
    sha = blob(repo, "x\n")
    other = blob(repo, "y\n")
    subprocess.run(["git", "-C", str(repo), "update-index", "--index-info"], check=True, text=True,
                   input=f"0 {'0' * 40}\tmemories/b.md\n100644 {sha} 2\tmemories/b.md\n100644 {other} 3\tmemories/b.md\n")  # fmt: skip
    leaves_it_to_git(repo, {"memories/b.md": ("100644", sha)})
