"""Near-duplicates and likely clashes between memories: pure rules on texts, testable on pairs.

A memory's text is read once into a `Statement` (`analyse`):

- its content words: `core.words.words()` (stemmed, stop words out, same-meaning words folded), less the
  verbs of liking and disliking and a few weak words, with `SAME` folded, and numbers kept apart;
- its polarity: negative when it holds an odd number of negators and negative verbs ("Doesn't drink",
  "Dislikes", "Never");
- its numbers (years apart), whether it speaks of the past, its frames (single-valued facts: "lives in
  Lisbon", "favourite colour is green"), a preference order ("tea over coffee"), and the first content
  word after "prefers".

Two statements clash (`clash` gives a one-line reason) when:

1. they fill one frame with values that share no word ("lives in: Lisbon / Porto");
2. they order one preference both ways ("tea over coffee" / "coffee over tea");
3. one says no to what the other says: the negative one's words are all in the positive one, which has at
   most one more ("Drinks coffee every morning" / "Doesn't drink coffee"; not "... after 2pm");
4. they say the same with opposite words ("short answers" / "long answers", the `OPPOSITES` table);
5. they say the same with other numbers ("two cats" / "three cats"; years never clash this way);
6. both prefer, with another first word and the same rest ("Prefers Python for scripting" / "Prefers
   Bash for scripting").

They are near-duplicates (`similar`) when nothing clashes, they agree in polarity, tense, numbers and
order, and their content words are the same, or one has a single word more and the other at least two
("Prefers blunt feedback" / "Likes blunt, direct feedback").

Over a whole vault (`clashes`, `similar_groups`) a pair is only checked when it could match: the same
shape of words (opposite words counted as one), or one word apart; the same frame; the same ordered
words; the same words around a preference. The word tables live in `core.relation_words`.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import personakit.core.relation_words as table
from personakit.core.words import stem, words


@lru_cache(maxsize=65536)
def _stem(token: str) -> str:
    """The one word a token counts as (`words()`), or "" when it does not count."""
    found = words(token)
    return found[0] if found else ""


def _stems(text: str) -> set[str]:
    """A table's words as a memory's would count, stop words too ("own" is one, "owns" is not)."""
    return {_stem(token) or stem(token) for token in text.split()}


_NEGATORS = frozenset(table.NEGATORS.split())
_POSITIVE = _stems(table.POSITIVE)
_NEGATIVE = _stems(table.NEGATIVE)
_PREFER = _stem("prefer")
_NEVER = {
    w for w in map(_stem, table.NEGATORS.split()) if w
}  # those words() keeps ("never"), not "not" ("note")
_WEAK = _stems(table.WEAK)
_SAME = {_stem(v): _stem(k) for k, variants in table.SAME.items() for v in variants.split()}
_LEFT_OUT = _POSITIVE | _NEGATIVE | _NEVER | _WEAK
_PAST = frozenset(table.PAST.split())
_NUMBER_WORDS = table.NUMBERS
_NUMBER_STEMS = {_stem(w) for w in _NUMBER_WORDS}


def _fold(stem: str) -> str:
    return _SAME.get(stem, stem)


def _pairs(text: str) -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = defaultdict(frozenset)
    for pair in text.split():
        x, y = (_fold(_stem(w) or stem(w)) for w in pair.split(":"))
        found[x] |= {y}
        found[y] |= {x}
    return found


_ALWAYS_OPPOSITE = _pairs(table.OPPOSITES)
_PREFERENCE_OPPOSITE = _pairs(table.PREFERENCE_OPPOSITES)
_OPPOSITE = {
    w: _ALWAYS_OPPOSITE.get(w, frozenset()) | _PREFERENCE_OPPOSITE.get(w, frozenset())
    for w in {*_ALWAYS_OPPOSITE, *_PREFERENCE_OPPOSITE}
}
_QUALIFIERS = _stems(table.QUALIFIERS)


def _components() -> dict[str, str]:
    """Each opposite word -> one name for all the words it is (transitively) opposite to."""
    named: dict[str, str] = {}
    for start in sorted(_OPPOSITE):
        if start in named:
            continue
        todo, seen = [start], {start}
        while todo:
            for other in _OPPOSITE[todo.pop()]:
                if other not in seen:
                    seen.add(other)
                    todo.append(other)
        for word in seen:
            named[word] = f"~{start}"
    return named


_COMPONENT = _components()

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
_ATTRIBUTES = _stems(table.ATTRIBUTES)
_ONE_OF_A_KIND = _stems(table.ONE_OF_A_KIND)
_SUBJECTS = frozenset(("the", "user", "they", "she", "he", "i", "it", "this", "that", "there", "we", "you"))
_ORDER_OVER = re.compile(
    r"\b(?:prefer|prefers|preferring|like|likes|love|loves|enjoy|enjoys|would rather|wants?)\s+(?!to\b)(?P<x>[^,.;]+?)\s+over\s+(?P<y>[^,.;]+)"
)
_ORDER_TO = re.compile(
    r"\b(?:prefer|prefers|preferring)\s+(?!to\b)(?P<x>[^,.;]+?)\s+to\s+(?!be\b)(?P<y>[^,.;]+)"
)


@dataclass(frozen=True)
class Frame:
    key: str  # what the fact is about: "lives in", "born in:year", "attribute:color favorite"
    label: str  # as the reason says it
    value: frozenset[str]  # the value's content words
    shown: str  # the value as written
    context: frozenset[str]  # the content words after the value ("on weekdays")


@dataclass(frozen=True)
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
        token[:1].isupper() and _fold(_stem(token.casefold())) == word for token in _TOKEN.findall(original)
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


def _content(text: str) -> frozenset[str]:
    """The content words of a piece of (lowered) text, as `Statement.words` counts them."""
    out = set()
    for token in _TOKEN.findall(text):
        if token in _NUMBER_WORDS or not token.isalpha():  # a token of more than letters has digits
            continue
        stem = _stem(token)
        if stem and stem not in _LEFT_OUT:
            out.add(_fold(stem))
    return frozenset(out)


@lru_cache(maxsize=32768)
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
        if not token.isalpha() or token in _NUMBER_WORDS:  # a token of more than letters has digits
            if _YEAR.fullmatch(token):
                years.add(token)
            else:
                number = _NUMBER_WORDS.get(token, token)
                if tokens[i + 1 : i + 2] in (["am"], ["pm"]):
                    number += tokens[i + 1]
                numbers.add(number)
            continue
        stem = _stem(token)
        if not stem:
            continue
        if stem in _NEGATIVE:
            negations += 1
        if stem in _NEGATIVE or stem in _POSITIVE:
            sentiment = True
        if stem == _PREFER:
            after_prefer = True
        if stem in _LEFT_OUT or (stem in ("am", "pm") and i and tokens[i - 1][-1:].isdigit()):
            continue
        stem = _fold(stem)
        content.add(stem)
        if after_prefer and not first:
            first = stem
    found = frozenset(content)
    spelled = {}
    for token in _TOKEN.findall(original):
        word = _fold(_stem(token.casefold())) if not token.isdigit() else token
        if word and (word in found or word in numbers) and word not in spelled:
            spelled[word] = token
    for word, token in _NUMBER_WORDS.items():
        if token in numbers and token not in spelled and re.search(rf"\b{word}\b", original, re.I):
            spelled[token] = word
    return Statement(
        text=text,
        words=found,
        negative=negations % 2 == 1,
        past=past,
        numbers=frozenset(numbers),
        years=frozenset(years),
        frames=_frames(original),
        order=_order(low),
        first=first if _capitalized(original, first) else "",
        sentiment=sentiment,
        shape=frozenset(_COMPONENT.get(w, w) for w in found),
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
    value_words = {_fold(w) for w in words(low)} | {t for t in _TOKEN.findall(low) if not t.isalpha()}
    if not value_words:
        return None
    return Frame(key, label, frozenset(value_words), value, _content(_lower(after)))


def _attribute_frames(original: str, rest: str) -> list[Frame]:
    """ "Favourite colour is green", "Blood type is O negative", "Uses Neovim as main editor"."""
    found = []
    match = _ATTRIBUTE.match(rest)
    if match:
        attribute = match.group("k").strip()
        first_word = attribute.split()[0].lower()
        about = _content(_lower(attribute))
        if first_word not in _SUBJECTS and about & (_ATTRIBUTES | _ONE_OF_A_KIND):
            value, after = _value(rest[match.end() :])
            frame = _frame("attribute:" + " ".join(sorted(about)), attribute.lower(), value, after)
            if frame is not None:
                found.append(frame)
    uses = _USES_AS.search(original)
    if uses:
        about = _content(_lower(uses.group("k")))
        frame = _frame("attribute:" + " ".join(sorted(about)), uses.group("k").lower(), uses.group("v"), "")
        if frame is not None:
            found.append(frame)
    return found


def _order(low: str) -> tuple[frozenset[str], frozenset[str], str] | None:
    match = _ORDER_OVER.search(low) or _ORDER_TO.search(low)
    if match is None:
        return None
    x, y = _content(match.group("x")), _content(match.group("y"))
    if not x or not y:
        return None
    return x, y, f"{match.group('x')} over {match.group('y')}"


# -- the rules, on pairs ------------------------------------------------------------------------------
def _frame_clash(a: Statement, b: Statement) -> str | None:
    if a.negative or b.negative:
        return None
    for fa in a.frames:
        for fb in b.frames:
            if fa.key != fb.key or fa.value & fb.value:
                continue
            if (a.past or b.past) and fa.label not in table.TIMELESS:
                continue
            if fa.context & _QUALIFIERS != fb.context & _QUALIFIERS:
                continue  # "6am on weekdays" / "9am on weekends"
            return f"different value for '{fa.label}': {fa.shown} / {fb.shown}"
    return None


def _order_clash(a: Statement, b: Statement) -> str | None:
    if a.order is None or b.order is None or a.past or b.past or a.negative != b.negative:
        return None
    (ax, ay, shown_a), (bx, by, shown_b) = a.order, b.order
    if ax & by and ay & bx and not ax & bx:
        return f"opposite order: {shown_a} / {shown_b}"
    return None


def _negation_clash(a: Statement, b: Statement) -> str | None:
    if a.negative == b.negative or a.past or b.past:
        return None
    no, yes = (a, b) if a.negative else (b, a)
    if not no.words or not no.words <= yes.words or len(yes.words - no.words) > 1:
        return None
    if not (no.numbers <= yes.numbers and no.years <= yes.years) or no.order or yes.order:
        return None  # "Doesn't drink coffee after 2pm" says less than "Drinks coffee"
    return f"negation: one says not '{no.said(no.words)}'"


def _opposite_clash(a: Statement, b: Statement) -> str | None:
    if a.negative != b.negative or a.past or b.past or a.numbers != b.numbers or a.order or b.order:
        return None
    opposite = _OPPOSITE if a.sentiment and b.sentiment else _ALWAYS_OPPOSITE
    for x in a.words:
        for y in opposite.get(x, frozenset()) & b.words:
            if x in b.words or y in a.words:
                continue
            rest_a, rest_b = a.words - {x}, b.words - {y}
            small, big = (rest_a, rest_b) if len(rest_a) <= len(rest_b) else (rest_b, rest_a)
            if small <= big and len(big - small) <= 1:
                return f"opposite words: {a.said([x])} / {b.said([y])}"
    return None


def _number_clash(a: Statement, b: Statement) -> str | None:
    if a.negative != b.negative or a.past or b.past or a.words != b.words or not a.words:
        return None
    if a.numbers and b.numbers and a.numbers != b.numbers and a.order == b.order:
        return f"different numbers: {a.said(a.numbers)} / {b.said(b.numbers)}"
    return None


def _choice_clash(a: Statement, b: Statement) -> str | None:
    if not (a.first and b.first) or a.first == b.first or a.negative or b.negative or a.past or b.past:
        return None
    if a.order or b.order:
        return None
    if a.first in b.words or b.first in a.words or a.numbers != b.numbers:
        return None
    rest = a.words - {a.first}
    if rest and rest == b.words - {b.first}:
        return f"different choice after 'prefers': {a.said([a.first])} / {b.said([b.first])}"
    return None


_RULES = (_frame_clash, _order_clash, _negation_clash, _opposite_clash, _number_clash, _choice_clash)


def clash(a: Statement, b: Statement) -> str | None:
    """Why a and b likely disagree, in one line; None when they look compatible."""
    for rule in _RULES:
        reason = rule(a, b)
        if reason:
            return reason
    return None


def similar(a: Statement, b: Statement) -> bool:
    """Are a and b nearly the same memory, in other words?"""
    if a.negative != b.negative or a.past != b.past or a.numbers != b.numbers or a.years != b.years:
        return False
    if (a.order is None) != (b.order is None):
        return False
    if a.order and b.order and not (a.order[0] & b.order[0] and a.order[1] & b.order[1]):
        return False
    small, big = (a.words, b.words) if len(a.words) <= len(b.words) else (b.words, a.words)
    if not small or not small <= big:
        return False
    if small != big and (len(big - small) > 1 or len(small) < 2):
        return False
    return clash(a, b) is None


_VARIANTS: dict[str, set[str]] = defaultdict(set)
for _variant, _word in _SAME.items():
    _VARIANTS[_word].add(_variant)


def search_words(text: str) -> list[str]:
    """The words (as the index counts them) to find a text's likely near-duplicates and clashes by: its
    content words, each with the words `SAME` counts as it, and none of the verbs of liking or weak words."""
    found = dict.fromkeys(w for w in words(text) if w not in _LEFT_OUT and w not in _NUMBER_STEMS)
    for group in search_groups(text):
        found.update(dict.fromkeys(group))
    return list(found)


def _phrase_words() -> dict[str, set[str]]:
    """A word `PHRASES` makes ("morningperson") -> the index's words of the phrases it stands for."""
    found: dict[str, set[str]] = defaultdict(set)
    for phrase, made in table.PHRASES.items():
        for word in _content(made):
            found[word] |= set(words(phrase))
    return found


