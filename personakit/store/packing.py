"""Packing the vault's git repository, in the background, so `.git` stays a small multiple of memories/.

Each commit PersonaKit makes writes a few loose objects, and one of them is the memories/ folder's tree:
about 75 bytes per memory, so 0.75 MB a commit at 10,000 memories. Git's own `gc --auto` would wait for
6,700 loose objects (about 1,700 commits, 1.3 GB there). Packed, consecutive memories/ trees differ by
an entry or two, so each can be a delta of a few dozen bytes against the one before; but git's default
delta depth (50) cuts those chains so often that, on 100,000 commits, most trees end up as deltas against
a tree hundreds of commits away (about 1.35 KB each) and git's own `gc` leaves `.git` at 5.2 times
memories/. Depth costs no more CPU (the delta search's window is what costs), but longer chains cost
whoever reads old trees: at depth 1000, `git log -- FILE` over 100,000 commits takes 1.85 times as long
as at 50 (4 times at git's maximum, 4095), while PersonaKit's own `show` and `log` do not slow down
(docs/performance.md has the figures). PersonaKit's rule:

- after each commit it makes it estimates the loose objects as `gc --auto` does, from a sample of git's
  object folders (a few directory listings, microseconds); when it opens a vault whose packs take
  DEEP_FROM or more, it also looks at the packer's record (`.git/personakit-pack.json`) to see whether
  a day has passed since the packer last looked at the repository as a whole;
- past LOOSE_LIMIT loose objects (about 60 commits' worth), or once this process has written LOOSE_BYTES
  of trees stored uncompressed (`store/objects/trees.py` stores a big tree so, to spare the commit the
  compressing; at 100,000 memories that is every 8 commits), or on that daily look, it starts a packer
  and goes on: a detached process at low CPU priority (`python -m personakit.store.packing VAULT`) that
  takes `.git/personakit-pack.lock` (no lock a proposal ever waits on; a second packer just leaves);
- the packer measures, then picks the cheapest repack that does: the loose objects into one new pack
  (`git repack -l`: seconds); past PACK_LIMIT packs, all packs into one, keeping the deltas already
  found (`repack -a`); and, when the packs take more than DEEP_RATIO times memories/ and the repository
  has grown by DEEP_GROWTH since the last time, all packs into one with every delta searched again
  (`repack -a -f`, at DEPTH: minutes of CPU at 100,000 commits, so rarely);
- git writes the new pack while proposals go on. What it makes redundant (the loose copies, the old
  packs) is removed GRACE seconds later, without any lock: a git process that started before the new
  pack existed may look an object up without looking for new packs (`write-tree` does), and none of
  PersonaKit's runs that long. An old pack that git freshened meanwhile (a commit reused an object only
  it had) is kept, as git's own gc keeps it. Reflog entries past git's 90 days are expired under the
  vault lock, only when there are such entries (a proposal may wait for that, at most once a day);
- each run appends what it did and the CPU it took (its own and its git processes') to the record, so
  the CPU the packer spends is known (`bench/` reports it).
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from personakit.store.files import VaultFiles
from personakit.store.objects.trees import STORED
from personakit.store.private import run_own

LOOSE_LIMIT = 256  # estimated loose objects past which the packer starts (about 4 per commit)
LOOSE_BYTES = 64 * 1024 * 1024  # or trees stored uncompressed by this process (8 commits at 100k)
PACK_LIMIT = 20  # packs past which the packer makes them one
DEPTH = 1000  # delta chains this long: .git 2.1x memories/ at 100k commits (4095: 1.8x, 250: 3.1x)
WINDOW = 10  # git's default: a wider window costs CPU in proportion and saved little here
DEEP_RATIO = 2.0  # packs over this many times memories/ on disk get their deltas searched again
DEEP_GROWTH = 1.25  # ... once the repository has this many times the objects it had at the last such run
DEEP_FROM = 16 * 1024 * 1024  # ... and packs of at least this size (a small vault's packs are cheap anyway)
LOOK_EVERY = 24 * 3600.0  # seconds between the packer's looks at the whole repository, started at open
GRACE = 10.0  # seconds between writing a new pack and removing what it replaces
SAMPLE = ("00", "17", "3f", "5a", "7e", "a5", "cc", "f3")  # object folders counted (of 256)
ALL = tuple(f"{i:02x}" for i in range(256))  # the packer counts them all: 256 listings, a few ms
AGAIN_AFTER = 10.0  # seconds before this process starts another packer
NICENESS = 10  # the packer's (and its git processes') scheduling priority, below everything PersonaKit does
REFLOG_DAYS = 90  # git's gc.reflogExpire
RECORD = "personakit-pack.json"  # under .git: the packer's runs (what, when, CPU), the last few kept
KEPT_RUNS = 50
ROUNDS = 5  # looks (and repacks) per packer at most: a repack, then what was committed meanwhile
AGAIN_FROM = 16  # loose objects left after packing the loose ones (four commits' worth): look again
_started = {"at": -AGAIN_AFTER}
_guard = threading.Lock()


def loose_objects(git_dir: Path, sample: tuple[str, ...] | None = None) -> int:
    """About how many loose objects the repository has, from a sample of its object folders (or all)."""
    sample = SAMPLE if sample is None else sample
    found = 0
    for folder in sample:
        try:
            found += len(os.listdir(git_dir / "objects" / folder))
        except FileNotFoundError:
            continue
    return found * 256 // len(sample)


def record(git_dir: Path) -> dict:
    """The packer's record: {"looked": time, "deep_objects": n, "cpu": seconds, "runs": [...]}."""
    try:
        found = json.loads((git_dir / RECORD).read_text(encoding="utf-8"))
        return found if isinstance(found, dict) else {}
    except (OSError, ValueError):
        return {}


