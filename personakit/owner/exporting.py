"""`personakit export`: the owner's memories out of the vault, for another assistant or a script.

What: approved memories by default; `visible` adds the unconfirmed ones (what assistants may see).
Restricted and rejected memories are left out unless the owner asks for them (`include_private`), and
then the command warns. How: Markdown grouped by category (`core.masking.by_category`, as the profile
resource), compact enough for a custom-instructions box; or JSON / JSON Lines with id, text, category,
state, evidence, created, proposed_by, about, said and until.

The export usually leaves the machine (pasted into another assistant), so it is masked as a read is:
email addresses and anything shaped like a password or key become `[email]` and `[secret]`-style
marks, in the text and in every quote. Quotes are not shortened. The unmasked whole is the vault itself
(its files, or a `git clone` of it).
"""

from __future__ import annotations

import json
from typing import Any

from personakit.core.masking import by_category, mask
from personakit.core.memory import Memory
from personakit.owner.records import who_and_when
from personakit.vault.copies import effective
from personakit.vault.service import PersonaKit

FORMATS = ("markdown", "json", "jsonl")
STATES = ("approved", "visible")
PRIVATE = ("restricted", "rejected")
INSTRUCTIONS_BOX = 1_500  # characters: each of ChatGPT's custom-instructions fields holds this many


def chosen(kit: PersonaKit, state: str = "approved", include_private: bool = False) -> list[Memory]:
    """The memories to export, as their files say now, newest first."""
    wanted = {"approved"} if state == "approved" else {"approved", "unconfirmed"}
    if include_private:
        wanted |= set(PRIVATE)
    kit.wait_until_synced()
    found: dict[str, Memory] = {}
    hits = kit.indexed(lambda: list(kit.index.all()))
    for memory in effective(kit, hits):  # a memory with two files (a copy made by hand): the most private
        if memory is not None and memory.state in wanted:
            found.setdefault(memory.id, memory)  # and once
    return sorted(found.values(), key=lambda m: m.created, reverse=True)


def render(memories: list[Memory], fmt: str) -> str:
    if fmt == "markdown":
        return as_markdown(memories)
    records = [record(m) for m in memories]
    if fmt == "json":
        return json.dumps(records, ensure_ascii=False, indent=2) + "\n"
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def as_markdown(memories: list[Memory]) -> str:
    """A heading per category and a bullet per memory; a memory not approved says its state."""
    if not memories:
        return ""
    entries = [
        (m.category, mask(m.text) + ("" if m.state == "approved" else f" ({m.state})")) for m in memories
    ]
    return by_category(entries)[0]


def record(memory: Memory) -> dict[str, Any]:
    return {
        "id": memory.id,
        "text": mask(memory.text),
        "category": memory.category,
        "state": memory.state,
        "evidence": [mask(q) for q in memory.evidence],
        "created": memory.created,
        "proposed_by": memory.proposed_by,
        **who_and_when(memory),
    }
