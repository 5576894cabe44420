"""A first index of a big vault on two cores: a helper process indexes part of the files meanwhile.

Building the index is reading, parsing and handing each memory to Whoosh, all in Python, so one process
uses one core. When a vault of PARALLEL_FROM files or more has no index yet (a first start, a reindex)
and the machine has a second core, `take_in` gives a share of the files to a helper process
(`python -m personakit.vault.firstindex`): it reads and indexes them into an index of its own under
`.personakit/`, whose segments then move into the vault's index in one commit (`MemoryIndex.adopt`).
The helper takes only plain files (`core.plainfile`); every other file (one with a problem to report, or
that cannot be read) it hands back, and `take_in` loads it as it loads every file, so what is reported
and skipped is the same as without a helper. If the helper fails for any reason, `take_in` indexes its
share itself.
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

from personakit.core.plainfile import read_plain
from personakit.store.files import FileStat, VaultFiles, digest
from personakit.store.index import MemoryIndex
from personakit.vault.state import Vault

log = logging.getLogger("personakit")

PARALLEL_FROM = 5_000  # files from which a first index is shared with a helper process
HELPER_SHARE = 0.5  # of the files (the helper also pays for starting Python and Whoosh)
BATCH = 10_000  # memories per Whoosh commit in the helper, as in `take_in`
PART = "index-part-"  # the helper's index, a folder in .personakit/


class Helper:
    """A helper process indexing `names`; `handed_back()` says which of them `take_in` must load itself."""

    def __init__(self, kit: Vault, share: dict[str, FileStat]) -> None:
        self.kit = kit
        self.names = set(share)
        self.part = kit.files.state / f"{PART}{os.getpid()}"
        shutil.rmtree(self.part, ignore_errors=True)
        command = [sys.executable, "-m", "personakit.vault.firstindex", str(kit.root), str(self.part)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.answer: list[bytes] = []
        self._feed = threading.Thread(target=self._talk, args=(pickle.dumps(share),), daemon=True)
        self._feed.start()

    def _talk(self, request: bytes) -> None:
        try:
            self.answer.append(self.process.communicate(request)[0])
        except OSError:
            pass

    def handed_back(self) -> Iterator[str]:
        """Wait for the helper, take its index in; the names it did not index (all of them if it failed)."""
        self._feed.join()
        code = self.process.wait()
        back: list[str] | None = None
        if code == 0 and self.answer:
            try:
                back = pickle.loads(self.answer[0])
                self.kit.indexed(lambda: self.kit.index.adopt(self.part))
            except Exception as error:
                log.warning(
                    "the helper's share of the first index could not be taken in (%s); indexing it here",
                    error,
                )
                back = None
        elif code != 0:
            log.warning(
                "the helper indexing part of the vault stopped (exit status %s); indexing it here", code
            )
        shutil.rmtree(self.part, ignore_errors=True)
        if back is None:
            yield from sorted(self.names)
            return
        for name in self.names.difference(back):
            self.kit.broken.pop(name, None)  # read fine now, wherever it was read
        yield from back


def start(kit: Vault, on_disk: dict[str, FileStat]) -> Helper | None:
    """A helper for a first index of on_disk, when it is worth one (else None)."""
    for leftover in kit.files.state.glob(f"{PART}*"):  # a killed first index's
        shutil.rmtree(leftover, ignore_errors=True)
    if len(on_disk) < PARALLEL_FROM or kit.index.folder is None or _cores() < 2:
        return None
    names = sorted(on_disk)
    share = names[int(len(names) * (1 - HELPER_SHARE)) :]  # the last files: the parent's come first
    try:
        return Helper(kit, {name: on_disk[name] for name in share})
    except OSError as error:
        log.info("no helper for the first index (%s)", error)
        return None


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def build_part(root: Path, part: Path, share: dict[str, FileStat]) -> list[str]:
    """Index the plain files of share into a new index at part; the names of the others."""
    files = VaultFiles(root)
    index = MemoryIndex(part)
    index.open_fresh()
    back, batch = [], []
    for name, stat in sorted(share.items()):
        try:
            raw = files.read(name)
            memory = read_plain(raw, name)
        except (OSError, UnicodeError):
            memory = None
        if memory is None:
            back.append(name)
            continue
        batch.append((memory, replace(stat, digest=digest(raw))))  # as `intake.load` gives it
        if len(batch) >= BATCH:
            index.update(batch)
            batch = []
    if batch:
        index.update(batch)
    index.close()
    return back


if __name__ == "__main__":
    request = pickle.loads(sys.stdin.buffer.read())
    sys.stdout.buffer.write(pickle.dumps(build_part(Path(sys.argv[1]), Path(sys.argv[2]), request)))
