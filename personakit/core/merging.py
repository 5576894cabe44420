"""The per-memory rules that `personakit sync` and the git merge driver share: three versions in, one out.

A memory may change on two devices between syncs. `merge_memory` takes its file as it was when they last
agreed (`base`), as this device has it (`here`) and as the other device has it (`there`), each the file's
text or None where the file does not exist, and returns the merged file, perhaps a second memory, and
notes for the owner. Pure: no files, no git, no clock.

The rules (docs/sync.md explains them to owners):

- Changed (or added, or forgotten) on one side only: that side's version.
- The same memory on both sides (one id): one file. Each front-matter key merges three ways by lines;
  evidence changed on both sides is the union.
- The state decided differently on both sides: the more private wins (restricted > rejected >
  unconfirmed > approved), and a note names both decisions so the owner can decide again.
- The text edited on both sides: here's text stays the memory; there's becomes a second memory with an
  id of its own, unconfirmed (or as private as the other device had it), and a note names both.
- Forgotten on one side and changed on the other: the change wins, with a note. Forgotten on one side and
  untouched on the other: forgotten.
- `about` changed differently on both sides: the union of the names; `said`: the earlier day; `until`:
  the later day.
- Any other key changed differently on both sides: here's value; a different category gets a note.

Merging edits lines of the front matter and never loads and dumps the YAML, so an owner's formatting,
comments and unknown keys survive, and `git log -p` of a merged file shows only what merged.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Literal

from personakit.core.evidence import add_evidence
from personakit.core.memory import STATES, InvalidMemory, Memory, State, parse_memory, set_key
from personakit.core.naming import memory_id, normalize
from personakit.core.people import key as name_key
from personakit.core.people import render_about

PRIVACY: tuple[State, ...] = ("approved", "unconfirmed", "rejected", "restricted")  # least to most private
NoteKind = Literal["decisions", "texts", "kept", "category"]

_KEY = re.compile(r"(?![\s#-])([^:\n]+?)\s*:(?=\s|$)")


def more_private(a: str, b: str) -> State:
    """The more private of two states; a value that is not a state reads as restricted."""
    ra = PRIVACY.index(a) if a in PRIVACY else len(PRIVACY)
    rb = PRIVACY.index(b) if b in PRIVACY else len(PRIVACY)
    return PRIVACY[min(max(ra, rb), len(PRIVACY) - 1)]


@dataclass(frozen=True)
class Note:
    """Something the owner should know about one merged memory: two decisions, two texts, a kept change."""

    kind: NoteKind
    id: str
    text: str  # the memory's text, as kept
    here: str  # this device's side: a state, a text, a category, or "forgotten" / "changed"
    there: str  # the other device's side, the same way
    kept: str = ""  # what the merge kept: a state, a category, or "changed"
    second: str = ""  # texts: the id of the second memory that holds the other device's text

    def sentence(self) -> str:
        what = f'{self.id} "{self.text}"'
        if self.kind == "decisions":
            return (
                f"{what}: {self.here} on this device, {self.there} on the other; kept {self.kept}, "
                "the more private"
            )
        if self.kind == "texts":
            return (
                f'{self.id}: the text was edited on both devices; this device\'s "{self.here}" stays '
                f'{self.id}, the other\'s "{self.there}" is now a second memory, {self.second} ({self.kept})'
            )
        if self.kind == "kept":
            if self.here == "forgotten":
                return f"{what}: forgotten on this device, changed on the other; the change was kept"
            return f"{what}: forgotten on the other device, changed on this one; the change was kept"
        return f"{what}: category {self.here} on this device, {self.there} on the other; kept {self.kept}"


@dataclass(frozen=True)
class Merged:
    text: str | None  # the memory file's merged text; None: the memory is forgotten
    second: str | None = None  # a second memory's file text (the other device's text, or another memory)
    notes: tuple[Note, ...] = ()


def merge_memory(
    base: str | None,
    here: str | None,
    there: str | None,
    taken: Callable[[str], bool] = lambda _: False,
    decided: tuple[Collection[str], Collection[str]] = ((), ()),
) -> Merged:
    """Merge three versions of one memory file (see the module docstring). Raises InvalidMemory when a
    version that both sides changed cannot be read as a memory: the caller falls back to a text merge.

    `taken(id)` says whether another memory in the vault has that id already: a second memory never
    takes it (its text may be the one another memory was first proposed with).

    `decided` holds each side's decisions on this memory since base that it did not take back, when the
    caller knows its history (`personakit sync` does; a git merge driver does not): a decision counts even
    when the side came back to base's state (approved, then rejected again), and a state that changed
    without one (forgotten, then proposed again) yields to a decision."""
    mine_decided, theirs_decided = decided
    if here == there:
        return Merged(here)
    if here == base and not mine_decided:
        return Merged(there)
    if there == base and not theirs_decided:
        return Merged(here)
    if here is None or there is None:  # forgotten on one side, changed on the other (or added by one)
        kept = there if here is None else here
        assert kept is not None  # both None is here == there, above
        try:
            memory = parse_memory(kept)
        except InvalidMemory:
            return Merged(kept)  # kept all the same: nothing the owner wrote is lost
        sides = ("forgotten", "changed") if here is None else ("changed", "forgotten")
        return Merged(kept, notes=(Note("kept", memory.id, memory.text, *sides, kept="changed"),))
    mine, theirs = parse_memory(here), parse_memory(there)
    if mine.id != theirs.id:  # two memories at one path: both stay, each merged with its own past
        old = parse_memory(base) if base is not None else None
        first = merge_memory(base if old and old.id == mine.id else None, here, None, taken, decided)
        other = merge_memory(base if old and old.id == theirs.id else None, None, there, taken, decided)
        notes = first.notes + other.notes
        if first.text is None:
            return Merged(other.text, None, notes)
        return Merged(first.text, other.text, notes)
    merged = _merge_same(
        base, parse_memory(base) if base is not None else None, here, mine, there, theirs, taken
    )
    return _apply_decisions(merged, mine, mine_decided, theirs_decided) if any(decided) else merged


def _merge_same(
    base: str | None,
    old: Memory | None,
    here: str,
    mine: Memory,
    there: str,
    theirs: Memory,
    taken: Callable[[str], bool],
) -> Merged:
    b, h, t = (_Doc.split(base) if base is not None else None), _Doc.split(here), _Doc.split(there)
    notes: list[Note] = []
    blocks: list[tuple[str, str]] = []
    union: set[str] = set()  # list keys changed on both sides: merged as the union of their quotes
    for key, text in _merge_keys(b, h, t):
        if text is not None:
            blocks.append((key, text))
            continue
        name = key.split("#")[0]
        mine_text, theirs_text = h.blocks[key], t.blocks[key]
        if name == "state":
            here_state, there_state = _state(mine_text), _state(theirs_text)
            # A memory added on both sides was unconfirmed before either device decided.
            old_state = _state(b.blocks[key]) if b is not None and key in b.blocks else "unconfirmed"
            if here_state in (there_state, old_state):
                kept = there_state
            elif there_state == old_state:
                kept = here_state
            else:
                kept = more_private(here_state, there_state)
                notes.append(Note("decisions", mine.id, mine.text, here_state, there_state, kept))
            blocks.append((key, mine_text if kept == here_state else theirs_text))
        elif key in ("about", "said", "until"):
            blocks.append((key, _who_and_when(key, mine, theirs, mine_text, theirs_text)))
        else:
            blocks.append((key, mine_text))
            if name in UNION:
                union.add(name)
            if name == "category" and _value(mine_text) != _value(theirs_text):
                category = _value(mine_text)
                notes.append(Note("category", mine.id, mine.text, category, _value(theirs_text), category))
    second = None
    if normalize(mine.text) == normalize(theirs.text):
        body = h.body
    elif old is not None and normalize(mine.text) == normalize(old.text):
        body = t.body
    elif old is not None and normalize(theirs.text) == normalize(old.text):
        body = h.body
    else:  # edited on both sides: here's text stays this memory; there's becomes a second one
        body = h.body
        second, note = _second_memory(mine, there, theirs, taken)
        notes.append(note)
    merged = h.opening + "".join(text for _, text in blocks) + h.closing + body
    for name in sorted(union):
        attr = UNION[name]
        seen = {normalize(q) for q in getattr(parse_memory(merged), attr)}
        gone = {normalize(q) for q in getattr(old, attr)} if old is not None else set()
        for quote in getattr(theirs, attr):
            if normalize(quote) not in seen and normalize(quote) not in gone:
                merged = add_evidence(merged, quote, name)
                seen.add(normalize(quote))
    parse_memory(merged)  # the merge must read back; InvalidMemory sends the caller to a text merge
    return Merged(merged, second, tuple(notes))


def _who_and_when(key: str, mine: Memory, theirs: Memory, mine_text: str, theirs_text: str) -> str:
    """`about` changed on both sides: the union of their names; `said`: the earlier day; `until`: the
    later (a value that is not a day loses to one that is)."""
    if key == "about":
        names: dict[str, str] = {}
        for name in (*mine.about, *theirs.about):  # here's names first, then there's new ones
            names.setdefault(name_key(name), name)
        nl = "\r\n" if mine_text.endswith("\r\n") else "\n"
        return f"about: {render_about(names.values())}{nl}"
    if key == "said":
        earlier = theirs.said and (not mine.said or theirs.said < mine.said)
        return theirs_text if earlier else mine_text
    return theirs_text if theirs.until > mine.until else mine_text


UNION = {"evidence": "evidence", "pending_evidence": "pending"}  # a key, and the Memory field it reads as


def _apply_decisions(merged: Merged, mine: Memory, here: Collection[str], there: Collection[str]) -> Merged:
    """The state the two sides' decisions give (the most private of them), in place of the one their
    files' states give; a note when the two sides decided differently."""
    assert merged.text is not None
    ours, theirs = _most_private(here), _most_private(there)
    kept = _most_private([*here, *there])
    notes = [n for n in merged.notes if n.kind != "decisions"]
    if here and there and ours != theirs:
        notes.insert(0, Note("decisions", mine.id, parse_memory(merged.text).text, ours, theirs, kept))
    text = merged.text if parse_memory(merged.text).state == kept else set_key(merged.text, "state", kept)
    return Merged(text, merged.second, tuple(notes))