_PHRASE_WORDS = _phrase_words()


def search_groups(text: str) -> list[list[str]]:
    """Each content word of text with the words counted as it (`SAME`, `PHRASES`), and each number in its
    ways of writing, as the index counts them. A near-duplicate has a word of every group but one at most."""
    statement = analyse(text)
    groups = [
        sorted({word} | _VARIANTS.get(word, set()) | _PHRASE_WORDS.get(word, set()))
        for word in sorted(statement.words)
    ]
    for number in sorted(statement.numbers | statement.years):  # a near-duplicate has the same numbers
        spelled = {_stem(w) for w, value in _NUMBER_WORDS.items() if value == number}
        groups.append(sorted((set(words(number)) | spelled) - {""}))
    return [group for group in groups if group]


def may_lack(text: str) -> int:
    """How many of `search_groups(text)` a near-duplicate of text may have no word of, as the index
    counts words: one content word when text has three or more, and each word made of a phrase whose
    words the index may not keep ("Gets up at 6am": "gets" and "up" are stop words)."""
    found = analyse(text).words
    return (1 if len(found) >= 3 else 0) + sum(1 for word in found if word in _PHRASE_WORDS)


def similar_texts(a: str, b: str) -> bool:
    return similar(analyse(a), analyse(b))


def clash_texts(a: str, b: str) -> str | None:
    return clash(analyse(a), analyse(b))


