"""Related words: which words count as a question's own word, and which are only near it. Pure, no I/O
beyond reading the package's own data.

Two tables beside this module, both keyed by words as `core.words.words()` counts them:

- `related.tsv`, built from WordNet 3.0 by `tools/build_meaning.py` (licence: `LICENSE-WordNet.txt`):
  `word<TAB>same words<TAB>near words`, sorted by word, strongest first. It is kept as the file's bytes
  and a table of line starts, and looked up by bisection, so it costs its size (about 1.1 MB), loaded on
  the first read, and never a dictionary of tens of thousands of strings.
- `topics.txt`, curated by hand: everyday topics whose words are near each other (dinner, meal, cook,
  food, vegetarian; format, bullet, paragraph, answer), the categories each topic is mostly about, and a
  few words that count as one where WordNet has no link.
- `kinds.txt`, curated by hand: what well-known products are (neovim: editor, ide; iphone: phone). These
  are **keys written with the memory**: a memory naming a product has its kind's words as words of its
  own (`memory_words`), in the index, in `withheld` and in the owner's search alike.

A question word's **class** is the word and its same words: a memory having any of them shares that
word of the question, exactly as if it had the word itself. Its **near** words (topic words first, then
WordNet's) only order memories sharing as many words, and choose the fill; at most NEAR_PER_WORD per
question word and NEAR_MOST in all, so that common words cannot multiply the cost of a read.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from personakit.core.words import words

SAME_PER_WORD = 6
NEAR_PER_WORD = 6
NEAR_MOST = 24
EXPAND_LIMITS = (NEAR_PER_WORD, NEAR_MOST)
WIDE_MOST = 64  # words the fill may look for (store.ranking reads at most MAX_NEAR_WORDS = 64)


@dataclass(frozen=True)
class Expansion:
    """What a question's words reach: one class per question word (the word first, then its same words,
    merged when one word is in another's class) and the near words, each with the question word it came
    from, strongest first."""

    classes: tuple[tuple[str, ...], ...]
    near: tuple[tuple[str, str], ...]  # (question word, near word)
    categories: tuple[str, ...]  # the categories the question's topics are about, most topics first
    wide: tuple[tuple[str, str], ...]  # for the fill: the near words, then every other word of the topics

    @property
    def counted(self) -> list[str]:
        """Every word that counts as one of the question's own, flat."""
        return [word for group in self.classes for word in group]


class _Table:
    """related.tsv as bytes and line starts; `row(word)` bisects for the word's line."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        starts = array("I", [0])
        at = data.find(b"\n")
        while at != -1 and at + 1 < len(data):
            starts.append(at + 1)
            at = data.find(b"\n", at + 1)
        self.starts = starts if data else array("I")
        self.keys = _Keys(self)

    def key(self, line: int) -> bytes:
        start = self.starts[line]
        return self.data[start : self.data.index(b"\t", start)]

    def row(self, word: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        wanted = word.encode()
        line = bisect_left(self.keys, wanted)
        if line >= len(self.starts) or self.key(line) != wanted:
            return (), ()
        start = self.starts[line]
        end = self.data.index(b"\n", start)
        _, same, near = self.data[start:end].decode().split("\t")
        return tuple(same.split()), tuple(near.split())


class _Keys:
    """The table's keys as a sequence bisect can search, without building a list of them."""

    def __init__(self, table: _Table) -> None:
        self.table = table

    def __len__(self) -> int:
        return len(self.table.starts)

    def __getitem__(self, line: int) -> bytes:
        return self.table.key(line)


def _read(name: str) -> bytes:
    return resources.files("personakit.core.meaning").joinpath(name).read_bytes()


@cache
def _table() -> _Table:
    return _Table(_read("related.tsv"))


@cache
def _topics() -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """(word -> words of its topics, word -> its curated same words, word -> its topics' categories)."""
    near: dict[str, list[str]] = {}
    same: dict[str, list[str]] = {}
    categories: dict[str, list[str]] = {}
    topics = []
    for line in _read("topics.txt").decode().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("topic "):
            head, _, body = line.partition(":")
            cats = head[head.find("(") + 1 : head.find(")")].split() if "(" in head else []
            topics.append((list(dict.fromkeys(w for token in body.split() for w in words(token))), cats))
        elif line.startswith("same:"):
            members = list(dict.fromkeys(w for token in line[5:].split() for w in words(token)))
            for word in members:
                same.setdefault(word, []).extend(m for m in members if m != word)
    # A word's smaller (more particular) topics lead, and its topics take turns: "diet" is as near to
    # "vegetarian" (food) as to "doctor" (health), and "allergy" nearer to "peanut" than to "lunch".
    theirs: dict[str, list[list[str]]] = {}
    for members, cats in sorted(topics, key=lambda t: len(t[0])):
        for word in members:
            theirs.setdefault(word, []).append([m for m in members if m != word])
            categories.setdefault(word, []).extend(c for c in cats if c not in categories[word])
    for word, lists in theirs.items():
        turns = (row[i] for i in range(max(map(len, lists))) for row in lists if i < len(row))
        near[word] = list(dict.fromkeys(turns))
    return (
        {w: tuple(v) for w, v in near.items()},
        {w: tuple(v) for w, v in same.items()},
        {w: tuple(v) for w, v in categories.items()},
    )


