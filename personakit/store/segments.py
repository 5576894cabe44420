"""The index's files as Whoosh reads and writes them: its folder, its codec, its writers, a document's
stored fields, and adding a memory without Whoosh's analyzers. With `store.index` and
`store.postings.lookup` (a word's postings in a segment), the only modules that import Whoosh (the
index's queries are there). Files are read, never mapped, and a look-up (a term in a segment's hash
table, a stored document) is one `pread`; a writer of a few memories keeps its scratch space in memory;
the codec writes no statistics reads never use."""

from __future__ import annotations

import glob
import os
import re
import shutil
from collections import Counter
from collections.abc import Callable
from typing import Any

from whoosh.codec.whoosh3 import (  # type: ignore[attr-defined]
    W3Codec,
    W3PerDocReader,
)
from whoosh.filedb.compound import SubFile  # type: ignore[attr-defined]
from whoosh.filedb.filestore import FileStorage, RamStorage  # type: ignore[attr-defined]
from whoosh.filedb.structfile import StructFile  # type: ignore[attr-defined]
from whoosh.formats import Existence  # type: ignore[attr-defined]
from whoosh.reading import (  # type: ignore[attr-defined]
    MultiReader,
    SegmentReader,
)
from whoosh.searching import Searcher  # type: ignore[attr-defined]

from personakit.core.memory import Memory
from personakit.store.files import FileStat
from personakit.store.pool import Pool

POOL_MB = 16  # Whoosh's estimate of the postings a writer holds before it sorts them out to disk
_SPACED = re.compile(r"[^ \t\r\n]+")  # a KEYWORD field's words: whoosh.analysis.SpaceSeparatedTokenizer's


class LeanCodec(W3Codec):  # type: ignore[misc]
    """Whoosh's codec without per-block length statistics: they only serve Whoosh's own scoring, which
    reads do not use, and writing them reads each posting's field length back from disk (a third of a
    first index's Whoosh time). Segments name their codec, so this class must keep its name and module."""

    __module__ = "personakit.store.index"  # the name segments were written with before it moved here
    length_stats = False

    def per_document_reader(self, storage: Any, segment: Any) -> Any:
        return PerDocument(storage, segment)


class PerDocument(W3PerDocReader):  # type: ignore[misc]
    """Whoosh's per-document reader, knowing after one look that a field has no lengths column: Whoosh
    looks again (a `stat`) for each document and field a merge copies, a third of merging a small segment."""

    def has_column(self, fieldname: str) -> bool:
        """Whoosh looks for a column in a compound segment's own file, then on disk beside it: a `stat` for
        each field of each segment a merge copies. A segment never gains a file once written (a column is
        written with it, or never), so its own files are where to look."""
        files: Any = getattr(self._storage, "a", self._storage)  # OverlayStorage's first: the segment's file
        return bool(files.file_exists(W3Codec.column_filename(self._segment, fieldname)))

    def _cached_reader(self, fieldname: str, column: Any) -> Any:
        if fieldname not in self._readers:
            self._readers[fieldname] = super()._cached_reader(fieldname, column)
        return self._readers[fieldname]


