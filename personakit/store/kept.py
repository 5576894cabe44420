"""What the index keeps of one searcher between reads: bounded in bytes, whatever assistants ask.

Reads reuse one searcher until the index changes, and questions share their common words, so what a read
works out from the searcher is kept for the next ones: a term's postings (walking Whoosh's matcher costs
three times what scoring them does), the words no memory has, column values (opening a column reader
reads its whole offset table, which costs more than a search), and how many files have each id. All of
it is let go when the searcher changes. The bounds, so that no stream of questions grows the process:

- postings: POSTINGS_KEPT_BYTES, counting each term's own cost and 5 bytes a posting; past it, all go;
- words no memory has (most of what random questions bring): ABSENT_KEPT, about 200 bytes each;
- ids' file counts: KEPT_COUNTS, about 100 bytes each; column values: one per document at most.

The searcher comes as it is (`store.index` is the only module that imports Whoosh); callers hold the
index's lock.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any

POSTINGS_KEPT_BYTES = 10_000_000
KEPT_ENTRY_BYTES = 400  # a kept term's own cost (its key, tuple and two arrays), besides 5 bytes a posting
ABSENT_KEPT = 5_000
KEPT_COUNTS = 100_000

Postings = tuple[int, "array[int]", "array[int]"]
NOTHING: Postings = (0, array("i"), array("b"))


class Kept:
    def __init__(self, text_weight: int) -> None:
        self.text_weight = text_weight  # a posting's weight from which the term is in the memory's text
        self._let_go(None)

    def _let_go(self, s: Any) -> None:
        self._searcher = s
        self._postings: dict[tuple[str, str], Postings] = {}
        self._used = 0
        self._absent: set[tuple[str, str]] = set()
        self._columns: dict[str, tuple[Any, dict[int, Any]]] = {}
        self._counts: dict[str, int] = {}

    def _for(self, s: Any) -> None:
        if s is not self._searcher:
            self._let_go(s)

    def postings(self, s: Any, field: str, term: str) -> Postings:
        """How many documents have the term (deleted ones too, as Whoosh counts), which ones, and whether
        each has it in its text."""
        self._for(s)
        found = self._postings.get((field, term))
        if found is not None:
            return found
        if (field, term) in self._absent:
            return NOTHING
        having = s.reader().doc_frequency(field, term)
        if not having:
            if len(self._absent) >= ABSENT_KEPT:
                self._absent.clear()
            self._absent.add((field, term))
            return NOTHING
        docs, in_text = array("i"), array("b")
        postings = s.postings(field, term)
        active, doc_id, weight, step = postings.is_active, postings.id, postings.weight, postings.next
        while active():
            docs.append(doc_id())
            in_text.append(weight() >= self.text_weight)
            step()
        cost = KEPT_ENTRY_BYTES + len(term) + 5 * len(docs)
        if self._used + cost > POSTINGS_KEPT_BYTES:
            self._postings.clear()
            self._used = 0
        found = self._postings[(field, term)] = (having, docs, in_text)
        self._used += cost
        return found

    def column(self, s: Any, name: str) -> Callable[[int], Any]:
        """A document's value in the column `name`, each value read once: the same common words bring up
        the same memories read after read."""
        self._for(s)
        if name not in self._columns:
            self._columns[name] = (s.reader().column_reader(name), {})
        column, known = self._columns[name]

        def value(doc: int) -> Any:
            found = known.get(doc)
            if found is None:
                found = known[doc] = column[doc]
            return found

        return value

    def files(self, s: Any, memory_id: str) -> int:
        """How many documents have the id (replaced ones too, until a merge: that only costs a look)."""
        self._for(s)
        count = self._counts.get(memory_id)
        if count is None:
            if len(self._counts) >= KEPT_COUNTS:
                self._counts.clear()
            count = self._counts[memory_id] = s.reader().doc_frequency("id", memory_id)
        return count
