"""The sets of a big segment's common words, written beside the segment's files for the processes that
open the index later (`Written`)."""

from __future__ import annotations

import os
import struct
import threading
import zlib
from pathlib import Path

WRITTEN = "{}.pkwords"  # a segment's common words' sets, beside its files: Whoosh removes it with them
_HEAD = struct.Struct("!4sII")  # b"PKW1", the segment's documents, the length of the entries that follow
# An entry: the field's and the word's lengths (UTF-8), having, the offset, docs' and text's lengths, CRC-32.
_ENTRY = struct.Struct("!HHIQIII")
_SAME = 0xFFFFFFFF  # a text length saying: the same set as docs

# In one segment: how many documents have the word (deleted ones too); the live ones; those having it in their text.
Sets = tuple[int, int, int]


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
