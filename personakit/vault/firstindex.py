"""A first index of a big vault on two cores: a helper process indexes part of the files meanwhile.

Building the index is reading, parsing and handing each memory to Whoosh, all in Python, so one process
uses one core. When a vault of PARALLEL_FROM files or more has no index yet (a first start, a reindex)
and the machine has a second core, `take_in` gives a share of the files to a helper process
(`python -m personakit.vault.firstindex`): it reads and indexes them into an index of its own under
`.personakit/`, whose segments then move into the vault's index in one commit (`MemoryIndex.adopt`).
The helper takes only plain files (`core.plainfile`: no problem to report but a category outside the
seven, whose problems it sends back for `take_in` to report); every other file (one with another problem,
or that cannot be read) it hands back, and `take_in` loads it as it loads every file. So what is reported
and skipped is the same as without a helper. If the helper fails for any reason, `take_in` indexes its
share itself.

`serve` starts the helper before anything else (`begin`), so that its own start (the vault's modules, the
listing of every file: about half a second at 10k memories) overlaps the helper's work. That helper lists
the files itself, takes the last of them by name and says first where its share begins (so both processes
agree on whose a file is whatever each listed, and the index holds the memories in name order, as one
made in one process does); it says at what stat it read each file, and `take_in` loads again any file
that changed or appeared since, and drops from the index any it took that is gone.
"""

from __future__ import annotations

import logging
import os
import pickle
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from personakit.store.files import STATE_DIR, FileStat, VaultFiles, digest
from personakit.store.private import run_own

if TYPE_CHECKING:  # the helper process imports only what it indexes with (not git, not masking)
    from personakit.vault.state import Vault

log = logging.getLogger("personakit")

PARALLEL_FROM = 5_000  # files from which a first index is shared with a helper process
HELPER_SHARE = 0.5  # of the files (the helper also pays for starting Python and Whoosh)
EARLY_HEAD = 3_000  # memories' worth of work `serve` does before it indexes: an early helper takes more
BATCH = 10_000  # memories handed to Whoosh at once in the helper, as in `take_in`
PART = "index-part-"  # the helper's index, a folder in .personakit/
# The files handed back; those indexed, at the stat read; the problems of those, for the parent to report.
Answer = tuple[list[str], dict[str, FileStat], dict[str, tuple[str, ...]]]

_early: Helper | None = None  # started by `begin`, for the first index `start` is asked for


class Helper:
    """A helper process indexing `names` (or, started early, the last `share` per mille of the files, as it
    lists them: `first` is the name its share begins at); `handed_back()` says which of them `take_in`
    must load itself."""

    def __init__(self, state: Path, request: dict[str, FileStat] | int, kit: Vault | None = None) -> None:
        self.kit = kit
        self.names = set(request) if isinstance(request, dict) else set()
        self.share = None if isinstance(request, dict) else request
        self.first: str | None = None
        self.listed = threading.Event()  # an early one has said where its share begins
        self.on_disk: dict[str, FileStat] = {}
        self.part = state / f"{PART}{os.getpid()}"
        shutil.rmtree(self.part, ignore_errors=True)
        # Its index holds every memory's text, restricted ones too: the owner's only, whoever started it.
        self.process = run_own(
            "personakit.vault.firstindex", str(state.parent), str(self.part),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, umask=0o077,
        )  # fmt: skip
        self.answer: list[bytes] = []
        self._feed = threading.Thread(target=self._talk, args=(pickle.dumps(request),), daemon=True)
        self._sent = False
        if kit is not None:  # an early one waits (its imports done) for `go`, not to slow the handshake
            self.go()

    def go(self) -> None:
        """Send the helper its share: it starts reading and indexing."""
        if not self._sent:
            self._sent = True
            self._feed.start()

    def _talk(self, request: bytes) -> None:
        try:
            assert self.process.stdin and self.process.stdout
            self.process.stdin.write(request)
            self.process.stdin.close()
            if self.share is not None:
                self.first = pickle.load(self.process.stdout)
                self.listed.set()
            self.answer.append(self.process.stdout.read())
        except (OSError, EOFError, pickle.UnpicklingError):
            pass
        finally:
            self.listed.set()
            for pipe in (self.process.stdin, self.process.stdout):
                if pipe is not None:
                    pipe.close()

    def handed_back(self) -> Iterator[str]:
        """Wait for the helper, take its index in; the names it did not index (all of them if it failed), and
        those that changed or appeared since it listed them."""
        assert self.kit is not None
        kit = self.kit
        self._feed.join()
        code = self.process.wait()
        answer: Answer | None = None
        if code == 0 and self.answer:
            try:
                back, indexed, reported = pickle.loads(self.answer[0])
                answer = back, indexed, reported
                kit.index.adopt(self.part)  # not `indexed`: its repair would start a first index again
            except Exception as error:
                log.warning(
                    "the helper's share of the first index could not be taken in (%s); indexing it here",
                    error,
                )
                answer = None
        elif code != 0:
            log.warning(
                "the helper indexing part of the vault stopped (exit status %s); indexing it here", code
            )
        shutil.rmtree(self.part, ignore_errors=True)
        if answer is None:
            yield from sorted(self.names)
            return
        back, indexed, reported = answer
        if gone := [name for name in indexed if name not in self.names]:  # deleted since it listed them
            kit.indexed(lambda: kit.index.update([], gone))
        for name in self.names.difference(back):
            kit.broken.pop(name, None)  # read fine now, wherever it was read
        on_disk = self.on_disk  # an early helper's: what this process listed, to compare with what it read
        changed = [
            n for n, then in indexed.items() if n in on_disk and not kit.files.unchanged(n, then, on_disk[n])
        ]
        for name in sorted(reported.keys() - {*changed, *gone}):  # as `intake.load` reports (changed: there)
            for problem in reported[name]:
                log.info("memories/%s: %s", name, problem)
        yield from [*back, *changed, *sorted(self.names.difference(back, indexed))]

    def stop(self) -> None:
        self.process.kill()
        if self._sent:
            self._feed.join()  # it closes the pipes
        else:
            self.process.communicate()
        shutil.rmtree(self.part, ignore_errors=True)


