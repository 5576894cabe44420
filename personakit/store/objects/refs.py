"""HEAD's branch moved in the process, as `git update-ref -m MESSAGE HEAD NEW OLD` moves it, when nothing
is unusual: a git process for each proposal is 4-7 ms, more on a busy machine.

Done as git's files backend does it: `HEAD.lock` and the branch's `.lock` are made exclusively (another
writer holding either makes this step git's, which waits or says why); the branch's value is read (its
loose file, else `packed-refs`) and compared with OLD; the reflogs of the branch and of HEAD get their
line (`OLD NEW who when<TAB>message`, the message's whitespace folded as git folds it); NEW is written
into the branch's lock, which is renamed over the branch; `HEAD.lock` is removed, HEAD unchanged.

Anything less plain is left to git, nothing changed here: HEAD not on a branch, a branch that is a symbolic
ref, a lock held, a reflog not made yet, reftable refs, and config that changes how git writes refs
(`core.fsync`, `core.preferSymlinkRefs`, `core.logAllRefUpdates` other than true, `core.sharedRepository`
other than a mode such as the vault's 0600, which the files are given). The config is read again whenever
one of git's config files changes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from personakit.store import gitlock
from personakit.store.objects.signing import config_files
from personakit.store.objects.trees import stamp as stamp_of

REF_KEYS = r"^(extensions\.refstorage|core\.(sharedrepository|fsync|fsyncmethod|prefersymlinkrefs|logallrefupdates))$"
_BRANCH = re.compile(r"refs/heads/[A-Za-z0-9._/@+-]+")  # git allows more: those names go to git
_SPACES = re.compile(r"[ \t\n\r]+")


class Moved(Exception):
    """The branch is not at OLD: someone committed meanwhile."""


class Refs:
    def __init__(self, dirs: Callable[[], tuple[Path, Path]], run: Callable[..., str], notes: Path) -> None:
        self._dirs = dirs  # the git folder and the common one
        self._run = run  # runs a git command: run(command, *args) -> its output; raises on failure
        self._notes = notes  # where gitlock's notes go
        self._stamp: tuple[object, ...] | None = None
        self._plain = False
        self._mode: int | None = None  # the mode core.sharedRepository gives files; None: the umask's

    @staticmethod
    def locks(git_dir: Path, common_dir: Path) -> list[Path]:
        """The lock files a move takes (for the start's check for ones a killed process left)."""
        return _locks(git_dir, common_dir, _branch(git_dir))

    def move(self, new: str, old: str | None, message: str, who: str | None) -> None:
        """Move HEAD's branch from old (None: it has no commit yet) to new, here or by git; raises Moved, or
        git's error, when the branch is elsewhere. who: the reflog's "Name <email> seconds zone"."""
        with gitlock.intent(self._notes):  # a kill holding HEAD.lock leaves it to be found dead
            if self._moved(new, old, message, who):
                return
        self._run("update-ref", "-m", message, "HEAD", new, old or "")

    def _moved(self, new: str, old: str | None, message: str, who: str | None) -> bool:
        git_dir, common_dir = self._dirs()
        if who is None or not self._usual(git_dir, common_dir):
            return False
        branch = _branch(git_dir)
        if branch is None:
            return False
        path, locks = common_dir / branch, _locks(git_dir, common_dir, branch)
        taken: list[Path] = []
        try:
            for lock in locks:
                try:
                    fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                except OSError:  # held by another writer, or no folder for it: git waits or says why
                    return False
                taken.append(lock)
                try:
                    if self._mode is not None:  # core.sharedRepository's, as git sets it
                        os.fchmod(fd, self._mode)
                finally:
                    os.close(fd)
            now = _value(path, branch, common_dir)
            if now is False:
                return False
            if now != old:
                raise Moved(branch)
            zero = "0" * len(new)
            line = f"{old or zero} {new} {who}\t{_SPACES.sub(' ', message).strip(' ')}\n".encode()
            logs = (common_dir / "logs" / branch, git_dir / "logs" / "HEAD")
            if not all(log.is_file() for log in logs):
                return False  # git makes them, with their folders, as its config says
            for log in logs:
                with open(log, "ab") as out:
                    out.write(line)
            locks[1].write_bytes(f"{new}\n".encode())
            os.replace(locks[1], path)
            taken.remove(locks[1])
            return True
        finally:
            for lock in taken:
                lock.unlink(missing_ok=True)

    def _usual(self, git_dir: Path, common_dir: Path) -> bool:
        stamp = tuple(map(stamp_of, config_files(git_dir, common_dir)))
        if stamp != self._stamp:
            self._stamp = stamp
            try:
                rows = self._run("config", "--get-regexp", REF_KEYS).splitlines()
            except Exception:  # none is set (git says so by failing)
                rows = []
            settings = dict(row.partition(" ")[::2] for row in rows)
            shared = settings.pop("core.sharedrepository", "umask").lower()
            self._mode = int(shared, 8) & 0o666 if re.fullmatch(r"0[0-7]{3}", shared) else None
            self._plain = (
                not settings.keys() - {"core.logallrefupdates"}
                and settings.get("core.logallrefupdates", "true").lower() in ("true", "yes", "on", "1")
                and (self._mode is not None or shared in ("umask", "false", "no", "off", "0"))
            )
        return self._plain and not (common_dir / "reftable").exists()


def _branch(git_dir: Path) -> str | None:
    """The branch HEAD is on, when its name is a plain one."""
    try:
        head = (git_dir / "HEAD").read_bytes()
    except OSError:
        return None
    branch = head[5:].decode("utf-8", "replace").strip() if head.startswith(b"ref: ") else ""
    if not _BRANCH.fullmatch(branch) or ".." in branch or branch.endswith((".lock", "/", ".")):
        return None
    return branch


def _locks(git_dir: Path, common_dir: Path, branch: str | None) -> list[Path]:
    """HEAD's lock, then the branch's (none when HEAD is on no plain branch)."""
    return [git_dir / "HEAD.lock", *([common_dir / f"{branch}.lock"] if branch else [])]


def _value(path: Path, branch: str, common_dir: Path) -> str | bool | None:
    """The branch's commit (None: no such branch yet; False: a value to leave to git)."""
    try:
        text = path.read_text(encoding="ascii").strip()
        return text if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", text) else False
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError):
        return False
    try:
        packed = (common_dir / "packed-refs").read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError:
        return False
    for row in packed.splitlines():
        sha, _, name = row.partition(" ")
        if name == branch and not row.startswith(("#", "^")):
            return sha
    return None
