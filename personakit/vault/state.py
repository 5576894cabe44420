"""The stores of one open vault, and what the vault's helpers share: the one object they receive.

`Vault` holds the files, the index, the history (git), the intent journal and the one git worker thread,
plus what this process knows of the files (the unreadable ones, the ones saved but not yet committed).
The helpers (`intake`, `writing`, `copies`, `linking`, `firstindex`, `housekeeping`, `moving`) take a
`Vault` and use nothing else; `PersonaKit` (`service`) is a `Vault` that also reads and proposes, and it
supplies `sync`, the one way back in (take in changes on disk), which the helpers may call without
importing the service. Nothing here imports a helper, so the package has no import circle.
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import TypeVar

from personakit.core.memory import InvalidMemory, Memory, parse_memory
from personakit.store.files import FileStat, VaultFiles
from personakit.store.history import History
from personakit.store.index import Hit, MemoryIndex
from personakit.store.journal import Journal

log = logging.getLogger("personakit")
T = TypeVar("T")


class Writes:
    """The memory files this process is writing now, and those it wrote (committed and indexed), each with
    its stat then: the watcher waits for the first and skips the second while they are as written."""

    KEPT = 1024  # files remembered as written; the oldest go first (their events came long ago)

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self.now: set[str] = set()
        self.done: dict[str, FileStat] = {}

    @contextmanager
    def writing(self, names: set[str]) -> Iterator[None]:
        with self._changed:
            self.now |= names
        try:
            yield
        finally:
            with self._changed:
                self.now -= names
                self._changed.notify_all()

    def wrote(self, stats: dict[str, FileStat], removed: Iterable[str]) -> None:
        for name in removed:
            self.done.pop(name, None)
        self.done.update(stats)
        if len(self.done) > self.KEPT:
            for name in list(self.done)[: self.KEPT // 2]:
                self.done.pop(name, None)

    def wait(self, names: set[str], timeout: float = 10.0) -> None:
        """Until none of names is being written by this process (at most timeout seconds)."""
        with self._changed:
            self._changed.wait_for(lambda: not names & self.now, timeout)


class Vault(ABC):
    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = VaultFiles(root)
        self.history = History(root, self.files.lock)
        self.git_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="personakit-git")
        self.writable = self.files.writable()
        # On a vault that cannot be written (a read-only mount), the index is built in memory.
        self.index = MemoryIndex(self.files.state / "index" if self.writable else None, self.files.holding)
        # Files in memories/ that cannot be read: the stat reported, why, and the ids they may belong to.
        self.broken: dict[str, tuple[FileStat, InvalidMemory | OSError | UnicodeError, frozenset[str]]] = {}
        self.unsettled: set[str] = set()  # files the watcher indexed as saved, to commit when quiet
        self.writes = Writes()  # the files this process writes now, and those it wrote
        self.journal = Journal(self.files.state)

    @abstractmethod
    def sync(self, names: Iterable[str] | None = None, commit: bool = True) -> None:
        """Take in changes to the named files (None: every file)."""

    def mutating(self) -> AbstractContextManager[None]:
        """The vault lock, or nothing on a vault that cannot be written (nothing there can change)."""
        return self.files.lock() if self.writable else nullcontext()

    def indexed(self, work: Callable[[], T]) -> T:
        """Run an index operation; if the index is damaged (deleted, truncated), repair it and run it again.

        Under the vault lock, the index is reopened first: another process may have repaired it already.
        Only when it still fails is it thrown away and rebuilt from the files. When the failure dropped a
        first index's earlier parts with their writer (`MemoryIndex.lost`), every file is taken in again."""
        try:
            return work()
        except Exception as error:
            log.warning("the index failed (%s: %s); repairing it from the files", type(error).__name__, error)
        with self.mutating():
            lost, self.index.lost = self.index.lost, False  # a first index's parts, dropped with its writer
            if not self.index.open() and not lost:
                try:
                    return work()
                except Exception:
                    self.index.open_fresh()
            self.sync(None)
        return work()

    def as_written(self, name: str) -> bool:
        """Is memories/name as this process last wrote it (committed and indexed)?"""
        return self.files.unchanged(name, self.writes.done.get(name), self.files.stat(name))

    def current(self, hit: Hit) -> Memory | None:
        """The hit's memory as the file on disk says now: the owner's latest decision always applies."""
        stat = self.files.stat(hit.memory.name)
        if self.files.unchanged(hit.memory.name, hit.stat, stat):
            return hit.memory
        if stat is None:
            return None
        try:
            return parse_memory(self.files.read(hit.memory.name), hit.memory.name)
        except (InvalidMemory, OSError, UnicodeError):
            return None
