"""The read ledger: one JSON line per assistant read, in `.personakit/reads.jsonl`, never in git.

It rolls over to `reads.1.jsonl` past LEDGER_MOST_BYTES, so it stays bounded. A line cut short by a
crash is skipped when reading; the rest of the ledger still counts.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

log = logging.getLogger("personakit")

LEDGER_MOST_BYTES = 5_000_000


class Ledger:
    def __init__(self, folder: Path) -> None:
        self.path = folder / "reads.jsonl"
        self.older = folder / "reads.1.jsonl"

    def record(self, entry: dict[str, Any]) -> None:
        line = json.dumps(entry, ensure_ascii=False)
        try:
            if self.path.exists() and self.path.stat().st_size > LEDGER_MOST_BYTES:
                os.replace(self.path, self.older)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            with open(fd, "a", encoding="utf-8") as handle:
                handle.write(line + "\n")
        except OSError as error:
            log.debug("the read ledger could not be written: %s", error)

    def entries(self) -> Iterator[dict[str, Any]]:
        """Every entry, oldest first."""
        for path in (self.older, self.path):
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except FileNotFoundError:
                continue
            for line in lines:
                entry = _entry(line)
                if entry is not None:
                    yield entry

    def newest_first(self, containing: str = "") -> Iterator[dict[str, Any]]:
        """Entries, newest first, read from the end of the ledger: asking for the last few reads (or the
        last read of one memory) reads as little of a full ledger as it can. With `containing`, only the
        lines holding that text are parsed at all."""
        for path in (self.path, self.older):
            for line in _lines_backwards(path):
                if containing in line:
                    entry = _entry(line)
                    if entry is not None:
                        yield entry


def _entry(line: str) -> dict[str, Any] | None:
    try:
        entry = json.loads(line)
    except ValueError:
        return None  # a line cut short by a crash
    return entry if isinstance(entry, dict) else None


def _lines_backwards(path: Path, chunk: int = 1 << 16) -> Iterator[str]:
    """The file's lines, last first, read in chunks from its end."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed below, also when the caller stops early)
    except FileNotFoundError:
        return
    with handle:
        end = handle.seek(0, os.SEEK_END)
        rest = b""
        while end > 0:
            start = max(0, end - chunk)
            handle.seek(start)
            block = handle.read(end - start) + rest
            end = start
            lines = block.split(b"\n")
            rest = lines.pop(0) if start > 0 else b""  # maybe cut: joined with the chunk before it
            for line in reversed(lines):
                if line:
                    yield line.decode("utf-8", errors="replace")
        if rest:
            yield rest.decode("utf-8", errors="replace")
