"""Walks of every document, term or file that let reads go first (`Reads`, `breathing`), and the walk that
finds the common words (`frequent`)."""

from __future__ import annotations

import threading
import time
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from personakit.store.postings.written import Terms, term_hash

T = TypeVar("T")


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


def frequent(reader: Any, field: str, least: int, terms: Terms | None = None) -> Iterator[str]:
    """The words of field that at least `least` documents have (deleted ones too). With terms, each
    segment's words of field are put there too, as their sorted hashes (`written.term_hash`), by
    (segment id, field): the same walk finds what each segment lacks (`Written.put_terms`)."""
    counts: dict[str, int] = {}
    for leaf, _ in reader.leaf_readers():
        hashes = array("I")
        for term, info in breathing(leaf.iter_field(field), 200):
            word = term.decode("utf-8") if isinstance(term, bytes) else term
            counts[word] = counts.get(word, 0) + info.doc_frequency()
            if terms is not None:
                hashes.append(term_hash(term if isinstance(term, bytes) else term.encode("utf-8")))
        if terms is not None and hasattr(leaf, "segment"):  # an empty index's reader has no segment
            terms[leaf.segment().segment_id(), field] = array("I", sorted(hashes))
    return (word for word, count in counts.items() if count >= least)