def _most_private(states: Collection[str]) -> State:
    kept: State = "approved"
    for state in states:
        kept = more_private(kept, state)
    return kept


def _second_memory(
    mine: Memory, there: str, theirs: Memory, taken: Callable[[str], bool]
) -> tuple[str, Note]:
    """The other device's text as a memory of its own: a new id, unconfirmed unless it was more private.

    Its id is the one its text would get as a proposal, unless a memory has that one already (this one,
    whose text it may have been at first, or another): then one made from the text and this memory's id,
    the same on every device that makes this merge."""
    sid = memory_id(theirs.text)
    if sid == mine.id or taken(sid):
        digest = hashlib.sha256(f"{normalize(theirs.text)}\n{mine.id}".encode()).hexdigest()
        sid = "m_" + digest[:12]
    state = more_private("unconfirmed", theirs.state)
    text = set_key(set_key(there, "id", sid), "state", state)
    return text, Note("texts", mine.id, mine.text, mine.text, theirs.text, state, sid)


def _merge_keys(b: _Doc | None, h: _Doc, t: _Doc) -> list[tuple[str, str | None]]:
    """Each front-matter key's merged block, in here's order then there's additions; None: a conflict."""
    base = b.blocks if b is not None else {}
    out: list[tuple[str, str | None]] = []
    for key, mine in h.blocks.items():
        old, theirs = base.get(key), t.blocks.get(key)
        if theirs is None:  # removed there, or added here
            if old is None or mine != old:
                out.append((key, mine))  # added here, or changed here and removed there: nothing is lost
        elif mine == theirs or theirs == old:
            out.append((key, mine))
        elif mine == old:
            out.append((key, theirs))
        else:
            out.append((key, None))
    for key, theirs in t.blocks.items():
        if key not in h.blocks and (key not in base or base[key] != theirs):
            out.append((key, theirs))  # added there, or changed there and removed here
    return out