@cache
def _kinds() -> dict[str, tuple[str, ...]]:
    """Product name -> its kind's words, from kinds.txt."""
    kinds: dict[str, list[str]] = {}
    for line in _read("kinds.txt").decode().splitlines():
        line = line.split("#", 1)[0].strip()
        if ":" in line:
            kind, _, names = line.partition(":")
            for name in (w for token in names.split() for w in words(token)):
                kinds.setdefault(name, []).extend(w for w in words(kind) if w not in kinds[name])
    return {name: tuple(kind) for name, kind in kinds.items()}


def memory_words(text: str, quotes: Iterable[str], about: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """A memory's words as a read counts them: (the words of its text and of the names it is about, then
    the kind words of the products they name; the words only its quotes have, then theirs)."""
    own = words(" ".join([text, *about]))
    seen = set(own)
    own += [w for w in dict.fromkeys(k for word in own for k in _kinds().get(word, ())) if w not in seen]
    seen.update(own)
    quoted = [w for w in words(" ".join(quotes)) if w not in seen]
    seen.update(quoted)
    quoted += [
        w for w in dict.fromkeys(k for word in quoted for k in _kinds().get(word, ())) if w not in seen
    ]
    return own, quoted


def memory_word_set(text: str, quotes: Iterable[str], about: Iterable[str] = ()) -> set[str]:
    """Every word a memory has, as a read counts them (`memory_words`, text and quotes together)."""
    own, quoted = memory_words(text, quotes, about)
    return {*own, *quoted}


@lru_cache(maxsize=4096)
def same_words(word: str) -> tuple[str, ...]:
    """The words that count as `word` (not itself), curated ones first."""
    table_same, _ = _table().row(word)
    curated = _topics()[1].get(word, ())
    return tuple(dict.fromkeys((*curated, *table_same)))[:SAME_PER_WORD]


@lru_cache(maxsize=4096)
def near_words(word: str) -> tuple[str, ...]:
    """The words near `word` or near a word that counts as it (not counting as it themselves): topic words
    first, then WordNet's, strongest first. "dietary" counts as "diet", so diet's topic is near it."""
    group = (word, *same_words(word))
    topics = _topics()[0]
    found = [w for member in group for w in topics.get(member, ())]
    found += [w for member in group for w in _table().row(member)[1]]
    return tuple(w for w in dict.fromkeys(found) if w not in group)


def topic_words(group: list[str]) -> list[str]:
    """Every word of the topics of a class's words, their smaller topics first, taking turns."""
    topics = _topics()[0]
    return list(dict.fromkeys(w for member in group for w in topics.get(member, ())))


def categories_of(word: str) -> tuple[str, ...]:
    """The memory categories the topics of `word`, or of a word that counts as it, are about."""
    kinds = _topics()[2]
    return tuple(dict.fromkeys(c for member in (word, *same_words(word)) for c in kinds.get(member, ())))


def expand(terms: list[str]) -> Expansion:
    """The classes and near words of a question's words (as `core.words.words()` gives them)."""
    classes: list[list[str]] = []
    where: dict[str, int] = {}
    for term in terms:
        if term in where:
            continue  # already in an earlier word's class: one word of the question, not two
        group = [term, *(w for w in same_words(term) if w not in where)]
        for word in group:
            where[word] = len(classes)
        classes.append(group)
    near: list[tuple[str, str]] = []
    taken = set(where)
    for group in classes:
        mine = 0
        for word in near_words(group[0]):
            if mine >= NEAR_PER_WORD or len(near) >= NEAR_MOST:
                break
            if word not in taken:
                taken.add(word)
                near.append((group[0], word))
                mine += 1
    # The fill runs only when fewer than three memories match, over approved ones: it can afford every word
    # of the question's topics ("dinner" reaches "allergic", which the near words' cap leaves out).
    wide = list(near)
    for group in classes:
        for word in topic_words(group):
            if word not in taken:
                taken.add(word)
                wide.append((group[0], word))
    votes: dict[str, int] = {}
    for group in classes:
        for category in categories_of(group[0]):
            votes[category] = votes.get(category, 0) + 1
    ranked = tuple(sorted(votes, key=lambda c: (-votes[c], c)))
    return Expansion(tuple(tuple(g) for g in classes), tuple(near), ranked, tuple(wide[:WIDE_MOST]))


def reasons(reach: Expansion, mine: set[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Why a memory with the words `mine` answers a question: (question word, memory word) pairs for the
    question's words it shares (itself, or a word that counts as it) and for the near words it has."""
    shared = []
    for group in reach.classes:
        found = next((word for word in group if word in mine), None)
        if found is not None:
            shared.append((group[0], found))
    return shared, [(asked, word) for asked, word in reach.near if word in mine]


def explained(
    reach: Expansion, text: str, quotes: Iterable[str], about: Iterable[str] = ()
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """`reasons` for a memory, a word it has only as a key named by the product that brought it
    ("ide" in "Uses Neovim" is "neovim's kind"), for the owner's search."""
    own, quoted = memory_words(text, quotes, about)
    plain = set(words(" ".join([text, *quotes, *about])))
    shared, near = reasons(reach, {*own, *quoted})
    kinds = _kinds()

    def named(word: str) -> str:
        if word in plain:
            return word
        return next((f"{n}'s kind" for n in (*own, *quoted) if n in plain and word in kinds.get(n, ())), word)

    return [(asked, named(word)) for asked, word in shared], near