def begin(root: Path) -> None:
    """Start a first index's helper before anything else (`serve`), when the vault has no index yet, can
    be written and is big enough; `start` gives it to the first index, or `drop` stops it."""
    global _early
    state = root / STATE_DIR
    try:
        if (state / "index").exists() or not VaultFiles(root).is_vault() or _cores() < 2:
            return
        if not state.is_dir():
            state.mkdir(mode=0o700)  # as the vault's start makes it (private, `store.private.tighten`)
        with os.scandir(root / "memories") as entries:
            count = sum(1 for _ in entries)
        if count >= PARALLEL_FROM:  # its share, larger for the head start this process gives it
            _early = Helper(state, int(1000 * min(0.8, (count + EARLY_HEAD) / (2 * count))))
    except OSError as error:
        log.debug("no early helper for the first index (%s)", error)  # the start says what is wrong


def go() -> None:
    """The host's handshake is answered (`mcp.opening`): an early helper may take the second core now."""
    if _early is not None:
        _early.go()


def drop() -> None:
    """Stop an early helper no first index needs (the index was there after all)."""
    global _early
    early, _early = _early, None
    if early is not None:
        early.stop()


def start(kit: Vault, on_disk: dict[str, FileStat]) -> Helper | None:
    """A helper for a first index of on_disk, when it is worth one (else None)."""
    global _early
    early, _early = _early, None
    for leftover in kit.files.state.glob(f"{PART}*"):  # a killed first index's
        if early is None or leftover != early.part:
            shutil.rmtree(leftover, ignore_errors=True)
    if early is not None and kit.index.folder is not None and early.part.parent == kit.files.state:
        early.kit, early.on_disk = kit, on_disk
        early.go()
        early.listed.wait()  # it lists the files as this process did, from when the handshake was answered
        first = early.first
        early.names = set() if first is None else {name for name in on_disk if name >= first}
        return early
    if early is not None:
        early.stop()
    if len(on_disk) < PARALLEL_FROM or kit.index.folder is None or _cores() < 2:
        return None
    names = sorted(on_disk)
    share = names[int(len(names) * (1 - HELPER_SHARE)) :]  # the last files: the parent's come first
    try:
        return Helper(kit.files.state, {name: on_disk[name] for name in share}, kit)
    except OSError as error:
        log.info("no helper for the first index (%s)", error)
        return None


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def build_part(root: Path, part: Path, request: dict[str, FileStat] | int) -> Answer:
    """Index the plain files of the share (or, given a share per mille, of that last part of the files,
    saying first on stdout where it begins) into a new index at part; the names of the others, and the
    stat each indexed file was read at."""
    from personakit.core.plainfile import read_plain  # here: `serve` imports this module before the SDK
    from personakit.store.index import MemoryIndex

    files = VaultFiles(root)
    if isinstance(request, int):  # listed here: each file's stat is taken before it is read
        listed = files.list()
        names = sorted(listed)[int(len(listed) * (1 - request / 1000)) :]
        sys.stdout.buffer.write(pickle.dumps(names[0] if names else "\uffff"))
        sys.stdout.buffer.flush()
        share = {name: listed[name] for name in names}
    else:
        share = request
    index = MemoryIndex(part)
    index.open_fresh()
    back, batch, indexed, reported = [], [], {}, {}
    for name, stat in sorted(share.items()):
        try:
            raw = files.read(name)
            memory = read_plain(raw, name)
        except (OSError, UnicodeError):
            memory = None
        if memory is None:
            back.append(name)
            continue
        if memory.problems:  # a category outside the seven: the parent reports it
            reported[name] = memory.problems
        indexed[name] = replace(stat, digest=digest(raw))  # as `intake.load` gives it
        batch.append((memory, indexed[name]))
        if len(batch) >= BATCH:
            index.update(batch, more=True)  # one writer, one segment: committed below
            batch = []
    index.update(batch)
    index.close()
    return back, indexed, reported


if __name__ == "__main__":
    import personakit.core.plainfile
    import personakit.store.index  # noqa: F401  (imported while it waits for its share)

    request = pickle.loads(sys.stdin.buffer.read())
    sys.stdout.buffer.write(pickle.dumps(build_part(Path(sys.argv[1]), Path(sys.argv[2]), request)))
