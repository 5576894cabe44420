"""The owner's decisions: approve, reject, restrict, recategorize and forget a memory.

Each is one git commit whose diff is the decision (the one front-matter line, or the file's removal), made
with the owner's git identity. A memory is named by its id, a unique prefix of it, its file's name or its
file's path (`resolve`); several are all checked before any is done (`resolve_all`). A decision applies
to every file holding that id (a copy made by hand), and each file is read back as it would be written
first: a decision never reports success while a file would still read otherwise.
Approving a correction (a memory that `replaces` another) also retires the memory it replaces, in the
same commit: see `personakit.owner.corrections`.
Nothing here is reachable from the MCP server: there is no path from a model to a decision.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from contextlib import suppress
from functools import partial
from pathlib import Path

from personakit.core.memory import (
    CATEGORIES,
    STATES,
    VERB,
    Category,
    InvalidMemory,
    Memory,
    State,
    parse_memory,
    set_category,
    set_state,
)
from personakit.errors import PersonaKitError, UnknownMemory
from personakit.owner.corrections import approve_replacement
from personakit.store.files import plain_name
from personakit.vault.copies import on_disk
from personakit.vault.service import PersonaKit
from personakit.vault.trust import release
from personakit.vault.writing import Change, write


def resolve(kit: PersonaKit, ref: str) -> Memory:
    """The memory a reference names, as its file says now, in any case: its id, a unique beginning of the
    id (with or without m_), its file's name (with or without .md), or its file's path (memories/a.md,
    ./memories/a.md, or an absolute path inside the vault)."""
    ref = ref.strip()
    kit.wait_until_synced()
    name = _file_named(kit, ref)
    if name is not None:
        try:
            return parse_memory(kit.files.read(name), name)
        except (InvalidMemory, OSError, UnicodeError) as error:
            raise UnknownMemory(
                f"memories/{name} cannot be read ({error}); see 'personakit doctor'"
            ) from None
    wanted = ref.lower() if ref.lower().startswith("m_") else "m_" + ref.lower()
    found = {h.memory.id: h for h in kit.indexed(lambda: kit.index.by_id_prefix(wanted))}
    if not found:
        raise UnknownMemory(f"no memory has an id starting with '{ref}'; 'personakit list' shows them all")
    if len(found) > 1:
        shown = ", ".join(sorted(found)[:5])
        many = f"{len(found)}{' or more' if len(found) >= 50 else ''}"
        raise UnknownMemory(f"'{ref}' names {many} memories ({shown}); give more of the id")
    hit = next(iter(found.values()))
    current = kit.current(hit)
    if current is None:
        raise UnknownMemory(f"memories/{hit.memory.name} is gone or unreadable; see 'personakit doctor'")
    return current


def _file_named(kit: PersonaKit, ref: str) -> str | None:
    """The name in memories/ of the file ref names by its path or name, or None when ref is no file's."""
    pathlike = "/" in ref or os.sep in ref or ref.lower().endswith(".md")
    if not pathlike:  # a name without .md, as long as no id starts with it
        return _on_disk(kit, f"{ref}.md") if not re.fullmatch(r"(?i)(m_)?[0-9a-f]*", ref) else None
    given = Path(ref).expanduser()
    folder = kit.files.memories.resolve()
    tries = [given] if given.is_absolute() else [Path.cwd() / given, kit.root / given, folder / given]
    inside = False
    for path in tries:
        with suppress(OSError):
            if path.name and path.parent.resolve() == folder:
                inside = True
                found = _on_disk(kit, path.name)
                if found is not None:
                    return found
    if not inside:
        raise UnknownMemory(f"{ref} is not a file in the vault's memories folder ({folder})")
    raise UnknownMemory(f"there is no memories/{given.name}; 'personakit list' shows every memory")


def _on_disk(kit: PersonaKit, name: str) -> str | None:
    """name as it is spelled in memories/: exactly, or else the one file that differs only in case."""
    if plain_name(name) and kit.files.stat(name) is not None:
        return name
    same = [other for other in kit.files.list() if other.casefold() == name.casefold()]
    if len(same) > 1:
        raise UnknownMemory(f"{', '.join(sorted(same))} differ only in case; give the name exactly")
    return same[0] if same else None


