"""The memory record and its file: states, categories, identity, parsing and minimal rewrites.

A memory is a Markdown file whose front matter holds `id`, `category`, `state`, `evidence`, `proposed_by`
and `created`, and whose body is the memory's text. The file is the truth; everything else is derived.
Three more keys link memories (see `personakit.owner.corrections`): `replaces` (the id of the memory a
correction replaces), `replaced_by` (on a memory the owner retired for a correction) and `similar` (the
ids of near-duplicates a proposal had when it was made). A value that is not an id is ignored.
Three say who and when (`core.people`, `core.when`): `about` (the names of others it is about, as
Obsidian links), `said` (the day the owner said it) and `until` (the last day it holds). A memory about
others has an id made from its text and their names, so "Is allergic to nuts" about Carla is not the
owner's "Is allergic to nuts".

Rewrites are line edits on the front matter, never a load-and-dump of the YAML: a state change touches
the one `state:` line and an evidence append adds one line, so an owner's formatting, comments and extra
keys survive and `git log -p` shows only the decision.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Literal, get_args

import yaml

from personakit.core.front_matter import InvalidFrontMatter, bounds, key_lines, read, value_end
from personakit.core.naming import clean, memory_id
from personakit.core.people import read_about, render_about
from personakit.core.when import read_day

Category = Literal[
    "communication", "work-style", "tools", "preferences", "background", "constraints", "other"
]
State = Literal["unconfirmed", "approved", "rejected", "restricted"]
CATEGORIES: tuple[str, ...] = get_args(Category)
STATES: tuple[str, ...] = get_args(State)
VISIBLE_STATES = ("unconfirmed", "approved")  # the states a read may return
VERB = {"approved": "approve", "rejected": "reject", "restricted": "restrict", "unconfirmed": "unconfirm"}
PRIVACY = ("approved", "unconfirmed", "rejected", "restricted")  # least private first
KEYS = (  # the front matter PersonaKit reads
    "id", "category", "state", "evidence", "proposed_by", "created", "replaces", "replaced_by", "similar",
    "about", "said", "until", "pending_evidence",
)  # fmt: skip
MAX_TEXT = 300  # characters of memory text, as the contract says
MAX_QUOTE_STORED = 1_000  # characters of one stored quote; a read serves at most 240 of them
MAX_QUOTES_READ = 200  # quotes in a file past which it is skipped: each costs the credential check ~2 ms
_TOO_MANY = (
    f"it lists {{:,}} quotes; a memory file is read with at most {MAX_QUOTES_READ}: move the others out"
)

_ID = re.compile(r"^m_[0-9a-f]{12}$")
_ANY_ID = re.compile(r"\bm_[0-9a-f]{12}\b")
_FENCE = re.compile(r"-{3,}")
_ITEM = re.compile(r"^[ \t]*- ", re.MULTILINE)


# A memory file that cannot be read; `line` is 1-based in the file when known.
InvalidMemory = InvalidFrontMatter


class Draft(InvalidMemory):
    """A file that is no memory yet: empty, or with no front matter (a note just made in Obsidian). It is
    skipped without a word, and taken in as any hand-made file once it is a memory."""


@dataclass(frozen=True)
class Memory:
    id: str
    text: str
    category: Category
    state: State  # the effective state: a missing or unknown one reads as "restricted"
    evidence: tuple[str, ...] = ()
    proposed_by: str = ""
    created: str = ""
    name: str = ""  # the file name inside memories/
    problems: tuple[str, ...] = field(default=(), compare=False)  # what doctor should report
    replaces: str = ""  # the id of the memory this one corrects, as proposed
    replaced_by: str = ""  # the id of the correction the owner approved in this one's place
    similar: tuple[str, ...] = ()  # ids of near-duplicates it had when proposed
    about: tuple[str, ...] = ()  # plain names of the others it is about (none: the owner)
    said: str = ""  # YYYY-MM-DD the owner said it, when the file says (else its created day)
    until: str = ""  # YYYY-MM-DD, the last day it holds, when it holds for a while
    pending: tuple[str, ...] = ()  # quotes the owner has not seen yet: never shown (`core.evidence`)

    @property
    def confirmed(self) -> bool:
        return self.state == "approved"


def claimed_ids(raw: str) -> frozenset[str]:
    """The ids a file that cannot be parsed may belong to: every id written in it, and the id of what
    looks like its text (below a second '---' line), for a file whose id line was never there."""
    claimed = set(_ANY_ID.findall(raw))
    lines = raw.splitlines()
    fences = [i for i, line in enumerate(lines) if _FENCE.fullmatch(line.strip())]
    if len(fences) >= 2:
        text = clean(" ".join(lines[fences[1] + 1 :]))
        if text:
            claimed.add(memory_id(text))
    return frozenset(claimed)


def most_private(states: Iterable[State]) -> State:
    """The state several files of one memory read as together: the most private of theirs."""
    return max(states, key=PRIVACY.index)


def _as_text(value: object) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, date):
        return value.isoformat()
    if value is None:
        return ""
    try:
        return str(value)
    except ValueError:  # an integer too long for Python to print in decimal
        return hex(value) if isinstance(value, int) else ""


def _wrong(key: str, value: object, wanted: str) -> str:
    """What is wrong with a front-matter value, in words: "state 'aproved' is not a state"."""
    if value is None:
        return f"{key} is missing"
    if isinstance(value, str):
        shown = value if len(value) <= 60 else value[:57] + "..."
        return f"{key} '{shown}' is not {wanted}" if value.strip() else f"{key} is empty"
    if isinstance(value, bool):
        return f"{key} is a yes or no, not {wanted}"
    if isinstance(value, list | dict):
        return f"{key} is {'a list' if isinstance(value, list) else 'a set of keys'}, not {wanted}"
    shown = _as_text(value)
    return f"{key} {shown if len(shown) <= 60 else shown[:57] + '...'} is not {wanted}"


def parse_memory(raw: str, name: str = "") -> Memory:
    """Read a memory file's text. Lenient where a person could have typed it, strict where privacy is at stake."""
    if raw.startswith("\ufeff"):
        raw = raw[1:]
    if not raw.strip():
        raise Draft("the file is empty", 1)
    if not raw.startswith("---"):
        raise Draft("no front matter: the file must start with a line '---'", 1)
    items = _ITEM.findall(raw, 0, max(raw.find("\n---", 3), 0))  # before YAML spends seconds on them
    if len(items) > MAX_QUOTES_READ + 50:
        raise InvalidMemory(_TOO_MANY.format(len(items)))
    front = read(raw)
    meta = front.meta
    text = clean(front.body)
    if not text:
        raise InvalidMemory("the memory text (below the front matter) is empty")

    problems: list[str] = []
    raw_state = meta.get("state")
    state: State = raw_state if isinstance(raw_state, str) and raw_state in STATES else "restricted"  # type: ignore[assignment]
    if state != raw_state:
        problems.append(f"{_wrong('state', raw_state, 'a state')}: treated as restricted")
    for key, lines in front.duplicates.items():
        # YAML keeps the last; the owner may have meant the first, and other readers (Obsidian) refuse it.
        # Which one wins matters only for a key PersonaKit reads; a key of the owner's own is just reported.
        shown = ", ".join(map(str, lines[:-1])) + f" and {lines[-1]}"
        if key in KEYS:
            state = "restricted"
            outcome = "the file is read as restricted until only one is left"
        else:
            outcome = "YAML keeps the last one, and Obsidian cannot read the file; keep only one"
        problems.append(f"{key[:40]} is written {len(lines)} times (lines {shown}): {outcome}")
    typed = meta.get("category")
    category: Category = typed if isinstance(typed, str) and typed in CATEGORIES else "other"  # type: ignore[assignment]
    if category != typed:
        problems.append(f"{_wrong('category', typed, 'one of the seven')}: read as 'other'")
    mid = meta.get("id")
    about, said, until = _who_and_when(meta, problems)
    if not (isinstance(mid, str) and _ID.match(mid)):
        if mid is not None:  # a missing id is no problem: it is made from the text, and written in
            problems.append(f"{_wrong('id', mid, 'm_ and 12 hex digits')}: made from the text instead")
        mid = memory_id(text, about)
    quotes = _quotes(meta.get("evidence"), "evidence", problems)
    pending = _quotes(meta.get("pending_evidence"), "pending_evidence", problems)
    if len(quotes) + len(pending) > MAX_QUOTES_READ:
        raise InvalidMemory(_TOO_MANY.format(len(quotes) + len(pending)))
    if len(text) > MAX_TEXT:
        problems.append(f"the text is {len(text)} characters, over the {MAX_TEXT} a proposal may have")
    similar = meta.get("similar")
    return Memory(
        id=mid,
        text=text,
        category=category,
        state=state,
        evidence=tuple(q for q in quotes if q),
        proposed_by=clean(_as_text(meta.get("proposed_by"))),
        created=clean(_as_text(meta.get("created"))),
        name=name,
        problems=tuple(problems),
        replaces=_an_id(meta.get("replaces")),
        replaced_by=_an_id(meta.get("replaced_by")),
        similar=tuple(
            dict.fromkeys(i for i in map(_an_id, similar if isinstance(similar, list) else [similar]) if i)
        ),
        about=about,
        said=said,
        until=until,
        pending=tuple(q for q in pending if q),
    )


