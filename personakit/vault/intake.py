"""Taking in changes made by anyone else: an editor, Obsidian, git, another PersonaKit process.

Files are the truth and the index follows them. `take_in` looks at the named files (or all of them),
indexes what changed since it was indexed, drops what is gone, and (with commit) commits what git sees
changed as the owner's edit: one commit per memory, a rename by hand as one commit, a change of only the
`state:` (or `category:`) line as the decision it is ("approve m_x: text (by hand)"). A hand-made file
with no id gets its id written into it, in the same commit. An unreadable file is
reported and never committed; nor is one that holds something shaped like a credential. A draft (an
empty file, or one with no front matter: Obsidian's "New note") is neither reported nor committed until
it is a memory; then it is taken in as any hand-made file. It is called by
the watcher, at start, and by every owner command before it runs, so the audit trail has no holes.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import partial

from personakit.core.credentials.engine import holds_credential
from personakit.core.memory import (
    VERB,
    Draft,
    InvalidMemory,
    Memory,
    claimed_ids,
    parse_memory,
    with_memory_id,
)
from personakit.core.plainfile import read_memory
from personakit.errors import PersonaKitError
from personakit.store.files import FileStat, digest, plain_name
from personakit.store.packing import maybe_pack
from personakit.store.postings import breathing
from personakit.vault import firstindex
from personakit.vault.state import Vault

log = logging.getLogger("personakit")

SYNC_BATCH = 10_000  # memories handed to Whoosh at once when many are taken in (a first index: one commit)


def take_in(kit: Vault, names: Iterable[str] | None = None, commit: bool = True, index: bool = True) -> None:
    """Index changes to the named files (None: every file); with commit, commit the hand edits. Without
    index, only commit every file's: after a first index that committed nothing, so that the first read
    did not wait for git's status of every file."""
    with kit.mutating():
        if not index:
            if kit.writable and commit:
                kit.unsettled.clear()
                commit_hand_edits(kit, None)
            return
        private = kit.writable  # a file others may read (a hand-made one) is made the owner's only
        started = time.time_ns()
        if names is None:
            indexed = kit.indexed(kit.index.stats)
            first = not indexed  # a first index: every file
            on_disk = _changed(kit, indexed, private)
            wanted = set(on_disk) | set(indexed)
        else:  # a watcher's batch: look at those files only, however large the vault
            wanted = {n for n in names if plain_name(n)}
            on_disk = {n: s for n in wanted if (s := kit.files.stat(n, private)) is not None}
            indexed = kit.indexed(lambda: kit.index.stats(wanted))
            first = False
        upserts: list[tuple[Memory, FileStat]] = []
        deletes, touched = [], set()
        if names is None and not first:
            firstindex.drop()  # an early helper no first index needs: the index was there after all
        helper = firstindex.start(kit, on_disk) if first else None

        def index_held(more: bool = False) -> None:
            # Every SYNC_BATCH memories, and (more=False: committed) before waiting for a first index's
            # helper: Whoosh indexes this process's share while the helper does its own. A first index's
            # parts go to one writer, so that it is one segment (`MemoryIndex.update`).
            kit.indexed(partial(kit.index.update, upserts, more=more))  # listed there: cleared after
            upserts.clear()

        for name in _in_turn(sorted(wanted), helper, index_held):
            stat = on_disk.get(name)
            level = (
                name not in indexed if stat is None else kit.files.unchanged(name, indexed.get(name), stat)
            )
            if level and (stat is not None or name not in kit.broken):
                continue  # level already: another process (or an earlier batch) took it in
            touched.add(name)
            loaded = None if stat is None else load(kit, name, stat)
            memory = None if loaded is None else loaded[0]
            if stat is None:
                kit.broken.pop(name, None)
            elif loaded is not None:
                upserts.append(loaded)
                if len(upserts) >= SYNC_BATCH:  # a first index: bound what is held at once
                    index_held(more=first)
            if memory is None and name in indexed:
                deletes.append(name)
        kit.indexed(lambda: kit.index.update(upserts, deletes))  # nothing to do: returns at once
        if names is None and kit.writable:  # the next start takes in only what changed since (`service`)
            kit.files.mark_level(started)
        if kit.writable and commit:
            # A full pass also commits changes another process wrote but could not commit (a kill).
            settled = None if names is None else touched | (wanted & kit.unsettled)
            kit.unsettled.difference_update(kit.unsettled if settled is None else settled)
            commit_hand_edits(kit, settled)
        elif kit.writable and names is not None:
            kit.unsettled |= touched  # indexed as soon as saved; committed once the editor is done


