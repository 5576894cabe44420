"""`personakit import`: bring in what another assistant or memory tool remembers about the owner.

One small module per format turns a file's text into `Item`s (a memory text, the source entry it came
from, where it was, maybe a category), without judging them; `guess` picks the format when the owner
did not; `storing` checks each item as a proposal would be checked and stores the new ones as
unconfirmed memories in one commit. A format module knows nothing of the vault.

| format         | what it reads                                                                 |
|----------------|-------------------------------------------------------------------------------|
| `chatgpt`      | ChatGPT's saved-memories list copied as text (or its "Model Set Context")     |
| `claude`       | the text Claude gives when asked to export its memory (`[date] - memory`)     |
| `mcp-memory`   | the MCP memory server's `memory.jsonl`/`memory.json` (entities, relations)    |
| `mem0`         | a mem0 export: `get_all()` results, or OpenMemory's `memories.json`/`.jsonl`  |
| `basic-memory` | basic-memory notes (one file or a folder): `- [category] text #tag` lines     |
| `lines`        | plain lines or Markdown bullets, one memory each                              |
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from personakit.core.memory import CATEGORIES


@dataclass(frozen=True)
class Item:
    """One thing a source remembers: `text` becomes the memory, `source` (the entry as the file has it)
    its evidence. `skip` says why the format leaves it out (not about the owner, archived, ...). `said`
    is the day the source says it was saved, as the source wrote it, when it says."""

    text: str
    source: str
    where: str  # "line 7", "results[3]", "notes/me.md:12"
    category: str = "other"
    skip: str = ""
    said: str = ""


Parser = Callable[[str], list[Item]]

# Labels other tools use, read as one of our categories (a source's label, lowercased, or a word in it).
CATEGORY_WORDS = MappingProxyType(
    {
        "communication": "communication", "tone": "communication", "respond": "communication",
        "response": "communication", "style": "communication", "format": "communication",
        "writing": "communication", "language": "communication", "instruction": "communication",
        "work": "work-style", "workflow": "work-style", "habit": "work-style", "process": "work-style",
        "project": "work-style", "goal": "work-style", "professional_details": "background",
        "tool": "tools", "tools": "tools", "technology": "tools", "tech": "tools", "stack": "tools",
        "framework": "tools", "languages": "tools", "editor": "tools",
        "preference": "preferences", "preferences": "preferences", "user_preferences": "preferences",
        "like": "preferences", "likes": "preferences", "food": "preferences", "music": "preferences",
        "correction": "preferences", "hobbies": "preferences", "interest": "preferences",
        "background": "background", "personal": "background", "personal_details": "background",
        "identity": "background", "fact": "background", "bio": "background", "family": "background",
        "location": "background", "education": "background", "career": "background", "role": "background",
        "constraint": "constraints", "constraints": "constraints", "rule": "constraints",
        "never": "constraints", "avoid": "constraints", "schedule": "constraints",
    }
)  # fmt: skip


def category_for(label: str | None) -> str:
    """Our category for another tool's label ("preference", "Tools, languages and frameworks"), else other."""
    if not label:
        return "other"
    label = label.strip().lower()
    if label in CATEGORIES:
        return label
    if label in CATEGORY_WORDS:
        return CATEGORY_WORDS[label]
    for word in re.findall(r"[a-z_]+", label):
        for form in (word, word.rstrip("s")):
            if form in CATEGORY_WORDS:
                return CATEGORY_WORDS[form]
    return "other"


def parsers() -> dict[str, Parser]:
    """Format name -> parser, in the order the documentation lists them."""
    from personakit.owner.importing import basic_memory, chatgpt, claude, lines, mcp_memory, mem0

    return {
        "chatgpt": chatgpt.parse,
        "claude": claude.parse,
        "mcp-memory": mcp_memory.parse,
        "mem0": mem0.parse,
        "basic-memory": basic_memory.parse,
        "lines": lines.parse,
    }


FORMATS = ("chatgpt", "claude", "mcp-memory", "mem0", "basic-memory", "lines")
