"""Near-duplicates and likely clashes between memories: pure rules on texts, testable on pairs.

A memory's text is read once into a `Statement` (`core.statements.analyse`).

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

from collections import defaultdict
from collections.abc import Iterable, Sequence

import personakit.core.relations.vocabulary as table
from personakit.core.relations.statements import (
    ALWAYS_OPPOSITE,
    LEFT_OUT,
    NUMBER_STEMS,
    NUMBER_WORDS,
    OPPOSITE,
    QUALIFIERS,
    SAME,
    Statement,
    analyse,
    content_words,
    stem_of,
)
from personakit.core.words import words

__all__ = ["Statement", "analyse"]


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
            if fa.context & QUALIFIERS != fb.context & QUALIFIERS:
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
    opposite = OPPOSITE if a.sentiment and b.sentiment else ALWAYS_OPPOSITE
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
for _variant, _word in SAME.items():
    _VARIANTS[_word].add(_variant)


def search_words(text: str) -> list[str]:
    """The words (as the index counts them) to find a text's likely near-duplicates and clashes by: its
    content words, each with the words `SAME` counts as it, and none of the verbs of liking or weak words."""
    found = dict.fromkeys(w for w in words(text) if w not in LEFT_OUT and w not in NUMBER_STEMS)
    for group in search_groups(text):
        found.update(dict.fromkeys(group))
    return list(found)


def _phrase_words() -> dict[str, set[str]]:
    """A word `PHRASES` makes ("morningperson") -> the index's words of the phrases it stands for."""
    found: dict[str, set[str]] = defaultdict(set)
    for phrase, made in table.PHRASES.items():
        for word in content_words(made):
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
        spelled = {stem_of(w) for w, value in NUMBER_WORDS.items() if value == number}
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
