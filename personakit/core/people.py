"""Who a memory is about: the `about` names, their cleaning, their front-matter form, and people notes.

A memory about someone other than the owner names them in `about`, written as Obsidian links so the
graph view shows them: `about: ["[[Carla]]"]` (links in properties must be quoted). A plain
`about: [Carla]` written by hand means the same, as does `[[Carla|my sister]]` (the link's target is the
name). A name is cleaned before it is kept or written: the characters that would end or bend a link
(`[`, `]`, `|`, `#`, `^`), line breaks and control characters go, spaces are folded and leading dashes
are dropped, so a name can never close the front matter, add a key, or point a link elsewhere; the line
itself is JSON-quoted, which YAML reads back as exactly the names.

A proposal's names are checked strictly (`check_about`: a list of at most `MAX_NAMES` strings of at most
`MAX_NAME` characters, none only punctuation); a hand-made file's are read leniently (`read_about`), and
what cannot be read is reported, never fatal.

Two names are one person when they are equal after case folding (`key`), or when a people note
(`people/Carla.md`, with Obsidian's `aliases`) lists both. The clash rule uses `same_subject`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from personakit.core.words import words

MAX_NAMES = 8
MAX_NAME = 80
_LINK = re.compile(r"^\s*!?\[\[(.*?)\]\]\s*$", re.DOTALL)
_BENDS = re.compile(r"[\[\]|#^]")
_SPACE = re.compile(r"\s+")


def clean_name(raw: str) -> str:
    """A name as it is kept: a link's target (`[[Carla|sis]]`: Carla), with nothing that could end or bend
    a link, a line or the front matter (see the module docstring)."""
    text = unicodedata.normalize("NFC", raw)
    link = _LINK.match(text)
    if link:
        text = re.split(r"[|#^]", link.group(1), maxsplit=1)[0]
    text = "".join(c if unicodedata.category(c) not in ("Cc", "Cs", "Cf", "Zl", "Zp") else " " for c in text)
    text = _SPACE.sub(" ", _BENDS.sub(" ", text)).strip()
    return text.lstrip("-—– ").strip()


def _has_word(name: str) -> bool:
    return any(unicodedata.category(c)[0] in "LN" for c in name)


def key(name: str) -> str:
    """The form two names share when they name the same one: case and width aside."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_about(value: object) -> tuple[str, ...] | str:
    """A proposal's `about`: its cleaned names (duplicates once), or a sentence saying what is wrong."""
    if value is None:
        return ()
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        return 'about must be a list of names, each a string, such as ["Carla"]; nothing was stored'
    if len(value) > MAX_NAMES:
        return f"about has {len(value)} names; give at most {MAX_NAMES}; nothing was stored"
    names: dict[str, str] = {}
    for raw in value:
        name = clean_name(raw)
        if len(name) > MAX_NAME:
            return f"a name in about is {len(name)} characters; keep each to {MAX_NAME}; nothing was stored"
        if not _has_word(name):
            shown = raw.strip()[:40]
            return f"the name {json.dumps(shown, ensure_ascii=False)} in about has no letter or digit; nothing was stored"
        names.setdefault(key(name), name)
    return tuple(names.values())


def read_about(value: object) -> tuple[tuple[str, ...], str]:
    """A file's `about`: its names and a problem to report ("" when none). A number or a set of keys
    reads as no names; a single string as one name; `about: [[Carla]]` (unquoted, which YAML reads as a
    list in a list) as the names it meant."""
    if value is None or value == []:
        return (), ""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        kind = "a set of keys" if isinstance(value, dict) else "not a list of names"
        return (), f'about is {kind}: read as about no one; write it as about: ["[[Name]]"]'
    problem = ""
    flat: list[object] = []
    for item in value:
        if isinstance(item, list):  # about: [[Carla]]
            flat += item
            problem = 'about has an unquoted link, which Obsidian cannot read: write about: ["[[Name]]"]'
        else:
            flat.append(item)
    names: dict[str, str] = {}
    for item in flat:
        name = clean_name(item) if isinstance(item, str) else ""
        if not _has_word(name) or len(name) > MAX_NAME:
            problem = problem or "about holds a value that is not a name: it is left out"
            continue
        names.setdefault(key(name), name)
    if len(names) > MAX_NAMES:
        problem = problem or f"about has {len(names)} names; only the first {MAX_NAMES} are read"
    return tuple(names.values())[:MAX_NAMES], problem


