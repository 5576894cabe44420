"""Watching memories/ for changes made by anyone else: editors, Obsidian, git, other processes.

Event types are not trusted to say what happened (an editor's save can arrive as a modify, a create, a
move onto the file, or a rename dance with backup and swap files): the caller stats each name it is
handed to learn that. They are trusted to say when a file is whole:

- a file closed after writing, or moved onto its name, is whole now: it is handed over at once, to be
  taken into the index (`on_change(names, False)`), so that reads see an editor's save within
  milliseconds;
- a file modified but not yet closed may be half-written, and a file moved away or deleted may come back
  (vim renames the file to a backup, then writes it anew): these wait;
- every name touched, whole or not, is handed over again once the folder has been quiet for a moment
  (`on_change(names, True)`), to be committed: a burst of saves becomes one commit, and a file written
  by something that never closes it is still taken in.

The only module that imports watchdog.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from watchdog.events import (
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer

log = logging.getLogger("personakit")

QUIET = 0.08  # seconds without events before the names touched are handed over to be committed
MOST_WAIT = 0.5  # they are handed over at the latest this long after the first of them was touched


class _Collector(FileSystemEventHandler):
    def __init__(self, folder: Path, touched: Callable[[str, bool], None]) -> None:
        self.folder = str(folder)
        self.touched = touched

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return  # reading a file (our own sync does) changes nothing
        dest = getattr(event, "dest_path", "")
        for path, whole in ((event.src_path, event.event_type == "closed"), (dest, True)):
            path = os.fsdecode(path) if path else ""
            if path.endswith(".md") and os.path.dirname(path) == self.folder:
                self.touched(os.path.basename(path), whole)


class Watcher:
    """Calls on_change(names, settled) from its own thread: with False as soon as files are whole, with True
    after each quiet moment."""

    def __init__(self, folder: Path, on_change: Callable[[set[str], bool], None]) -> None:
        self.folder = folder
        self.on_change = on_change
        self._whole: set[str] = set()
        self._pending: set[str] = set()
        self._first = 0.0
        self._last = 0.0
        self._cond = threading.Condition()
        self._stopping = False
        self._observer = Observer()
        self._observer.daemon = True
        # Opens and closes-without-writing are left out of the inotify mask: PersonaKit reads every file
        # at start, and each read would otherwise cost two events handled in Python.
        changes = [FileCreatedEvent, FileModifiedEvent, FileDeletedEvent, FileMovedEvent, FileClosedEvent]
        self._observer.schedule(
            _Collector(folder, self._touched), str(folder), recursive=False, event_filter=changes
        )
        self._worker = threading.Thread(target=self._deliver, name="personakit-watch", daemon=True)

    def start(self) -> None:
        self._observer.start()
        self._worker.start()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._observer.stop()
        if self._observer.is_alive():
            self._observer.join(timeout=2)
        if self._worker.is_alive() and threading.current_thread() is not self._worker:
            self._worker.join(timeout=5)

    def _touched(self, name: str, whole: bool) -> None:
        with self._cond:
            now = _now()
            if not self._pending:
                self._first = now
            self._pending.add(name)
            if whole:
                self._whole.add(name)
            else:
                self._whole.discard(name)  # written again (or gone) since: wait for it to be whole again
            self._last = now
            self._cond.notify_all()

    def _deliver(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._stopping:
                    self._cond.wait()
                if self._stopping:
                    return
                settled = False
                if self._whole:
                    names, self._whole = self._whole, set()
                else:
                    wait = min(self._last + QUIET, self._first + MOST_WAIT) - _now()
                    if wait > 0:
                        self._cond.wait(wait)
                        continue
                    names, self._pending, settled = self._pending, set(), True
            try:
                self.on_change(names, settled)
            except Exception:  # a failing batch must never stop the watcher
                log.exception("could not take in changes to %s", ", ".join(sorted(names)))


def _now() -> float:
    return time.monotonic()