def _changed(kit: Vault, indexed: dict[str, FileStat], private: bool) -> dict[str, FileStat]:
    """The files on disk that are not level with the index, with their stats; the files that are level
    are dropped from indexed as the listing is read. A pass over a big vault where little changed holds
    one stat per memory, not two (at 100k memories, 30 MB less at the server's start)."""
    on_disk = {}
    for name, stat in breathing(kit.files.each(private)):  # reads go first
        if kit.files.unchanged(name, indexed.get(name), stat):
            del indexed[name]
        else:
            on_disk[name] = stat
    return on_disk


def _in_turn(
    names: list[str], helper: firstindex.Helper | None, before_waiting: Callable[[], None]
) -> Iterator[str]:
    """The names to look at: all of them, or those a first index's helper does not take, then (once
    before_waiting has run) those it hands back."""
    if helper is None:
        yield from names
        return
    yield from (name for name in names if name not in helper.names)
    before_waiting()
    yield from helper.handed_back()


def load(kit: Vault, name: str, stat: FileStat) -> tuple[Memory, FileStat] | None:
    """The file's memory and its stat with the content's digest, or None (reported once per version of
    the file) when it cannot be read."""
    raw = ""
    try:
        raw = kit.files.read(name)
        memory = read_memory(raw, name)
    except (InvalidMemory, OSError, UnicodeError) as error:
        if kit.broken.get(name, (None,))[0] != stat and not isinstance(error, Draft):  # a draft: quietly
            line = error.line if isinstance(error, InvalidMemory) else None
            where = f"memories/{name}" + (f":{line}" if line else "")
            log.warning("skipped %s: %s", where, reason(error))
        if isinstance(error, UnicodeDecodeError):
            raw = error.object.decode("utf-8", "replace")
        kit.broken[name] = (stat, error, claimed_ids(raw))
        return None
    kit.broken.pop(name, None)
    for problem in memory.problems:
        log.info("memories/%s: %s", name, problem)
    return memory, replace(stat, digest=digest(raw))


def commit_hand_edits(kit: Vault, names: set[str] | None) -> None:
    """Commit what someone else changed in memories/ as the owner's edit: one commit per memory. A change
    a killed PersonaKit process journaled first is committed as it intended (`store.journal`)."""
    if names is not None and not names:
        return
    gone: dict[str, Memory | None] = {}  # path -> the memory HEAD had there
    edited: dict[str, tuple[Memory, str]] = {}  # path -> the memory there now, and its file's text
    # Ask git about the touched files only: a status of the whole folder costs 0.5 s at 100k memories.
    asked = ["memories"] if names is None else [f"memories/{n}" for n in sorted(names)]
    changed = {p for p in kit.history.changed(*asked) if p.startswith("memories/")}
    changed -= recover_intents(kit, names)
    for path in sorted(changed):
        name = path.removeprefix("memories/")
        if (names is not None and name not in names) or not plain_name(name):
            continue
        if name in kit.broken:
            continue  # an unreadable file is reported, never committed
        if kit.files.stat(name) is None:
            if not os.path.islink(kit.files.memories / name):  # a link is never followed nor committed
                gone[path] = committed_memory(kit, path)
            continue
        raw = kit.files.read(name)
        memory = parse_memory(raw, name)
        if holds_credential(memory.text, *memory.evidence):
            log.warning(
                "memories/%s holds something shaped like a password or key: not committed to git; "
                "remove it from the file (personakit doctor lists it)",
                name,
            )
            continue
        edited[path] = (memory, raw)
    in_head = kit.history.tracked(asked if names is None else list(edited)) if edited else set()
    for path, (memory, raw) in edited.items():
        renamed_from = next((p for p, old in gone.items() if old is not None and old.id == memory.id), None)
        if renamed_from is not None:  # a file renamed by hand: one commit, not a forget and an add
            del gone[renamed_from]
            was = renamed_from.removeprefix("memories/")
            message = f"rename {memory.id}: {memory.text} (by hand, was {was})"
        else:
            before = committed_raw(kit, path) if path in in_head else None
            message = f"{hand_decision(before, raw, memory) or 'edit'} {memory.id}: {memory.text}"
            message += (
                f" (as {memory.category}) (by hand)" if message.startswith("categorize") else " (by hand)"
            )
        if write_id(kit, memory, raw):
            message += (
                "\n\nPersonaKit wrote the memory's id into the file, so it keeps it when the text changes."
            )
        kit.history.commit([renamed_from, path] if renamed_from else [path], message)
    for path, old in gone.items():
        label = f"{old.id}: {old.text}" if old else path.removeprefix("memories/")
        kit.history.commit([path], f"forget {label} (file deleted by hand)")
    if edited or gone:
        maybe_pack(kit.root)


