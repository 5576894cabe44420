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
`store.segments` (the index's files).
"""

from __future__ import annotations

import os
import struct
import threading
import time
import zlib
from array import array
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from personakit.core.overlap import bits
from personakit.store.segments import word_sets

T = TypeVar("T")

KEPT_BYTES = 24_000_000  # bit sets kept per segment, for the words questions share
SEARCHER_BYTES = 24_000_000  # bit sets kept for the current searcher
SEGMENT_FROM = 1000  # documents from which a segment's postings are kept; smaller ones are read each time
ABSENT_KEPT = 5_000  # words no memory has, kept per searcher (about 200 bytes each)
ENTRY_BYTES = 120  # what a kept entry costs besides its bit sets (tuple, key, ints' headers)
WRITTEN = "{}.pkwords"  # a segment's common words' sets, beside its files: Whoosh removes it with them
_HEAD = struct.Struct("!4sII")  # b"PKW1", the segment's documents, the length of the entries that follow
# An entry: the field's and the word's lengths (UTF-8), having, the offset, docs' and text's lengths, CRC-32.
_ENTRY = struct.Struct("!HHIQIII")
_SAME = 0xFFFFFFFF  # a text length saying: the same set as docs

# In one segment: how many documents have the word (deleted ones too); the live ones; those having it in their text.
Sets = tuple[int, int, int]


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
        self._values: dict[tuple[str, str], list[Any]] = {}  # (segment id, column) -> its values
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

    def values(self, searcher: Any, column: str) -> list[tuple[int, list[Any]]]:
        """Per segment: its first document number and each of its documents' values in the column. Read
        once per kept segment, as postings are (a list index then costs far less than a column lookup)."""
        self._follow(searcher)
        found = []
        for reader, first, segment in self._leaves:
            if not reader.doc_count_all():
                continue  # an empty index's reader has no columns
            values = self._values.get((segment, column)) if segment is not None else None
            if values is None:
                values = list(reader.column_reader(column))
                if segment is not None:
                    self._values[(segment, column)] = values
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
        sets = None if segment is None else self.written.get(segment, reader.doc_count_all(), field, word)
        if sets is None:
            sets = word_sets(reader, field, word, self.text_weight)
        if segment is not None:
            self._segments.put((segment, field, word), sets)
        return sets

    def write(self, searcher: Any, words: list[tuple[str, str]]) -> int:
        """Write the sets of words (field, word) in each kept segment that has no file of them yet, for the
        processes that open the index later (`Written`). Returns how many segments' files were written."""
        self._follow(searcher)
        written = 0
        for reader, _, segment in self._leaves:
            if segment is not None and not self.written.has(segment):
                sets = {key: self._segment(reader, segment, *key) for key in words}
                written += self.written.put(segment, reader.doc_count_all(), sets)
        return written


class Written:
    """The sets of a segment's common words, written beside it (`Postings.write`: `personakit reindex`, and a
    server's read-ahead in quiet moments) and read by any later process. A host that reads at once after a
    start finds a common word's thousands of postings in one `pread` (at 100k memories, about 20 us for a
    word Whoosh's blocks take 10 ms to give), where each read would decode them the first time. A segment
    never changes, so its file never goes stale; documents deleted later are taken out by the reads, as
    from sets kept in memory. A file that does not check out (cut short, another size) is not used."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder  # None: an index in memory, nothing written
        self._entries: dict[str, dict[tuple[str, str], tuple[int, ...]]] = {}  # segment -> its words' places

    def _path(self, segment: str) -> Path:
        assert self.folder is not None
        return self.folder / WRITTEN.format(segment)

    def has(self, segment: str) -> bool:
        return self.folder is None or self._path(segment).exists()

    def keep(self, segments: set[str | None]) -> None:
        self._entries = {segment: found for segment, found in self._entries.items() if segment in segments}

    def get(self, segment: str, size: int, field: str, word: str) -> Sets | None:
        if self.folder is None:
            return None
        entries = self._entries.get(segment)
        if entries is None:
            entries = self._entries[segment] = self._load(segment, size)
        place = entries.get((field, word))
        if place is None:
            return None
        having, offset, docs_length, text_length, crc = place
        stored = docs_length + (0 if text_length == _SAME else text_length)
        try:
            with open(self._path(segment), "rb") as file:
                data = os.pread(file.fileno(), stored, offset)
        except OSError:
            return None
        if len(data) != stored or zlib.crc32(data) != crc:  # damaged: Whoosh's postings then
            entries.pop((field, word))
            return None
        docs = int.from_bytes(data[:docs_length], "little")
        return having, docs, docs if text_length == _SAME else int.from_bytes(data[docs_length:], "little")

    def _load(self, segment: str, size: int) -> dict[tuple[str, str], tuple[int, ...]]:
        """The words' places in the segment's file: none when it is not there or not this segment's (each
        set is checked against its CRC-32 when read)."""
        try:
            with open(self._path(segment), "rb") as file:
                magic, documents, length = _HEAD.unpack(file.read(_HEAD.size))
                table = file.read(length)
            if magic != b"PKW1" or documents != size or len(table) != length:
                return {}
            entries, at = {}, 0
            while at < length:
                field_length, word_length, *place = _ENTRY.unpack_from(table, at)
                at += _ENTRY.size + field_length + word_length
                names = (
                    table[at - field_length - word_length : at - word_length],
                    table[at - word_length : at],
                )
                entries[names[0].decode("utf-8"), names[1].decode("utf-8")] = tuple(place)
            return entries
        except (OSError, struct.error, UnicodeDecodeError):
            return {}

    def put(self, segment: str, size: int, sets: dict[tuple[str, str], Sets]) -> bool:
        """Write the file of the segment's sets (of the words it has), whole or not at all."""
        if self.folder is None:
            return False
        items = [  # (names, having, docs, text or None: the same as docs)
            (
                (field.encode("utf-8"), word.encode("utf-8")),
                having,
                _bytes(docs),
                None if text == docs else _bytes(text),
            )
            for (field, word), (having, docs, text) in sets.items()
            if having
        ]
        offset = _HEAD.size + sum(_ENTRY.size + len(names[0]) + len(names[1]) for names, *_ in items)
        table, blobs = [_HEAD.pack(b"PKW1", size, offset - _HEAD.size)], []
        for names, having, docs, text in items:
            blobs.append(docs + (text or b""))
            sizes = len(docs), _SAME if text is None else len(text)
            table.append(
                _ENTRY.pack(len(names[0]), len(names[1]), having, offset, *sizes, zlib.crc32(blobs[-1]))
            )
            table += names
            offset += len(blobs[-1])
        temporary = self._path(f".{segment}.{os.getpid()}.{threading.get_ident()}")  # Whoosh skips dot files
        try:
            temporary.write_bytes(b"".join(table + blobs))
            os.replace(temporary, self._path(segment))
        except OSError:
            temporary.unlink(missing_ok=True)
            return False
        self._entries.pop(segment, None)  # looked for before it was there: look again
        return True