def resolve_all(kit: PersonaKit, refs: list[str]) -> list[Memory]:
    """Every memory refs name, each once, checked before anything is done: one bad ref and none is."""
    found: dict[str, Memory] = {}
    bad = []
    for ref in refs:
        try:
            memory = resolve(kit, ref)
        except UnknownMemory as error:
            bad.append(str(error))
            continue
        found.setdefault(memory.name, memory)
    if bad:
        raise UnknownMemory("; ".join(bad) + "; nothing was changed")
    return list(found.values())


def decide(
    kit: PersonaKit, ref: str, state: State, say: Callable[[str], None] | None = None
) -> tuple[Memory, int]:
    """Set a memory's state in every file that holds it; one commit. Returns the memory and how many files
    changed. `say` hears what approving a correction did to the memory it replaces."""
    if state not in STATES:
        raise PersonaKitError(f"{state!r} is not a state; use one of {', '.join(STATES)}")
    edit = lambda raw: release(set_state(raw, state))  # noqa: E731 - a decision also ends a hold
    if state == "approved":
        kit.require_writable()
        with kit.files.lock():  # held once: the memory cannot change between the look and the decision
            memory = resolve(kit, ref)
            if memory.replaces:
                memory, changed = approve_replacement(kit, memory, say or (lambda _: None))
                return memory, int(changed)
    return change(
        kit, ref, edit, lambda m: f"{VERB[state]} {m.id}: {m.text}", lambda m: m.state == state, f"as {state}"
    )


def recategorize(kit: PersonaKit, ref: str, category: Category) -> tuple[Memory, int]:
    """Set a memory's category in every file that holds it; one commit. The memory, and how many files changed."""
    if category not in CATEGORIES:
        raise PersonaKitError(f"{category!r} is not a category; use one of {', '.join(CATEGORIES)}")
    edit = partial(set_category, category=category)
    return change(
        kit, ref, edit, lambda m: f"categorize {m.id}: {m.text} (as {category})",
        lambda m: m.category == category, f"as {category}",
    )  # fmt: skip


def change(
    kit: PersonaKit,
    ref: str,
    edit: Callable[[str], str],
    message: Callable[[Memory], str],
    reads_right: Callable[[Memory], bool],
    wanted: str,
) -> tuple[Memory, int]:
    """Apply an owner's line edit to every file holding a memory (copies too); one commit. Each file is
    parsed again as it would be written: unless every one reads as wanted, nothing is written and the
    answer says why. The memory as it reads now, and how many files changed."""
    kit.require_writable()
    with kit.files.lock():
        memory = resolve(kit, ref)
        found, _ = on_disk(kit, memory.id, [memory.name])  # an unreadable copy is doctor's to report
        writes = []
        for copy, raw in found or [(memory, kit.files.read(memory.name))]:
            new = edit(raw)
            try:
                result = parse_memory(new, copy.name)
            except InvalidMemory as error:
                raise PersonaKitError(
                    f"memories/{copy.name} would not read back: {error}. Nothing was changed"
                ) from None
            if not reads_right(result):
                why = "; ".join(p for p in result.problems if "restricted" in p) or "see personakit doctor"
                raise PersonaKitError(
                    f"memories/{copy.name} would still not read {wanted} ({why}); fix the file by hand. "
                    "Nothing was changed"
                )
            if new != raw:
                writes.append((copy, raw, new))
        if writes:
            write(kit, [(m.name, old, new) for m, old, new in writes], message(memory))
        name = writes[0][0].name if writes else memory.name
        return parse_memory(kit.files.read(name), name), len(writes)


def forget(kit: PersonaKit, ref: str) -> tuple[Memory, int]:
    """Delete every file holding a memory; one commit. Git's history keeps what they said."""
    kit.require_writable()
    with kit.files.lock():
        memory = resolve(kit, ref)
        found, _ = on_disk(kit, memory.id, [memory.name])
        changes: list[Change] = [(copy.name, raw, None) for copy, raw in found] or [(memory.name, None, None)]
        write(kit, changes, f"forget {memory.id}: {memory.text}")
        return memory, len(changes)
