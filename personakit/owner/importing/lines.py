"""Plain lines or Markdown bullets: each line is one memory.

Bullets (`-`, `*`, `+`, `•`), numbers (`1.`, `2)`), checkboxes and emphasis marks are taken off; blank
lines, headings, rules, code fences, a front matter block and label lines ending in ':' are left out.
The other text formats build on `entries`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from personakit.owner.importing import Item

_MARKER = re.compile(r"^(?:[-*+•‣◦]\s+(?:\[[ xX]\]\s+)?|\d{1,4}[.)]\s+)")
_RULE = re.compile(r"^(?:-{3,}|\*{3,}|_{3,}|={3,})$")
_BOLD_LINE = re.compile(r"^(\*\*|__)[^*_]+\1:?$")


def parse(text: str) -> list[Item]:
    return [Item(entry, line, f"line {n}") for n, line, entry in entries(text)]


def entries(text: str) -> Iterator[tuple[int, str, str]]:
    """(line number, the line as written, the memory text) for each line that holds one."""
    lines = text.splitlines()
    start = front_matter_end(lines)
    for n, raw in enumerate(lines[start:], start + 1):
        line = raw.strip()
        if not line or line.startswith(("```", "~~~", "#", ">", "|")) or _RULE.match(line):
            continue
        if _BOLD_LINE.match(line) or (line.endswith(":") and not _MARKER.match(line)):
            continue  # a heading written in bold, or a label such as "Preferences:"
        entry = plain(line)
        if entry:
            yield n, line, entry


def plain(line: str) -> str:
    """The line without its list marker and emphasis marks."""
    line = _MARKER.sub("", line.strip(), count=1)
    return re.sub(r"(\*\*|__)(.+?)\1", r"\2", line).strip()


def heading(line: str) -> str | None:
    """The words of a heading line (`## Tools`, `**Tools**`, `Tools:`), else None."""
    line = line.strip()
    if line.startswith("#"):
        return line.lstrip("#").strip()
    if _BOLD_LINE.match(line):
        return line.strip("*_:").strip()
    if line.endswith(":") and not _MARKER.match(line) and len(line) < 80:
        return line[:-1].strip()
    return None


def front_matter_end(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return i + 1
    return 0
