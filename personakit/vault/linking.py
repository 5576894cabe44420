"""What a new proposal is linked to: the memory it corrects (`replaces`) and its near-duplicates (`similar`).

Both are worked out under the vault lock, before the new file is written, and written into its front
matter, so they are part of the proposal's one commit. Neither changes the answer the assistant gets.

- `replaces` is kept only when it names a memory the assistant may have been given by a read: one that
  exists and is approved or unconfirmed (every copy, if a hand-made copy shares its id), and is not the
  new memory itself. Anything else (empty, huge, not an id, unknown, restricted, rejected, its own id) is
  dropped without a word, and the proposal is stored as a plain one: the answer is the same either way,
  so it cannot be used to learn which ids exist.
- `similar` lists the memories, in any state, whose text is a near-duplicate of the new one
  (`core.relations.similar`). The owner reads it in the file and in `review`; an assistant never sees it.
  Candidates are the few memories having enough of the new text's three rarest words, asked of the index
  (a posting walk of those words only), never a scan of the files.
"""

from __future__ import annotations

import dataclasses
from functools import partial

from personakit.core.memory import VISIBLE_STATES, InvalidMemory, Memory, is_id, parse_memory
from personakit.core.people import same_subject
from personakit.core.relations.pairs import may_lack, near_duplicates, search_groups
from personakit.vault.state import Vault

CANDIDATES = 32  # memories having enough of a proposal's rarest words, checked for near-duplicates


def link(kit: Vault, memory: Memory, replaces: object) -> Memory:
    """memory with its `replaces` (when it may be kept) and `similar` set."""
    old = replaces if isinstance(replaces, str) and _may_replace(kit, memory.id, replaces) else ""
    similar = similar_to(kit, memory.text, exclude={memory.id, old}, about=memory.about)
    return dataclasses.replace(memory, replaces=old, similar=tuple(similar))


def _may_replace(kit: Vault, new_id: str, old_id: str) -> bool:
    if not is_id(old_id) or old_id == new_id:
        return False
    states = [m.state for m, _ in copies(kit, old_id)]
    return bool(states) and all(state in VISIBLE_STATES for state in states)


def similar_to(kit: Vault, text: str, exclude: set[str], about: tuple[str, ...] = ()) -> list[str]:
    """Ids of the memories (any state, as indexed) whose text is a near-duplicate of text, about the same
    ones (`about`; none: the owner). "Is allergic to nuts" about Carla repeats no memory about the owner.

    A near-duplicate has every content word and number of the text (or a word counted as it) but one at
    most, and only when the text has three words or more (`may_lack`). So of the text's three rarest it
    has two, or all of them: only their postings are walked (however common the text's other words), the
    others are looked up for those memories alone, and only the memories that have enough are loaded."""
    groups = search_groups(text)
    if not groups:
        return []
    rarity = {term: kit.indexed(partial(kit.index.having, term)) for group in groups for term in group}
    rarest_first = sorted(groups, key=lambda group: sum(rarity[t] for t in group))
    missing = may_lack(text)
    hits = kit.indexed(lambda: kit.index.sharing(rarest_first, missing, CANDIDATES))
    others = [
        (h.memory.id, h.memory.text)
        for h in hits
        if h.memory.id not in exclude and same_subject(about, h.memory.about)
    ]
    return list(dict.fromkeys(near_duplicates(text, others)))


def copies(kit: Vault, memory_id: str) -> list[tuple[Memory, str]]:
    """Every readable file whose memory has this id, as it is on disk now, with its text."""
    found = []
    for hit in kit.indexed(lambda: kit.index.by_id(memory_id)):
        try:
            raw = kit.files.read(hit.memory.name)
            memory = parse_memory(raw, hit.memory.name)
        except (InvalidMemory, OSError, UnicodeError):
            continue
        if memory.id == memory_id:
            found.append((memory, raw))
    return found
