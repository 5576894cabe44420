"""The read ledger: one JSON line per assistant read, in `.personakit/reads.jsonl`, never in git.

It rolls over to `reads.1.jsonl` past LEDGER_MOST_BYTES, so it stays bounded. A line cut short by a
crash is skipped when reading; the rest of the ledger still counts.

`AskedWords` keeps, beside it, the words tested against restricted memories today
(`.personakit/asked-YYYY-MM-DD`): `core.withholding` lets at most NEW_WORDS_A_DAY distinct words a UTC
day make a restricted memory count in `withheld`, and the day's words are kept in the vault's machine
state so that neither a restart nor a second server refills the allowance. Every process on the vault
appends to one file, one line per word (a short keyed digest, not the word), under an `flock` of that
file, and reads what the others appended since it last looked (one `stat` per read when nothing
changed). Other days' files are removed when a new day's file is made. Deleting the file (as all of
`.personakit/` may be) gives the day's allowance back: the owner's to do, not an assistant's. A vault
that cannot be written (a read-only mount) keeps the day's words in memory only.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from personakit.core.withholding import NEW_WORDS_A_DAY, admitted

log = logging.getLogger("personakit")

LEDGER_MOST_BYTES = 5_000_000
PREFIX = "asked-"  # the day's words tested against restricted memories


def today() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d")


def _key(term: str) -> str:
    return hashlib.blake2b(term.encode("utf-8"), digest_size=8, person=b"pk-asked").hexdigest()


class Ledger:
    def __init__(self, folder: Path) -> None:
        self.path = folder / "reads.jsonl"
        self.older = folder / "reads.1.jsonl"

    def record(self, entry: dict[str, Any]) -> None:
        """Append the entry, one `write` of one line (a lone surrogate a host sent as JSON escapes it:
        `\\udfff`); a full ledger becomes the older half first. An entry not written never fails the read."""
        line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8", "backslashreplace")
        try:
            if not self._append(line, LEDGER_MOST_BYTES):
                os.replace(self.path, self.older)
                self._append(line, None)
        except OSError as error:
            log.debug("the read ledger could not be written: %s", error)

    def _append(self, line: bytes, most: int | None) -> bool:
        """Write the line at the ledger's end, unless the ledger is past `most` bytes. Whether it wrote."""
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            if most is not None and os.fstat(fd).st_size > most:
                return False
            os.write(fd, line)
            return True
        finally:
            os.close(fd)

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


class AskedWords:
    def __init__(self, folder: Path | None, most: int = NEW_WORDS_A_DAY) -> None:
        self.folder = folder  # None: kept in memory only
        self.most = most
        self._day = ""
        self._known: set[str] = set()
        self._offset = 0  # bytes of the day's file read so far (whole lines only)
        self._guard = threading.Lock()

    def admit(self, terms: list[str], spend: bool = True, day: str | None = None) -> list[str]:
        """The terms that may make a restricted memory count now. With spend, the new ones among them
        are remembered for the day (and use up the allowance); without (the owner's own search), the
        answer is the same as an assistant's but nothing is kept."""
        keys = [_key(t) for t in terms]
        with self._guard:
            self._turn(day or today())
            self._catch_up(None)
            if all(k in self._known for k in keys):
                return terms
            if not spend or self.folder is None:
                counting, new = admitted(keys, self._known, self.most - len(self._known))
                if spend:
                    self._known.update(new)
                allowed = set(counting)
            else:
                allowed = self._spend(keys)
        return [t for t, k in zip(terms, keys, strict=True) if k in allowed]

    def _spend(self, keys: list[str]) -> set[str]:
        assert self.folder is not None
        try:
            fd = os.open(self._path(), os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError as error:
            log.debug("the day's asked words could not be kept: %s", error)
            counting, new = admitted(keys, self._known, self.most - len(self._known))
            self._known.update(new)
            return set(counting)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._catch_up(fd)
            counting, new = admitted(keys, self._known, self.most - len(self._known))
            if new:
                written = "".join(f"{k}\n" for k in new).encode()
                os.write(fd, written)
                self._known.update(new)
                self._offset += len(written)
            return set(counting)
        finally:
            os.close(fd)  # frees the flock

    def _path(self) -> Path:
        assert self.folder is not None
        return self.folder / f"{PREFIX}{self._day}"

    def _turn(self, day: str) -> None:
        """A new day: forget yesterday's words, and remove other days' files."""
        if day == self._day:
            return
        self._day, self._known, self._offset = day, set(), 0
        if self.folder is None:
            return
        for old in self.folder.glob(f"{PREFIX}*"):
            if old.name != f"{PREFIX}{day}":
                old.unlink(missing_ok=True)

    def _catch_up(self, fd: int | None) -> None:
        """Take in the lines other processes appended since the last look."""
        if self.folder is None:
            return
        try:
            if fd is None:
                if os.stat(self._path()).st_size <= self._offset:
                    return
                with open(self._path(), "rb") as handle:
                    handle.seek(self._offset)
                    data = handle.read()
            else:
                data = os.pread(fd, max(0, os.fstat(fd).st_size - self._offset), self._offset)
        except FileNotFoundError:
            return
        whole = data[: data.rfind(b"\n") + 1]  # a line being appended is read next time
        self._known.update(whole.decode("ascii", "replace").split())
        self._offset += len(whole)
