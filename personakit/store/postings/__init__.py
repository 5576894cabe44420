"""Each word's memories as bit sets, read from the Whoosh index's posting lists and kept across changes.

Whoosh keeps an index as segments: immutable files of documents, numbered within the segment, to which
later changes add new segments (and mark replaced documents deleted). A word's postings in a segment
therefore never change while the segment lives, and are read from Whoosh once per segment: as two bit
sets, the segment's documents having the word and those having it in their text. After a proposal only
the proposal's new small segment is read again; the big segments of a first index stay as they were.

For one searcher (one state of the index), a word's sets over the whole index are the segments' sets
shifted to the segments' first document numbers, less the deleted documents; they are kept for as long as
the searcher. Both stores are bounded in bytes: the least recently used words go first. The sets of a big
segment's common words are also written beside it, for the processes that open the index later (`Written`).

It reads Whoosh only through the reader objects the index gives it, and a segment's postings through
`lookup` (the segment's files). A big segment's files are joined by two of PersonaKit's own (`written`):
its common words' sets, and the words it has at all, so that a word it lacks costs no look-up.
"""

from __future__ import annotations

import re
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from personakit.core.overlap import bits
from personakit.store.postings.lookup import in_text, word_sets
from personakit.store.postings.walks import READS, Reads, breathing, frequent
from personakit.store.postings.written import TERMS, Sets, Terms, Written

__all__ = ["READS", "Postings", "Reads", "Sets", "Terms", "Written", "breathing", "frequent", "in_text"]

KEPT_BYTES = 24_000_000  # bit sets kept per segment, for the words questions share
SEARCHER_BYTES = 24_000_000  # bit sets kept for the current searcher
SEGMENT_FROM = 1000  # documents from which a segment's postings are kept; smaller ones are read each time
ABSENT_KEPT = 5_000  # words no memory has, kept per searcher (about 200 bytes each)
ENTRY_BYTES = 120  # what a kept entry costs besides its bit sets (tuple, key, ints' headers)


class Ids:
    """A segment's memory ids, in 8 bytes each where an id has PersonaKit's form (`m_` and 12 hex digits,
    kept as their number): at 10k memories 80 kB, where a list of the strings held 0.7 MB. Two documents'
    keys (`keys`) are equal exactly when their ids are (an id of another form is kept as it is)."""

    FORM = re.compile(r"m_[0-9a-f]{12}")

    def __init__(self, ids: Iterable[str]) -> None:
        self.numbers = array("q")
        self.others: list[str] = []  # hand-typed ids of another form, numbered -1, -2, ...
        for mid in ids:
            if self.FORM.fullmatch(mid):
                self.numbers.append(int(mid[2:], 16))
            else:
                self.others.append(mid)
                self.numbers.append(-len(self.others))

    def __len__(self) -> int:
        return len(self.numbers)

    def keys(self, docs: list[int]) -> Sequence[int | str]:
        """The documents' ids as kept: equal exactly when the ids are."""
        numbers, others = self.numbers, self.others
        found = [numbers[doc] for doc in docs]
        if not others:
            return found
        return [n if n >= 0 else others[-1 - n] for n in found]