class Folder(FileStorage):  # type: ignore[misc]
    """The index's folder. whoosh-ng makes a scratch folder for each writer and removes it at the commit
    (2-4 ms a proposal on a disk that discards freed blocks at once); a writer of a few memories never
    spills to it, so its scratch space is kept in memory (`small`). A big batch's may spill: on disk.
    Files are read, never mapped: a mapped segment cut short on disk (damage, a careless owner) kills the
    process with SIGBUS at the next read, where a read of the file raises and the index is repaired."""

    small = False

    def __init__(self, path: str) -> None:
        super().__init__(path, supports_mmap=False)
        self._parts = RamStorage()  # a small writer's segment files, until they are one compound file

    def temp_storage(self, name: str | None = None) -> Any:
        return RamStorage() if self.small else super().temp_storage(name)

    def _part(self, name: str) -> bool:
        """A file of the segment a small writer makes: kept in memory, then copied into its compound file
        (`.seg`) and deleted, as Whoosh does on disk (a dozen files made, read back and removed: 2 ms)."""
        return self.small and not name.endswith(".seg") and ".toc" not in name

    def create_file(self, name: str, **kwargs: Any) -> Any:
        return self._parts.create_file(name) if self._part(name) else super().create_file(name, **kwargs)

    def open_file(self, name: str, **kwargs: Any) -> Any:
        if self._parts.file_exists(name):
            return self._parts.open_file(name, **kwargs)
        return Pread(open(self._fpath(name), "rb"), name=name, **kwargs)

    def list(self) -> list[str]:
        return [*super().list(), *self._parts.list()]

    def file_exists(self, name: str) -> bool:
        return bool(self._parts.file_exists(name) or super().file_exists(name))

    def _holding(self, name: str) -> Any:
        """Where the file is: among a small writer's parts, else on disk."""
        return self._parts if self._parts.file_exists(name) else super()

    def file_length(self, name: str) -> int:
        return int(self._holding(name).file_length(name))

    def file_modified(self, name: str) -> float:
        return float(self._holding(name).file_modified(name))

    def delete_file(self, name: str) -> None:
        self._holding(name).delete_file(name)


class Pread(StructFile):  # type: ignore[misc]
    """A segment file whose look-ups (`get`: a term, a stored document) are one `pread` each, where
    StructFile seeks and reads through Python's buffer (17 -> 11 us a term at 10k). Cut short, it raises."""

    def __init__(self, fileobj: Any, name: str | None = None, onclose: Any = None) -> None:
        super().__init__(fileobj, name=name, onclose=onclose)
        self._fd: int = fileobj.fileno() if self.is_real else -1
        self._base = 0

    def get(self, position: int, length: int) -> bytes:
        return os.pread(self._fd, length, self._base + position)

    def subset(self, offset: int, length: int, name: str | None = None) -> Pread:  # a compound file's part
        part = Pread(SubFile(self.file, offset, length), name=name)  # reads in order go through SubFile
        part._fd, part._base = self._fd, self._base + offset
        return part


def writer(ix: Any, compound: bool) -> Any:
    """A writer of one segment. A big batch's is plain files: whoosh-ng copies a compound segment's terms
    table into memory for every reader (38 MB at 100k, after each change). A small one's is compound:
    whoosh-ng takes a plain one with no postings for damage."""
    ix.storage.small = compound  # the scratch space of the writer made now (see Folder)
    folder = None if compound else getattr(ix.storage, "folder", None)  # None: an index kept in memory
    for left in glob.glob(os.path.join(glob.escape(folder), "*.tmp")) if folder else []:
        shutil.rmtree(left, ignore_errors=True)  # a killed writer's: none runs now (the vault lock)
    writer = ix.writer(timeout=30.0, delay=0.005, compound=compound, codec=LeanCodec(), limitmb=POOL_MB)
    boosts = {name: field.format.field_boost for name, field in ix.schema.items() if field.indexed}
    writer.pool = Pool(writer.pool, boosts)  # `add_document`'s postings, per term (see store.pool)
    return writer


def reopened(ix: Any, old: Any) -> Any:
    """A searcher of the index's latest generation that keeps `old`'s reader of each segment left as it was
    (its deletions too) and closes the others. Opening a segment's reader reads its tables (about 1 ms),
    and a commit of a few memories leaves the big segments alone. Not Whoosh's Searcher.refresh(): in
    whoosh-ng 5.4 it keeps a merged segment's reader beside the new one's (replaced documents seen)."""
    info = ix._read_toc()
    leaves = [leaf for leaf, _ in old.reader().leaf_readers() if isinstance(leaf, SegmentReader)]
    kept = {leaf.segment().segment_id(): leaf for leaf in leaves}
    readers: list[Any] = []
    try:
        for segment in info.segments:
            leaf = kept.get(segment.segment_id())
            if leaf is not None and _deleted(leaf.segment()) == _deleted(segment):
                del kept[segment.segment_id()]
                leaf._gen = info.generation  # a lone reader is the searcher's: its generation is checked
            else:
                segment.validate(ix.storage)
                leaf = SegmentReader(ix.storage, info.schema, segment, generation=info.generation)
            readers.append(leaf)
    except BaseException:
        for leaf in [*readers, *kept.values()]:
            leaf.close()
        raise
    for leaf in kept.values():
        leaf.close()
    if not readers:
        return ix.searcher()  # an index with no segment: Whoosh's empty reader
    reader = readers[0] if len(readers) == 1 else MultiReader(readers, generation=info.generation)
    return Searcher(reader, fromindex=ix)


