"""ChatGPT's saved memories, as text: copied from Settings > Personalization > Manage memories, or the
"Model Set Context" block ChatGPT prints when asked to repeat its memory verbatim.

Each entry is one line. The dialog's own words (its title, buttons, the "memory full" notice) are left
out; a leading number and `[2024-04-26].` date, as in the Model Set Context, are taken off; and an
entry written about "User" ("User prefers short answers") becomes "Prefers short answers", so that it
reads like PersonaKit's own memories and matches them when it says the same. The evidence keeps the
line as ChatGPT wrote it.
"""

from __future__ import annotations

import re

from personakit.owner.importing import Item
from personakit.owner.importing.lines import entries

# What the Manage memories dialog and the Personalization page show besides the memories, lowercased.
CHROME = frozenset(
    {
        "saved memories", "memory", "memories", "manage memories", "manage", "delete all",
        "delete all memories", "clear all", "clear memory", "search memories", "memory full",
        "memory is full", "memory updated", "learn more", "personalization", "reference saved memories",
        "reference chat history", "model set context", "close", "delete", "done", "cancel",
        "chatgpt tries to remember most of your chats, but may forget things over time. saved memories "
        "are never forgotten.",
    }
)  # fmt: skip
_CHROME_PATTERNS = (
    re.compile(r"^\d{1,3}\s*% full$"),
    re.compile(r"^memory (?:is )?\d{1,3}\s*% full$"),
    re.compile(r"^chatgpt (?:tries to remember|will become more helpful|can remember|remembers)\b"),
    re.compile(r"^to understand what chatgpt remembers\b"),
)
_DATE = re.compile(r"^\[\d{4}-\d{2}-\d{2}\]\.?\s*")
_ABOUT_USER = re.compile(r"^(?:the )?user (?=[a-z])", re.IGNORECASE)


def parse(text: str) -> list[Item]:
    items = []
    for n, line, entry in entries(text):
        if is_chrome(entry):
            continue
        entry = _DATE.sub("", entry)
        entry = _ABOUT_USER.sub("", entry)
        if entry:
            items.append(Item(entry[:1].upper() + entry[1:], line, f"line {n}"))
    return items


def is_chrome(line: str) -> bool:
    lowered = line.strip().lower()
    return lowered in CHROME or any(p.match(lowered) for p in _CHROME_PATTERNS)
