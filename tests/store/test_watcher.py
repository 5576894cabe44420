"""The watcher hands a file over as soon as it is whole (closed after writing, or moved into place), never
while it may be half-written, and hands every name touched over again once the folder is quiet."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from personakit.store.watcher import MOST_WAIT, Watcher


class Calls:
    def __init__(self) -> None:
        self.seen: list[tuple[frozenset[str], bool]] = []
        self.changed = threading.Condition()

    def __call__(self, names: set[str], settled: bool) -> None:
        with self.changed:
            self.seen.append((frozenset(names), settled))
            self.changed.notify_all()

    def wait_settled(self, seconds: float = 5.0) -> list[tuple[frozenset[str], bool]]:
        deadline = time.monotonic() + seconds
        with self.changed:
            while not any(settled for _, settled in self.seen) and time.monotonic() < deadline:
                self.changed.wait(0.05)
        time.sleep(MOST_WAIT)  # anything more would show by now
        return list(self.seen)


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[tuple[Path, Calls]]:
    folder = tmp_path / "memories"
    folder.mkdir()
    (folder / "tea.md").write_text("old\n")
    calls = Calls()
    watcher = Watcher(folder, calls)
    watcher.start()
    time.sleep(0.2)  # the inotify watch is in place
    yield folder, calls
    watcher.stop()


def test_a_save_in_place_is_handed_over_whole_then_settled(watched: tuple[Path, Calls]) -> None:
    folder, calls = watched
    (folder / "tea.md").write_text("new\n")
    assert calls.wait_settled() == [(frozenset({"tea.md"}), False), (frozenset({"tea.md"}), True)]


def test_a_save_by_rename_is_handed_over_whole(watched: tuple[Path, Calls]) -> None:
    folder, calls = watched
    (folder / ".tea.md.tmp").write_text("new\n")
    os.replace(folder / ".tea.md.tmp", folder / "tea.md")
    assert calls.wait_settled() == [(frozenset({"tea.md"}), False), (frozenset({"tea.md"}), True)]


def test_a_file_still_being_written_is_never_handed_over_as_whole(watched: tuple[Path, Calls]) -> None:
    folder, calls = watched
    with open(folder / "tea.md", "w") as handle:
        handle.write("half")
        handle.flush()
        time.sleep(0.3)  # long past the quiet period, still open
        whole_while_open = [settled for _, settled in calls.seen if not settled]
        handle.write(" and the rest\n")
    assert whole_while_open == []
    assert calls.wait_settled()[-1] == (frozenset({"tea.md"}), True)


def test_vims_rename_dance_ends_with_the_file_whole(watched: tuple[Path, Calls]) -> None:
    """vim renames the file to a backup, writes it anew, then deletes the backup: the name is gone for a
    moment, which must not be handed over as whole (a reader would drop the memory)."""
    folder, calls = watched
    os.rename(folder / "tea.md", folder / "tea.md~")
    (folder / "tea.md").write_text("new\n")
    (folder / "tea.md~").unlink()
    seen = calls.wait_settled()
    assert seen[-1] == (frozenset({"tea.md"}), True)
    assert all(names == {"tea.md"} for names, _ in seen)
    assert (folder / "tea.md").read_text() == "new\n"


def test_a_deletion_waits_for_the_quiet_moment(watched: tuple[Path, Calls]) -> None:
    folder, calls = watched
    (folder / "tea.md").unlink()
    assert calls.wait_settled() == [(frozenset({"tea.md"}), True)]
