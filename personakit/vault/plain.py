"""The memories masking left as they are, kept between runs: a memory is scanned once per vault.

Masking a memory the first time a read shows it costs 0.6-0.9 ms (`core.masking.Plain`), and on a big
vault most memories a read returns were never shown in this process: at 10k memories whose words follow
a Zipf law, that was 6 ms of an 8 ms read for the first thousand reads. A server keeps the keys of the
memories masking found plain in `.personakit/plain`, so the next server does not scan them again.

What is not known plain is masked ahead once the server has answered its host: by a process of its own
when a thousand memories or more may be unknown (a copied vault, a new PersonaKit: `mask_apart`), else in
this process in the quiet moments between calls (`mask_ahead`), which also takes what the other left.

The file is a header naming the rules it was made with, then 16-byte keys, appended as reads find
them (a few hundred bytes at a time; a torn last key is ignored). The rules are those of `core/` (every
module's and data file's size and time, as `doctor`'s record names them): a PersonaKit whose masking
changed starts the file anew. Like everything in `.personakit/`, it can be deleted; a key in it only
ever spares a scan that would have changed nothing.
"""

from __future__ import annotations

import hashlib
import logging
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from personakit.core.masking import MAX_QUOTES, Plain, plain_key
from personakit.core.memory import VISIBLE_STATES, Memory
from personakit.store.private import run_own

log = logging.getLogger("personakit")

CORE = Path(__file__).resolve().parents[1] / "core"
FILE = "plain"
KEY = 16
SAVE_EVERY = 64  # keys found plain before they are appended to the file
PAUSE = 0.0005  # seconds between two memories masked ahead: a read that comes takes the GIL at once
IDLE = 0.05  # seconds since the last read before masking ahead goes on
MOST_BYTES = KEY * 400_000  # 6.4 MB, about 30 MB held: past it (many versions of the files) it starts anew
APART_FROM = 1000  # memories not known plain from which masking ahead starts in a process of its own
NICE = 10  # that process's priority: below the server's and its host's


