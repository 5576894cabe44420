"""Git's own index (`.git/index`): the one the owner's git, Obsidian Git and libgit2 tools read and write.

PersonaKit commits from an index of its own (see `store/history.py`), then gives git's index the paths it
committed, exactly as committed, and nothing else. That takes `.git/index.lock`; when another program
holds it at that moment, the commit has landed already, so nothing fails: the paths are written to
`.personakit/git-index.pending` and set to HEAD's version later (on a timer, with the next commit, or at
the next start). Until then `git status` shows them as changed, and the log says so once.

It also keeps the index in a format every common git reads: version 2 or 3, no split index. PersonaKit 0.1
set `core.splitIndex` and `index.version=4` in the vault's config; libgit2 refuses a split index and
isomorphic-git refuses version 4 (and silently reads a split index as empty).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Protocol

from personakit.errors import PersonaKitError
from personakit.store import gitlock
from personakit.store.objects.gitindex import GitIndex
from personakit.store.objects.trees import BATCH, Change

log = logging.getLogger("personakit")

WAIT = 0.5  # seconds to wait for another program's index.lock before leaving the update for later
RETRIES = 300  # about ten minutes of retries, every 2 s, after which the next start catches up
FORMAT_KEYS = r"^(core\.splitindex|index\.version)$"  # `git config --get-regexp` of the index's format
_SET_BY_0_1 = {("core.splitindex", "true"), ("index.version", "4")}


class Runner(Protocol):
    def __call__(self, command: str, *args: str, wait: float = ...) -> str: ...


class OwnerIndex:
    def __init__(
        self,
        state: Path,
        run: Runner,
        lock: Callable[[], AbstractContextManager[None]] | None = None,
        file: Callable[[], GitIndex] | None = None,
    ) -> None:
        self.state = state
        self.run = run  # runs a git command on git's index; raises PersonaKitError
        self._open = file  # git's index, to be given entries in the process (objects/gitindex.py)
        self._index: GitIndex | None = None
        self._lock = lock
        self._said = False
        self._retry: threading.Timer | None = None
        self._tries = 0

    @property
    def _file(self) -> Path:
        return self.state / "git-index.pending"

    def update(self, changes: dict[str, Change]) -> None:
        """Give git's index the committed entries (vault path -> (mode, id), None: removed). Never raises."""
        wait = 0.0 if self.pending() else WAIT  # known to be held: leave it to the retries, at once
        try:
            self.catch_up(wait)
            if self._direct(changes):  # nothing is pending once caught up
                return
            for batch in _cacheinfo(changes):
                self.run("update-index", "--add", *batch, wait=wait)
        except PersonaKitError as error:
            self._later(list(changes), str(error))

    def _direct(self, changes: dict[str, Change]) -> bool:
        """The entries given in the process, when nothing is unusual (False: git must give them)."""
        if self._open is None:
            return False
        try:
            self._index = self._index or self._open()
            with gitlock.intent(self.state):  # a kill holding index.lock leaves it to be found dead
                return self._index.apply(changes)
        except Exception:  # whatever it was, git's own route gives the entries (and says what fails)
            log.debug("git's index could not be given the entries in the process", exc_info=True)
            return False

    def put_back(self, paths: list[str]) -> None:
        """After a commit that failed: HEAD's entries for paths in git's index again. Never raises."""
        try:
            for at in range(0, len(paths), BATCH):
                self.run("reset", "-q", "--no-refresh", "--", *paths[at : at + BATCH], wait=WAIT)
        except PersonaKitError as error:
            self._later(paths, str(error))

    def catch_up(self, wait: float = WAIT) -> None:
        """Set git's index to HEAD for the paths an earlier commit could not update it for."""
        pending = self.pending()
        if not pending:
            return
        self.run("reset", "-q", "--no-refresh", "--", *sorted(pending), wait=wait)
        self._file.unlink(missing_ok=True)
        self._said = False
        log.info("git's index is up to date again")

    def pending(self) -> set[str]:
        return set(filter(None, text_of(self._file).split("\n")))

    def _later(self, paths: list[str], why: str) -> None:
        pending = self.pending() | set(paths)
        try:
            self._file.write_text("\n".join(sorted(pending)) + "\n")
        except OSError:
            pass
        if not self._said:
            self._said = True
            shown = ", ".join(sorted(pending)[:3]) + (" and more" if len(pending) > 3 else "")
            log.warning(
                "committed, but git's index could not be updated yet (%s); until it is, git status shows "
                "%s as changed. PersonaKit updates it as soon as the lock is free",
                why,
                shown,
            )
        self._schedule(1.0)

    def _schedule(self, delay: float) -> None:
        if self._lock is None or self._retry is not None or self._tries >= RETRIES:
            return  # a process without the vault lock, or one that tried long enough: the next start does it
        self._tries += 1
        self._retry = threading.Timer(delay, self._retry_now)
        self._retry.daemon = True
        self._retry.start()

    def _retry_now(self) -> None:
        self._retry = None
        try:
            with self._lock() if self._lock else nullcontext():
                self.catch_up()
            self._tries = 0
        except Exception:  # still held: try again shortly; a timer thread must never raise
            self._schedule(2.0)

    def stop(self) -> None:
        """Stop retrying (the process is closing the vault); what is pending waits for the next start."""
        self._tries = RETRIES
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None

    def prepare(self, settings: str, index: Path, split: bool) -> None:
        """At start: make git's index readable by every git (see make_readable), and catch up on it."""
        self.make_readable([tuple(line.split(None, 2)) for line in settings.lower().splitlines() if line.strip()],
                           index, split)  # fmt: skip
        try:
            self.catch_up()
        except PersonaKitError as error:
            log.info("git's index waits for another program (%s)", error)

    def make_readable(self, settings: list[tuple[str, ...]], index: Path, split: bool) -> None:
        """Convert git's index to version 2 without a split index, unless the owner's own config asks for
        one. settings are the (scope, key, value) lines of core.splitIndex and index.version."""
        owners = False
        for scope, key, value in settings:
            if scope == "local" and (key, value) in _SET_BY_0_1:
                self.run("config", "--local", "--unset", key)  # 0.1 set it; the owner did not
            else:
                owners = True
        try:
            with open(index, "rb") as handle:
                version = int.from_bytes(handle.read(8)[4:8], "big")
        except OSError:
            return
        if (split or version == 4) and not owners:
            self.run("update-index", "--no-split-index", "--index-version", "2")
            log.info("converted git's index to version 2 without a split index, which every git reads")


def _cacheinfo(changes: dict[str, Change]) -> list[list[str]]:
    """update-index arguments for the entries, in batches that keep each command line short."""
    batches = []
    items = list(changes.items())
    for at in range(0, len(items), BATCH):
        chunk = items[at : at + BATCH]
        args = [a for path, e in chunk if e is not None for a in ("--cacheinfo", f"{e[0]},{e[1]},{path}")]
        gone = [path for path, e in chunk if e is None]
        batches.append(args + (["--force-remove", "--", *gone] if gone else []))
    return batches


def text_of(path: Path) -> str:
    """A small file's text, or "" when it cannot be read."""
    try:
        return path.read_text()
    except OSError:
        return ""