def _who_and_when(meta: dict[object, object], problems: list[str]) -> tuple[tuple[str, ...], str, str]:
    """`about`, `said` and `until` as a file has them; what cannot be read is a problem, not an error."""
    about, problem = read_about(meta.get("about"))
    said, said_problem = read_day(meta.get("said"), "said")
    until, until_problem = read_day(meta.get("until"), "until")
    problems += [p for p in (problem, said_problem, until_problem) if p]
    return about, said, until


def _quotes(value: object, key: str, problems: list[str]) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [clean(_as_text(q)) for q in value if q is not None]
    problems.append(f"{key} is not a list: read as a list of one quote")
    return [clean(_as_text(value))]


def is_id(value: object) -> bool:
    """Is value a memory id: `m_` and 12 lowercase hex digits, nothing more?"""
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def _an_id(value: object) -> str:
    return value if is_id(value) else ""  # type: ignore[return-value]


def scalar(value: str) -> str:
    """value as one line of YAML that reads back as exactly that string."""
    dumped = yaml.safe_dump([value], allow_unicode=True, width=2**31, default_flow_style=False)
    return dumped.rstrip("\n")[2:]


def render_memory(memory: Memory) -> str:
    """The text of a new memory file, in the documented key order."""
    lines = ["---", f"id: {memory.id}", f"category: {memory.category}", f"state: {memory.state}"]
    # No quotes is still a list: `evidence: []`, which YAML, Obsidian and every reader here take as one.
    lines += (
        ["evidence:", *(f"  - {scalar(q)}" for q in memory.evidence)] if memory.evidence else ["evidence: []"]
    )
    lines += [f"proposed_by: {scalar(memory.proposed_by or 'unknown')}", f"created: {memory.created}"]
    if memory.replaces:
        lines.append(f"replaces: {memory.replaces}")
    if memory.similar:
        lines += ["similar:", *(f"  - {mid}" for mid in memory.similar)]
    if memory.about:
        lines.append(f"about: {render_about(memory.about)}")
    lines += [f"{k}: {v}" for k, v in (("said", memory.said), ("until", memory.until)) if v]
    lines.append("---")
    return "\n".join(lines) + "\n" + memory.text + "\n"