def core_rules() -> str:
    """Which rules something was worked out with: every core module's and data file's size and time."""
    h = hashlib.blake2b(digest_size=12)
    for path in sorted(CORE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            st = path.stat()
            h.update(f"{path.relative_to(CORE)} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()


class PlainKeeper:
    """A vault's `Plain`, loaded from and appended to `.personakit/plain` (None: kept in memory only)."""

    def __init__(self, state: Path | None) -> None:
        self.plain = Plain()
        self._file = None if state is None else state / FILE
        self._header = b""  # names the rules: worked out at load (a server's), not by every command
        self._loaded = False
        self._lock = threading.Lock()  # one appender at a time; reads only hand their keys over

    @property
    def file(self) -> Path | None:
        return self._file

    def load(self, only_read: bool = False) -> None:
        """Take in the keys kept by earlier runs (a server does, once it has answered its host); a file made
        under other rules is removed, unless only_read (the helper process's load)."""
        if self._file is None or self._loaded:
            return
        self._loaded = not only_read
        self._header = f"personakit plain {core_rules()}\n".encode()
        try:
            data = self._file.read_bytes()
        except OSError:
            return  # none yet
        if not data.startswith(self._header) or len(data) > MOST_BYTES:
            if not only_read:
                self._file.unlink(missing_ok=True)  # other rules: every memory is scanned again
            return
        body = memoryview(data)[len(self._header) :]
        self.plain.keys |= {bytes(body[at : at + KEY]) for at in range(0, len(body) - KEY + 1, KEY)}

    def save(self, at_least: int = SAVE_EVERY) -> None:
        """Append the keys found since the last save, once there are at_least of them."""
        if self._file is None or not self._loaded or len(self.plain.added) < at_least:
            return
        with self._lock:
            added, self.plain.added = self.plain.added, []
            try:
                fresh = not self._file.exists()
                with open(self._file, "ab") as out:
                    if fresh:
                        out.write(self._header)
                    out.write(b"".join(added))
            except OSError as error:  # only a cache: the next run scans these again
                log.debug("could not keep the plain memories: %s", error)

    def take(self, keys: list[bytes]) -> None:
        """Keys another process found plain, kept as a read's own are."""
        new = [key for key in keys if key not in self.plain.keys]
        self.plain.keys.update(new)
        self.plain.added += new
        self.save()


class Calls:
    """The tool calls and hand edits running now, and when the last one ended (monotonic): masking ahead
    waits while one runs or just ran (`until_quiet`). Proposals and edits count too: masking ahead beside
    a burst of proposals made each about 10 ms slower at 10k memories. Use as `with calls:` around each."""

    def __init__(self) -> None:
        self.running = 0
        self.ended = 0.0
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        with self._lock:
            self.running += 1

    def __exit__(self, *_: object) -> None:
        with self._lock:
            self.running -= 1
            self.ended = time.monotonic()

    def busy(self) -> bool:
        return self.running > 0 or time.monotonic() - self.ended < IDLE


def until_quiet(busy: Callable[[], bool], stop: Callable[[], bool]) -> None:
    """Return once no call runs or has just run (busy), or once told to stop: work ahead of reads (masking
    ahead, the common words read ahead) goes in the quiet moments."""
    while busy() and not stop():
        time.sleep(IDLE)


def mask_ahead(
    keeper: PlainKeeper, memories: Iterable[Memory], stop: Callable[[], bool], busy: Callable[[], bool]
) -> int:
    """Mask every memory a read may show that is not known plain yet, one at a time, only while no read
    runs or has just run (busy), so that later reads find most of them plain and no read waits for it
    (a server does it once its host is answered and the common words are read ahead; at 10k memories,
    about 5 s of CPU once per vault, spread over the quiet moments). Returns how many were masked."""
    masked = 0
    for memory in memories:
        until_quiet(busy, stop)
        if stop():
            break
        quotes = memory.evidence[:MAX_QUOTES]
        if memory.state not in VISIBLE_STATES or plain_key(memory.text, quotes) in keeper.plain.keys:
            continue
        keeper.plain.shown(memory.text, quotes)
        masked += 1
        keeper.save()
        time.sleep(PAUSE)
    keeper.save(at_least=1)
    return masked


def start_apart(
    keeper: PlainKeeper, index: Path | None, memories: int, stop: Callable[[], bool]
) -> Callable[[], None]:
    """`mask_apart` on a thread of its own, when at least APART_FROM of the index's memories may not be
    known plain (a small vault's few are masked ahead in this process as quickly). Returns what waits
    for it to end."""
    if index is None or memories - len(keeper.plain.keys) < APART_FROM:
        return lambda: None
    thread = threading.Thread(
        target=mask_apart, args=(keeper, index, stop), name="personakit-apart", daemon=True
    )
    thread.start()
    return thread.join


def mask_apart(keeper: PlainKeeper, index: Path, stop: Callable[[], bool]) -> int | None:
    """Mask ahead in a process of its own (`python -m personakit.vault.plain`), at a low priority: on a big
    vault few memories are known plain at a first start (a copied vault, a new PersonaKit), and masking
    them in this process waits for quiet moments that a host reading at once never leaves, while its GIL
    is the reads'. The process reads the index and the kept keys, never writes, and sends back the keys
    of the memories it finds plain (16 bytes each: no text leaves it). Returns how many came back, or
    None when it could not run or failed (the caller masks ahead here then)."""
    try:
        child = run_own(
            "personakit.vault.plain", str(index), str(keeper.file or ""),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    except OSError as error:
        log.debug("could not mask ahead in a process of its own: %s", error)
        return None
    assert child.stdout is not None
    taken, rest = 0, b""
    try:
        while not stop():
            if not select.select([child.stdout], [], [], 0.2)[0]:
                continue  # the server may be closing
            chunk = os.read(child.stdout.fileno(), KEY * 256)
            if not chunk:
                break
            data = rest + chunk
            whole = len(data) - len(data) % KEY
            keeper.take([data[at : at + KEY] for at in range(0, whole, KEY)])
            taken, rest = taken + whole // KEY, data[whole:]
    finally:
        if child.poll() is None:
            child.kill()  # the server closes: no process of its outlives it
        child.wait()
        child.stdout.close()
    if child.returncode != 0:
        return None
    if taken:
        log.info("masked %s memories ahead in a process of its own", f"{taken:,}")
    return taken


def _apart(index: str, plain_file: str) -> int:
    """The helper process: every memory a read may show that is not known plain, masked; the keys of
    those found plain written to stdout, a few at a time. Ends when the server does."""
    from personakit.store.index import stored_memories  # only the helper process reads the index so

    os.nice(NICE)
    server = os.getppid()
    keeper = PlainKeeper(Path(plain_file).parent if plain_file else None)
    keeper.load(only_read=True)
    found = keeper.plain.added
    sent = 0
    for memory in stored_memories(Path(index)):
        if os.getppid() != server:
            return 0
        if memory.state in VISIBLE_STATES:
            keeper.plain.shown(memory.text, memory.evidence[:MAX_QUOTES])
        if len(found) - sent >= SAVE_EVERY:
            sys.stdout.buffer.write(b"".join(found[sent:]))
            sys.stdout.buffer.flush()
            sent = len(found)
    sys.stdout.buffer.write(b"".join(found[sent:]))
    return 0


if __name__ == "__main__":
    sys.exit(_apart(*sys.argv[1:3]))
