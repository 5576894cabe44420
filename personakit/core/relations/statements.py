"""Reading a memory's text into a `Statement`: the facts `core.relations` compares.

A `Statement` holds:

- its content words: `core.words.words()` (stemmed, stop words out, same-meaning words folded), less the
  verbs of liking and disliking and a few weak words, with `SAME` folded, and numbers kept apart;
- its polarity: negative when it holds an odd number of negators and negative verbs ("Doesn't drink",
  "Dislikes", "Never");
- its numbers (years apart), whether it speaks of the past, its frames (single-valued facts: "lives in
  Lisbon", "favourite colour is green"), a preference order ("tea over coffee"), and the first content
  word after "prefers".

The word tables live in `core.relation_words`.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import personakit.core.relations.vocabulary as table
from personakit.core.words import stem, words

# A statement is about 2.4 kB of sets and strings: a server's proposals read a few candidates each, so
# its last few thousand are kept (32,768 of them, as before, could hold about 78 MB in a long-running server).
KEPT_STATEMENTS = 4096


@lru_cache(maxsize=65536)
def stem_of(token: str) -> str:
    """The one word a token counts as (`words()`), or "" when it does not count."""
    found = words(token)
    return found[0] if found else ""


def stems_of(text: str) -> set[str]:
    """A table's words as a memory's would count, stop words too ("own" is one, "owns" is not)."""
    return {stem_of(token) or stem(token) for token in text.split()}


_NEGATORS = frozenset(table.NEGATORS.split())
_POSITIVE = stems_of(table.POSITIVE)
_NEGATIVE = stems_of(table.NEGATIVE)
_PREFER = stem_of("prefer")
_NEVER = {
    w for w in map(stem_of, table.NEGATORS.split()) if w
}  # those words() keeps ("never"), not "not" ("note")
_WEAK = stems_of(table.WEAK)
SAME = {stem_of(v): stem_of(k) for k, variants in table.SAME.items() for v in variants.split()}
LEFT_OUT = _POSITIVE | _NEGATIVE | _NEVER | _WEAK
_PAST = frozenset(table.PAST.split())
NUMBER_WORDS = table.NUMBERS
NUMBER_STEMS = {stem_of(w) for w in NUMBER_WORDS}


def fold(stem: str) -> str:
    return SAME.get(stem, stem)


def _pairs(text: str) -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = defaultdict(frozenset)
    for pair in text.split():
        x, y = (fold(stem_of(w) or stem(w)) for w in pair.split(":"))
        found[x] |= {y}
        found[y] |= {x}
    return found


ALWAYS_OPPOSITE = _pairs(table.OPPOSITES)
_PREFERENCE_OPPOSITE = _pairs(table.PREFERENCE_OPPOSITES)
OPPOSITE = {
    w: ALWAYS_OPPOSITE.get(w, frozenset()) | _PREFERENCE_OPPOSITE.get(w, frozenset())
    for w in {*ALWAYS_OPPOSITE, *_PREFERENCE_OPPOSITE}
}
QUALIFIERS = stems_of(table.QUALIFIERS)


def _components() -> dict[str, str]:
    """Each opposite word -> one name for all the words it is (transitively) opposite to."""
    named: dict[str, str] = {}
    for start in sorted(OPPOSITE):
        if start in named:
            continue
        todo, seen = [start], {start}
        while todo:
            for other in OPPOSITE[todo.pop()]:
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        for word in seen:
            named[word] = f"~{start}"
    return named


_COMPONENT = _components()
_NONE: frozenset[str] = frozenset()  # shared by every statement with no number or year (most of them)

_PHRASES = re.compile(
    r"\b(?:" + "|".join(re.escape(p) for p in sorted(table.PHRASES, key=len, reverse=True)) + r")\b"
)
_TOKEN = re.compile(r"[^\W_]+(?:[.:][0-9]+)*")
_YEAR = re.compile(r"(?:19|20)\d\d")
_NAMED = re.compile(r"\b(?:called|named)\s+(?=[A-Z])")
_LEAD = re.compile(r"(?:(?:" + "|".join(sorted(table.LEADS.split(), key=len, reverse=True)) + r")\s+)*", re.I)
_VALUE_END = re.compile(r"\s*[,;.!?()]|\s+(?:" + "|".join(table.VALUE_ENDS.split()) + r")\b", re.I)
_ARTICLE = re.compile(r"^(?:a|an|the|my|his|her|their)\s+", re.I)
_FRAMES = [(label, kind, re.compile(pattern + r"(?:\s+|$)", re.I)) for label, kind, pattern in table.FRAMES]
_ATTRIBUTE = re.compile(r"(?P<k>[\w' -]{2,40}?)\s+(?:is|are)\s+", re.I)
_USES_AS = re.compile(
    r"uses?\s+(?P<v>.+?)\s+as\s+(?:(?:my|his|her|their|the|a|an)\s+)?(?P<k>(?:"
    + "|".join(table.ONE_OF_A_KIND.split())
    + r")\s+[\w-]+)",
    re.I,
)
_ATTRIBUTES = stems_of(table.ATTRIBUTES)
_ONE_OF_A_KIND = stems_of(table.ONE_OF_A_KIND)
_SUBJECTS = frozenset(("the", "user", "they", "she", "he", "i", "it", "this", "that", "there", "we", "you"))
_ORDER_OVER = re.compile(
    r"\b(?:prefer|prefers|preferring|like|likes|love|loves|enjoy|enjoys|would rather|wants?)\s+(?!to\b)(?P<x>[^,.;]+?)\s+over\s+(?P<y>[^,.;]+)"
)
_ORDER_TO = re.compile(
    r"\b(?:prefer|prefers|preferring)\s+(?!to\b)(?P<x>[^,.;]+?)\s+to\s+(?!be\b)(?P<y>[^,.;]+)"
)


@dataclass(frozen=True, slots=True)
class Frame:
    key: str  # what the fact is about: "lives in", "born in:year", "attribute:color favorite"
    label: str  # as the reason says it
    value: frozenset[str]  # the value's content words
    shown: str  # the value as written
    context: frozenset[str]  # the content words after the value ("on weekdays")


@dataclass(frozen=True, slots=True)
class Statement:
    text: str
    words: frozenset[str]
    negative: bool
    past: bool
    numbers: frozenset[str]
    years: frozenset[str]
    frames: tuple[Frame, ...]
    order: tuple[frozenset[str], frozenset[str], str] | None  # preferred, over what, as written
    first: str  # the first content word after "prefers" when written with a capital (a tool, a language)
    sentiment: bool  # likes or dislikes something (a preference, not only a fact)
    shape: frozenset[str]  # words, each opposite word as its component's name
    spelled: tuple[tuple[str, str], ...] = ()  # (word, as written), in the text's order

    def said(self, some: Iterable[str]) -> str:
        """Words of this statement as its text writes them, in its order ("drink coffee")."""
        wanted = set(some)
        found = " ".join(token for word, token in self.spelled if word in wanted)
        return found or " ".join(table.SHOWN.get(w, w) for w in sorted(wanted))


def _capitalized(original: str, word: str) -> bool:
    """Is word (a content word) written with a capital in original: a name, a tool, a language?"""
    return bool(word) and any(
        token[:1].isupper() and fold(stem_of(token.casefold())) == word for token in _TOKEN.findall(original)
    )


def _lower(text: str) -> str:
    """Case-folded, contractions spelled out, idioms rewritten (`PHRASES`)."""
    low = text.casefold()
    if "'" in low:
        low = re.sub(r"\bcan't\b", "can not", low)
        low = re.sub(r"\bwon't\b", "will not", low)
        low = low.replace("n't", " not")
    low = low.replace("cannot", "can not")
    return _PHRASES.sub(lambda m: table.PHRASES[m.group(0)], low)


def content_words(text: str) -> frozenset[str]:
    """The content words of a piece of (lowered) text, as `Statement.words` counts them."""
    out = set()
    for token in _TOKEN.findall(text):
        if token in NUMBER_WORDS or not token.isalpha():  # a token of more than letters has digits
            continue
        stem = stem_of(token)
        if stem and stem not in LEFT_OUT:
            out.add(fold(stem))
    return frozenset(out)


@lru_cache(maxsize=KEPT_STATEMENTS)
def analyse(text: str) -> Statement:
    """Read a memory's text for the rules."""
    original = _NAMED.sub("", unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'"))
    low = _lower(original)
    tokens = _TOKEN.findall(low)
    negations = 0
    content: set[str] = set()
    numbers: set[str] = set()
    years: set[str] = set()
    first, after_prefer, past, sentiment = "", False, False, False
    for i, token in enumerate(tokens):
        if token in _NEGATORS:
            negations += 1
        if (
            token in _PAST
            and tokens[i + 1 : i + 2] != ["born"]
            and (token != "used" or tokens[i + 1 : i + 2] == ["to"])
        ):
            past = True
        if not token.isalpha() or token in NUMBER_WORDS:  # a token of more than letters has digits
            if _YEAR.fullmatch(token):
                years.add(token)
            else:
                number = NUMBER_WORDS.get(token, token)
                if tokens[i + 1 : i + 2] in (["am"], ["pm"]):
                    number += tokens[i + 1]
                numbers.add(number)
            continue
        stem = stem_of(token)
        if not stem:
            continue
        if stem in _NEGATIVE:
            negations += 1
        if stem in _NEGATIVE or stem in _POSITIVE:
            sentiment = True
        if stem == _PREFER:
            after_prefer = True
        if stem in LEFT_OUT or (stem in ("am", "pm") and i and tokens[i - 1][-1:].isdigit()):
            continue
        stem = fold(stem)
        content.add(stem)
        if after_prefer and not first:
            first = stem
    found = frozenset(content)
    shape = found if _COMPONENT.keys().isdisjoint(found) else frozenset(_COMPONENT.get(w, w) for w in found)
    spelled = {}
    for token in _TOKEN.findall(original):
        word = fold(stem_of(token.casefold())) if not token.isdigit() else token
        if word and (word in found or word in numbers) and word not in spelled:
            spelled[word] = token
    for word, token in NUMBER_WORDS.items():
        if token in numbers and token not in spelled and re.search(rf"\b{word}\b", original, re.I):
            spelled[token] = word
    return Statement(
        text=text,
        words=found,
        negative=negations % 2 == 1,
        past=past,
        numbers=frozenset(numbers) if numbers else _NONE,
        years=frozenset(years) if years else _NONE,
        frames=_frames(original),
        order=_order(low),
        first=first if _capitalized(original, first) else "",
        sentiment=sentiment,
        shape=shape,
        spelled=tuple(spelled.items()),
    )


def _value(rest: str) -> tuple[str, str]:
    """A frame's value (up to a comma or a word such as "with") and what follows it."""
    end = _VALUE_END.search(rest)
    value, after = (rest[: end.start()], rest[end.start() :]) if end else (rest, "")
    return _ARTICLE.sub("", value.strip()), after


def _frames(original: str) -> tuple[Frame, ...]:
    rest = original[_LEAD.match(original).end() :]  # type: ignore[union-attr]  # matches always
    found = []
    for label, kind, pattern in _FRAMES:
        match = pattern.match(rest)
        if match is None:
            continue
        if match.groupdict().get("v"):
            value, after = match.group("v"), rest[match.end() :]
        else:
            value, after = _value(rest[match.end() :])
        key = label
        if kind == "year/name":
            if _YEAR.fullmatch(value):
                key, kind = f"{label}:year", "any"
            else:
                key = f"{label}:place"
                kind = "name"
        if kind == "name" and not value[:1].isupper():
            continue  # "Lives in a flat" names no place
        frame = _frame(key, label, value, after)
        if frame is not None:
            found.append(frame)
    found += _attribute_frames(original, rest)
    return tuple(found)


def _frame(key: str, label: str, value: str, after: str) -> Frame | None:
    low = _lower(value)
    value_words = {fold(w) for w in words(low)} | {t for t in _TOKEN.findall(low) if not t.isalpha()}
    if not value_words:
        return None
    return Frame(key, label, frozenset(value_words), value, content_words(_lower(after)))


def _attribute_frames(original: str, rest: str) -> list[Frame]:
    """ "Favourite colour is green", "Blood type is O negative", "Uses Neovim as main editor"."""
    found = []
    match = _ATTRIBUTE.match(rest)
    if match:
        attribute = match.group("k").strip()
        first_word = attribute.split()[0].lower()
        about = content_words(_lower(attribute))
        if first_word not in _SUBJECTS and about & (_ATTRIBUTES | _ONE_OF_A_KIND):
            value, after = _value(rest[match.end() :])
            frame = _frame("attribute:" + " ".join(sorted(about)), attribute.lower(), value, after)
            if frame is not None:
                found.append(frame)
    uses = _USES_AS.search(original)
    if uses:
        about = content_words(_lower(uses.group("k")))
        frame = _frame("attribute:" + " ".join(sorted(about)), uses.group("k").lower(), uses.group("v"), "")
        if frame is not None:
            found.append(frame)
    return found


def _order(low: str) -> tuple[frozenset[str], frozenset[str], str] | None:
    match = _ORDER_OVER.search(low) or _ORDER_TO.search(low)
    if match is None:
        return None
    x, y = content_words(match.group("x")), content_words(match.group("y"))
    if not x or not y:
        return None
    return x, y, f"{match.group('x')} over {match.group('y')}"
