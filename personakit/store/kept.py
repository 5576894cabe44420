"""What the index keeps of one searcher between reads: bounded, whatever assistants ask.

Reads reuse one searcher until the index changes, and questions bring up the same memories, so what a
read works out from the searcher is kept for the next ones: column values (opening a column reader reads
its whole offset table, which costs more than a search), and how many files have each id. All of it is
let go when the searcher changes. The bounds, so that no stream of questions grows the process: column
values, one per document at most; ids' file counts, KEPT_COUNTS (about 100 bytes each). Word postings
are kept by `store.postings`, with bounds of their own.

The searcher comes as it is (`store.index` is the only module that imports Whoosh); callers hold the
index's lock.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

KEPT_COUNTS = 100_000


class Kept:
    def __init__(self) -> None:
        self._let_go(None)

    def _let_go(self, s: Any) -> None:
        self._searcher = s
        self._columns: dict[str, tuple[Any, dict[int, Any]]] = {}
        self._counts: dict[str, int] = {}

    def _for(self, s: Any) -> None:
        if s is not self._searcher:
            self._let_go(s)

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