def render_about(names: Iterable[str]) -> str:
    """The value of an `about:` line: a flow list of quoted Obsidian links, as one line of YAML."""
    return "[" + ", ".join(json.dumps(f"[[{clean_name(n)}]]", ensure_ascii=False) for n in names) + "]"


def expand(question: list[str], people: Iterable[Person]) -> list[str]:
    """The words a question gains from the people it names. A person is named when the question has
    every word of their name or of one of their aliases ("my sister": "sister"); it then gains the words
    of the name and of every alias, so a memory about [[Carla]] answers a question about "my sister" and
    one about [[my sister]] answers one about Carla. Words as `core.words.words` counts them."""
    have = set(question)
    extra: dict[str, None] = {}
    for person in people:
        groups = _word_groups(person.names())
        if any(group and group <= have for group in groups):
            extra.update((w, None) for group in groups for w in group if w not in have)
    return list(extra)


@lru_cache(maxsize=4096)
def _word_groups(names: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """The words of each name, worked out once per set of names (a read looks at every note)."""
    return tuple(frozenset(words(name)) for name in names)


def same_subject(a: Iterable[str], b: Iterable[str], people: Iterable[Person] = ()) -> bool:
    """Are two memories about the same one? Both about the owner (no names), or sharing a name, a name
    and one of its aliases, or two aliases of one person."""
    ka, kb = {key(n) for n in a}, {key(n) for n in b}
    if not ka or not kb:
        return ka == kb
    if ka & kb:
        return True
    for person in people:
        known = person.name_keys()
        if ka & known and kb & known:
            return True
    return False


@dataclass(frozen=True)
class Person:
    """A people note: `people/<name>.md`, its file stem the name, Obsidian's `aliases` the other names."""

    name: str
    aliases: tuple[str, ...] = ()
    file: str = ""  # the note's path inside the vault
    problem: str = ""

    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    def name_keys(self) -> set[str]:
        return {key(n) for n in self.names()}


def read_person(meta: dict[object, object], stem: str, file: str = "") -> Person:
    """A people note from its front matter's values (empty for a note without any) and its file stem."""
    raw = meta.get("aliases")
    if raw is None or raw == []:
        values: list[object] = []
    elif isinstance(raw, str):
        values = [raw]
    elif isinstance(raw, list):
        values = raw
    else:
        return Person(clean_name(stem), (), file, "aliases is not a list of names: read as none")
    aliases: dict[str, str] = {}
    problem = ""
    for value in values:
        alias = clean_name(str(value)) if isinstance(value, str | int | float) else ""
        if not _has_word(alias) or len(alias) > MAX_NAME:
            problem = "aliases holds a value that is not a name: it is left out"
            continue
        if key(alias) != key(stem):
            aliases.setdefault(key(alias), alias)
    return Person(clean_name(stem), tuple(aliases.values()), file, problem)


_NOT_IN_FILE_NAMES = set('*"\\/<>:|?')  # what Obsidian refuses in a note's name, and path separators


def note_name_problem(name: str) -> str:
    """Why name cannot name a people note's file ("" when it can)."""
    if not _has_word(name) or len(name) > MAX_NAME:
        return f"a name needs a letter or digit and at most {MAX_NAME} characters"
    bad = sorted(set(name) & _NOT_IN_FILE_NAMES)
    if bad or name.startswith("."):
        shown = " ".join(bad) if bad else "."
        return f"a note's name cannot hold {shown} (Obsidian refuses them in file names)"
    return ""


def render_person(name: str, aliases: Iterable[str]) -> str:
    """A new people note's text: Obsidian's `aliases` property, and a line for the owner's own notes."""
    found = [clean_name(a) for a in aliases]
    lines = ["---", f"aliases: [{', '.join(json.dumps(a, ensure_ascii=False) for a in found)}]", "---"]
    return "\n".join(lines) + f"\n# {clean_name(name)}\n"