# -- over many memories ---------------------------------------------------------------------------------
def _candidates(statements: Sequence[Statement]) -> set[tuple[int, int]]:
    """The pairs (i < j) that could clash or be near-duplicates (see the module docstring)."""
    full: dict[tuple[str, frozenset[str] | str], list[int]] = defaultdict(list)
    dropped: dict[tuple[str, frozenset[str] | str], list[int]] = defaultdict(list)
    for i, s in enumerate(statements):
        if s.shape:
            full["s", s.shape].append(i)
        if len(s.shape) >= 2:
            for word in s.shape:
                dropped["s", s.shape - {word}].append(i)
        for frame in s.frames:
            full["f", frame.key].append(i)
        if s.order is not None:
            full["o", s.order[0] | s.order[1]].append(i)
        if s.first and len(s.words) > 1:
            full["w", s.words - {s.first}].append(i)
    pairs: set[tuple[int, int]] = set()
    for key, members in full.items():
        for n, i in enumerate(members):
            for j in members[n + 1 :]:
                if i != j:
                    pairs.add((min(i, j), max(i, j)))
        for j in dropped.get(key, ()):
            for i in members:
                if i != j:
                    pairs.add((min(i, j), max(i, j)))
    return pairs


def clashes(items: Sequence[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """Every pair of (id, text) items that likely disagree: (id a, id b, reason), a before b in items."""
    statements = [analyse(text) for _, text in items]
    found = []
    for i, j in sorted(_candidates(statements)):
        reason = clash(statements[i], statements[j])
        if reason and items[i][0] != items[j][0]:
            found.append((items[i][0], items[j][0], reason))
    return found


def similar_groups(items: Sequence[tuple[str, str]]) -> list[list[str]]:
    """Groups of (id, text) items that are near-duplicates of each other (linked pairwise), in items order."""
    statements = [analyse(text) for _, text in items]
    parent = list(range(len(items)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in _candidates(statements):
        if items[i][0] != items[j][0] and similar(statements[i], statements[j]):
            parent[max(root(i), root(j))] = min(root(i), root(j))
    groups: dict[int, list[str]] = defaultdict(list)
    for i, (mid, _) in enumerate(items):
        groups[root(i)].append(mid)
    return [ids for ids in groups.values() if len(set(ids)) > 1]


def near_duplicates(text: str, others: Iterable[tuple[str, str]]) -> list[str]:
    """The ids among others whose text is a near-duplicate of text."""
    new = analyse(text)
    return [mid for mid, other in others if similar(new, analyse(other))]


def clashes_with(text: str, others: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(id, reason) for each of others whose text likely disagrees with text."""
    new = analyse(text)
    return [(mid, reason) for mid, other in others if (reason := clash(new, analyse(other)))]
