"""Reading text as a person would, with a way back to the text as written.

Someone set on getting a key past a pattern writes it with a zero-width space inside, in full-width
letters, with a Cyrillic `а` for a Latin `a`, or with an accent on a letter. A reader sees the key; so must
the checks. `read(text)` gives a `TextView`: the text with

- NFKC applied per character (full-width and mathematical letters, ligatures, odd spaces and digits become
  their plain forms: `ｓｋ－ａｎｔ` is `sk-ant`, `①` is `1`);
- invisible and format characters removed (Unicode category Cf: zero-width spaces and joiners, soft
  hyphens, bidirectional marks, tags; variation selectors, the combining grapheme joiner, Hangul fillers,
  blank Braille, ASCII control characters);
- accents taken off Latin letters and loose combining marks dropped (`é` is `e`, `contraseña` is
  `contrasena`), digits of every script made ASCII;
- the common look-alike letters of Cyrillic and Greek folded to Latin (`аеорсху`, `АВЕКМНОРСТХ`, `οαιν...`).
  Both cases of a letter fold together, so case-insensitive matching still works on the folded text.

Phrase tables (other languages' words for "password") are folded the same way with `fold`, so Russian
`пароль` is looked for as its folded self. The view also has `lower`, the text lower-cased at the same
length, and `original_span` maps a span found in the view back to the text as written, so masking
removes exactly what the reader saw, invisible characters included.

Speed: ASCII text without control characters is its own view (no copy). Other text is folded by one
`str.translate` over a cache of per-character folds; only characters whose fold is not exactly one
character (removed or expanded) cost a breakpoint in the map back.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass, field

Span = tuple[int, int]

_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Invisible characters that are not category Cf: they render as nothing (or as a blank) inside a word.
_INVISIBLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))  # variation selectors
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
)
# Combining marks that sit on Latin, Greek and Cyrillic letters (and Zalgo text); other scripts' marks
# (Devanagari vowel signs, Thai tones) are part of their words and stay.
_LOOSE_MARKS = ((0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF), (0xFE20, 0xFE2F))
# Look-alikes, lower case first; the upper-case forms fold to the upper-case Latin letter, so a letter's
# two cases always fold to one letter's two cases. (Some lower-case forms are poor look-alikes, such as
# Cyrillic в for b: they fold anyway, to keep the cases together.)
_LOOK_ALIKES = {
    **dict(zip("авекмнорстухіјѕһԁԛԝӏьѵ", "abekmhopctyxijshdqwlbv", strict=True)),  # Cyrillic
    **dict(zip("αβεζηικμνορτυχϳ", "abezhikmnoptyxj", strict=True)),  # Greek
    "ı": "i",  # dotless i
    "ȷ": "j",
    "ɑ": "a",
    "ɡ": "g",
    "օ": "o",  # Armenian
    "ս": "u",
    "հ": "h",
    "ց": "g",
}
_FOLD_LOOK_ALIKE: dict[str, str] = {}
for _lower, _latin in _LOOK_ALIKES.items():
    _FOLD_LOOK_ALIKE[_lower] = _latin
    if len(_lower.upper()) == 1 and _lower.upper() != _lower:
        _FOLD_LOOK_ALIKE.setdefault(_lower.upper(), _latin.upper())
_FOLD_LOOK_ALIKE["\u0130"] = "I"  # İ: its lower case is two characters


def _loose_mark(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _LOOSE_MARKS)


def _fold_char(char: str) -> str:
    """What one character reads as: possibly nothing, usually one character, sometimes several."""
    if char in "\t\n\r\x0b\x0c":
        return char
    category = unicodedata.category(char)
    if category in ("Cf", "Cc", "Cs") or char in _INVISIBLE:
        return ""
    if category == "Mn" and _loose_mark(char):
        return ""
    folded = []
    for part in unicodedata.normalize("NFKC", char):
        if unicodedata.category(part) == "Nd":
            part = str(unicodedata.decimal(part))
        elif unicodedata.category(part) == "Mn" and _loose_mark(part):
            continue
        else:
            decomposed = unicodedata.normalize("NFD", part)
            latin = len(decomposed) > 1 and decomposed[0].isascii() and decomposed[0].isalpha()
            if latin and all(unicodedata.category(c) == "Mn" for c in decomposed[1:]):
                part = decomposed[0]
        folded.append(_FOLD_LOOK_ALIKE.get(part, part))
    return "".join(folded)


class _Folds(dict[int, str]):
    """Per-character folds by code point, computed on first sight; `str.translate` looks each one up."""

    def __init__(self) -> None:
        super().__init__()
        self.irregular: set[str] = set()  # characters whose fold is not exactly one character
        self.pattern: re.Pattern[str] | None = None

    def __missing__(self, code: int) -> str:
        char = chr(code)
        folded = _fold_char(char)
        self[code] = folded
        if len(folded) != 1:
            self.irregular.add(char)
            self.pattern = None
        return folded

    def irregular_pattern(self) -> re.Pattern[str] | None:
        if self.pattern is None and self.irregular:
            self.pattern = re.compile("[" + "".join(re.escape(c) for c in sorted(self.irregular)) + "]")
        return self.pattern


_FOLDS = _Folds()


def fold(text: str) -> str:
    """text as the views read it (for building tables that are matched against a view)."""
    return text.translate(_FOLDS)


@dataclass(frozen=True)
class TextView:
    original: str
    text: str
    lower: str
    # Breakpoints of the map back: for each character whose fold is not one character, where its fold
    # starts in the view, where it is in the original, and how long its fold is. Empty: the same offsets.
    _view_starts: list[int] = field(default_factory=list)
    _original_at: list[int] = field(default_factory=list)
    _lengths: list[int] = field(default_factory=list)

    def original_span(self, start: int, end: int) -> Span:
        if not self._view_starts:
            return start, end
        return self._back(start, is_end=False), self._back(end, is_end=True)

    def _back(self, position: int, *, is_end: bool) -> int:
        index = bisect.bisect_right(self._view_starts, position) - 1
        if index < 0:
            return position
        view_start, original, length = (
            self._view_starts[index],
            self._original_at[index],
            self._lengths[index],
        )
        if position == view_start and length:
            return original
        if position < view_start + length:  # inside an expansion: the whole character
            return original + 1 if is_end else original
        return original + 1 + (position - view_start - length)


_NO_BREAKS: dict[str, list[int]] = {"_view_starts": [], "_original_at": [], "_lengths": []}  # never changed


def read(text: str) -> TextView:
    """The view of text that the checks read."""
    if text.isascii() and not _ASCII_CONTROL.search(text):
        view = object.__new__(TextView)  # as TextView(text, text, lower), without the frozen fields' cost
        view.__dict__.update(original=text, text=text, lower=text.translate(_ASCII_LOWER), **_NO_BREAKS)
        return view
    folded = text.translate(_FOLDS)
    lower = folded.lower()  # one character each: İ, whose lower case is two, was folded to I
    pattern = _FOLDS.irregular_pattern()
    starts: list[int] = []
    originals: list[int] = []
    lengths: list[int] = []
    if pattern is not None:
        shift = 0
        for match in pattern.finditer(text):
            length = len(_FOLDS[ord(match.group())])
            starts.append(match.start() + shift)
            originals.append(match.start())
            lengths.append(length)
            shift += length - 1
    return TextView(text, folded, lower, starts, originals, lengths)
