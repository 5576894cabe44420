"""Moving the work tree to another commit so that a kill at any instant loses nothing, and finishing a
move that a kill interrupted.

`personakit sync` moves the vault (`sync.syncing.move`): it writes the journal `.personakit/sync.json`
naming the old and the new commit, writes each changed file whole (`check_out`), then git's index, then
HEAD. A process killed in between leaves files that are already the new ones while HEAD is the old: taken
in as they are, they would look like the owner's edits undoing what came in. So `recover`, which rolls
such a move forward, belongs to the vault itself, not to sync: every PersonaKit process (a server that
never syncs too) runs it before it takes in changes (`PersonaKit.sync`), the way the intent journal of a
killed write is finished before intake. Sync sits above the vault and imports this; nothing here imports
sync.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path

from personakit.store.files import VaultFiles, plain_name
from personakit.store.plumbing import Entry, Plumbing
from personakit.vault.state import Vault

log = logging.getLogger("personakit")

JOURNAL = "sync.json"
BULK = 200  # more changed files than this are written without a fsync each (a first sync of a vault)


def check_out(
    files: VaultFiles, git: Plumbing, commit: str, changes: dict[str, tuple[Entry | None, Entry | None]]
) -> None:
    """Write the files that changed as commit has them into the work tree (each whole: a temporary file
    renamed over it), then give git's index the same entries."""
    durable = len(changes) <= BULK  # a first sync of thousands of files: one fsync of the folder at the end
    for path, (_, new) in sorted(changes.items()):
        if new is None:
            try:
                os.unlink(files.root / path)
            except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
                pass
        elif durable and memory_path(path) and new[0] == "100644":
            files.write(path.removeprefix("memories/"), git.blob(new[1]).decode("utf-8"))
        else:
            _put(files, path, git.blob(new[1]), executable=new[0] == "100755", durable=durable)
    if not durable:
        os.sync()
    git.stage({path: new for path, (_, new) in changes.items()})


def _put(files: VaultFiles, name: str, data: bytes, executable: bool, durable: bool) -> None:
    """Write one file whole. The temporary file is made in .personakit/tmp (the same disk), where the next
    start clears what a kill left, never beside the file, where it would look like a file of the owner's."""
    path = files.root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=files.ensure_state_dir() / "tmp", prefix="write-sync-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, 0o700 if executable else 0o600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def advance(
    kit: Vault, git: Plumbing, old: str, new: str
) -> dict[str, tuple[Entry | None, Entry | None]] | None:
    """Move the vault (files, git's index, HEAD) from commit old to new, journaled so that a kill at any
    instant is finished by `recover`. The files changed; None when HEAD moved meanwhile (then nothing
    changed: the files are put back). Callers hold the vault lock."""
    changes = git.changes(old, new)
    journal = kit.files.state / JOURNAL
    write_journal(journal, old, new)
    try:
        check_out(kit.files, git, new, changes)
        if git.move_ref("HEAD", new, old, "personakit: " + new[:12]):
            return changes
        check_out(kit.files, git, old, {p: (n, o) for p, (o, n) in changes.items()})
        return None
    except BaseException:
        check_out(kit.files, git, old, {p: (n, o) for p, (o, n) in changes.items()})
        raise
    finally:
        journal.unlink(missing_ok=True)


def recover(kit: Vault) -> None:
    """Finish a move that a kill interrupted (see above): roll it forward."""
    journal = kit.files.state / JOURNAL
    if not kit.writable or not journal.exists():
        return
    with kit.files.lock():
        try:
            found = json.loads(journal.read_text(encoding="utf-8"))
            old, new = str(found["from"]), str(found["to"])
        except (OSError, ValueError, KeyError, TypeError):
            journal.unlink(missing_ok=True)
            return
        git = Plumbing(kit.history)
        try:
            head = kit.history.head()
            if head in (old, new):
                check_out(kit.files, git, new, git.changes(old, new))
                if head == old:
                    git.move_ref("HEAD", new, old, "personakit sync (finished after an interruption)")
                log.warning(
                    "finished a sync that was interrupted; run personakit sync to send this device's changes"
                )
            else:
                log.warning(
                    "a sync was interrupted and the vault's history moved on since (a git command?); the "
                    "files it had written are taken in as edits, and the next personakit sync sends them"
                )
        finally:
            git.close()
        journal.unlink(missing_ok=True)


def write_journal(path: os.PathLike[str], old: str, new: str) -> None:
    tmp = f"{os.fspath(path)}.tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump({"from": old, "to": new}, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def memory_path(path: str) -> bool:
    return path.startswith("memories/") and plain_name(path.removeprefix("memories/"))
