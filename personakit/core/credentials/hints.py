"""Where to look for a secret that is said or assigned: windows around the words that name one; and
whether a seam between two texts can hold one at all.

The phrase and context checks read only these windows. A hint is a stem found inside a word ("pass" in
"password", "PGPASSWORD", "passwort"), a short word found whole ("pin", not "opinion"), or a literal
("2fa", "wi-fi"); the first word of every phrase in `credential_words.LANGUAGES` is one too. Hints are
looked for among the text's distinct words, once each (and each word's hints are kept for its next
time), so a megabyte of prose costs a few milliseconds; a hint with no separator (a space, ":", "=", a
quote) soon after it, as inside a run of base64, opens no window.

Most texts a person writes give no sign of a secret at all (`Quiet`): no hint, no run of key
characters, no literal a shape starts from. Two such texts joined at a seam hold a secret only if the
few characters around the seam make a sign (`glues_to_read`), so the seam check reads them joined only
then, and finds exactly what reading them joined always would.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import NamedTuple

import personakit.core.credentials.words as words
from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.runs import Span, merge, run_across
from personakit.core.credentials.textview import fold
from personakit.core.credentials.tokens import ANY_IN_RUN, LITERALS

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


def hint_windows(lower: str, distinct: set[str], found: set[str] | None = None) -> Hints:
    """Windows around the words that may name a secret. distinct: lower's whitespace-separated words;
    found: `hint_words` of them, if known."""
    found = hint_words(lower, distinct) if found is None else found
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


WHOLE_WORDS_UP_TO = 4096  # characters of words read whole; past them, a long word only at its ends


def hint_words(lower: str, distinct: set[str]) -> set[str]:
    """The hints in lower, whether or not a window opens at them. Each is found inside one word (no hint
    holds a space), so words that hold none side by side hold none, up to WHOLE_WORDS_UP_TO."""
    # A word name is near a word's start or end: a run of key characters is read only so far, and a
    # megabyte of base64 is not searched for hints.
    found: set[str] = set()
    if (
        len(lower) > WHOLE_WORDS_UP_TO
        and sum(map(len, distinct)) > WHOLE_WORDS_UP_TO
        and max(map(len, distinct)) > 256
    ):
        shown: Iterable[str] = [w if len(w) <= 256 else w[:128] + " " + w[-128:] for w in distinct]
        found.update(_HINT_WORDS.intersection(distinct))
        found.update(
            _HINT_WORDS.intersection(_NOT_LETTERS.split(" ".join(w for w in shown if not w.isalpha())))
        )
        found.update(_HINT_STEM.findall(" ".join(shown)))
    else:  # word by word (the same, as no hint holds a space), each word's hints kept for its next time
        found = found.union(*map(_word_hints, distinct))
    found |= {literal for literal in words.HINT_LITERALS if literal in lower}
    return found


_NO_HINTS: frozenset[str] = frozenset()


@lru_cache(maxsize=16384)
def _word_hints(word: str) -> frozenset[str]:
    """The hints in one word: the stems inside it, and it or its pieces (between digits and punctuation)
    when a short hint word."""
    found = set(_HINT_STEM.findall(word))
    found.update(_HINT_WORDS.intersection([word] if word.isalpha() else [word, *_NOT_LETTERS.split(word)]))
    return frozenset(found) if found else _NO_HINTS


_NOT_LETTERS = lazy(r"[^\w]+|[\d_]+")

_SEPARATOR_NEAR = lazy(r"[\s:=>\"'`。，：]")


def _whole_word(lower: str, start: int, length: int) -> bool:
    before = lower[start - 1 : start]
    after = lower[start + length : start + length + 1]
    return not before.isalpha() and not after.isalpha()


class Quiet(NamedTuple):
    """A text (as read) that gives a sign of no family but numbers, seed phrases, keys in runs and those
    read near hints, and holds none: no run of 14 key characters, none of `SIGNS`, no twelve list words
    in a row, and no word that could be a piece of a spread-out key. Every other family needs one of
    these signs (provider shapes and random tokens are read only in runs or from a literal among SIGNS),
    so such a text is read for numbers and, near its hints (`hinted`), for the rest. With digits,
    sayings are read beyond hints where a line has a label (a colon) or a sentence says what a value is
    used for: a quiet text with digits has neither ("said": a colon or "use").
    seeds_end, seeds_start: list words in a row at its end and at its start; seeds_before_last,
    seeds_after_first: the same without its last word, and without its first (glued to the other text's,
    that word may become a list word). Numbers are left out, as `seed_phrase_spans` leaves them."""

    text: str
    lower: str
    hinted: bool
    digits: bool
    said: bool
    seeds_end: int
    seeds_before_last: int
    seeds_start: int
    seeds_after_first: int


def seeds_at_ends(listed: bytes) -> tuple[int, int, int, int]:
    """A quiet text's seeds_end, seeds_before_last, seeds_start and seeds_after_first, from each word's
    mark: 1 a list word, 2 a number (left out)."""
    return _in_a_row(listed), _in_a_row(listed[:-1]), _in_a_row(listed[::-1]), _in_a_row(listed[:0:-1])


def _in_a_row(listed: bytes) -> int:
    kept = listed.replace(b"\x02", b"")
    return len(kept) - len(kept.rstrip(b"\x01"))


# Signs of the families a quiet text does not read (the shapes from a literal, PEM blocks, URLs, pairs,
# queries, Kubernetes), with the hints written as literals: the few characters a seam may make them of.
SIGNS = (*LITERALS, *words.HINT_LITERALS, "-----", " / ", "=", "www.", "kind:", "data:")
SIGN = lazy("|".join(map(re.escape, SIGNS)))
_SIGN_REACH = max(map(len, SIGNS)) - 1
_NUMBER_REACH = 80  # past a number's length (64) and what its check reads before it (60), from its start
_NUMBER_START = lazy(r"\d(?=\d| \d)")  # where `numbers` may find one: a digit, and one more at most 2 on


def glues_to_read(a: Quiet, b: Quiet, spread: Callable[[str], bool]) -> tuple[str, ...]:
    """Of the glues a seam is read with, those with which a and b (both quiet, each read whole at the
    seam) may hold a credential once joined. With the others they hold none at all, so the seam check
    would find nothing there.

    The view of the joined texts is the two views and the glue (each character is read on its own, and
    neither holds a Σ). So each family `Quiet` names needs a sign only the characters around the seam
    could now make (neither side has a hint): one of SIGNS across it, or a hint or a piece of a
    spread-out key in the word glued across it (the glue holds no digit). Seed phrases, runs and numbers are bounded by what each side
    holds: twelve list words in a row (across the seam, those each side ends and starts with, and the
    word glued across it); a run of key characters (each side's shorter than 14) crosses
    the seam only glued, is shorter than the 32 of a random token, and is a key only if some provider's
    shape matches in it; a number (cards, IBANs, ids) that starts farther than _NUMBER_REACH from the
    seam is found, or not, as in its text alone, where none was; and with a digit on either side, a
    saying needs a colon (which no seam makes) or a "use" (which one can)."""
    digits = a.digits or b.digits
    if (
        a.hinted
        or b.hinted
        or len(a.text) + len(b.text) + 1 > WHOLE_WORDS_UP_TO
        or (digits and (a.said or b.said))
    ):
        return GLUES
    near = _NUMBER_REACH + 2
    ends, numbers = (a.lower[-_SIGN_REACH:], b.lower[:_SIGN_REACH]), (a.text[-near:], b.text[:near])
    across = bool(a.text[-1:].strip() and b.text[:1].strip())  # glued, a word across the seam
    read: list[str] = []
    for glue in GLUES:
        glued = across and not glue
        seeds = a.seeds_before_last + 1 + b.seeds_after_first if glued else a.seeds_end + b.seeds_start
        if (
            seeds >= 12
            or SIGN.search(glue.join(ends))
            or (digits and ("use" in glue.join(ends) or _NUMBER_START.search(glue.join(numbers))))
        ):
            read.append(glue)
        elif glued:  # a word and a run across the seam
            word, run = a.lower.rsplit(None, 1)[-1] + b.lower.split(None, 1)[0], run_across(a.text, b.text)
            if _word_hints(word) or spread(word) or (len(run) >= 14 and ANY_IN_RUN.search(run)):
                read.append(glue)
    return tuple(read)


GLUES: tuple[str, ...] = ("", " ")  # glued, and with a space
