"""The Whoosh index: a cache of the memory files, ranked by distinct shared words. The only Whoosh importer.

One document per memory file, keyed by file name, holding the file's parsed memory and the stat it was
read at (so an unchanged file is never parsed twice). The `words` field holds `core.words.words()` of the
text and of the quotes, so the index and the rules agree on what a word is: a word of the text is written
twice and a word found only in the quotes once, so a term's weight says where the memory has it. Reads
are ranked from the words' postings by `store.ranking` (see there for the scoring).

Each memory's words go in the field of its state: `words` for the memories a read may return (approved,
unconfirmed), `restricted_words` and `rejected_words` for the others. A read then needs no filter (which
Whoosh would materialize over every visible document on each query), and counting `withheld` reads only
the restricted memories' postings. The index lives in `.personakit/index`; deleted, it is rebuilt."""

from __future__ import annotations

import heapq
import logging
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from threading import RLock
from typing import Any

from whoosh import fields, index, query
from whoosh.filedb.filestore import RamStorage  # type: ignore[attr-defined]
from whoosh.searching import Searcher

from personakit.core.meaning import memory_words
from personakit.core.memory import Memory
from personakit.core.reading import tie_break
from personakit.store import segments
from personakit.store.files import FileStat
from personakit.store.postings import Ids, Terms, breathing, frequent, in_text
from personakit.store.ranking import TEXT_WEIGHT, Kept, Ranker
from personakit.store.segments import Folder, add_document, indexed_names, reopened, stored

log = logging.getLogger("personakit")
LeanCodec = segments.LeanCodec  # segments name their codec as this module's (see there)

SCHEMA = fields.Schema(
    name=fields.ID(stored=True, unique=True),
    id=fields.ID(stored=True, sortable=True),  # a column: `withheld` counts restricted memories by id
    state=fields.ID(stored=True),
    category=fields.ID(stored=True),
    created=fields.ID(stored=True),
    tie_break=fields.ID(sortable=True),  # core.reading.tie_break: ascending = approved first, then newest
    words=fields.KEYWORD(scorable=True),
    restricted_words=fields.KEYWORD(scorable=True),
    rejected_words=fields.KEYWORD(scorable=True),
    text=fields.STORED,
    evidence=fields.STORED,
    proposed_by=fields.STORED,
    problems=fields.STORED,
    replaces=fields.ID(stored=True),  # the memory a correction replaces: `by_replaces` finds its corrections
    replaced_by=fields.STORED,
    similar=fields.STORED,
    about=fields.STORED,  # the names of others a memory is about; their words are in its words
    said=fields.STORED,
    until=fields.STORED,
    pending=fields.STORED,  # quotes the owner has not seen (never searched): `personakit review` lists them
    mtime_ns=fields.STORED,
    size=fields.STORED,
    change=fields.STORED,  # [ctime_ns, inode, digest]: what else says the file changed (store.files.FileStat)
    # Never written: names the version of the word rules, so that open() rebuilds an index whose words
    # were counted by other rules (open() compares the schema's field names). Bump it when they change.
    words_rules_8=fields.STORED,
)
WORDS_FIELD = {"restricted": "restricted_words", "rejected": "rejected_words"}  # others: "words"
ALL_WORDS_FIELDS = ("words", *WORDS_FIELD.values())
READ_FIELDS = ("words", "restricted_words")  # the fields of the words a read looks up
WARM_SHARE = 0.01  # words more than this share of the memories have are read ahead after start
PLAIN_SEGMENT_FROM = 1000  # memories in one update from which the segment is written as plain files
SETTLED_NS = 2_000_000_000  # a folder time older than this, no later change shares (FAT's tick: 2 s)


def indexed_words(text: str, quotes: Iterable[str], about: Iterable[str] = ()) -> str:
    """A memory's `words` field: its text's words TEXT_WEIGHT times, then the words only its quotes have.
    The names of others it is about count as words of its text."""
    own, quoted = memory_words(text, quotes, about)
    return " ".join(own * TEXT_WEIGHT + quoted)


