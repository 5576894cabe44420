"""A fast path for reading the memory files PersonaKit writes: plain front matter, read without YAML.

`core.memory.parse_memory` reads any file a person could have typed, through python-frontmatter and
PyYAML; that costs about half a millisecond a file, most of a first index. The files PersonaKit writes
(and most hand edits) use a small plain subset: the six known keys (and `said`, `until`) once each,
simple one-line values, and evidence as a block list of one-line quotes. `read_plain` reads exactly that
subset and returns None for anything else (a comment, another key, a key twice, a quoting or value it
does not know for certain, a text with a problem to report), and `read_memory` then falls back to
`parse_memory`. The one problem it reports itself is a category outside the seven (read as 'other'), as
a vault made by another tool may name every memory's category so.

For every file it accepts, `read_plain` gives the same Memory as `parse_memory`, problems included
(tests/core/test_plainfile.py checks this against generated and mangled files). To stay exact it leaves YAML's
own questions to PyYAML: whether a plain value reads as a string is decided by PyYAML's resolver, and a
character PyYAML's reader refuses sends the file to the slow path, which reports it.
"""

from __future__ import annotations

import re
from datetime import datetime

import yaml

from personakit.core.memory import CATEGORIES, MAX_QUOTES_READ, MAX_TEXT, STATES, Memory, _wrong, parse_memory
from personakit.core.naming import clean
from personakit.core.when import read_day

_BOUNDARY = re.compile(r"-{3,}[^\S\n]*$", re.MULTILINE)  # a delimiter line, as python-frontmatter finds it
_KEY = re.compile(r"([a-z_]+):(?: (.*))?$")
_ITEM = re.compile(r"( *)- (.*)$")
_ID = re.compile(r"m_[0-9a-f]{12}$")
_SPACE = re.compile(r"\s+")
_CREATED = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
# Characters PyYAML's reader refuses, and the line breaks, tabs and byte-order marks it reads in ways the
# fast path leaves to it.
_AVOID = re.compile("[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
_STR = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()
KEYS = frozenset({"id", "category", "state", "evidence", "proposed_by", "created", "said", "until"})
_DAY = re.compile(r"\d{4}-\d\d-\d\d$")


def read_memory(raw: str, name: str = "") -> Memory:
    """The memory a file's text holds: the fast path when the file is plain, else `parse_memory`."""
    return read_plain(raw, name) or parse_memory(raw, name)


def read_plain(raw: str, name: str = "") -> Memory | None:
    """The memory of a plain file, exactly as `parse_memory` reads it; None when the file is not plain."""
    if raw.startswith("\ufeff"):
        raw = raw[1:]
    if not raw.startswith("---\n"):
        return None
    end = raw.find("\n---", 3)
    while end >= 0 and not _BOUNDARY.match(raw, end + 1):
        end = raw.find("\n---", end + 1)
    if end < 0:
        return None
    front = raw[4:end]
    if _AVOID.search(front):
        return None
    meta = _front_matter(front.split("\n"))
    if meta is None:
        return None
    line_end = raw.find("\n", end + 1)
    text = _clean(raw[line_end:]) if line_end >= 0 else ""
    if not text or len(text) > MAX_TEXT:
        return None  # an error or a problem to report: the slow path says it
    evidence = meta.get("evidence", [])
    assert isinstance(evidence, list)
    if len(evidence) > MAX_QUOTES_READ:
        return None  # skipped, with the slow path's sentence
    typed = str(meta["category"])
    wrong = (
        () if typed in CATEGORIES else (f"{_wrong('category', typed, 'one of the seven')}: read as 'other'",)
    )
    return Memory(
        id=str(meta["id"]),
        text=text,
        category="other" if wrong else typed,  # type: ignore[arg-type]
        state=meta["state"],  # type: ignore[arg-type]
        evidence=tuple(quote for quote in (_clean(q) for q in evidence) if quote),
        proposed_by=_clean(str(meta.get("proposed_by", ""))),
        created=str(meta.get("created", "")),
        name=name,
        said=str(meta.get("said", "")),
        until=str(meta.get("until", "")),
        problems=wrong,
    )


def _front_matter(lines: list[str]) -> dict[str, str | list[str]] | None:
    meta: dict[str, str | list[str]] = {}
    items: list[str] | None = None  # evidence's quotes while its block list is being read
    indent: str | None = None
    for line in lines:
        if not line.strip():
            continue
        item = _ITEM.match(line)
        if item is not None and items is not None:
            if indent is None:
                indent = item[1]
            value = _scalar(item[2]) if item[1] == indent else None
            if value is None:
                return None
            items.append(value)
            continue
        found = _KEY.match(line)
        if found is None or found[1] not in KEYS or found[1] in meta:
            return None
        key, value = found[1], found[2]
        items = None
        if key == "evidence":
            if value is None or value == "":
                items, indent = [], None
                meta[key] = items
            elif value == "[]":
                meta[key] = []
            else:
                return None
            continue
        # A timestamp or a day, not a string, to YAML
        scalar = value if key in ("created", "said", "until") else _scalar(value or "")
        if scalar is None or not _plain_value(key, value or "", scalar):
            return None
        meta[key] = scalar
    if not {"id", "category", "state"} <= meta.keys():
        return None
    return meta


def _plain_value(key: str, written: str, value: str) -> bool:
    """Is value one that parse_memory reads as it is, with no problem to report?"""
    if key == "id":
        return written == value and bool(_ID.match(value))
    if key == "category":  # one outside the seven reads as 'other', with the problem parse_memory reports
        return written == value and bool(value.strip())
    if key == "state":
        return written == value and value in STATES
    if key in ("said", "until"):  # a day, as read_day reads it without a problem
        return written == value and bool(_DAY.match(value)) and read_day(value, key) == (value, "")
    if key == "created":  # PyYAML reads it as a timestamp, and parse_memory writes it back the same way
        if written != value or not _CREATED.match(value) or value.startswith("0"):
            return False
        try:
            year, month, day, hour, minute, second = (int(value[a : a + 2]) for a in (2, 5, 8, 11, 14, 17))
            datetime(int(value[:2]) * 100 + year, month, day, hour, minute, second)
        except ValueError:
            return False
    return True


def _clean(text: str) -> str:
    """`core.naming.clean`, without its per-character check for the printable ASCII most texts are."""
    if text.isascii():
        spaced = _SPACE.sub(" ", text).strip()
        if spaced.isprintable():
            return spaced
    return clean(text)


def _scalar(written: str) -> str | None:
    """A one-line YAML scalar that PyYAML reads as this string; None when unsure."""
    if not written or written != written.strip(" ") or "\t" in written:
        return None
    if written[0] == "'":
        inner = written[1:-1]
        if len(written) < 2 or written[-1] != "'" or "'" in inner.replace("''", ""):
            return None
        return inner.replace("''", "'")
    if written[0] == '"':
        inner = written[1:-1]
        if len(written) < 2 or written[-1] != '"' or '"' in inner or "\\" in inner:
            return None
        return inner
    if written[0] in _INDICATORS or ": " in written or " #" in written or written.endswith(":"):
        return None
    if _RESOLVER.resolve(yaml.ScalarNode, written, (True, False)) != _STR:
        return None
    return written
