"""Keeping the vault to itself: nothing PersonaKit touches resolves outside it, and only its owner can read it.

- **Inside.** `memories/`, `.personakit/` (and everything in it) and `.git` must be what they seem, not
  symbolic links to somewhere else: PersonaKit would read and write through them. A vault where one is
  a link outside is refused at open with a sentence, and nothing is read or written.
- **Private.** PersonaKit runs with umask 077, so every file it (and git, its child) creates is the
  owner's only; the vault's folders are made 0700 and its files lose group and others' permissions at
  start. `loose` lists what is still readable by others, for `personakit doctor`.
- **Our own code.** A helper process (`run_own`: the packer, the first index's, masking ahead's) runs
  `python -m` from beside this personakit: from any other folder, `-m` imports a `personakit` package
  there first, be it one a remote planted in the vault or one in the folder a host started us from.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from personakit.errors import PersonaKitError
from personakit.store.files import STATE_DIR

PLACES = ("memories", STATE_DIR, ".git")  # what PersonaKit reads and writes in a vault
BESIDE = Path(__file__).resolve().parents[2]  # the folder this personakit is imported from


def run_own(module: str, *args: str, **popen: Any) -> subprocess.Popen[bytes]:
    """`python -m module args`, one of PersonaKit's own modules in a process of its own, run from beside
    this personakit so that it is the one imported (see "Our own code" above)."""
    return subprocess.Popen([sys.executable, "-m", module, *args], cwd=BESIDE, **popen)


def private_umask() -> None:
    """Whatever the owner's umask, files and folders this process and its children make are theirs only."""
    os.umask(0o077)


def refuse_outside(root: Path) -> None:
    """Raise a sentence when a place PersonaKit uses is a link that leads out of the vault."""
    for place in PLACES:
        path = root / place
        # A link to elsewhere in the vault is refused too, but for .git: git itself refuses to commit a
        # memory file through a linked memories/, and a link in .personakit/ is not what it seems.
        if path.is_symlink() and (place != ".git" or not _inside(path, root)):
            raise PersonaKitError(
                f"{path} is a symbolic link (to {os.path.realpath(path)}); PersonaKit reads and writes only "
                f"the vault's own folders, never through a link: replace it with the folder itself. "
                "Nothing was read or changed"
            )
    state = root / STATE_DIR
    if state.is_dir() and not state.is_symlink():
        for path in _walk(state):
            if path.is_symlink():
                raise PersonaKitError(
                    f"{path} is a symbolic link; PersonaKit never reads or writes through one in its own "
                    f"state: delete it (everything in {STATE_DIR}/ is rebuilt). Nothing was read or changed"
                )


def _inside(path: Path, root: Path) -> bool:
    real = os.path.realpath(path)
    return real == str(root) or real.startswith(str(root) + os.sep)


def tighten(root: Path) -> None:
    """Make the vault its owner's only; cheap enough for every start. `.git/objects` and memories/ are
    walked only while their folder is still open to others, as an older vault's is (memory files are
    also made private one by one as they are taken in: `VaultFiles.list`)."""
    git_was_open = _mode(root / ".git") & 0o077
    memories_were_open = _mode(root / "memories") & 0o077
    for folder in (root, root / "memories", root / STATE_DIR, root / ".git"):
        _private(folder)
    if memories_were_open and not (root / "memories").is_symlink():
        for path in _walk(root / "memories"):
            _private(path)
    for entry in os.scandir(root):  # README.md, .gitignore: copied from the template with its modes
        if entry.is_file(follow_symlinks=False):
            _private(Path(entry.path))
    state = root / STATE_DIR
    if state.is_dir():
        for path in _walk(state):
            _private(path)
    git = root / ".git"
    if git.is_dir() and not git.is_symlink():
        for path in _walk(git, skip=() if git_was_open else ("objects",)):
            if not path.name.endswith(".lock"):  # another program's lock (index.lock, a ref's): its holder's
                _private(path)


def loose(root: Path) -> dict[str, list[str]]:
    """What others may read, by place: {"memories": [paths relative to root], ...}; links are not counted."""
    found: dict[str, list[str]] = {}
    if _mode(root) & 0o077:
        found.setdefault(".", []).append(".")
    for entry in os.scandir(root):
        if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mode & 0o077:
            found.setdefault(".", []).append(entry.name)
    for place in PLACES:
        top = root / place
        if not top.is_dir() or top.is_symlink():
            continue
        for path in (top, *_walk(top)):
            if not path.is_symlink() and _mode(path) & 0o077:
                found.setdefault(place, []).append(str(path.relative_to(root)))
    return found


def _walk(top: Path, skip: tuple[str, ...] = ()) -> Iterator[Path]:
    """Everything under top, links included but never followed."""
    try:
        entries = list(os.scandir(top))
    except OSError:
        return
    for entry in entries:
        path = Path(entry.path)
        yield path
        if entry.is_dir(follow_symlinks=False) and entry.name not in skip:
            yield from _walk(path)


def _mode(path: Path) -> int:
    try:
        return stat.S_IMODE(os.lstat(path).st_mode)
    except OSError:
        return 0


def _private(path: Path) -> None:
    try:
        st = os.lstat(path)
        if st.st_mode & 0o077 and not stat.S_ISLNK(st.st_mode):
            os.chmod(path, stat.S_IMODE(st.st_mode) & 0o700)
    except OSError:  # not ours to change (a read-only mount): doctor reports it
        pass