def _size(entry: tuple[int, ...]) -> int:
    return ENTRY_BYTES + sum((n.bit_length() + 7) // 8 for n in entry)


class _Bounded:
    """An LRU dict that drops its oldest entries past a number of bytes."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.items: OrderedDict[Any, tuple[int, ...]] = OrderedDict()
        self.bytes = 0

    def get(self, key: Any) -> Any:
        found = self.items.get(key)
        if found is not None:
            self.items.move_to_end(key)
        return found

    def put(self, key: Any, value: tuple[int, ...]) -> None:
        old = self.items.pop(key, None)
        if old is not None:
            self.bytes -= _size(old)
        self.items[key] = value
        self.bytes += _size(value)
        while self.bytes > self.most and len(self.items) > 1:
            _, dropped = self.items.popitem(last=False)
            self.bytes -= _size(dropped)

    def drop(self, keep: Callable[[Any], bool]) -> None:
        for key in [k for k in self.items if not keep(k)]:
            self.bytes -= _size(self.items.pop(key))

    def clear(self) -> None:
        self.items.clear()
        self.bytes = 0


class Postings:
    """Bit sets of each word's documents, for the searcher given. Not thread-safe: the index's lock
    guards it, as it guards the searcher."""

    def __init__(self, text_weight: int, column: str, folder: Path | None = None) -> None:
        self.text_weight = text_weight  # a posting this heavy has the word in the memory's text
        self.written = Written(folder)
        self.column = column  # the sortable column that orders tied documents
        self._values: dict[tuple[str, str, Any], Any] = {}  # (segment id, column, kind) -> its values
        self._orders: dict[str, array[int]] = {}  # segment id -> its documents in tie-break order
        self._segments = _Bounded(KEPT_BYTES)  # (segment id, field, word) -> sets within the segment
        self._current = _Bounded(SEARCHER_BYTES)  # (field, word) -> (having, sets) for the searcher
        self._searcher: object = None
        self._leaves: list[tuple[Any, int, str | None]] = []  # (segment reader, first doc, id if kept)
        self._dead = 0  # deleted documents of the current searcher
        self._absent: set[tuple[str, str]] = set()  # words no document of the current searcher has

    def word(self, searcher: Any, field: str, word: str) -> tuple[int, int, int]:
        """(how many documents have the word, deleted ones too, as Whoosh counts; the live ones having it;
        the live ones having it in their text)."""
        self._follow(searcher)
        if (field, word) in self._absent:
            return 0, 0, 0
        found = self._current.get((field, word))
        if found is None:
            having = docs = text = 0
            for reader, first, segment in self._leaves:
                seg_having, seg_docs, seg_text = self._segment(reader, segment, field, word)
                having += seg_having
                docs |= seg_docs << first
                text |= seg_text << first
            if not having:  # most of what random questions bring: kept apart, in a smaller bound
                if len(self._absent) >= ABSENT_KEPT:
                    self._absent.clear()
                self._absent.add((field, word))
                return 0, 0, 0
            if self._dead:
                docs &= ~self._dead
                text &= ~self._dead
            found = (having, docs, text)
            self._current.put((field, word), found)
        return found  # type: ignore[no-any-return]

    def _follow(self, searcher: Any) -> None:
        """Switch to a new searcher: its segments, its deleted documents; forget segments that are gone."""
        if searcher is self._searcher:
            return
        reader = searcher.reader()
        leaves, dead, present = [], [], set()
        for leaf, first in reader.leaf_readers():
            size = leaf.doc_count_all()
            segment = leaf.segment() if hasattr(leaf, "segment") else None  # an empty index has none
            kept = segment.segment_id() if segment is not None and size >= SEGMENT_FROM else None
            leaves.append((leaf, first, kept))
            present.add(kept)
            if leaf.has_deletions():
                dead += [first + doc for doc in leaf.deleted_docs_set]
        self._leaves = leaves
        self._dead = bits(dead, reader.doc_count_all()) if dead else 0
        self._segments.drop(lambda key: key[0] in present)
        self.written.keep(present)
        self._orders = {segment: order for segment, order in self._orders.items() if segment in present}
        self._values = {key: values for key, values in self._values.items() if key[0] in present}
        self._current.clear()
        self._absent.clear()
        self._searcher = searcher

    def dead(self, searcher: Any) -> int:
        """The searcher's deleted documents, as a bit set."""
        self._follow(searcher)
        return self._dead

    def values(
        self, searcher: Any, column: str, kind: Callable[[Iterable[Any]], Any] = list
    ) -> list[tuple[int, Any]]:
        """Per segment: its first document number and each of its documents' values in the column, in a
        sequence of `kind` (`Ids` for the memories' ids). Read once per kept segment, as postings are (an
        index then costs far less than a column lookup)."""
        self._follow(searcher)
        found = []
        for reader, first, segment in self._leaves:
            if not reader.doc_count_all():
                continue  # an empty index's reader has no columns
            values = self._values.get((segment, column, kind)) if segment is not None else None
            if values is None:
                values = kind(reader.column_reader(column))
                if segment is not None:
                    self._values[(segment, column, kind)] = values
            found.append((first, values))
        return found

    def orders(self, searcher: Any) -> list[tuple[int, list[str], array[int]]]:
        """Per segment: its first document number, each of its documents' tie-break values, and its
        documents sorted by value (then number). Read once per kept segment."""
        found = []
        for (first, values), (_, _, segment) in zip(
            self.values(searcher, self.column),
            [leaf for leaf in self._leaves if leaf[0].doc_count_all()],
            strict=True,
        ):
            order = self._orders.get(segment) if segment is not None else None
            if order is None:
                order = array("i", sorted(range(len(values)), key=values.__getitem__))
                if segment is not None:
                    self._orders[segment] = order
            found.append((first, values, order))
        return found

    def _segment(self, reader: Any, segment: str | None, field: str, word: str) -> Sets:
        if segment is not None:
            found = self._segments.get((segment, field, word))
            if found is not None:
                return found  # type: ignore[no-any-return]
            if self.written.lacks(segment, reader.doc_count_all(), field, word):
                return 0, 0, 0
        sets = None if segment is None else self.written.get(segment, reader.doc_count_all(), field, word)
        if sets is None:
            sets = word_sets(reader, field, word, self.text_weight)
        if segment is not None:
            self._segments.put((segment, field, word), sets)
        return sets

    def written_words(self, searcher: Any) -> list[tuple[str, str]] | None:
        """The words whose sets the kept segments' files hold: the common words when `reindex` or an earlier
        read-ahead wrote them. None when a kept segment lacks either file (or there is no kept segment):
        then `frequent` walks every term to find them, and `write` writes the files."""
        self._follow(searcher)
        kept = [
            (reader.doc_count_all(), segment) for reader, _, segment in self._leaves if segment is not None
        ]
        if not kept or any(not self.written.has(s) or not self.written.has(s, TERMS) for _, s in kept):
            return None
        return list(dict.fromkeys(word for size, s in kept for word in self.written.words(s, size)))

    def write(self, searcher: Any, words: list[tuple[str, str]], terms: Terms) -> int:
        """Write, for the processes that open the index later (`Written`), in each kept segment that has
        none yet, the file of the sets of words (field, word) and the file of the words it has (terms: the
        sorted hashes by segment id and field, as `frequent` finds them). Returns how many files were
        written."""
        self._follow(searcher)
        written = 0
        for reader, _, segment in self._leaves:
            if segment is None:
                continue  # a small segment: read each time anyway
            if not self.written.has(segment):
                sets = {key: self._segment(reader, segment, *key) for key in words}
                written += self.written.put(segment, reader.doc_count_all(), sets)
            mine = {field: hashes for (of, field), hashes in terms.items() if of == segment}
            if mine and not self.written.has(segment, TERMS):
                written += self.written.put_terms(segment, reader.doc_count_all(), mine)
        return written
