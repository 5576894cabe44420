"""The vault lock: an `fcntl.flock` on `.personakit/vault.lock`, taken for every change to the vault.

It is taken on a new file descriptor each time, so it excludes other threads of this process as well as
other processes; a thread that holds it may take it again. The holder writes its pid and command line
into the file, so a process that waits can say who kept it waiting. The OS frees the lock of a killed
process.
"""

from __future__ import annotations

import builtins
import fcntl
import functools
import itertools
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from personakit.errors import VaultBusy

_HOLDS = itertools.count(1)  # each hold of the lock in this process, numbered (see `holding`)


@contextmanager
def hold(path: Path, held: threading.local, timeout: float = 30.0) -> Iterator[None]:
    """Hold the lock file at path; `held` is this thread's depth of holding it, so it may take it again."""
    if getattr(held, "depth", 0):
        held.depth += 1
        try:
            yield
        finally:
            held.depth -= 1
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)  # never through a link
    try:
        deadline = time.monotonic() + timeout
        seen: dict[str, None] = {}  # who held it while this process waited, in order
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = os.pread(fd, 200, 0).decode(errors="replace").strip()
                if holder and len(seen) < 10:
                    seen[holder] = None
                if time.monotonic() > deadline:
                    raise VaultBusy(_busy(timeout, list(seen))) from None
                time.sleep(0.002)
        os.ftruncate(fd, 0)  # say who holds it, for a process that waits behind this one
        os.pwrite(fd, f"{os.getpid()} {_command()}".encode(), 0)
        held.depth, held.number = 1, next(_HOLDS)
        try:
            yield
        finally:
            held.depth = 0
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def holding(held: threading.local) -> int | None:
    """The number of this thread's hold of the lock (None: it holds none). While it lasts, nothing but this
    thread changes what the lock guards: another hold, here or in another process, has another number."""
    return getattr(held, "number", None) if getattr(held, "depth", 0) else None


@functools.cache
def _command() -> str:
    """This process's command line, shortened, to name it to a process that waits for the vault lock."""
    try:
        args = Path("/proc/self/cmdline").read_bytes().split(b"\0")
        text = " ".join(os.path.basename(a.decode(errors="replace")) if i == 0 else a.decode(errors="replace")
                        for i, a in enumerate(args) if a)  # fmt: skip
    except OSError:
        text = ""
    return (text or "personakit")[:120]


def _busy(timeout: float, holders: builtins.list[str]) -> str:
    """What kept the vault lock from this process, as a sentence."""
    named = [f"pid {h.partition(' ')[0]} ({h.partition(' ')[2]})" for h in holders]
    if len(named) <= 1:
        who = named[0] if named else "another PersonaKit process"
        return (
            f"the vault was busy for {timeout:.0f} s: {who} held its lock the whole time; nothing was changed; "
            "try again when it has finished"
        )
    return (
        f"the vault was busy for {timeout:.0f} s: {len(named)} other PersonaKit processes changed it one after "
        f"another ({', '.join(named[:3])}{' and more' if len(named) > 3 else ''}); nothing was changed; "
        "try again in a moment"
    )
