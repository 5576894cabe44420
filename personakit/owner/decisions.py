"""The owner's decisions: approve, reject, restrict, recategorize and forget a memory.

Each is one git commit whose diff is the decision (the one front-matter line, or the file's removal), made
with the owner's git identity. A memory is named by its id, a unique prefix of it, or its file name.
Nothing here is reachable from the MCP server: there is no path from a model to a decision.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from personakit.core.memory import (
    CATEGORIES,
    STATES,
    Category,
    InvalidMemory,
    Memory,
    State,
    parse_memory,
    set_category,
    set_state,
)
from personakit.errors import PersonaKitError, UnknownMemory
from personakit.service import PersonaKit

VERB = {"approved": "approve", "rejected": "reject", "restricted": "restrict", "unconfirmed": "unconfirm"}


def resolve(kit: PersonaKit, ref: str) -> Memory:
    """The memory an id, a unique id prefix or a file name names, as its file says now."""
    ref = ref.strip()
    kit.wait_until_synced()
    if ref.endswith(".md") and kit.files.stat(ref):
        return parse_memory(kit.files.read(ref), ref)
    wanted = ref if ref.startswith("m_") else "m_" + ref
    found = {h.memory.id: h for h in kit.indexed(lambda: kit.index.by_id_prefix(wanted))}
    if not found:
        raise UnknownMemory(f"no memory has an id starting with {ref!r}; 'personakit list' shows them all")
    if len(found) > 1:
        shown = ", ".join(sorted(found)[:5])
        many = f"{len(found)}{' or more' if len(found) >= 50 else ''}"
        raise UnknownMemory(f"{ref!r} names {many} memories ({shown}); give more of the id")
    hit = next(iter(found.values()))
    current = kit.current(hit)
    if current is None:
        raise UnknownMemory(f"memories/{hit.memory.name} is gone or unreadable; see 'personakit doctor'")
    return current


def decide(kit: PersonaKit, ref: str, state: State) -> tuple[Memory, bool]:
    """Set a memory's state; one commit. Returns the memory and whether anything changed."""
    if state not in STATES:
        raise PersonaKitError(f"{state!r} is not a state; use one of {', '.join(STATES)}")
    return change(kit, ref, partial(set_state, state=state), lambda m: f"{VERB[state]} {m.id}: {m.text}")


def recategorize(kit: PersonaKit, ref: str, category: Category) -> tuple[Memory, bool]:
    """Set a memory's category; one commit. Returns the memory and whether anything changed."""
    if category not in CATEGORIES:
        raise PersonaKitError(f"{category!r} is not a category; use one of {', '.join(CATEGORIES)}")
    edit = partial(set_category, category=category)
    return change(kit, ref, edit, lambda m: f"categorize {m.id}: {m.text} (as {category})")


def change(
    kit: PersonaKit, ref: str, edit: Callable[[str], str], message: Callable[[Memory], str]
) -> tuple[Memory, bool]:
    """Apply an owner's one-line edit to a memory's file; one commit. The memory, and whether it changed."""
    kit.require_writable()
    with kit.files.lock():
        memory = resolve(kit, ref)
        raw = kit.files.read(memory.name)
        new = edit(raw)
        if new == raw:
            return memory, False
        try:
            parse_memory(new, memory.name)
        except InvalidMemory as error:
            raise PersonaKitError(f"memories/{memory.name} would not read back: {error}") from None
        kit.write_memory(memory, raw, new, message(memory))
        return parse_memory(new, memory.name), True


def forget(kit: PersonaKit, ref: str) -> Memory:
    """Delete a memory's file; one commit. Git's history keeps what it said."""
    kit.require_writable()
    with kit.files.lock():
        memory = resolve(kit, ref)
        kit.files.remove(memory.name)
        kit.history.commit([f"memories/{memory.name}"], f"forget {memory.id}: {memory.text}")
        kit.indexed(lambda: kit.index.update([], [memory.name]))
        return memory
