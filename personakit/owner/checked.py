"""What `doctor` found fine, kept for its next run, so that it checks again only the files changed since.

`.personakit/doctor.json` holds, for each memory file that had no problem, the stat it had when it was
checked and what the checks across files need from it (its id, and its text when an assistant may read
it), and the count of likely clashes with the visible memories it was worked out from. A file whose stat
differs (an edit, a replace, a chmod: ctime moves on each) is checked again, and so is one whose stat
cannot tell (coarse timestamps and a change in the last seconds). The record names the rules it was made
with (the size and time of each of PersonaKit's core modules and data files), so a PersonaKit whose rules
changed checks everything. `doctor --full` checks every file and writes the record anew. Like everything
in `.personakit/`, it can be deleted.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from personakit.store.files import FileStat
from personakit.vault.plain import core_rules

SETTLED_NS = 2_000_000_000  # a stat this much older than the run cannot hide a change, even coarse


def rules() -> str:
    """Which rules a record was made with: every core module's and data file's size and time, and doctor's."""
    h = hashlib.blake2b(digest_size=12)
    h.update(core_rules().encode())
    h.update(Path(__file__).with_name("doctor.py").read_bytes())
    return h.hexdigest()


class Checked:
    def __init__(self, state: Path, full: bool = False) -> None:
        self.file = state / "doctor.json"
        self.started = time.time_ns()
        self.rules = rules()
        self._before: dict[str, list[object]] = {}
        self._clashes: list[object] = []
        if not full:
            try:
                record = json.loads(self.file.read_text(encoding="utf-8"))
                if record.get("rules") == self.rules:
                    self._before, self._clashes = record["files"], record["clashes"]
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                pass  # none yet, or unreadable: everything is checked
        self._now: dict[str, list[object]] = {}

    def known(self, name: str, stat: FileStat) -> tuple[str, str | None] | None:
        """(id, visible text or None) of a file found fine with this very stat last time, else None."""
        entry = self._before.get(name)
        if entry is None or entry[:4] != [stat.mtime_ns, stat.size, stat.ctime_ns, stat.inode]:
            return None
        self._now[name] = entry
        return str(entry[4]), None if entry[5] is None else str(entry[5])

    def fine(self, name: str, stat: FileStat, mid: str, visible: str | None) -> None:
        """A file checked now without a problem: kept unless its stat could still hide a change."""
        if stat.fine or stat.ctime_ns < self.started - SETTLED_NS:
            self._now[name] = [stat.mtime_ns, stat.size, stat.ctime_ns, stat.inode, mid, visible]

    def clashes(self, visible: dict[str, str], count: Callable[[], int]) -> int:
        """How many pairs likely clash: worked out again only when the visible memories changed."""
        h = hashlib.blake2b(digest_size=16)
        for mid in sorted(visible):
            h.update(f"{mid}\0{visible[mid]}\0".encode())
        key = h.hexdigest()
        if self._clashes[:1] == [key]:
            return int(self._clashes[1])  # type: ignore[call-overload]
        self._clashes = [key, count()]
        return int(self._clashes[1])  # type: ignore[call-overload]

    def save(self) -> None:
        record = {"rules": self.rules, "files": self._now, "clashes": self._clashes}
        tmp = self.file.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps(record, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, self.file)
        except OSError:  # a vault that cannot be written: the next run checks everything again
            tmp.unlink(missing_ok=True)
