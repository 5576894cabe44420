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
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if isinstance(entry, dict):
                    yield entry
