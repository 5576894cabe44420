"""Copies: several files claiming one memory's id (a file manager's copy, a sync tool's "conflicted copy").

They are one memory. A read shows it at most once, in the most private state any of its files has
(restricted > rejected > unconfirmed > approved), and counts it once in `withheld`; a proposal of its
text reports that state; an owner's decision changes every file in one commit (`owner.decisions`).

A file claiming the id that cannot be parsed hides the owner's decision about the memory, so it blocks
a proposal of the same text until the owner fixes it: `on_disk` names such files. It finds them through
the index (the file was readable when it was indexed), the names a proposal would write, and the ids
written in each unreadable file the process knows of (`Vault.broken`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from personakit.core.memory import InvalidMemory, Memory, most_private, parse_memory
from personakit.errors import PersonaKitError
from personakit.store.index import Hit
from personakit.vault.state import Vault


def effective(kit: Vault, hits: list[Hit]) -> list[Memory | None]:
    """Each hit's memory as its file says now (None when gone or unreadable), in the most private state
    of all the files with its id."""
    memories = [kit.current(hit) for hit in hits]
    ids = {  # a search counted each hit's files: only a memory with copies costs another look
        m.id for m, hit in zip(memories, hits, strict=True)
        if m is not None and (hit.files is None or hit.files > 1 or m.id != hit.memory.id)
    }  # fmt: skip
    copies = kit.indexed(lambda: kit.index.copies(ids)) if ids else {}
    return [_most_private(kit, m, copies.get(m.id, ())) if m is not None else None for m in memories]


def _most_private(kit: Vault, memory: Memory, copies: Iterable[Hit]) -> Memory:
    states = [memory.state]
    for other in copies:
        if other.memory.name != memory.name:
            copy = kit.current(other)
            if copy is not None and copy.id == memory.id:
                states.append(copy.state)
    state = most_private(states)
    return memory if state == memory.state else replace(memory, state=state)


def on_disk(
    kit: Vault, memory_id: str, names: Iterable[str] = ()
) -> tuple[list[tuple[Memory, str]], list[str]]:
    """Every file that holds the memory now, with its text; and the files that claim it (or are among
    names, the files a proposal would write) but cannot be read. The index may lag a hand edit, so each
    file is read from the disk."""
    candidates = [h.memory.name for h in kit.indexed(lambda: kit.index.by_id(memory_id))]
    candidates += names
    candidates += [name for name, (_, _, claims) in list(kit.broken.items()) if memory_id in claims]
    found: list[tuple[Memory, str]] = []
    unreadable: list[str] = []
    for name in dict.fromkeys(candidates):
        if kit.files.stat(name) is None:
            continue
        try:
            raw = kit.files.read(name)
            memory = parse_memory(raw, name)
        except (InvalidMemory, OSError, UnicodeError):
            unreadable.append(name)
            continue
        if memory.id == memory_id:
            found.append((memory, raw))
    return found, unreadable


def of_proposal(kit: Vault, memory_id: str, names: list[str]) -> list[tuple[Memory, str]]:
    """The files holding the memory a proposal is about (names: the files it would write); refused with a
    sentence when one that may hold it cannot be read, as the owner's decision about it is unknown."""
    found, unreadable = on_disk(kit, memory_id, names)
    if unreadable:
        raise PersonaKitError(
            f"the file memories/{unreadable[0]} may hold this memory but cannot be read, so the owner's "
            "decision about it is unknown; nothing was stored. The owner can fix the file ('personakit "
            "doctor' shows what is wrong)"
        )
    return found
