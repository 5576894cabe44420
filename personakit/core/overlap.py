"""Finding the memories that share most of a question's words, on bit sets. Pure Python, no I/O.

A read scores a memory by adding, for each question word it has, 1 plus a small fraction (the word's
rarity, less when the memory has it only in a quote). The fractions of all the question's words add up
to less than 1, so a memory sharing more words always scores higher, whatever the words are. The best N
can therefore be found without scoring every memory that shares a word:

1. count every memory's shared words at once, on bit sets (a word's memories are one Python int whose
   bit d is set when document d has the word; counts are kept as binary digits, one int per digit);
2. find c, the most words that at least N memories share: only memories sharing c words or more can be
   among the best N (`candidates`);
3. score the candidates exactly: one by one when they are few (`scores`), or, when many share the same
   words in the same places, once per such group (`groups`).

A candidate's score is computed with the same additions in the same order as summing every word's
contribution memory by memory, starting from 0.0, so the floats are identical to that plain sum and so
is every order and tie built on them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_BITS = [tuple(i for i in range(8) if byte >> i & 1) for byte in range(256)]
_SET = re.compile(rb"[^\x00]")


@dataclass(frozen=True)
class Word:
    """One question word in one field: the documents having it (bit d for document d), those having it in
    their text, and what it adds to the score of each. A word that does not count (a word only near the
    question's) adds a fraction, and is left out of the count of shared words."""

    having: int
    in_text: int
    text_score: float
    quote_score: float
    counts: bool = True


@dataclass(frozen=True)
class Group:
    """Documents sharing the same words in the same places, so the same score; `first` is the position of
    the first word they have (the order in which the plain sum would first meet them)."""

    score: float
    first: int
    docs: int


def bits(docs: Iterable[int], size: int) -> int:
    """The bit set of docs (all below size)."""
    table = bytearray((size + 7) // 8)
    for doc in docs:
        table[doc >> 3] |= 1 << (doc & 7)
    return int.from_bytes(table, "little")


def members(docs: int) -> list[int]:
    """The documents of a bit set, ascending."""
    if not docs:
        return []
    data = docs.to_bytes((docs.bit_length() + 7) // 8, "little")
    out: list[int] = []
    for found in _SET.finditer(data):
        at = found.start()
        base = at * 8
        out += [base + i for i in _BITS[data[at]]]
    return out


def candidates(words: Sequence[Word], limit: int) -> int:
    """The documents that can be among the `limit` best: those sharing at least c of the words, c being
    the most words that `limit` documents share (all documents sharing a word, when fewer than limit do)."""
    digits: list[int] = []  # digits[i]: documents whose count of shared words has bit i set
    for word in words:
        if not word.counts:
            continue
        carry = word.having
        for i, digit in enumerate(digits):
            digits[i], carry = digit ^ carry, digit & carry
            if not carry:
                break
        else:
            if carry:
                digits.append(carry)
    anyone = 0
    for digit in digits:
        anyone |= digit
    if anyone.bit_count() <= limit:
        return anyone
    top, most = anyone, 0  # the documents with the highest count, and that count
    for i in range(len(digits) - 1, -1, -1):
        narrowed = top & digits[i]
        if narrowed:
            top, most = narrowed, most | 1 << i
    chosen = top
    for count in range(most - 1, 0, -1):
        if chosen.bit_count() >= limit:
            break
        exact = anyone
        for i, digit in enumerate(digits):
            exact = exact & digit if count >> i & 1 else exact & ~digit
        chosen |= exact
    return chosen


def scores(words: Sequence[Word], among: int) -> dict[int, float]:
    """Each document of `among` that has a word -> its exact score, in the order the plain sum meets them
    (by the first word they have, then by document number). Each document's words are added in the
    words' order, starting from 0.0: the plain sum's additions, so the same floats."""
    size = (among.bit_length() + 7) // 8
    tables = []
    for word in words:
        having = word.having & among
        text = word.in_text & having
        tables.append(
            (
                having.to_bytes(size, "little"),
                text.to_bytes(size, "little"),
                word.text_score,
                word.quote_score,
            )
        )
    found = []
    for doc in members(among):
        at, bit = doc >> 3, doc & 7
        total, first = 0.0, -1
        for position, (having_table, text_table, text_score, quote_score) in enumerate(tables):
            if having_table[at] >> bit & 1:
                total += text_score if text_table[at] >> bit & 1 else quote_score
                if first < 0:
                    first = position
        if first >= 0:
            found.append((first, doc, total))
    found.sort()
    return {doc: total for _, doc, total in found}


def groups(words: Sequence[Word], among: int, most: int) -> list[Group] | None:
    """The documents of `among` split by which words they have and where, each group with its exact score;
    None when that makes more than `most` groups (then score them one by one)."""
    current = [Group(0.0, -1, among)]
    for position, word in enumerate(words):
        split: list[Group] = []
        for group in current:
            having = group.docs & word.having
            if not having:
                split.append(group)
                continue
            if having != group.docs:
                split.append(Group(group.score, group.first, group.docs ^ having))
            first = position if group.first < 0 else group.first
            text = having & word.in_text
            if text:
                split.append(Group(group.score + word.text_score, first, text))
            if text != having:
                split.append(Group(group.score + word.quote_score, first, having ^ text))
        if len(split) > most:
            return None
        current = split
    return [group for group in current if group.first >= 0]
