"""The postings a Whoosh writer holds until its commit, kept per term as they come (`segments.writer`).

Whoosh's own pool holds each posting as a tuple and sorts them all at the commit; past a few MB it sorts
them out to disk in runs that it merges back, each posting pickled, read back and merged on a heap. For
a first index written as one segment per process, that was a third of the time (one writer for 50,000
memories: 24-29 s), and one run in memory would take 450 MB. Memories are added in document order, so
each term's postings arrive in order: kept per field and term (a document number and a count in one
integer, an array of them for a term with several), only the terms are sorted at the commit (17-18 s).

Postings added Whoosh's way (a memory `update_document` replaces, a merge of segments) go to Whoosh's pool,
and its sorted postings are merged with these. Past HELD postings (a first index of over 100,000 memories
in one process) these are handed to it too, so that memory stays bounded at any size. Figures:
docs/performance.md, the tenth round."""

from __future__ import annotations

import heapq
import struct
from array import array
from collections.abc import Iterator
from typing import Any

HELD = 3_000_000  # postings kept per term before they go to Whoosh's pool, sorted: about 100,000 memories
_UINT = struct.Struct("!I").pack  # whoosh.system.pack_uint: a counted posting's value is its count
Posting = tuple[str, bytes, int, float, bytes]  # Whoosh's: field, term, document number, weight, value


class Pool:
    """Whoosh's pool interface (`add`, `iter_postings`, `cleanup`), with `post` for the postings of a memory
    added in order; boosts: each indexed field's."""

    def __init__(self, whooshs: Any, boosts: dict[str, float]) -> None:
        self.whooshs, self.boosts = whooshs, boosts
        self.terms: dict[str, dict[bytes, int | array[int]]] = {}  # by field (no tuple a term: 20 MB at 50k)
        self.held, self.handed = 0, False

    def add(self, posting: Posting) -> None:
        self.handed = True
        self.whooshs.add(posting)

    def post(self, field: str, term: bytes, code: int) -> None:
        """code: the document number << 32 | the term's count in it (0: an ID's term, which has none)."""
        terms = self.terms.get(field)
        if terms is None:
            terms = self.terms[field] = {}
        held = terms.get(term)
        if held is None:
            terms[term] = code
        elif isinstance(held, int):
            terms[term] = array("Q", (held, code))
        else:
            held.append(code)
        self.held += 1
        if self.held > HELD:
            for posting in self._sorted():
                self.add(posting)
            self.terms, self.held = {}, 0

    def _sorted(self) -> Iterator[Posting]:
        for field in sorted(self.terms):
            terms, boost = self.terms[field], self.boosts[field]
            for term in sorted(terms):
                held = terms[term]
                for code in (held,) if isinstance(held, int) else held:
                    if count := code & 0xFFFFFFFF:  # a words field's: Frequency's weight and value
                        yield field, term, code >> 32, count * boost, _UINT(count)
                    else:  # an ID's: Existence's
                        yield field, term, code >> 32, boost, b""

    def iter_postings(self) -> Iterator[Posting]:
        """Every posting, sorted as Whoosh's pool gives them: by field, term, then document."""
        if not self.handed:
            return self._sorted()
        return heapq.merge(self._sorted(), self.whooshs.iter_postings())

    def cleanup(self) -> None:
        self.terms = {}
        self.whooshs.cleanup()
