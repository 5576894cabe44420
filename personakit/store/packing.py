"""Packing the vault's git repository, in the background, so `.git` stays a small multiple of memories/.

Each commit PersonaKit makes writes a few loose objects, and one of them is the memories/ folder's tree:
about 75 bytes per memory, so 0.5 MB a commit at 10,000 memories. Git's own `gc --auto` would wait for
6,700 loose objects (about 1,700 commits, 0.8 GB there). PersonaKit's rule instead:

- after each commit it makes, and when it opens a vault, it estimates the loose objects as `gc --auto`
  does, from a sample of git's object folders (a few directory listings, microseconds);
- past LOOSE_LIMIT (about 60 commits' worth), or once this process has written LOOSE_BYTES of trees
  stored uncompressed (`store/objects/trees.py` stores a big tree so, to spare the commit the
  compressing; at 100,000 memories that is every 8 commits), it starts a packer and goes on: a
  detached process at low CPU priority (`python -m personakit.store.packing VAULT`) that takes
  `.git/personakit-pack.lock` (no lock a proposal ever waits on; a second packer just leaves) and runs
  `git repack -d -l`, which packs the loose objects into one new pack; git's packs and loose objects
  may be added to while it runs, and only objects already in a pack are removed;
- when more than PACK_LIMIT packs have piled up, the packer expires reflog entries older than git's
  90 days, makes the packs one with `git repack -A -d -l` (objects no commit reaches are kept, loose,
  rather than dropped, so a commit being made meanwhile never loses one) and refreshes the commit-graph.

Nothing here takes git's `index.lock` or `gc.pid`, and only the rare reflog expiry takes a ref's lock
(for as long as rewriting one reflog takes), so a proposal does not wait for packing.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from personakit.store.files import VaultFiles
from personakit.store.objects.trees import STORED

LOOSE_LIMIT = 256  # estimated loose objects past which the packer starts (about 4 per commit)
LOOSE_BYTES = 64 * 1024 * 1024  # or trees stored uncompressed by this process (8 commits at 100k)
PACK_LIMIT = 20  # packs past which the packer makes them one
SAMPLE = ("00", "17", "3f", "5a", "7e", "a5", "cc", "f3")  # object folders counted (of 256)
AGAIN_AFTER = 10.0  # seconds before this process starts another packer
NICENESS = 10  # the packer's (and its git processes') scheduling priority, below everything PersonaKit does
_started = {"at": -AGAIN_AFTER}
_guard = threading.Lock()


def loose_objects(git_dir: Path) -> int:
    """About how many loose objects the repository has, from a sample of its object folders."""
    found = 0
    for folder in SAMPLE:
        try:
            found += len(os.listdir(git_dir / "objects" / folder))
        except FileNotFoundError:
            continue
    return found * 256 // len(SAMPLE)


def maybe_pack(root: Path) -> bool:
    """Start a packer in the background when the repository has piled up loose objects. Never waits."""
    git_dir = root / ".git"
    if not git_dir.is_dir() or (loose_objects(git_dir) <= LOOSE_LIMIT and STORED["bytes"] <= LOOSE_BYTES):
        return False
    with _guard:
        if time.monotonic() - _started["at"] < AGAIN_AFTER:
            return False
        _started["at"] = time.monotonic()
        STORED["bytes"] = 0
    try:
        packer = subprocess.Popen(
            [sys.executable, "-m", "personakit.store.packing", str(root)],
            cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # not the terminal's: Ctrl-C on a command leaves it working
        )  # fmt: skip
    except OSError:
        return False
    threading.Thread(target=packer.wait, name="personakit-packer", daemon=True).start()  # reaps it
    return True


def pack(root: Path) -> bool:
    """Pack the repository's loose objects (and its packs, when too many); False when another packer is
    at it. Git writes the new packs while proposals go on; only removing what they made redundant
    happens under the vault lock, as no git process of PersonaKit's may look an object up meanwhile."""
    git_dir = root / ".git"
    fd = os.open(git_dir / "personakit-pack.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        git = ["git", "-c", "gc.auto=0"]
        folder = git_dir / "objects" / "pack"
        old = {path: path.stat().st_mtime_ns for path in folder.glob("*.pack")}
        whole = len(old) >= PACK_LIMIT
        # -a: every object any commit reaches, in one new pack; else the loose ones, in a new pack.
        subprocess.run([*git, "repack", "-l", "-q", *(["-a"] if whole else [])], cwd=root, check=False)
        with VaultFiles(root).lock(timeout=600):
            if whole:
                subprocess.run([*git, "reflog", "expire", "--all"], cwd=root, check=False)
                for path, mtime in old.items():
                    _remove_pack(path, mtime)
            subprocess.run([*git, "prune-packed", "-q"], cwd=root, check=False)
        if whole:
            subprocess.run([*git, "commit-graph", "write", "--reachable"], cwd=root, check=False)
        return True
    finally:
        os.close(fd)


def _remove_pack(path: Path, mtime: int) -> None:
    """Remove a pack the new one holds, unless git freshened it since (a commit reused an object that
    only it had: then it stays, as git's own gc would keep it)."""
    try:
        if path.stat().st_mtime_ns != mtime or path.with_suffix(".keep").exists():
            return
    except FileNotFoundError:
        return
    for suffix in (".idx", ".rev", ".bitmap", ".mtimes", ".pack"):
        path.with_suffix(suffix).unlink(missing_ok=True)


if __name__ == "__main__":
    try:
        os.nice(NICENESS)  # git's delta search yields the cores to proposals and reads
    except OSError:
        pass
    pack(Path(sys.argv[1]))