def newline(lines: list[str]) -> str:
    return "\r\n" if lines[0].endswith("\r\n") else "\n"


def set_key(raw: str, key: str, value: str) -> str:
    """raw with its top-level `key:` line saying value; a comment on it stays.

    A key written more than once keeps its first line, set to value, and loses the others: a decision
    leaves one unambiguous line (the caller checks that the result reads as it should)."""
    lines = raw.splitlines(keepends=True)
    end = bounds(lines)
    nl = newline(lines)
    found = key_lines(lines, end, key)
    if not found:
        lines.insert(end, f"{key}: {value}{nl}")
        return "".join(lines)
    for i in reversed(found[1:]):  # from the last, so the earlier indexes and `end` stay right
        del lines[i : value_end(lines, i, end)]
        end = bounds(lines)
    first = found[0]
    comment = re.search(r"\s+#.*$", lines[first].rstrip("\r\n"))
    lines[first : value_end(lines, first, end)] = [f"{key}: {value}{comment.group(0) if comment else ''}{nl}"]
    return "".join(lines)


def set_state(raw: str, state: str) -> str:
    if state not in STATES:
        raise ValueError(f"unknown state {state!r}")
    return set_key(raw, "state", state)


def key_value(raw: str, key: str) -> str | None:
    """The string a top-level front-matter line `key: value` says (the first, if written twice), or None."""
    lines = raw.splitlines()
    found = key_lines(lines, bounds(lines), key)
    if not found:
        return None
    written = lines[found[0]].split(":", 1)[1].strip()
    try:  # one line: no anchors to expand, no nesting
        value = yaml.safe_load(written) if written[:1] in ('"', "'") else written
    except yaml.YAMLError:
        return written
    return str(value)


def unset_key(raw: str, key: str) -> str:
    """raw without its top-level `key:` lines (and their values); raw itself when it has none."""
    lines = raw.splitlines(keepends=True)
    end = bounds(lines)
    found = key_lines(lines, end, key)
    for i in reversed(found):
        del lines[i : value_end(lines, i, end)]
        end = bounds(lines)
    return "".join(lines) if found else raw


def set_category(raw: str, category: str) -> str:
    if category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}")
    return set_key(raw, "category", category)


def with_memory_id(raw: str, memory_id: str) -> str:
    """raw with `id: memory_id` as its first front-matter line, when it has no id (or an empty one)."""
    lines = raw.splitlines(keepends=True)
    end = bounds(lines)
    for i in range(1, end):
        found = re.match(r"id\s*:(.*)$", lines[i].rstrip("\r\n"))
        if found:
            value = found.group(1).split(" #")[0].strip()
            return raw if value and value not in ("~", "null", "''", '""') else set_key(raw, "id", memory_id)
    lines.insert(1, f"id: {memory_id}{newline(lines)}")
    return "".join(lines)
