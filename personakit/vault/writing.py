"""Changing memory files as one commit: journaled first, then written, committed and indexed; all or none.

Every change PersonaKit makes to memories/ goes through `write`: an assistant's proposal, the owner's
decisions, corrections and merges, an import, an undo. Each change is (file name, the text it has now or
None, the new text or None to remove the file). The intent (paths and the new texts' digests) is on disk
before any file is touched, so a kill before the commit is finished by the next start under the right
author and message (`store.journal`), never taken for the owner's hand edit. A failure before the commit
puts every file back as it was and leaves git's index as it found it.

The blobs and trees of the commit are written in this thread (`store/objects/`); git's processes (the
move of HEAD, git's index) then run on a worker thread while this one indexes: the two are
independent, and a process needs no Python thread (nor the GIL) to run. The caller holds the vault lock.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial

from personakit.core.memory import parse_memory
from personakit.store.packing import maybe_pack
from personakit.vault.state import Vault

log = logging.getLogger("personakit")

Change = tuple[str, str | None, str | None]  # (file name in memories/, its text now or None, new or None)


def write(
    kit: Vault, changes: Sequence[Change], message: str, author: tuple[str, str] | None = None
) -> str | None:
    """Make the changes as one commit (by author, or the owner when None) and index them; the commit's sha
    (None when the files already were so). Raises InvalidMemory, writing nothing, when a new text would
    not read back as a memory."""
    with kit.writes.writing({name for name, _, _ in changes}):  # the watcher waits for it to end
        return _write(kit, changes, message, author)


def _write(kit: Vault, changes: Sequence[Change], message: str, author: tuple[str, str] | None) -> str | None:
    paths = [f"memories/{name}" for name, _, _ in changes]
    upserts = [(name, parse_memory(new, name)) for name, _, new in changes if new is not None]
    removed = [name for name, _, new in changes if new is None]
    with kit.journal.intent(dict(zip(paths, (new for _, _, new in changes), strict=True)), message, author):
        try:
            stats = [kit.files.write(name, new) for name, _, new in changes if new is not None]
            for name in removed:
                kit.files.remove(name)
            built = kit.history.build(paths)  # blobs and trees here: Python work, slower on a second thread
            committed = kit.git_worker.submit(kit.history.land, built, message, author)
        except BaseException:
            _put_back(kit, changes)
            raise
        update = partial(
            kit.index.update, [(m, s) for (_, m), s in zip(upserts, stats, strict=True)], removed
        )
        try:
            update()
            indexed = True
        except Exception:  # repaired below, once git is done: the repair commits hand edits, and would
            indexed = False  # take these files for them while git is still committing them
        try:
            sha: str | None = committed.result()
        except BaseException:
            _put_back(kit, changes)
            raise
    maybe_pack(kit.root)  # in the background: the commit is made and answered for
    if indexed:  # the watcher's event for each of these files finds nothing to take in (`service`)
        kit.writes.wrote({name: stat for (name, _), stat in zip(upserts, stats, strict=True)}, removed)
    else:
        try:
            kit.indexed(update)
        except Exception:  # stored and committed: the next sync indexes it
            log.exception("%s: stored and committed, but could not be indexed yet", ", ".join(paths))
    return sha


def _put_back(kit: Vault, changes: Sequence[Change]) -> None:
    """Every file as it was before the change, git's index as it was, and the index level with both."""
    for name, old, _ in changes:
        try:
            if old is None:
                kit.files.remove(name)
            else:
                kit.files.write(name, old)
        except OSError:
            log.exception("memories/%s could not be put back; its last committed text is in git", name)
    kit.history.unstage([f"memories/{name}" for name, _, _ in changes])
    try:
        kit.sync([name for name, _, _ in changes], commit=False)  # the files' restored state, indexed
    except Exception:
        log.exception("could not index the files put back; the next start will")