def maybe_pack(root: Path, opening: bool = False) -> bool:
    """Start a packer in the background when the repository has piled up loose objects, or (opening a
    vault whose packs take DEEP_FROM or more) when the packer has not looked at it for a day. Never waits."""
    git_dir = root / ".git"
    if not git_dir.is_dir():
        return False
    due = (
        opening  # a look at the whole of a repository big enough for a deep repack to matter (a stat per pack)
        and sum(_size(path) for path in (git_dir / "objects" / "pack").glob("*.pack")) >= DEEP_FROM
        and time.time() - float(record(git_dir).get("looked", 0)) > LOOK_EVERY
    )
    if not due and loose_objects(git_dir) <= LOOSE_LIMIT and STORED["bytes"] <= LOOSE_BYTES:
        return False
    with _guard:
        if time.monotonic() - _started["at"] < AGAIN_AFTER:
            return False
        _started["at"] = time.monotonic()
        STORED["bytes"] = 0
    try:
        packer = run_own(
            "personakit.store.packing", str(root), str(GRACE),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # not the terminal's: Ctrl-C on a command leaves it working
        )  # fmt: skip
    except OSError:
        return False
    threading.Thread(target=packer.wait, name="personakit-packer", daemon=True).start()  # reaps it
    return True


def plan(root: Path, seen: dict) -> tuple[str | None, dict]:
    """The repack the repository needs now ("deep", "whole", "loose" or None), and what it was told by."""
    git_dir = root / ".git"
    packs = list((git_dir / "objects" / "pack").glob("*.pack"))
    facts = {
        "packs": len(packs),
        "pack_bytes": sum(_size(path) for path in packs),
        "objects": sum(_objects_in(path.with_suffix(".idx")) for path in packs),
        "loose": loose_objects(git_dir, ALL),
        "memories_bytes": _folder_bytes(root / "memories"),
    }
    grown = facts["objects"] >= DEEP_GROWTH * int(seen.get("deep_objects", 0))
    if (
        facts["pack_bytes"] >= DEEP_FROM
        and facts["pack_bytes"] > DEEP_RATIO * facts["memories_bytes"]
        and grown
    ):
        return "deep", facts
    if facts["packs"] > PACK_LIMIT:
        return "whole", facts
    if facts["loose"] > 0:
        return "loose", facts
    return None, facts


