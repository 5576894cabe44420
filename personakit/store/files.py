"""The vault on disk: where it is, listing memory files, atomic writes, and the vault-wide lock.

Every mutation of the vault (a proposal, an owner's decision, committing a hand edit, updating the index)
happens while holding one lock: an `fcntl.flock` on `.personakit/vault.lock`, taken on a fresh file
descriptor each time so that it excludes threads of one process as well as other processes, and freed by
the OS when its holder dies. Files are replaced atomically (write a temporary file beside the vault,
fsync, rename), so a reader or a kill at any instant sees the whole old file or the whole new one.
"""

from __future__ import annotations

import builtins
import errno
import hashlib
import os
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, suppress
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from personakit.errors import PersonaKitError
from personakit.store.vaultlock import hold, holding

MAX_FILE_BYTES = 1_000_000  # larger files in memories/ are skipped and reported
STATE_DIR = ".personakit"
LEVEL = "level"  # in STATE_DIR: its mtime is a time before which every change to memories/ is indexed
LEVEL_SLACK_NS = 2_000_000_000  # file times come from a coarse clock, and coarser on some file systems


def resolve_vault(path: str | os.PathLike[str] | None = None) -> Path:
    """The vault folder: the argument, else $PERSONAKIT_VAULT, else ~/PersonaKit; always absolute."""
    chosen = path or os.environ.get("PERSONAKIT_VAULT") or "~/PersonaKit"
    return Path(chosen).expanduser().resolve()


def plain_name(name: str) -> bool:
    """Is name a memory file's name: `something.md`, directly in memories/, not hidden?"""
    return (
        name.endswith(".md")
        and "/" not in name
        and "\\" not in name
        and "\0" not in name
        and not name.startswith(".")
    )


LEFTOVERS = (".personakit-sync-", ".personakit-merge-")  # temporary files older syncs and the merge driver
# wrote beside their targets: a kill at the wrong instant left them in memories/ or the vault's root


def leftover(path: str) -> bool:
    """Is path (relative to the vault) a temporary file a killed sync or merge driver left behind?"""
    folder, _, name = path.rpartition("/")
    return folder in ("", "memories") and name.startswith(LEFTOVERS)


def template_dir() -> Path:
    try:
        found = Path(str(resources.files("personakit.vault_template")))
        if (found / "README.md").is_file():
            return found
    except ModuleNotFoundError:
        pass
    return Path(__file__).resolve().parents[2] / "vault-template"  # an editable checkout


@dataclass(frozen=True)
class FileStat:
    """What says a file changed. Size and mtime alone miss an edit that keeps both (`cp -p`, `rsync -t`,
    `touch -r`, coarse timestamps): the inode changes on a replace, and ctime on any write, chmod or
    utime, and no tool can set it back."""

    mtime_ns: int
    size: int
    ctime_ns: int = 0
    inode: int = 0
    digest: str = field(default="", compare=False)  # of the content, when known (see `unchanged`)

    @classmethod
    def of(cls, st: os.stat_result) -> FileStat:
        return cls(st.st_mtime_ns, st.st_size, st.st_ctime_ns, st.st_ino)

    @property
    def fine(self) -> bool:
        """Does ctime tell every change apart? Not where it is kept in whole milliseconds or coarser (FAT
        keeps none, HFS+ and ext2 with small inodes keep seconds): there the content has the last word."""
        return self.ctime_ns % 1_000_000 != 0


def _named(name: str) -> str:
    if not plain_name(name):
        raise PersonaKitError(f"{name!r} is not a memory file name")
    return name


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


