"""The intent journal: what a write is about, recorded before the write, so a kill cannot change its author.

A proposal writes its file, then commits it. A process killed between the two leaves a file that git
sees changed, and the next pass would commit it as the owner's hand edit. So before writing, the writer
records its intent in `.personakit/intents/`: the commit message, the author, and for each path the
digest of what it is about to write, or nothing for a file it removes. It is written before the file it
is about, so a kill at any instant finds it; its fsync (against a power cut) runs on another thread
while the file is written and committed, and is done before the write is answered. After the commit (or
after putting the old files back when git refused), it removes the intent.

Every write and every pass that takes in changes holds the vault lock, so an intent found by such a pass
belongs to a process that died. A leftover intent is used only for the paths whose content is still
exactly what it intended; anything changed since is the owner's edit, as before.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from personakit.store.files import digest, fsync_dir


@dataclass(frozen=True)
class Intent:
    path: Path  # the intent's own file
    contents: dict[str, str | None]  # vault path -> digest of the content to be written there (None: removed)
    message: str
    author: tuple[str, str] | None


class Journal:
    def __init__(self, state: Path) -> None:
        self.folder = state / "intents"

    @contextmanager
    def intent(
        self, contents: dict[str, str | None], message: str, author: tuple[str, str] | None
    ) -> Iterator[None]:
        """Record the intent (contents: vault path -> new text, or None to remove the file) for the
        duration of the write."""
        self.folder.mkdir(exist_ok=True)
        path = self.folder / f"{secrets.token_hex(8)}.json"
        record = {
            "contents": {p: None if text is None else digest(text) for p, text in contents.items()},
            "message": message,
            "author": list(author) if author else None,
        }
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            os.write(fd, json.dumps(record).encode("utf-8"))
        except BaseException:
            os.close(fd)
            raise
        # Written: a process killed from here on leaves it for the next start. Made durable (against a
        # power cut) on another thread, while this one writes the file it is about; both before the answer.
        durable = threading.Thread(target=_fsync, args=(fd, self.folder), daemon=True)
        durable.start()
        try:
            yield
        finally:
            durable.join()
            path.unlink(missing_ok=True)

    def leftovers(self) -> list[Intent]:
        """Intents of writers that died (call with the vault lock held); unreadable ones are removed, as a
        kill while writing an intent comes before the write it announces."""
        found = []
        try:
            paths = sorted(self.folder.glob("*.json"))
        except OSError:
            return []
        for path in paths:
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
                author = record["author"]
                found.append(
                    Intent(
                        path,
                        {str(p): None if d is None else str(d) for p, d in record["contents"].items()},
                        str(record["message"]),
                        (str(author[0]), str(author[1])) if author else None,
                    )
                )
            except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
                path.unlink(missing_ok=True)
        return found


def _fsync(fd: int, folder: Path) -> None:
    try:
        os.fsync(fd)
        fsync_dir(folder)
    except OSError:  # a disk that cannot fsync: the file is written all the same
        pass
    finally:
        os.close(fd)
