"""Editing a memory's file in the owner's editor, for `review` (key e) and `personakit edit`.

`edit_in_editor` opens `$VISUAL` or `$EDITOR` on the file and then takes the saved file in like any hand
edit (one commit, "edit m_x: ... (by hand)"). An editor that fails leaves the file as it was; the id
stays (an id line changed or removed is put back); a saved file that cannot be read is not committed,
and the owner is told how to fix it; one that holds something shaped like a secret goes back to its old
text (a secret never stays on disk), and the owner is told why.

It also holds the two keys every review prompt shares (`SKIP_KEYS`, `QUIT_KEYS`): review's own walk, held
changes, quotes waiting, past memories.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Callable
from contextlib import suppress

from personakit.core.memory import InvalidMemory, Memory, parse_memory, set_key
from personakit.vault.service import PersonaKit

SKIP_KEYS = ("n", " ", "\r", "\n")  # not now: n, space or Enter
QUIT_KEYS = ("q", "\x1b", "\x04", "")  # q, Escape, Ctrl-D, or the end of input


def edit_in_editor(
    kit: PersonaKit, memory: Memory, say: Callable[[str], None], again: str = "edit it again"
) -> tuple[str, Memory | None]:
    """Open memory's file in $VISUAL or $EDITOR, then take the saved file in as the owner's edit (one
    commit, `edit m_x: text (by hand)`), saying what happened. The id stays: a saved file whose id line
    was changed or removed gets it back. Returns what happened ("no-editor", "failed", "unchanged",
    "unreadable", "edited", "refused" (it held something shaped like a secret: the old text is put back),
    "deleted" or "gone") and the memory as it is now (the same object when nothing changed; None when it is gone)."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    path = kit.files.path(memory.name)
    if not editor:
        say(
            f"\n  No editor: neither $VISUAL nor $EDITOR is set. Set one (for example: export EDITOR=nano) "
            f"or open {path} in any editor. Nothing changed."
        )
        return "no-editor", memory
    try:
        before = kit.files.read(memory.name)
    except OSError:
        kit.sync([memory.name])  # the deletion is committed as the owner's, so the trail has no hole
        say(f"\nmemories/{memory.name} ({memory.id}) was deleted meanwhile")
        return "gone", None
    try:
        code = subprocess.call([*shlex.split(editor), str(path)])
    except OSError as error:
        say(f"\n  Could not start the editor {editor!r}: {error.strerror or error}. Nothing changed.")
        return "failed", memory
    if code != 0:
        _restore(kit, memory, before)
        say(f"\n  The editor {editor!r} failed (exit status {code}). Nothing changed.")
        return "failed", memory
    _keep_id(kit, memory, before, say)
    kit.sync([memory.name])
    return _after_edit(kit, memory, before, say, again)


def _keep_id(kit: PersonaKit, memory: Memory, before: str, say: Callable[[str], None]) -> None:
    """Put the memory's id back into a saved file whose id line was changed or removed."""
    with suppress(OSError, InvalidMemory, UnicodeError), kit.files.lock():
        raw = kit.files.read(memory.name)
        if raw != before and parse_memory(raw, memory.name).id != memory.id:
            if re.search(r"^id\s*:", raw, re.M):
                kept = set_key(raw, "id", memory.id)
            else:  # removed: back where it was written, under the opening line
                first, newline, rest = raw.partition("\n")
                kept = f"{first}{newline}id: {memory.id}{newline}{rest}"
            kit.files.write(memory.name, kept)
            say(f"\n  The id stays {memory.id}: the id line is put back as it was.")


def _after_edit(
    kit: PersonaKit, memory: Memory, before: str, say: Callable[[str], None], again: str
) -> tuple[str, Memory | None]:
    try:
        raw = kit.files.read(memory.name)
    except OSError:
        say(f"\n  memories/{memory.name} was deleted in the editor; committed as forgetting it.")
        return "deleted", None
    if raw == before:
        say("unchanged")
        return "unchanged", memory
    try:
        edited = parse_memory(raw, memory.name)
    except InvalidMemory as error:
        where = f"memories/{memory.name}" + (f":{error.line}" if error.line else "")
        say(
            f"\n  {where} cannot be read now ({error}); it is not committed until it can be: "
            f"{again} to fix it, or leave it for later (personakit doctor lists it)."
        )
        return "unreadable", memory
    if f"memories/{memory.name}" in kit.history.changed("memories"):
        # The hand-edit check left the file uncommitted because it holds a secret. A secret must not stay
        # on disk either, so the file goes back to the text it had before the editor opened.
        _restore(kit, memory, before)
        kit.sync([memory.name])
        say(
            "\n  Your edit was not kept: it holds something shaped like a password or key, and secrets never "
            f"stay in the vault. The memory keeps its old text; {again} without the secret."
        )
        return "refused", memory
    say("\n  edited (committed as your edit)")
    return "edited", edited


def _restore(kit: PersonaKit, memory: Memory, before: str) -> None:
    with suppress(OSError), kit.files.lock():
        if kit.files.read(memory.name) != before:
            kit.files.write(memory.name, before)
