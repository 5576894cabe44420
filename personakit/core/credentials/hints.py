"""Where to look for a secret that is said or assigned: windows around the words that name one.

The phrase and context checks read only these windows. A hint is a stem found inside a word ("pass" in
"password", "PGPASSWORD", "passwort"), a short word found whole ("pin", not "opinion"), or a literal
("2fa", "wi-fi"); the first word of every phrase in `credential_words.LANGUAGES` is one too. Hints are
looked for among the text's distinct words, once each, so a megabyte of prose costs a few milliseconds;
a hint with no separator (a space, ":", "=", a quote) soon after it, as inside a run of base64, opens no
window.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

import personakit.core.credentials.words as words
from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.runs import Span, merge
from personakit.core.credentials.textview import fold

_WINDOW_BEFORE, _WINDOW_AFTER = 80, 420  # around a hint: the words before it and the longest value
_FIRST_WORDS = {
    fold(phrase).lower().split()[0]
    for table in words.LANGUAGES.values()
    for strength in ("secret", "pin")
    for phrase in table[strength].split("|")
}

_SHORT = {w for w in _FIRST_WORDS if len(w) < 4 and w.isascii()}  # whole words: "mot", not "motor"

_STEMS = sorted(set(words.HINT_STEMS.split()) | (_FIRST_WORDS - _SHORT), key=len, reverse=True)

_HINT_WORDS = frozenset(words.HINT_WORDS.split()) | _SHORT


def _trie(literals: list[str]) -> str:
    """One regex for many literals, factored by their first characters: `re` tries alternatives one by
    one, so 150 hints side by side cost 150 comparisons at every character, and a trie a handful."""
    root: dict[str, dict] = {}  # type: ignore[type-arg]
    for literal in literals:
        node = root
        for char in literal:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict) -> str:  # type: ignore[type-arg]
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(root)


_HINT_STEM = lazy(_trie(_STEMS))

ID_HINTS = frozenset(words.ID_HINTS.split())

TOOL_HINTS = frozenset(words.TOOL_HINTS.split())


class Hints(NamedTuple):
    """Where the phrase and context checks read, and which hint words were found (each family reads
    only if one of its own words is among them)."""

    windows: list[Span]
    found: frozenset[str]
    starts: list[int]  # where each hint begins, in order


def hint_windows(lower: str, distinct: set[str]) -> Hints:
    """Windows around the words that may name a secret. distinct: lower's whitespace-separated words."""
    # A word name is near a word's start or end: a run of key characters is read only so far, and a
    # megabyte of base64 is not searched for hints.
    shown: Iterable[str] = distinct
    if sum(map(len, distinct)) > 4096 and max(map(len, distinct)) > 256:
        shown = [word if len(word) <= 256 else word[:128] + " " + word[-128:] for word in distinct]
    joined = " ".join(shown)
    pieces = set(_HINT_WORDS.intersection(distinct))
    pieces.update(_HINT_WORDS.intersection(_NOT_LETTERS.split(" ".join(w for w in shown if not w.isalpha()))))
    found = set(_HINT_STEM.findall(joined)) | pieces
    found |= {literal for literal in words.HINT_LITERALS if literal in lower}
    starts: list[int] = []
    for hint in found:
        whole = hint in _HINT_WORDS
        position = lower.find(hint)
        while position >= 0:
            # A phrase puts a separator (a space, ":", "=", a quote) soon after its word; a hint inside
            # a long run of key characters opens no window.
            if (not whole or _whole_word(lower, position, len(hint))) and (
                not hint.isascii() or _SEPARATOR_NEAR.search(lower, max(0, position - 40), position + 40)
            ):
                starts.append(position)
            position = lower.find(hint, position + 1)
    starts.sort()
    windows = merge([(max(0, start - _WINDOW_BEFORE), start + _WINDOW_AFTER) for start in starts])
    return Hints(windows, frozenset(found) if windows else frozenset(), starts)


_NOT_LETTERS = lazy(r"[^\w]+|[\d_]+")

_SEPARATOR_NEAR = lazy(r"[\s:=>\"'`。，：]")


def _whole_word(lower: str, start: int, length: int) -> bool:
    before = lower[start - 1 : start]
    after = lower[start + length : start + length + 1]
    return not before.isalpha() and not after.isalpha()
