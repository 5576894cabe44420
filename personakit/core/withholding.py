"""Which words of a question may make a restricted memory count in `withheld`.

`withheld` tells an assistant that something private bears on its question, never what. Counted on
every word of every question, it is an oracle: an assistant that sends batches of candidate words and
splits each batch whose count is above 0 (group testing) rebuilds a restricted memory's words, a
5-digit number in a few hundred reads. Two rules bound what it can learn:

- **Few words a question.** Only the question's first COUNTED_WORDS distinct words (after stop words,
  as `core.words` makes them) can make a restricted memory count. An honest question has fewer; a batch
  of candidates tests no more than these. (Ranking still uses the question's first 64 words.)
- **Few new words a day.** Across all questions of all assistants on a vault, at most NEW_WORDS_A_DAY
  distinct words a UTC day are tested against restricted memories; a word tested once counts again
  for the rest of the day. Past that, a new word makes no restricted memory count. The store keeps the
  day's words in the vault's machine state (`store.ledger`), so a restart does not refill the allowance.

So an assistant tests at most NEW_WORDS_A_DAY candidate values a day, however it groups them: a number
of 5 digits (90,000 candidates) takes months, and the sweep shows up in the read ledger long before.
What it learns about the words it did test stays what the contract says: that a restricted memory
shares one of them. A cap on answers that count (per memory) would not do: a single positive answer
ends a sweep of single candidates, and negative answers cost nothing.

Pure: no I/O; `store.ledger.AskedWords` keeps the day's words.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from personakit.core.meaning import memory_word_set

COUNTED_WORDS = 12  # distinct words of a question that may make a restricted memory count
NEW_WORDS_A_DAY = 500  # distinct words a vault tests against its restricted memories in a UTC day


def counted_words(terms: Iterable[str]) -> list[str]:
    """The question's first COUNTED_WORDS distinct words (terms as `core.words.words` gives them)."""
    return list(dict.fromkeys(terms))[:COUNTED_WORDS]


def admitted(terms: list[str], known: Collection[str], room: int) -> tuple[list[str], list[str]]:
    """Of terms, those that may count: the ones tested today already, and new ones while there is room.
    Returns (the ones that count, in order; the new ones among them, to remember)."""
    counting: list[str] = []
    new: list[str] = []
    for term in terms:
        if term in known:
            counting.append(term)
        elif len(new) < room:
            counting.append(term)
            new.append(term)
    return counting, new


def shares(text: str, quotes: Iterable[str], counted: list[str]) -> bool:
    """Does a memory (one restricted on disk since it was indexed) share one of the counted words?"""
    return bool(memory_word_set(text, quotes).intersection(counted))