class VaultFiles:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.memories = root / "memories"
        self._prefix = os.path.join(self.memories, "")  # memories/ as a string, for `stat` on every read
        self.state = root / STATE_DIR
        self._held = threading.local()  # this thread's hold on the vault lock, so it can take it again

    def is_vault(self) -> bool:
        return (self.root / ".git").exists() and self.memories.is_dir()

    def copy_template(self) -> list[str]:
        """Copy the vault template into root, which must hold nothing but hidden files (an empty Obsidian
        vault's `.obsidian/`, say). Returns the paths it wrote, relative to root, for the first commit."""
        if self.root.exists() and not self.root.is_dir():
            raise PersonaKitError(f"{self.root} is a file, not a folder; choose a folder for the vault")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            strangers = [p.name for p in self.root.iterdir() if not p.name.startswith(".")]
        except OSError as error:
            raise PersonaKitError(
                f"cannot make a vault at {self.root} ({error.strerror or error}); choose a folder you can "
                "write to"
            ) from None
        if strangers:
            shown = ", ".join(sorted(strangers)[:5])
            raise PersonaKitError(
                f"{self.root} already holds files ({shown}) and is not a PersonaKit vault; "
                "choose an empty folder or a new path. Nothing was changed."
            )
        template = template_dir()
        written = []
        try:
            for source in sorted(template.rglob("*")):
                relative = source.relative_to(template)
                if source.is_dir() or relative.parts[0].startswith("__"):
                    continue
                target = self.root / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                if relative.as_posix() == ".gitignore" and target.exists():  # the owner's own: add ours
                    theirs = target.read_text()
                    lines = set(theirs.splitlines())
                    missing = [line for line in source.read_text().splitlines() if line and line not in lines]
                    target.write_text(theirs + ("" if theirs.endswith("\n") or not theirs else "\n")
                                      + "".join(f"{line}\n" for line in missing))  # fmt: skip
                else:
                    shutil.copyfile(source, target)
                written.append(relative.as_posix())
        except OSError as error:
            raise PersonaKitError(
                f"cannot make a vault at {self.root} ({error.strerror or error}); choose a folder you can "
                "write to"
            ) from None
        return written

    def writable(self) -> bool:
        """Can this process change the vault? (False on a read-only mount or without permission.)"""
        return all(os.access(p, os.W_OK) for p in (self.root, self.memories, self.state) if p.exists())

    def ensure_state_dir(self) -> Path:
        (self.state / "tmp").mkdir(parents=True, exist_ok=True)
        return self.state

    def clear_tmp(self) -> None:
        """Remove temporary files a killed process left (call with the lock held)."""
        for left in (self.state / "tmp").glob("write-*"):
            left.unlink(missing_ok=True)
        # A sync writes under this lock, so its leftovers are dead; the merge driver runs inside a git merge,
        # without the lock: only one older than any merge is.
        old = time.time() - 600
        for folder in (self.root, self.memories):
            for prefix in LEFTOVERS:
                for left in folder.glob(f"{prefix}*"):
                    with suppress(OSError):
                        st = left.lstat()
                        if stat.S_ISREG(st.st_mode) and (prefix == LEFTOVERS[0] or st.st_mtime < old):
                            left.unlink()

    def path(self, name: str) -> Path:
        """The path of a memory file; name must be a plain file name ending in .md."""
        return self.memories / _named(name)

    def list(self, private: bool = False) -> dict[str, FileStat]:
        """Every regular .md file directly in memories/ (symlinks are never followed) with its stat; with
        private, a file others may read is made the owner's only first (a hand-made one, an old vault's)."""
        return dict(self.each(private))

    def each(self, private: bool = False) -> Iterator[tuple[str, FileStat]]:
        """`list`'s files one at a time, as the folder lists them."""
        try:
            entries = os.scandir(self.memories)
        except FileNotFoundError:
            return
        with entries:
            for entry in entries:
                name = entry.name
                if name.endswith(".md") and not name.startswith(".") and entry.is_file(follow_symlinks=False):
                    st = entry.stat(follow_symlinks=False)
                    if private and st.st_mode & 0o077:
                        st = _made_private(entry.path, st)
                    yield name, FileStat.of(st)

    def changed_since_level(self) -> builtins.list[str] | None:
        """The files changed (or made) since the index was last level with every file, from one listing
        of memories/ with each file's stat (ctime changes on every write, copy, rename or chmod, and no
        tool sets it back); None when that time is not known (see `mark_level`)."""
        try:
            since = os.stat(self.state / LEVEL).st_mtime_ns - LEVEL_SLACK_NS
            entries = os.scandir(self.memories)
        except OSError:
            return None
        found = []
        with entries:
            for entry in entries:
                if entry.name.endswith(".md") and entry.is_file(follow_symlinks=False):
                    st = entry.stat(follow_symlinks=False)
                    if st.st_ctime_ns >= since or st.st_mtime_ns >= since:
                        found.append(entry.name)
        return found

    def mark_level(self, started_ns: int) -> None:
        """Every change made to memories/ before started_ns is in the index now (a whole pass over the
        files that began then has ended): kept as the mtime of .personakit/level, never moved back."""
        path = self.state / LEVEL
        try:
            if os.lstat(path).st_mtime_ns >= started_ns:
                return
        except FileNotFoundError:
            pass
        except OSError:
            return
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError:
            return
        try:
            os.utime(fd, ns=(started_ns, started_ns))
        except OSError:
            pass
        finally:
            os.close(fd)

    def stat(self, name: str, private: bool = False) -> FileStat | None:
        path = self._prefix + _named(name)  # `path(name)` as a string: a Path costs more than the lstat
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return None
        if not stat.S_ISREG(st.st_mode):  # a link (never followed), a folder, a device: not a memory
            return None
        if private and st.st_mode & 0o077:
            st = _made_private(path, st)
        return FileStat.of(st)

    def unchanged(self, name: str, then: FileStat | None, now: FileStat | None) -> bool:
        """Is memories/name still what it was when `then` was taken (with its digest)? `now` is its stat."""
        if then is None or now is None or then != now:
            return False
        if now.fine:
            return True
        try:  # coarse timestamps: a same-size edit within one tick keeps every stat field
            return bool(then.digest) and digest(self.read(name)) == then.digest
        except (OSError, UnicodeError):
            return False

    def symlinks(self) -> builtins.list[str]:
        try:  # the folder's listing says which entries are links: no stat per file (doctor at 10k: 0.4 s)
            with os.scandir(self.memories) as entries:
                return sorted(e.name for e in entries if e.name.endswith(".md") and e.is_symlink())
        except FileNotFoundError:
            return []

    def read(self, name: str) -> str:
        """The file's text. Raises OSError, or UnicodeDecodeError for a file that is not UTF-8."""
        path = self.path(name)
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)  # a FIFO put there never blocks
        try:  # a memory is a few hundred bytes: read what the file holds, not a buffer of the most it may
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                raise OSError(errno.EINVAL, "not a regular file")
            data = os.read(fd, min(status.st_size, MAX_FILE_BYTES) + 1)
            while len(data) <= MAX_FILE_BYTES and (more := os.read(fd, MAX_FILE_BYTES + 1 - len(data))):
                data += more  # the file grew since fstat
        finally:
            os.close(fd)
        if len(data) > MAX_FILE_BYTES:
            raise OSError(errno.EFBIG, f"larger than {MAX_FILE_BYTES:,} bytes")
        return data.decode("utf-8")

    def write(self, name: str, text: str) -> FileStat:
        """Replace memories/name atomically and durably with text."""
        target = self.path(name)
        tmp_dir = self.ensure_state_dir() / "tmp"
        fd, tmp = tempfile.mkstemp(dir=tmp_dir, prefix="write-", suffix=".md")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(text.encode("utf-8"))
                handle.flush()
                os.fsync(handle.fileno())
            if target.is_symlink():
                raise PersonaKitError(
                    f"memories/{name} is a symbolic link; PersonaKit never writes through one"
                )
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        fsync_dir(self.memories)
        return replace(FileStat.of(os.lstat(target)), digest=digest(text))

    def remove(self, name: str) -> None:
        self.path(name).unlink(missing_ok=True)
        fsync_dir(self.memories)

    def free_name(self, stem: str, suffix: str) -> str:
        """stem.md when free, else stem-suffix.md: readable names, never a collision."""
        for candidate in (f"{stem}.md", f"{stem}-{suffix}.md"):
            if not os.path.lexists(self.memories / candidate):
                return candidate
        n = 2
        while os.path.lexists(self.memories / f"{stem}-{suffix}-{n}.md"):
            n += 1
        return f"{stem}-{suffix}-{n}.md"

    def lock(self, timeout: float = 30.0) -> AbstractContextManager[None]:
        """Hold the vault-wide mutation lock (see the module docstring); a thread may take it again."""
        return hold(self.ensure_state_dir() / "vault.lock", self._held, timeout)

    def holding(self) -> int | None:
        """This thread's hold of the vault lock, numbered (None: it holds none): see `vaultlock.holding`."""
        return holding(self._held)


def _made_private(path: str, st: os.stat_result) -> os.stat_result:
    """Take group and others' permissions off a file; its new stat (a chmod changes ctime)."""
    try:
        os.chmod(path, stat.S_IMODE(st.st_mode) & 0o700)  # a regular file: lstat said so
        return os.lstat(path)
    except OSError:  # not ours to change (a read-only mount): doctor reports it
        return st


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_whole(path: str, text: str) -> None:
    """Replace a file outside memories/ whole (a git setting file, a merged memory git handed us)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".personakit-merge-")
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))
    os.replace(tmp, path)
