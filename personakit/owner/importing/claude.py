"""The text Claude gives when asked to export its memory.

Anthropic's export prompt asks for "every memory ... in a single code block", each entry written as
`[date saved, if available] - memory content`, and a sentence after the block saying whether that is
all. So: when the text has a code block, only what is inside code blocks counts (the sentences around
them are Claude talking), and when entries carry their `[date] -`, lines without one are left out too;
each entry's `[date] -` is taken off, and its date kept as when it was said (`2025-03-14`, `March 14,
2025`, `14 March 2025`; a date in another form is left out); headings Claude may add anyway
("Tools, languages and frameworks:") name the category of the entries under them.
"""

from __future__ import annotations

import re
from datetime import datetime

from personakit.owner.importing import Item, category_for
from personakit.owner.importing.lines import heading, plain

_DATED = re.compile(r"^\[([^\]\n]{0,40})\]\s*[-–—:]\s*")
_DATE_FORMATS = ("%Y-%m-%d", "%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%Y/%m/%d")
_FENCE = re.compile(r"^\s*(```|~~~)")


def parse(text: str) -> list[Item]:
    lines = text.splitlines()
    fenced = _inside_code_blocks(lines)
    numbered = fenced if fenced else list(enumerate(lines, 1))
    dated_only = any(_DATED.match(plain(line)) for _, line in numbered)  # then other lines are chatter
    items, category = [], "other"
    for n, raw in numbered:
        line = raw.strip()
        if not line:
            continue
        title = heading(line)
        if title is not None and not _DATED.match(plain(line)):
            category = category_for(title)
            continue
        if dated_only and not _DATED.match(plain(line)):
            continue
        dated = _DATED.match(plain(line))
        entry = _DATED.sub("", plain(line)).strip()
        if entry:
            # The quote is the entry without its date: the date is kept as `said`, not as the owner's words.
            source = entry if dated else line
            items.append(
                Item(entry, source, f"line {n}", category, said=_day(dated.group(1)) if dated else "")
            )
    return items


def _day(written: str) -> str:
    """A date as Claude may write it, as YYYY-MM-DD; "" when it is not one."""
    for form in _DATE_FORMATS:
        try:
            return datetime.strptime(written.strip(), form).date().isoformat()
        except ValueError:
            continue
    return ""


def _inside_code_blocks(lines: list[str]) -> list[tuple[int, str]]:
    inside, found = False, []
    for n, line in enumerate(lines, 1):
        if _FENCE.match(line):
            inside = not inside
        elif inside:
            found.append((n, line))
    return found