def pack(root: Path, grace: float = GRACE) -> bool:
    """Pack the repository as `plan` says, and again while it says more is to be done (a deep repack
    takes minutes, and the packers started by the commits made meanwhile left it to this one); False when
    another packer is at it."""
    git_dir = root / ".git"
    fd = os.open(git_dir / "personakit-pack.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        for _ in range(ROUNDS):
            kind = _once(root, grace)
            if kind == "loose" and loose_objects(git_dir, ALL) > AGAIN_FROM:
                continue  # commits made meanwhile: the packers they started found this one at work and left
            if kind not in ("deep", "whole"):
                break  # what is left loose now is what no commit reaches, or came in seconds ago
        return True
    finally:
        os.close(fd)


def _once(root: Path, grace: float) -> str | None:
    """One look and the repack it calls for, written to the record; what kind of repack it was."""
    git_dir = root / ".git"
    began, spent = time.time(), [time.thread_time()]
    seen = record(git_dir)
    kind, facts = plan(root, seen)
    if kind is not None:
        _repack(root, kind, grace, spent)
    if kind == "deep":
        seen["deep_objects"] = sum(_objects_in(path) for path in (git_dir / "objects" / "pack").glob("*.idx"))
    cpu = sum(spent[1:]) + time.thread_time() - spent[0]
    seen["looked"] = began
    seen["cpu"] = round(float(seen.get("cpu", 0.0)) + cpu, 3)
    run = {"at": round(began), "kind": kind, "cpu": round(cpu, 3), "seconds": round(time.time() - began, 3),
           **facts, "pack_bytes_after": sum(_size(p) for p in (git_dir / "objects" / "pack").glob("*.pack"))}  # fmt: skip
    seen["runs"] = [*seen.get("runs", [])[-(KEPT_RUNS - 1) :], run]
    _write_record(git_dir, seen)
    return kind


def _repack(root: Path, kind: str, grace: float, spent: list[float]) -> None:
    """Repack as kind says; the CPU seconds of each git process it runs are appended to spent."""

    def run(*args: str) -> None:
        spent.append(_run([*git, *args], root))

    git = ["git", "-c", "gc.auto=0", "-c", f"pack.depth={DEPTH}", "-c", f"pack.window={WINDOW}"]
    folder = root / ".git" / "objects" / "pack"
    old = {path: path.stat().st_mtime_ns for path in folder.glob("*.pack")}
    whole = kind in ("whole", "deep")
    # -a: every object any commit (or reflog, or git's index) reaches, in one new pack; -f: every delta
    # searched again rather than reused; without -a, the loose objects go into one new pack. No -d: what
    # the new pack replaces is removed below, after the grace.
    extra = ["-a", "-f"] if kind == "deep" else ["-a"] if whole else []
    run("repack", "-l", "-q", "-n", *extra)
    time.sleep(grace)
    if whole:
        for path, mtime in old.items():
            _remove_pack(path, mtime)
    run("prune-packed", "-q")
    if whole:
        if _reflog_has_old_entries(root / ".git"):
            with VaultFiles(root).lock(timeout=600):  # expiring rewrites a reflog under its ref's lock
                run("reflog", "expire", "--all")
        run("commit-graph", "write", "--reachable")


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


def _reflog_has_old_entries(git_dir: Path) -> bool:
    """Whether HEAD's reflog starts with an entry older than git's 90 days (its first line is its oldest)."""
    try:
        with open(git_dir / "logs" / "HEAD", "rb") as log:
            first = log.readline()
        when = int(first.split(b"\t", 1)[0].rsplit(b" ", 2)[1])
    except (OSError, ValueError, IndexError):
        return False
    return time.time() - when > REFLOG_DAYS * 86400


def _objects_in(idx: Path) -> int:
    """The objects a pack holds, from its index's header (version 2: the fan-out table's last entry)."""
    try:
        with open(idx, "rb") as file:
            head = file.read(8 + 256 * 4)
    except OSError:
        return 0
    if len(head) < 8 + 256 * 4 or head[:4] != b"\377tOc":
        return 0
    return int.from_bytes(head[-4:], "big")


def _size(path: Path) -> int:
    try:
        return path.stat().st_blocks * 512  # what it takes on disk, as `du` counts
    except FileNotFoundError:
        return 0


def _folder_bytes(folder: Path) -> int:
    total = 0
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                try:
                    total += entry.stat(follow_symlinks=False).st_blocks * 512
                except FileNotFoundError:
                    continue
    except FileNotFoundError:
        return 0
    return total


def _run(command: list[str], root: Path) -> float:
    """Run a git command to its end (failing quietly: the next packer tries again); its CPU seconds, with
    those of the processes it ran (git repack runs pack-objects), as the kernel counted them."""
    try:
        process = subprocess.Popen(command, cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)  # fmt: skip
    except OSError:
        return 0.0
    _, _, usage = os.wait4(process.pid, 0)
    process.returncode = 0  # reaped here: Popen must not wait for it again
    return usage.ru_utime + usage.ru_stime


def _write_record(git_dir: Path, seen: dict) -> None:
    tmp = git_dir / f"{RECORD}.tmp"
    tmp.write_text(json.dumps(seen, indent=0) + "\n", encoding="utf-8")
    os.replace(tmp, git_dir / RECORD)


if __name__ == "__main__":
    try:
        os.nice(NICENESS)  # git's delta search yields the cores to proposals and reads
    except OSError:
        pass
    pack(Path(sys.argv[1]), float(sys.argv[2]) if len(sys.argv) > 2 else GRACE)
