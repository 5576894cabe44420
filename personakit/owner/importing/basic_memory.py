"""basic-memory notes: Markdown files whose observations are list items `- [category] text #tag (context)`,
usually under a `## Observations` heading (relations, `- relation_type [[Target]]`, are not memories).

Every bullet under `## Observations` is an observation; elsewhere, only bullets that start with a
`[category]`, as basic-memory itself reads them (task boxes `[ ]`, `[x]` are not categories). The text
keeps its words without the `#tags` and the trailing `(context)`, and `[[links]]` become plain words;
the category, when it means one of ours ("preference", "tool"), is kept. A folder is read note by note.
"""

from __future__ import annotations

import re

from personakit.owner.importing import Item, category_for
from personakit.owner.importing.lines import front_matter_end

_BULLET = re.compile(r"^\s*[-*+]\s+(?P<body>.+)$")
_CATEGORY = re.compile(r"^\[(?P<category>[^\[\]()]+)\]\s+(?P<rest>.+)$")
_TASK = re.compile(r"^\[[ xX-]\]\s")
_RELATION = re.compile(r"^(?:\S+|\"[^\"]+\"|'[^']+')\s+\[\[[^\]]+\]\](?:\s*\([^)]*\))?$")


def parse(text: str, name: str = "") -> list[Item]:
    items = []
    section, fenced = "", False
    lines = text.splitlines()
    start = front_matter_end(lines)
    for n, raw in enumerate(lines[start:], start + 1):
        stripped = raw.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        if stripped.startswith("#"):
            section = stripped.lstrip("#").strip().lower()
            continue
        bullet = _BULLET.match(raw)
        if not bullet:
            continue
        body = bullet["body"].strip()
        if _TASK.match(body) or _RELATION.match(body):
            continue
        found = _CATEGORY.match(body)
        if not found and section != "observations":
            continue
        label, rest = (found["category"].strip(), found["rest"]) if found else (None, body)
        memory = _words(rest)
        if memory:
            where = f"{name}:{n}" if name else f"line {n}"
            items.append(Item(memory, body, where, category_for(label)))
    return items


def _words(text: str) -> str:
    text = re.sub(r"\s*\([^()]*\)\s*$", "", text)  # the trailing (context)
    text = re.sub(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]", lambda m: m[2] or m[1], text)
    text = re.sub(r"(?:^|\s)#[\w/-]+", "", text)  # #tags
    return re.sub(r"\s+", " ", text).strip()
