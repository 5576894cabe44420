"""Taking in changes made by anyone else: an editor, Obsidian, git, another PersonaKit process.

Files are the truth and the index follows them. `take_in` looks at the named files (or all of them),
indexes what changed since it was indexed, drops what is gone, and (with commit) commits what git sees
changed as the owner's edit: one commit per memory, a rename by hand as one commit. An unreadable file is
reported and never committed; nor is one that holds something shaped like a credential. It is called by
the watcher, at start, and by every owner command before it runs, so the audit trail has no holes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from personakit import firstindex
from personakit.core.credentials import looks_like_credential
from personakit.core.memory import InvalidMemory, Memory, parse_memory
from personakit.core.plainfile import read_memory
from personakit.store.files import FileStat, plain_name
from personakit.store.packing import maybe_pack

if TYPE_CHECKING:
    from personakit.service import PersonaKit

log = logging.getLogger("personakit")

SYNC_BATCH = 10_000  # memories indexed per Whoosh commit when many are taken in at once (a first index)


def take_in(kit: PersonaKit, names: Iterable[str] | None = None, commit: bool = True) -> None:
    """Index changes to the named files (None: every file); with commit, commit the hand edits."""
    with kit.mutating():
        if names is None:
            on_disk = kit.files.list()
            indexed = kit.indexed(kit.index.stats)
            wanted = set(on_disk) | set(indexed)
        else:  # a watcher's batch: look at those files only, however large the vault
            wanted = {n for n in names if plain_name(n)}
            on_disk = {n: s for n in wanted if (s := kit.files.stat(n)) is not None}
            indexed = kit.indexed(lambda: kit.index.stats(wanted))
        upserts, deletes, touched = [], [], set()
        helper = firstindex.start(kit, on_disk) if names is None and not indexed else None
        for name in _in_turn(sorted(wanted), helper):
            stat = on_disk.get(name)
            if indexed.get(name) == stat and (stat is not None or name not in kit.broken):
                continue  # level already: another process (or an earlier batch) took it in
            touched.add(name)
            memory = None if stat is None else load(kit, name, stat)
            if stat is None:
                kit.broken.pop(name, None)
            elif memory is not None:
                upserts.append((memory, stat))
                if len(upserts) >= SYNC_BATCH:  # a first index: bound what is held at once
                    kit.indexed(partial(kit.index.update, upserts))
                    upserts = []
            if memory is None and name in indexed:
                deletes.append(name)
        if upserts or deletes:
            kit.indexed(lambda: kit.index.update(upserts, deletes))
        if kit.writable and commit:
            # A full pass also commits changes another process wrote but could not commit (a kill).
            settled = None if names is None else touched | (wanted & kit.unsettled)
            kit.unsettled.difference_update(kit.unsettled if settled is None else settled)
            commit_hand_edits(kit, settled)
        elif kit.writable and names is not None:
            kit.unsettled |= touched  # indexed as soon as saved; committed once the editor is done


def _in_turn(names: list[str], helper: firstindex.Helper | None) -> Iterator[str]:
    """The names to look at: all of them, or those a first index's helper does not take, then those it
    hands back."""
    if helper is None:
        yield from names
        return
    yield from (name for name in names if name not in helper.names)
    yield from helper.handed_back()


def load(kit: PersonaKit, name: str, stat: FileStat) -> Memory | None:
    """The file's memory, or None (reported once per version of the file) when it cannot be read."""
    try:
        memory = read_memory(kit.files.read(name), name)
    except (InvalidMemory, OSError, UnicodeError) as error:
        if kit.broken.get(name, (None,))[0] != stat:
            line = error.line if isinstance(error, InvalidMemory) else None
            where = f"memories/{name}" + (f":{line}" if line else "")
            log.warning("skipped %s: %s", where, reason(error))
        kit.broken[name] = (stat, error)
        return None
    kit.broken.pop(name, None)
    for problem in memory.problems:
        log.info("memories/%s: %s", name, problem)
    return memory


def commit_hand_edits(kit: PersonaKit, names: set[str] | None) -> None:
    """Commit what someone else changed in memories/ as the owner's edit: one commit per memory."""
    if names is not None and not names:
        return
    gone: dict[str, Memory | None] = {}  # path -> the memory HEAD had there
    edited: dict[str, Memory] = {}
    # Ask git about the touched files only: a status of the whole folder costs 0.5 s at 100k memories.
    asked = ["memories"] if names is None else [f"memories/{n}" for n in sorted(names)]
    for path in sorted(kit.history.changed(*asked)):
        name = path.removeprefix("memories/")
        if (names is not None and name not in names) or not plain_name(name):
            continue
        if name in kit.broken:
            continue  # an unreadable file is reported, never committed
        if kit.files.stat(name) is None:
            if not os.path.islink(kit.files.memories / name):  # a link is never followed nor committed
                gone[path] = committed_memory(kit, path)
            continue
        memory = parse_memory(kit.files.read(name), name)
        if looks_like_credential(memory.text) or any(looks_like_credential(q) for q in memory.evidence):
            log.warning(
                "memories/%s holds something shaped like a password or key: not committed to git; "
                "remove it from the file (personakit doctor lists it)",
                name,
            )
            continue
        edited[path] = memory
    for path, memory in edited.items():
        renamed_from = next((p for p, old in gone.items() if old is not None and old.id == memory.id), None)
        if renamed_from is not None:  # a file renamed by hand: one commit, not a forget and an add
            del gone[renamed_from]
            was = renamed_from.removeprefix("memories/")
            kit.history.commit(
                [renamed_from, path], f"rename {memory.id}: {memory.text} (by hand, was {was})"
            )
        else:
            kit.history.commit([path], f"edit {memory.id}: {memory.text} (by hand)")
    for path, old in gone.items():
        label = f"{old.id}: {old.text}" if old else path.removeprefix("memories/")
        kit.history.commit([path], f"forget {label} (file deleted by hand)")
    if edited or gone:
        maybe_pack(kit.root)


def committed_memory(kit: PersonaKit, path: str) -> Memory | None:
    """The memory HEAD has at path, or None."""
    try:
        return parse_memory(kit.history.show(f"HEAD:{path}"))
    except Exception:
        return None


def reason(error: Exception) -> str:
    """Why a file could not be read, as a phrase."""
    if isinstance(error, UnicodeError):
        return "not UTF-8 text (a binary file?)"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)