class Hit:
    __slots__ = ("files", "fine", "memory", "score", "shared", "stat")

    def __init__(self, doc: dict[str, Any], score: float = 0.0) -> None:
        self.memory = segments.memory_of(doc)
        self.stat = segments.stat_of(doc)
        self.score = score
        self.shared = int(score + 1e-9)
        self.fine = max(0.0, score - self.shared)
        self.files: int | None = None  # documents with its id, when the search counted them (see copies)


def stored_memories(folder: Path) -> Iterator[Memory]:
    """Every memory of the index in folder, in its order, read only (a helper process's: nothing written)."""
    with Folder(str(folder)).open_index().searcher() as s:
        yield from (segments.memory_of(doc) for doc in s.all_stored_fields())


class MemoryIndex:
    def __init__(self, folder: Path | None, holding: Callable[[], int | None] = lambda: None) -> None:
        self.folder = folder  # None: kept in memory, for a vault that cannot be written
        self._holding = holding  # the calling thread's hold of the vault lock, numbered (see `_latest`)
        self._latest_in: int | None = None  # the hold in which the searcher was found latest
        self._lock = RLock()  # one searcher per process, shared by the server's worker threads
        self._ix: Any = None
        self._open: tuple[Any, Callable[[str], bool]] | None = None  # a first index's writer, between parts
        self.lost = False  # that writer failed or was closed: its parts are not in the index
        self._searcher: Searcher | None = None
        self._seen: int | None = None  # the folder's time when the searcher was last found latest
        self._newest: tuple[Searcher | None, tuple[str, int], list[Hit]] = (None, ("", 0), [])
        self._kept = Kept()  # what the searcher's reads worked out, for the next ones
        self._ranker = Ranker(self._kept, folder)

    def open(self) -> bool:
        """Open the index, creating (or, when it cannot be opened, recreating) it. True when it is new."""
        with self._lock:
            self.close()
            if self.folder is None:
                self._ix = RamStorage().create_index(SCHEMA)
                return True
            try:
                if index.exists_in(str(self.folder)):  # type: ignore[attr-defined]
                    ix = Folder(str(self.folder)).open_index()
                    if set(ix.schema.names()) == set(SCHEMA.names()):
                        self._ix = ix
                        return False
                    log.info("the index was made by another version; rebuilding it")
            except Exception as error:  # any damage: the index is only a cache
                log.warning("the index could not be opened (%s); rebuilding it", error)
            self.open_fresh()
            return True

    def open_fresh(self) -> None:
        """Throw the index away and start an empty one (the caller then fills it from the files)."""
        with self._lock:
            self.close()
            if self.folder is None:
                self._ix = RamStorage().create_index(SCHEMA)
                return
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder.mkdir(parents=True, exist_ok=True)
            self._ix = Folder(str(self.folder)).create_index(SCHEMA)

    def close(self) -> None:
        with self._lock:
            if self._open is not None:  # a first index that stopped between its parts
                self._open[0].cancel()
                self._open, self.lost = None, True
            if self._searcher is not None:
                self._searcher.close()
            self._searcher, self._latest_in = None, None
            self._ix = None

    def __del__(self) -> None:
        """Its files closed when it goes (read, not mapped: see Folder), also by a command not closing it."""
        if self._searcher is not None:
            self._searcher.close()

    def _fresh_searcher(self) -> Searcher:
        if self._searcher is not None and not self._latest():
            old, self._searcher = self._searcher, None
            try:  # old's readers of the segments left as they were are kept
                self._searcher, self._seen = reopened(self._ix, old), None
            except OSError:  # a segment another process merged away meanwhile: Whoosh's opening retries
                log.debug("the index changed while its searcher was opened again", exc_info=True)
        if self._searcher is None:
            self._searcher, self._seen = self._ix.searcher(), None
        return self._searcher

    def _latest(self) -> bool:
        """Is the searcher of the latest generation? Whoosh lists the folder (16 us; up to four times a read).
        Each generation adds a file there, so an unchanged folder time holds no newer one (2 us): unless
        that time is recent, as file times move in ticks (a few ms on ext4 and APFS, 1-2 s on others).
        Found so during a hold of the vault lock, it stays so for that hold until this process writes:
        every writer of the index, in any process, holds that lock (a proposal looks 6-8 times)."""
        hold = self._holding()
        if hold is not None and hold == self._latest_in:
            return True
        try:
            changed = os.stat(self.folder).st_mtime_ns if self.folder is not None else None
        except OSError:
            changed = None
        if changed is not None and changed == self._seen and time.time_ns() - changed > SETTLED_NS:
            return True
        latest = bool(self._searcher.up_to_date())  # type: ignore[union-attr]
        self._seen = changed if latest else None
        self._latest_in = hold if latest else None
        return latest

    # -- writing (callers hold the vault lock) --------------------------------------------------------
    def update(
        self, upserts: Iterable[tuple[Memory, FileStat]], deletes: Iterable[str] = (), more: bool = False
    ) -> None:
        """Index upserts, drop deletes. more: a part of a first index, whose writer stays open for the next:
        the last part commits one segment (a read looks each word up once per segment: at 100k memories,
        ten segments made reads twice as long as one)."""
        with self._lock:
            if not (upserts := list(upserts)) and not deletes and not more and self._open is None:
                return
            if fresh := self._open is None:  # up to date: nothing else writes it meanwhile (the vault lock)
                indexed, compound = self._fresh_searcher(), len(upserts) < PLAIN_SEGMENT_FROM and not more
                # What says if a file is indexed already (replaced, not added): a new one spares
                # update_document() a reader of its own.
                self._open = segments.writer(self._ix, compound), indexed_names(indexed, few=compound)
            (writer, held), self._open = self._open, None
            try:
                for name in deletes:
                    writer.delete_by_term("name", name)
                for memory, stat in upserts:
                    field = WORDS_FIELD.get(memory.state, "words")
                    doc = dict(
                        name=memory.name, id=memory.id, state=memory.state, category=memory.category,
                        created=memory.created, tie_break=tie_break(memory.state, memory.created), text=memory.text, evidence=list(memory.evidence),
                        proposed_by=memory.proposed_by, problems=list(memory.problems), replaces=memory.replaces,
                        replaced_by=memory.replaced_by, similar=list(memory.similar), about=list(memory.about),
                        said=memory.said, until=memory.until, pending=list(memory.pending),
                        mtime_ns=stat.mtime_ns, size=stat.size, change=[stat.ctime_ns, stat.inode, stat.digest],
                        **{field: indexed_words(memory.text, memory.evidence, memory.about)},
                    )  # fmt: skip
                    writer.update_document(**doc) if held(memory.name) else add_document(writer, doc)
            except BaseException:
                writer.cancel()
                self.lost = self.lost or not fresh  # its earlier parts too: `Vault.indexed` sees it
                raise
            if more:
                self._open = writer, held
            else:
                self._latest_in = None  # a new generation: looked for again (also after parts read meanwhile)
                writer.compound = writer.docnum < PLAIN_SEGMENT_FROM  # parts of few memories: compound too
                writer.commit()

    def adopt(self, part: Path) -> int:
        """Take in, in one commit, the segments of another index on the same schema (one a helper process
        built): their files move into this index's folder. Returns how many memories they hold."""
        with self._lock:
            other = index.open_dir(str(part))  # type: ignore[attr-defined]
            with other.reader() as reader:
                taken = list(reader.segments())
            other.close()
            assert self.folder is not None
            for path in part.iterdir():
                if path.name.startswith(f"{other.indexname}_"):  # segment files; not the TOC or locks
                    path.replace(self.folder / path.name)
            self._latest_in = None
            segments.writer(self._ix, compound=True).commit(mergetype=lambda _, existing: [*existing, *taken])
            return sum(segment.doc_count() for segment in taken)

    # -- reading --------------------------------------------------------------------------------------
    def stats(self, names: Iterable[str] | None = None) -> dict[str, FileStat]:
        """The stat each file (all, or the named ones) was indexed at; all: on a searcher of its own."""
        if names is None:  # every document (the check at start: 0.3 s at 10k memories): reads must not wait
            return {d["name"]: segments.stat_of(d) for d in self._stored()}
        with self._lock:
            s = self._fresh_searcher()
            return {d["name"]: segments.stat_of(d) for d in filter(None, (s.document(name=n) for n in names))}

    def _stored(self) -> Iterator[dict[str, Any]]:
        """Every document's stored fields, read on a searcher of its own, pausing for reads (`breathing`)."""
        with self._lock:
            own = self._ix.searcher()
        with own:  # the lock is not held while the caller goes through them
            yield from breathing(own.all_stored_fields())

    def by_id(self, memory_id: str) -> list[Hit]:
        """Every file indexed with this id: one, or several copies of one memory."""
        with self._lock:
            return [Hit(d) for d in self._fresh_searcher().documents(id=memory_id)]

    def sharing(self, groups: list[list[str]], missing: int, limit: int, walked: int = 3) -> list[Hit]:
        """At most `limit` memories, in any state, whose text has a term of every group but `missing` (most
        first, ties in no particular order): candidates for the owner's near-duplicate marks. Give the rarest
        groups first: the first `walked` groups' postings are read whole, the others looked up for those
        still in the running; none is kept (`postings.lookup.in_text`). Stored fields are read only for the best."""
        with self._lock:
            s = self._fresh_searcher()
            counts: dict[int, int] = {}
            for number, group in enumerate(groups):
                among = None if number < walked else sorted(counts)
                for doc in in_text(s.reader(), ALL_WORDS_FIELDS, group, among, TEXT_WEIGHT):
                    counts[doc] = counts.get(doc, 0) + 1
                if number + 1 >= min(walked, len(groups)):  # drop those already missing too many groups
                    counts = {doc: n for doc, n in counts.items() if n >= number + 1 - missing}
            best = heapq.nlargest(limit, counts.items(), key=lambda item: item[1])
            return [Hit(stored(s, doc)) for doc, _ in best]

    def having(self, term: str) -> int:
        """How many memories a read may return have term (deleted ones too, as Whoosh counts)."""
        with self._lock:
            return int(self._fresh_searcher().reader().doc_frequency("words", term))

    def by_replaces(self, memory_id: str) -> list[Hit]:
        """The memories proposed as corrections of memory_id (their `replaces`), in any state."""
        with self._lock:
            return [Hit(d) for d in self._fresh_searcher().documents(replaces=memory_id)]

    def copies(self, memory_ids: Iterable[str]) -> dict[str, list[Hit]]:
        """For each id that more than one file has, those files' hits."""
        with self._lock:
            s = self._fresh_searcher()
            found = {}
            for memory_id in memory_ids:
                if self._kept.files(s, memory_id) > 1:
                    hits = [Hit(d) for d in s.documents(id=memory_id)]
                    if len(hits) > 1:
                        found[memory_id] = hits
            return found

    def _counted(self, s: Searcher, hit: Hit) -> Hit:
        hit.files = self._kept.files(s, hit.memory.id)
        return hit

    def by_id_prefix(self, prefix: str, most: int = 50) -> list[Hit]:
        with self._lock:
            results = self._fresh_searcher().search(query.Prefix("id", prefix), limit=most)
            return [Hit(hit.fields()) for hit in results]

    def count(self, state: str | None = None) -> int:
        """How many memories are indexed (in state, when given)."""
        with self._lock:
            s = self._fresh_searcher()
            return int(s.doc_count()) if state is None else len(s.search(query.Term("state", state), limit=1))

    def all(self, pause: bool = False) -> Iterator[Hit]:  # pause: read as used, outside the lock (_stored)
        with self._lock:
            docs = self._stored() if pause else list(self._fresh_searcher().all_stored_fields())
        return (Hit(d) for d in docs)

    def search(
        self, terms: Sequence[str | Sequence[str]], limit: int | None, fields: tuple[str, ...] = ("words",),
        near: Sequence[str] = (),
    ) -> list[Hit]:  # fmt: skip
        """The `limit` memories (None: all) sharing most of terms, in the contract's order. A term may be a
        class of words that count as one (`core.meaning`); `near` words only order memories sharing as many.
        By default only the ones a read may return; `fields=ALL_WORDS_FIELDS` for every state (the owner's
        search). See `store.ranking` for how the best are found without scoring every memory."""
        classes = [[t] if isinstance(t, str) else list(t) for t in terms]
        with self._lock:
            s = self._fresh_searcher()
            chosen = self._ranker.choose(s, self._ranker.words(s, classes, fields, list(near)), limit)
            hits = [self._counted(s, Hit(stored(s, doc), score)) for doc, score in chosen]
        return sorted(hits, key=lambda h: (-h.score, tie_break(h.memory.state, h.memory.created)))

    def fill(
        self, classes: Sequence[Sequence[str]], near: Sequence[str], categories: Sequence[str], need: int
    ) -> list[Hit]:
        """Up to `need` approved memories sharing none of the question's words, closest first: those
        sharing most near words (`store.ranking.Ranker.fill`), then those of the question's categories,
        newest first. The caller fills from the newest approved memories after these."""
        with self._lock:
            s = self._fresh_searcher()
            docs = self._ranker.fill(s, [list(c) for c in classes], list(near), list(categories), need)
            return [self._counted(s, Hit(stored(s, doc))) for doc in docs]

    def count_restricted(self, terms: list[str], also: Iterable[str] = ()) -> int:
        """How many restricted memories share at least one of terms, counting too the memories with an id
        in `also` (restricted on disk since they were indexed). Two files with one id are one memory."""
        with self._lock:
            return self._ranker.withheld(self._fresh_searcher(), terms, set(also))

    def warm(self, quiet: Callable[[], None], share: float = WARM_SHARE) -> int:
        """Read ahead, each step once `quiet` returns (after a server's start), the postings of the words over
        `share` of the memories have, in every field a read looks at, and the ids `withheld` looks up."""
        quiet()
        with self._lock:
            if self._ix is None:
                return 0
            s = self._fresh_searcher()
            self._ranker.postings.values(s, "id", Ids)
            least, own = max(2, int(s.reader().doc_count_all() * share)), self._ix.searcher()
            known = self._ranker.postings.written_words(s)  # None: not written yet beside every big segment
        terms: Terms = {}  # each segment's words, for what it lacks
        with own:  # finding the common words walks every term: outside the lock
            common = known or [(f, w) for f in READ_FIELDS for w in frequent(own.reader(), f, least, terms)]
        for field, word in common:
            quiet()
            with self._lock:  # one word at a time: reads and writes go between them
                if self._ix is None:
                    return 0
                self._ranker.postings.word(self._fresh_searcher(), field, word)
        with self._lock:  # written beside the big segments, for processes opening it later
            if self._ix is not None:
                self._ranker.postings.write(self._fresh_searcher(), common, terms)
        return len(common)

    def newest(self, state: str, limit: int) -> list[Hit]:
        """The newest memories in state. Cached until the index changes: reads ask this often."""
        with self._lock:
            s = self._fresh_searcher()
            if self._newest[0] is not s or self._newest[1] != (state, limit):
                if state == "approved":  # first in tie_break order: read from each segment's kept order
                    hits = [Hit(stored(s, doc)) for doc in self._ranker.first_approved(s, limit)]
                else:  # Whoosh sorts every memory of the state by the column: after each change, at 100k
                    results = s.search(query.Term("state", state), limit=limit, sortedby="tie_break")
                    hits = [Hit(hit.fields()) for hit in results]
                self._newest = (s, (state, limit), [self._counted(s, hit) for hit in hits])
            return list(self._newest[2])
