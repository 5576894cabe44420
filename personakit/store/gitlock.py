"""Who holds git's `index.lock`, and when a lock file that nobody holds may be removed.

git takes `.git/index.lock` to change its index and leaves it behind when it is killed; every git command
then refuses to touch the index until someone removes it. PersonaKit removes one only when it is sure the
lock is dead, because removing a live one lets two programs write the index at once:

- no process has the file open (read from `/proc/*/fd`, whatever the process is called: Obsidian Git,
  tools built on libgit2 or isomorphic-git hold it too), and
- no `git` process works in the vault (a `git commit` waiting for its editor has closed the file but
  still owns the lock), and
- either it is older than `STALE_AFTER`, or a PersonaKit process that died in the middle of a git command
  left a note saying it started that command just before the lock appeared.

Ten minutes covers holders `/proc` cannot show (another machine on a network share, a container, another
user's process): no git command that takes the index lock runs that long without an open file or a live
git process. Without `/proc` (macOS), only the age counts.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from personakit.errors import PersonaKitError

log = logging.getLogger("personakit")

STALE_AFTER = 600.0  # seconds: see the module docstring
_INTENT = "git-intent-"  # + pid: a PersonaKit process is running a git command that may take index.lock


@dataclass(frozen=True)
class Holder:
    pid: int
    name: str

    def __str__(self) -> str:
        return f"{self.name} (pid {self.pid})"


def process_name(pid: int) -> str:
    """A process's name as a person knows it: its command's file name (`Obsidian`, `git`), else `comm`."""
    try:
        argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode(errors="replace")
        if argv0:
            return os.path.basename(argv0)
    except OSError:
        pass
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() or "a process"
    except OSError:
        return "a process"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def open_by(path: Path) -> list[Holder]:
    """Processes (other than this one) that have path open, found in /proc."""
    wanted = str(path)
    found = []
    for pid in _pids():
        if pid == os.getpid():
            continue
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue  # gone, or another user's: the age rule covers what cannot be seen
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") == wanted:
                    found.append(Holder(pid, process_name(pid)))
                    break
            except OSError:
                continue
    return found


def git_working_in(*folders: Path) -> list[Holder]:
    """Processes named git whose working folder is inside one of folders."""
    roots = [str(f) for f in folders]
    found = []
    for pid in _pids():
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip() != "git":
                continue
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        if any(cwd == r or cwd.startswith(r + "/") for r in roots):
            found.append(Holder(pid, "git"))
    return found


@dataclass(frozen=True)
class LockState:
    holders: list[Holder]  # who holds it, when anyone visibly does
    age: float  # seconds since the lock file was written; -1 when it is gone
    stale: bool  # safe to remove

    def who(self) -> str:
        """Who holds it, as a phrase for a sentence."""
        if self.holders:
            return ", ".join(str(h) for h in self.holders[:3])
        return f"no running program this machine can see (it is {self.age:.0f} s old)"


def examine(lock: Path, worktree: Path, git_dir: Path, notes: Path) -> LockState:
    """Is lock held, and by whom; or is it stale (see the module docstring)?"""
    try:
        written = lock.stat().st_mtime
    except FileNotFoundError:
        return LockState([], -1.0, False)
    age = time.time() - written
    if not os.path.isdir("/proc"):
        return LockState([], age, age >= STALE_AFTER)
    holders = open_by(lock) or git_working_in(worktree, git_dir)
    if holders:
        return LockState(holders, age, False)
    return LockState([], age, age >= STALE_AFTER or _left_by_dead_personakit(notes, written))


def _left_by_dead_personakit(notes: Path, written: float) -> bool:
    """Did a PersonaKit process die inside a git command that began just before the lock was written?"""
    try:
        entries = list(notes.glob(_INTENT + "*"))
    except OSError:
        return False
    for note in entries:
        pid = _pid(note)
        try:
            started = note.stat().st_mtime
        except OSError:
            continue
        if pid.isdigit() and not alive(int(pid)) and written >= started - 1.0:
            return True
    return False


def _pid(note: Path) -> str:
    """The process a note is of: `git-intent-PID.THREAD` (or `git-intent-PID`, as older ones are named)."""
    return note.name.removeprefix(_INTENT).partition(".")[0]


def clear_if_stale(locks: list[Path], worktree: Path, git_dir: Path, notes: Path) -> None:
    """At start: remove each lock that is stale, then the notes dead PersonaKit processes left."""
    for lock in locks:
        if lock.exists() and examine(lock, worktree, git_dir, notes).stale:
            lock.unlink(missing_ok=True)
            log.info("removed a stale %s that no running program held", lock)
    for note in notes.glob(_INTENT + "*"):
        pid = _pid(note)
        if pid.isdigit() and not alive(int(pid)):
            note.unlink(missing_ok=True)


def run_taking(
    run: Callable[[], str], lock: Path, worktree: Path, git_dir: Path, notes: Path, wait: float
) -> str:
    """Run a git command that takes lock. Wait up to `wait` s for another program's lock, remove a dead
    one's, and raise PersonaKitError naming the holder when it stays held. git's own errors pass through."""
    deadline = time.monotonic() + wait
    while True:
        try:
            with intent(notes):
                return run()
        except Exception as error:
            if "index.lock" not in str(error):
                raise
        held = examine(lock, worktree, git_dir, notes)
        if held.age < 0 and time.monotonic() <= deadline:
            continue  # released meanwhile
        if held.stale:
            lock.unlink(missing_ok=True)
            log.info("removed a stale %s that no running program held", lock)
            continue
        if time.monotonic() > deadline:
            raise PersonaKitError(
                f"{lock} is held by {held.who()}" if held.age >= 0 else f"{lock} stayed busy"
            )
        time.sleep(0.05)


@contextmanager
def intent(notes: Path) -> Iterator[None]:
    """Leave a note, for as long as a git command that may take a lock runs, that this process runs it (a
    note for each thread: git's index and HEAD's branch are changed at once, by two threads)."""
    note = notes / f"{_INTENT}{os.getpid()}.{threading.get_ident()}"
    try:
        note.touch()
    except OSError:  # a vault that cannot be written takes no lock
        yield
        return
    try:
        yield
    finally:
        note.unlink(missing_ok=True)