def stored(searcher: Any, doc: int) -> dict[str, Any]:
    """A document's stored fields, as `searcher.stored_fields(doc)` gives them without checking each name
    against the schema (an index with other fields is rebuilt when opened): a third of reading them."""
    reader = searcher.reader()
    if isinstance(reader, MultiReader):
        number, doc = reader._segment_and_docnum(doc)
        reader = reader.readers[number]
    return reader._perdoc.stored_fields(doc)  # type: ignore[no-any-return]


def memory_of(doc: dict[str, Any]) -> Memory:
    """The memory a document's stored fields hold."""
    return Memory(
        id=doc["id"], text=doc["text"], category=doc["category"], state=doc["state"],
        evidence=tuple(doc["evidence"]), proposed_by=doc["proposed_by"], created=doc["created"],
        name=doc["name"], problems=tuple(doc.get("problems") or ()), replaces=doc.get("replaces") or "",
        replaced_by=doc.get("replaced_by") or "", similar=tuple(doc.get("similar") or ()),
        about=tuple(doc.get("about") or ()), said=doc.get("said") or "", until=doc.get("until") or "",
        pending=tuple(doc.get("pending") or ()),
    )  # fmt: skip


def stat_of(doc: dict[str, Any]) -> FileStat:
    """The stat its file was indexed at."""
    return FileStat(doc["mtime_ns"], doc["size"], *doc["change"])


def _deleted(segment: Any) -> set[int]:
    return set(segment.deleted_docs()) if segment.has_deletions() else set()


def add_document(writer: Any, doc: dict[str, Any]) -> None:
    """`writer.add_document(**doc)`, writing the same postings, stored fields, columns and lengths
    (`tests/store/test_index.py` compares them) in half the time: an ID field's one term is its value and
    a words field's terms are its words counted, split where `KEYWORD`'s tokenizer splits them, where
    Whoosh makes a token object for each word and each ID (a third of a first index's time)."""
    docnum, post, perdoc = writer.docnum, writer.pool.post, writer.perdocwriter
    perdoc.start_doc(docnum)
    for name in sorted(doc):  # Whoosh's order: the stored fields are the same dict
        value, field, length = doc[name], writer.schema[name], 0
        if field.indexed and isinstance(field.format, Existence):  # ID
            post(name, value.encode("utf-8"), docnum << 32)
        elif field.indexed:  # KEYWORD, scorable: Frequency
            for word, count in Counter(_SPACED.findall(value)).items():
                post(name, word.encode("utf-8"), docnum << 32 | count)
                length += count
        perdoc.add_field(name, field, value if field.stored else None, length)
        if field.column_type is not None:
            perdoc.add_column_value(name, field.column_type, field.to_column_value(value))
    perdoc.finish_doc()
    writer._added, writer.docnum = True, docnum + 1


def indexed_names(searcher: Any, few: bool) -> Callable[[str], bool]:
    """Whether a file is indexed: looked up for a few; for a big batch, the names in every segment's terms
    read once (deleted ones too: replaced for nothing), as a look-up costs 20-40 us at 100k memories."""
    if searcher.doc_count_all() == 0:  # a first index: none is
        return lambda _: False
    if few:
        return lambda name: searcher.document_number(name=name) is not None
    leaves = [leaf for leaf, _ in searcher.reader().leaf_readers()]
    return {term.decode("utf-8") for leaf in leaves for term in leaf.lexicon("name")}.__contains__