def _value(block: str) -> str:
    """A `key: value` block's value as one string (the first line, comment and quotes stripped)."""
    first = block.split("\n", 1)[0].split(":", 1)[1] if ":" in block else ""
    first = re.sub(r"\s+#.*$", "", first).strip()
    return first.strip("\"'")


def _state(block: str) -> State:
    value = _value(block)
    return value if value in STATES else "restricted"  # type: ignore[return-value]


@dataclass(frozen=True)
class _Doc:
    """A memory file cut into its opening line, its front-matter blocks (one per top-level key, with the
    lines that belong to it), its closing line and its body. The blocks joined give the text back."""

    opening: str
    blocks: dict[str, str]  # "key" (or "key#2" for a key written twice; "" for lines before the first key)
    closing: str
    body: str

    @classmethod
    def split(cls, raw: str) -> _Doc:
        lines = raw.splitlines(keepends=True)
        end = next(i for i in range(1, len(lines)) if lines[i].rstrip("\r\n") in ("---", "..."))
        blocks: dict[str, str] = {}
        key = ""
        for line in lines[1:end]:
            found = _KEY.match(line)
            if found:
                key = found.group(1).strip().strip("\"'")
                n = 2
                while key in blocks:
                    key = f"{found.group(1).strip()}#{n}"
                    n += 1
            blocks[key] = blocks.get(key, "") + line
        return cls(lines[0], blocks, lines[end], "".join(lines[end + 1 :]))
