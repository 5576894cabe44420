"""The index's files as Whoosh reads and writes them: its folder, its codec, and look-ups in a segment.
With `store.index`, the only modules that import Whoosh (the index's queries are there).

Files are read, never mapped, and a look-up (a term in a segment's hash table, a stored document) is one
`pread`; a writer of a few memories keeps its scratch space in memory; the codec writes no statistics
reads never use.
"""

from __future__ import annotations

import os
from typing import Any

from whoosh.codec.whoosh3 import W3Codec  # type: ignore[attr-defined]
from whoosh.filedb.compound import SubFile  # type: ignore[attr-defined]
from whoosh.filedb.filestore import FileStorage, RamStorage  # type: ignore[attr-defined]
from whoosh.filedb.structfile import StructFile  # type: ignore[attr-defined]


class LeanCodec(W3Codec):  # type: ignore[misc]
    """Whoosh's codec without per-block length statistics: they only serve Whoosh's own scoring, which
    reads do not use, and writing them reads each posting's field length back from disk (a third of a
    first index's Whoosh time). Segments name their codec, so this class must keep its name and module."""

    __module__ = "personakit.store.index"  # the name segments were written with before it moved here
    length_stats = False


class Folder(FileStorage):  # type: ignore[misc]
    """The index's folder. whoosh-ng makes a scratch folder for each writer and removes it at the commit
    (2-4 ms a proposal on a disk that discards freed blocks at once); a writer of a few memories never
    spills to it, so its scratch space is kept in memory (`small`). A big batch's may spill: on disk.
    Files are read, never mapped: a mapped segment cut short on disk (damage, a careless owner) kills the
    process with SIGBUS at the next read, where a read of the file raises and the index is repaired."""

    small = False

    def __init__(self, path: str) -> None:
        super().__init__(path, supports_mmap=False)

    def temp_storage(self, name: str | None = None) -> Any:
        return RamStorage() if self.small else super().temp_storage(name)

    def open_file(self, name: str, **kwargs: Any) -> Any:
        return Pread(open(self._fpath(name), "rb"), name=name, **kwargs)


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
