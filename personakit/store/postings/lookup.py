"""A word's postings in one segment of the Whoosh index, read from the segment's files: its term info from
the terms hash table (`term_info`), how many documents have it (`frequency`), its documents as bit sets
(`word_sets`), and those having it in their text (`in_text`). With `store.index` and `store.segments`, the
only modules that import Whoosh. A look-up is a `pread` or two, without Whoosh's calls for each slot, key
and posting."""

from __future__ import annotations

import io
import pickle
import struct
import zlib
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import Any

from whoosh.codec.whoosh3 import (  # type: ignore[attr-defined]
    WHOOSH3_HEADER_MAGIC,
    W3TermInfo,
    W3TermsReader,
)
from whoosh.reading import ReaderClosed, TermNotFound  # type: ignore[attr-defined]

from personakit.core.overlap import bits, members

_POINTER = struct.Struct("!Iq")  # a slot of a hash file's table: its key's hash, its item's position
_LENGTHS = struct.Struct("!ii")  # before an item of a hash file: the lengths of its key and its value
ITEM_READ = 96  # bytes read at an item besides its key: a term info, with its few postings inlined
PROBED = 4  # slots read at once: a table is at most half full, most words are found (or not) in one or two


def term_info(leaf: Any, field: str, word: str) -> Any:
    """The word's term info in one segment (a `W3TermInfo`: how many documents have it; up to 8 postings
    inlined), or None when the segment has no such term: a probe of the segment's terms hash file, as
    Whoosh's `HashReader` makes it, with a `pread` for a few slots at a time and one for the key and its
    value. Whoosh's `doc_frequency`, then `postings`, look a word up twice, a `pread` for each slot, length
    and key and some forty calls in all: 15 -> 7 us a look-up at 10k memories, where most of a question's
    words are in no segment, or in a few memories (their postings inlined in the term info)."""
    terms = getattr(leaf, "_terms", None)
    if not isinstance(terms, W3TermsReader):  # another reader (an empty index's): Whoosh's own look-up
        try:
            return leaf.term_info(field, word)
        except TermNotFound:
            return None
    if leaf.is_closed:
        raise ReaderClosed
    table, key = terms._tindex, terms._keycoder(field, word.encode("utf-8"))
    keyhash = table.hashfn(key)
    start, slots = table.tables[keyhash & 255]
    get, step, left = table.dbfile.get, _POINTER.size, slots
    position, end = start + (keyhash >> 8) % max(slots, 1) * step, start + slots * step
    while left > 0:
        chunk = get(position, min(PROBED, left, (end - position) // step) * step)
        if len(chunk) < step:
            raise EOFError(f"the terms file of segment {leaf.segment().segment_id()} is cut short")
        for slot_hash, item in _POINTER.iter_unpack(chunk):
            if not item:
                return None  # an empty slot: no such key
            if slot_hash == keyhash:
                head = get(item, _LENGTHS.size + len(key) + ITEM_READ)
                key_length, length = _LENGTHS.unpack_from(head)
                at = _LENGTHS.size + key_length
                if key_length == len(key) and head[_LENGTHS.size : at] == key:
                    value = head[at : at + length]
                    return W3TermInfo.from_bytes(value if len(value) == length else get(item + at, length))
        left -= len(chunk) // step
        position = position + len(chunk) if position + len(chunk) < end else start
    return None


def frequency(reader: Any, field: str, word: str) -> int:
    """How many documents have the word, deleted ones too (`reader.doc_frequency`), a look-up per segment."""
    return sum(
        info.doc_frequency() for leaf, _ in reader.leaf_readers() if (info := term_info(leaf, field, word))
    )


def word_sets(leaf: Any, field: str, word: str, heavy: float) -> tuple[int, int, int]:
    """How many of one segment's documents have the word (deleted ones too, as Whoosh counts), its live
    documents, and those whose posting is at least `heavy` (the word in the memory's text), as bit sets.
    A word in 8 documents or fewer has its postings in its term info; more, in Whoosh's blocks (`_blocks`)."""
    info = term_info(leaf, field, word)
    if info is None:
        return 0, 0, 0
    having, size = info.doc_frequency(), leaf.doc_count_all()
    dead = leaf.deleted_docs_set if leaf.has_deletions() else frozenset()
    if info.is_inlined():
        ids, weights, _ = info.inlined_postings()
        docs = [doc for doc in ids if doc not in dead]
        text = [doc for doc, w in zip(ids, weights, strict=True) if w >= heavy and doc not in dead]
        found = bits(docs, size)
        return having, found, (found if len(text) == len(docs) else bits(text, size))
    blocks = _blocks(leaf, info)
    if blocks is None:  # another whoosh-ng's postings: Whoosh's matcher, which leaves the deleted ones out
        blocks, dead = [_matched(leaf.postings(field, word))], frozenset()
    docs, text = [], []
    for ids, weights in blocks:
        docs += ids
        if not isinstance(weights, int | float):
            text += [doc for doc, w in zip(ids, weights, strict=True) if w >= heavy]
        elif weights >= heavy:
            text += ids
    gone = bits(dead, size) if dead else 0
    found = bits(docs, size) & ~gone
    return having, found, (found if len(text) == len(docs) else bits(text, size) & ~gone)


def _matched(matcher: Any) -> tuple[list[int], list[float]]:
    """A matcher's documents and their weights, one by one."""
    ids, weights = [], []
    while matcher.is_active():
        ids.append(matcher.id())
        weights.append(matcher.weight())
        matcher.next()
    return ids, weights


_BLOCK_LENGTH = struct.Struct("!i")  # before each block: its length, negative for the last


def _blocks(leaf: Any, info: Any) -> list[tuple[list[int], Any]] | None:
    """A word's postings in one segment, deleted documents too, a block (up to 128) at a time: the
    documents and their weights (a list, or one weight for all). Read in one `pread` and unpickled as
    Whoosh's `W3LeafMatcher` reads them, without a call for each posting: 80 -> 40 us a word in a few
    dozen memories at 10k. None when the postings are not kept so (another whoosh-ng)."""
    terms, offset, length = (
        getattr(leaf, "_terms", None),
        getattr(info, "_offset", None),
        getattr(info, "_length", None),
    )
    length = length[0] if isinstance(length, tuple) else length  # whoosh-ng reads it as a 1-tuple
    if not isinstance(terms, W3TermsReader) or not isinstance(offset, int) or not isinstance(length, int):
        return None
    data = terms._postfile.get(offset, length)
    if data[:4] != WHOOSH3_HEADER_MAGIC:
        raise ValueError(f"the postings of segment {leaf.segment().segment_id()} are damaged")
    stream, found, last = io.BytesIO(data), [], False
    stream.seek(4)
    while not last:
        (size,) = _BLOCK_LENGTH.unpack(stream.read(_BLOCK_LENGTH.size))
        last, end = size < 0, stream.tell() + abs(size)
        count, _, _, compressed, _, _ = pickle.load(stream)  # the block's info, then its postings
        body = data[stream.tell() : end]
        ids, weights, _ = pickle.loads(zlib.decompress(body) if compressed else body)
        ids = list(accumulate(ids))  # kept as the gaps between them
        if len(ids) != count or end > len(data):
            raise ValueError(f"the postings of segment {leaf.segment().segment_id()} are damaged")
        found.append((ids, 1.0 if weights is None else weights))
        stream.seek(end)
    return found


def in_text(
    reader: Any, fields: Sequence[str], terms: list[str], among: list[int] | None, weight: int
) -> set[int]:
    """The documents having one of terms in their text (a posting at least `weight` heavy, in any of
    fields: a word only a quote has does not count); with among (ascending), only among those. Read a
    segment at a time, a block of postings at a time when all are wanted, and kept nowhere: for a
    proposal's near-duplicate check, not for reads."""
    found: set[int] = set()
    for leaf, base in reader.leaf_readers():
        end = base + leaf.doc_count_all()
        mine = (
            None
            if among is None
            else [d - base for d in among[bisect_left(among, base) : bisect_left(among, end)]]
        )
        if mine == []:
            continue
        for field in fields:
            for term in terms:
                if (field, term) in leaf:
                    docs = (
                        members(word_sets(leaf, field, term, weight)[2])
                        if mine is None
                        else _heavy_among(leaf.postings(field, term), mine, weight)
                    )
                    found.update(base + doc for doc in docs)
    return found


def _heavy_among(postings: Any, among: list[int], weight: int) -> Iterator[int]:
    """Those of among (ascending) whose posting is at least weight heavy, skipping to each."""
    for doc in among:
        if not postings.is_active():
            return
        if postings.id() < doc:
            postings.skip_to(doc)
        if postings.is_active() and postings.id() == doc and postings.weight() >= weight:
            yield doc
