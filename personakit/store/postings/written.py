"""What is written beside a big segment's files for the processes that open the index later (`Written`):
the sets of its common words, and the words it has at all."""

from __future__ import annotations

import os
import struct
import sys
import threading
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Mapping
from pathlib import Path
from typing import TypeAlias

WRITTEN = "{}.pkwords"  # a segment's common words' sets, beside its files: Whoosh removes it with them
_HEAD = struct.Struct("!4sII")  # b"PKW1", the segment's documents, the length of the entries that follow
# An entry: the field's and the word's lengths (UTF-8), having, the offset, docs' and text's lengths, CRC-32.
_ENTRY = struct.Struct("!HHIQIII")
_SAME = 0xFFFFFFFF  # a text length saying: the same set as docs
TERMS = "{}.pkterms"  # the words a segment has in some fields, as hashes: which words it lacks
# b"PKT1", the segment's documents, how many fields, the CRC-32 of what follows; then per field the
# length of its name (UTF-8) and how many hashes; then the names; then each field's hashes, sorted.
_TERMS_HEAD = struct.Struct("!4sIHI")
_FIELD = struct.Struct("!HI")

# Each segment's words in some fields, as their sorted hashes (`term_hash`), by (segment id, field).
Terms: TypeAlias = "dict[tuple[str, str], array[int]]"  # (array is subscripted from Python 3.12)
# In one segment: how many documents have the word (deleted ones too); the live ones; those having it in their text.
Sets = tuple[int, int, int]


class Written:
    """The sets of a segment's common words, written beside it (`Postings.write`: `personakit reindex`, and a
    server's read-ahead in quiet moments) and read by any later process. A host that reads at once after a
    start finds a common word's thousands of postings in one `pread` (at 100k memories, about 20 us for a
    word Whoosh's blocks take 10 ms to give), where each read would decode them the first time. A segment
    never changes, so its file never goes stale; documents deleted later are taken out by the reads, as
    from sets kept in memory. A file that does not check out (cut short, another size) is not used.

    Beside it, the segment's words themselves (`put_terms`, `lacks`): a word it lacks is then answered
    without a look-up, as most of a question's words are in no memory."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder  # None: an index in memory, nothing written
        self._entries: dict[str, dict[tuple[str, str], tuple[int, ...]]] = {}  # segment -> its words' places
        self._terms: dict[str, dict[str, array[int]]] = {}  # segment -> field -> its words' hashes

    def _path(self, segment: str, kind: str = WRITTEN) -> Path:
        assert self.folder is not None
        return self.folder / kind.format(segment)

    def has(self, segment: str, kind: str = WRITTEN) -> bool:
        return self.folder is None or self._path(segment, kind).exists()

    def keep(self, segments: set[str | None]) -> None:
        self._entries = {segment: found for segment, found in self._entries.items() if segment in segments}
        self._terms = {segment: found for segment, found in self._terms.items() if segment in segments}

    def lacks(self, segment: str, size: int, field: str, word: str) -> bool:
        """Whether the segment surely has no such word in field, as its terms file says: most of a
        question's words are in no memory, and this spares a look-up in Whoosh's terms table (7 us a
        segment). False when not known (no file, or not of this field): a word it has is never lacking,
        and two words of one hash only cost that look-up."""
        if self.folder is None:
            return False
        fields = self._terms.get(segment)
        if fields is None:
            fields = self._terms[segment] = self._load_terms(segment, size)
        hashes = fields.get(field)
        if hashes is None:
            return False
        key = term_hash(word.encode("utf-8", "surrogatepass"))
        at = bisect_left(hashes, key)
        return at == len(hashes) or hashes[at] != key

    def _load_terms(self, segment: str, size: int) -> dict[str, array[int]]:
        """The hashes of the segment's words, by field: none when its file is not there, not this
        segment's, or damaged (a file that says a word is lacking when it is not would hide memories)."""
        try:
            data = self._path(segment, TERMS).read_bytes()
            magic, documents, count, crc = _TERMS_HEAD.unpack_from(data)
            if magic != b"PKT1" or documents != size or zlib.crc32(data[_TERMS_HEAD.size :]) != crc:
                return {}
            heads = [_FIELD.unpack_from(data, _TERMS_HEAD.size + n * _FIELD.size) for n in range(count)]
            at, found = _TERMS_HEAD.size + count * _FIELD.size, {}
            names = []
            for length, _ in heads:
                names.append(data[at : at + length].decode("utf-8"))
                at += length
            for name, (_, hashes) in zip(names, heads, strict=True):
                found[name] = _little(array("I", data[at : at + 4 * hashes]))
                at += 4 * hashes
            return found if at == len(data) else {}
        except (OSError, struct.error, UnicodeDecodeError, ValueError):
            return {}

    def put_terms(self, segment: str, size: int, terms: Mapping[str, array[int]]) -> bool:
        """Write the file of the segment's words (each field's sorted hashes), whole or not at all."""
        if self.folder is None:
            return False
        names = [field.encode("utf-8") for field in terms]
        heads = b"".join(
            _FIELD.pack(len(name), len(hashes)) for name, hashes in zip(names, terms.values(), strict=True)
        )
        body = heads + b"".join(names) + b"".join(_little(array("I", h)).tobytes() for h in terms.values())
        return self._replace(
            segment, TERMS, _TERMS_HEAD.pack(b"PKT1", size, len(names), zlib.crc32(body)) + body
        )

    def _replace(self, segment: str, kind: str, data: bytes) -> bool:
        """Write one of the segment's files, whole or not at all (a temporary file, then renamed)."""
        # Whoosh's clean-up skips dot files: a temporary one is never taken for a segment's.
        temporary = self._path(f".{segment}.{os.getpid()}.{threading.get_ident()}", kind)
        try:
            temporary.write_bytes(data)
            os.replace(temporary, self._path(segment, kind))
        except OSError:
            temporary.unlink(missing_ok=True)
            return False
        self._entries.pop(segment, None)  # looked for before it was there: look again
        self._terms.pop(segment, None)
        return True

    def words(self, segment: str, size: int) -> list[tuple[str, str]]:
        """The words (field, word) whose sets the segment's file holds: none when it is not usable."""
        return [] if self.folder is None else list(self._places(segment, size))

    def _places(self, segment: str, size: int) -> dict[tuple[str, str], tuple[int, ...]]:
        entries = self._entries.get(segment)
        if entries is None:
            entries = self._entries[segment] = self._load(segment, size)
        return entries

    def get(self, segment: str, size: int, field: str, word: str) -> Sets | None:
        if self.folder is None:
            return None
        entries = self._places(segment, size)
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
        return self._replace(segment, WRITTEN, b"".join(table + blobs))


def _bytes(number: int) -> bytes:
    return number.to_bytes((number.bit_length() + 7) // 8, "little")


def term_hash(term: bytes) -> int:
    """A word's hash in a terms file (its UTF-8 bytes, as Whoosh keeps a term)."""
    return zlib.crc32(term)


def _little(hashes: array[int]) -> array[int]:
    """hashes as the file keeps them, little-endian (swapped in place on a big-endian machine)."""
    if sys.byteorder == "big":
        hashes.byteswap()
    return hashes