def recover_intents(kit: Vault, names: set[str] | None) -> set[str]:
    """Commit, with the author and message it journaled, what a killed writer left uncommitted: the
    paths whose content is exactly what it intended. Returns the paths committed. With names (a
    watcher's batch), only the intents about one of them are looked at, each as a whole."""
    done: set[str] = set()
    asked = None if names is None else {f"memories/{n}" for n in names}
    for intent in kit.journal.leftovers():
        if asked is not None and not asked & set(intent.contents):
            continue
        changed = kit.history.changed(*intent.contents)
        ready = sorted(p for p, d in intent.contents.items() if p in changed and _digest(kit, p) == d)
        if ready:
            kit.history.commit(ready, intent.message, intent.author)
            log.info(
                "committed %s as %r, which a PersonaKit process killed mid-way had begun",
                ", ".join(ready),
                intent.message,
            )
            done.update(ready)
        intent.path.unlink(missing_ok=True)
    return done


def _digest(kit: Vault, path: str) -> str | None:
    try:
        return digest(kit.files.read(path.removeprefix("memories/")))
    except (OSError, UnicodeError, PersonaKitError):
        return None


def committed_memory(kit: Vault, path: str) -> Memory | None:
    """The memory HEAD has at path, or None."""
    try:
        return parse_memory(kit.history.show(f"HEAD:{path}"))
    except Exception:
        return None


def committed_raw(kit: Vault, path: str) -> str | None:
    """The text of the file HEAD has at path, or None."""
    try:
        return kit.history.show(f"HEAD:{path}")
    except Exception:
        return None


def hand_decision(before: str | None, after: str, memory: Memory) -> str | None:
    """The decision a hand edit is, when it changed only the `state:` line (approve, reject, ...) or only
    the `category:` line (categorize) to a known value; None for any other edit."""
    if before is None:
        return None
    old, new = before.splitlines(), after.splitlines()
    changed = {re.match(r"(state|category)\s*:", b) for a, b in zip(old, new, strict=False) if a != b}
    if len(old) != len(new) or len(changed) != 1 or None in changed:
        return None
    key = next(iter(changed)).group(1)  # type: ignore[union-attr]
    if any(p.startswith(f"{key} ") for p in memory.problems):
        return None  # a typo ('aproved') is an edit, read as restricted; not a decision
    return VERB[memory.state] if key == "state" else "categorize"


def write_id(kit: Vault, memory: Memory, raw: str) -> bool:
    """Write a hand-made file's id into it (the id made from its text), so that editing the text later
    keeps it. Only under the vault lock (the caller's), and only when the file still holds what was read:
    an editor still saving wins, and the next pass writes the id. True when it was written."""
    with_id = with_memory_id(raw, memory.id)
    if with_id == raw:
        return False
    try:
        if kit.files.read(memory.name) != raw:
            return False
        stat = kit.files.write(memory.name, with_id)
    except (OSError, PersonaKitError) as error:
        log.warning("could not write the id into memories/%s: %s", memory.name, error)
        return False
    kit.indexed(lambda: kit.index.update([(parse_memory(with_id, memory.name), stat)]))
    return True


def reason(error: Exception) -> str:
    """Why a file could not be read, as a phrase."""
    if isinstance(error, UnicodeError):
        return "not UTF-8 text (a binary file?)"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)