def _bytes(number: int) -> bytes:
    return number.to_bytes((number.bit_length() + 7) // 8, "little")


class Reads:
    """The reads running now, by thread. A walk of every document, term or file (a server's first seconds)
    waits while a read runs on another thread (`breathing`): sharing the GIL with it made those seconds'
    reads 3 to 10 times slower. A walk a read runs itself (repairing the index) does not wait for it."""

    def __init__(self) -> None:
        self._threads: Counter[int] = Counter()
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        with self._lock:
            self._threads[threading.get_ident()] += 1

    def __exit__(self, *_: object) -> None:
        with self._lock:
            self._threads[threading.get_ident()] -= 1
            self._threads = +self._threads  # none left at 0: threads come and go

    def others(self) -> bool:
        """Does a read run on another thread than this one?"""
        me = threading.get_ident()
        return any(thread != me for thread in list(self._threads))  # a copy: others change it meanwhile

    def wait(self, most: float = 0.05) -> float:
        """Give the GIL away, and wait while another thread reads, `most` seconds at most; how long it did."""
        time.sleep(0)  # a thread waiting for the GIL (the server answering a call) takes it now
        start = time.monotonic()
        while self._threads and self.others() and time.monotonic() - start < most:
            time.sleep(0.0002)
        return time.monotonic() - start


READS = Reads()


def breathing(items: Iterable[T], every: int = 25, most: float = 2.0) -> Iterator[T]:
    """items, letting reads go first every `every` of them (`Reads.wait`), about every 0.5 ms of work, for
    `most` seconds of waiting in all: a read that waits for the walk (for the vault lock) holds it no longer."""
    for number, item in enumerate(items, 1):
        if number % every == 0 and most > 0:
            most -= READS.wait()
        yield item


def frequent(reader: Any, field: str, least: int) -> Iterator[str]:
    """The words of field that at least `least` documents have (deleted ones too)."""
    counts: dict[str, int] = {}
    for leaf, _ in reader.leaf_readers():
        for term, info in breathing(leaf.iter_field(field), 200):
            word = term.decode("utf-8") if isinstance(term, bytes) else term
            counts[word] = counts.get(word, 0) + info.doc_frequency()
    return (word for word, count in counts.items() if count >= least)
