"""A word's postings read in one look-up of the terms file, or a block at a time (`store.segments`), are
exactly those Whoosh's matcher gives one by one: every word of a real index, in big segments and small,
with deleted documents, and words no segment has."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from whoosh.reading import ReaderClosed  # type: ignore[attr-defined]

from personakit.core.memory import Memory
from personakit.core.overlap import bits
from personakit.store.files import FileStat
from personakit.store.index import ALL_WORDS_FIELDS, PLAIN_SEGMENT_FROM, MemoryIndex
from personakit.store.postings import SEGMENT_FROM, Postings, frequent
from personakit.store.postings.lookup import _blocks, frequency, term_info, word_sets
from personakit.store.ranking import TEXT_WEIGHT

WORDS = [
    "tea",
    "coffee",
    "garden",
    "rust",
    "python",
    "walk",
    "dinner",
    "sister",
    "book",
    "music",
    "café",
    "日本",
]


def _memory(i: int, rng: random.Random) -> Memory:
    text = " ".join(["common", *rng.sample(WORDS, 3), f"only{i}", f"few{i // 5}", "half" if i % 2 else "odd"])
    quote = " ".join(rng.sample(WORDS, 4) + (["quoted"] if i % 3 else []))
    state = ("approved", "unconfirmed", "restricted", "rejected")[i % 4]
    return Memory(
        id=f"m_{i:012x}", text=text, category="other", state=state, evidence=(quote,),  # type: ignore[arg-type]
        created="2026-01-01T00:00:00Z", name=f"memory-{i}.md",
    )  # fmt: skip


def _one_by_one(reader: Any, field: str, word: str) -> tuple[int, int, int]:
    """(Whoosh's count of the word's documents, deleted ones too; its documents; those with it in text)."""
    docs, text = [], []
    matcher = reader.postings(field, word)
    while matcher.is_active():
        docs.append(matcher.id())
        if matcher.weight() >= TEXT_WEIGHT:
            text.append(matcher.id())
        matcher.next()
    size = reader.doc_count_all()
    return reader.doc_frequency(field, word), bits(docs, size), bits(text, size)


def _index(folder: Path | None) -> MemoryIndex:
    rng = random.Random(4)
    index = MemoryIndex(folder)
    index.open()
    count = PLAIN_SEGMENT_FROM + 500
    index.update([(_memory(i, rng), FileStat(i, 1)) for i in range(count)])  # one big plain segment
    index.update([(_memory(i, rng), FileStat(i, 2)) for i in range(0, count, 7)])  # replaced: deleted there
    index.update([(_memory(i, rng), FileStat(i, 3)) for i in range(count, count + 20)])  # a small segment
    return index


def test_one_look_up_gives_what_the_matcher_gives_one_by_one(tmp_path: Path) -> None:
    index = _index(tmp_path / "index")
    checked = inlined = blocked = filtered = 0
    with index._ix.searcher() as s:
        reader = s.reader()
        for leaf, _ in reader.leaf_readers():
            for field in ALL_WORDS_FIELDS:
                for term in list(leaf.lexicon(field)):
                    word = term.decode("utf-8")
                    info = term_info(leaf, field, word)
                    blocks = None if info.is_inlined() else _blocks(leaf, info)
                    inlined += info.is_inlined()
                    blocked += blocks is not None and len(blocks) > 1
                    dead = leaf.deleted_docs_set if leaf.has_deletions() else frozenset()
                    filtered += blocks is not None and any(d in dead for ids, _ in blocks for d in ids)
                    sets = word_sets(leaf, field, word, TEXT_WEIGHT)
                    assert sets == _one_by_one(leaf, field, word), (field, word)
                    assert term_info(leaf, field, word).doc_frequency() == sets[0] > 0
                    checked += 1
            absent = [("words", "nowhere"), ("restricted_words", "only0x"), ("id", "m_x"), ("nofield", "tea")]
            for field, word in absent:  # in no segment: most of what a question brings
                assert term_info(leaf, field, word) is None
                assert word_sets(leaf, field, word, TEXT_WEIGHT) == (0, 0, 0)
        for field, word in [
            ("words", "common"),
            ("words", "日本"),
            ("id", "m_000000000007"),
            ("words", "few3"),
        ]:
            assert frequency(reader, field, word) == reader.doc_frequency(field, word) > 0, (field, word)
    assert checked > 1500 and inlined > 100 and blocked > 10 and filtered > 10  # each way, through the filter
    index.close()


def test_an_index_kept_in_memory_is_read_as_one_on_disk() -> None:
    """A vault that cannot be written keeps its index in memory (Whoosh's RamStorage): the same sets."""
    index = _index(None)
    blocked = 0
    with index._ix.searcher() as s:
        for leaf, _ in s.reader().leaf_readers():
            for term in list(leaf.lexicon("words")):
                word = term.decode("utf-8")
                info = term_info(leaf, "words", word)
                blocked += not info.is_inlined() and _blocks(leaf, info) is not None
                assert word_sets(leaf, "words", word, TEXT_WEIGHT) == _one_by_one(leaf, "words", word), word
    assert blocked > 10
    index.close()


def test_a_closed_segment_is_not_read(tmp_path: Path) -> None:
    index = _index(tmp_path / "index")
    s = index._ix.searcher()
    leaf = s.reader().leaf_readers()[0][0]
    s.close()
    with pytest.raises(ReaderClosed):
        term_info(leaf, "words", "common")
    index.close()


def test_postings_kept_otherwise_are_read_one_by_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another whoosh-ng, whose postings are not kept as read here: the same sets, from its matcher."""
    index = _index(tmp_path / "index")
    monkeypatch.setattr("personakit.store.postings.lookup._blocks", lambda leaf, info: None)
    with index._ix.searcher() as s:
        for leaf, _ in s.reader().leaf_readers():
            for word in [w for w in ("common", "half", "tea", "quoted") if leaf.doc_frequency("words", w)]:
                assert word_sets(leaf, "words", word, TEXT_WEIGHT) == _one_by_one(leaf, "words", word), word
    index.close()


@pytest.mark.parametrize("cut", [1, 7, 60, -4])
def test_postings_cut_short_raise_rather_than_answer_a_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cut: int
) -> None:
    """A postings file damaged under an open reader: the look-up raises (the index is then repaired),
    whether the cut falls in a block's length, its info, its postings or between two blocks."""
    index = _index(tmp_path / "index")
    with index._ix.searcher() as s:
        leaf = next(leaf for leaf, _ in s.reader().leaf_readers() if leaf.doc_count_all() > 1000)
        info = term_info(leaf, "words", "common")
        whole = _blocks(leaf, info)
        assert whole is not None and len(whole) > 3
        postings, read = leaf._terms._postfile, leaf._terms._postfile.get
        if cut < 0:  # at the end of a block that is not the last
            data = read(info._offset, info._length[0] if isinstance(info._length, tuple) else info._length)
            cut = len(data) - _block_start(data, len(whole) - 1)
        monkeypatch.setattr(postings, "get", lambda at, length: read(at, length)[: length - cut])
        with pytest.raises(Exception):  # noqa: B017 - which one depends on where the cut falls
            word_sets(leaf, "words", "common", TEXT_WEIGHT)
    index.close()


def _block_start(data: bytes, number: int) -> int:
    """Where a word's postings' block `number` starts (after the header)."""
    at = 4
    for _ in range(number):
        at += 4 + abs(int.from_bytes(data[at : at + 4], "big", signed=True))
    return at


def test_a_terms_file_cut_short_under_an_open_reader_raises(tmp_path: Path) -> None:
    """The index is repaired on any error (`vault.state.Vault.indexed`): a look-up must raise, not answer
    that a word is in no memory."""
    index = _index(tmp_path / "index")
    with index._ix.searcher() as s:
        leaf = max((leaf for leaf, _ in s.reader().leaf_readers()), key=lambda leaf: leaf.doc_count_all())
        assert term_info(leaf, "words", "common") is not None
        (terms,) = (tmp_path / "index").glob(f"*{leaf.segment().segment_id()}*.trm")
        with open(terms, "r+b") as cut:
            cut.truncate(100)  # the hash tables sit at the end, after every key and value
        with pytest.raises(EOFError, match="cut short"):
            term_info(leaf, "words", "common")
    index.close()


COMMON = [("words", w) for w in ("common", "half", "odd", "tea", "dinner", "日本")] + [
    ("restricted_words", "common")
]


def _whoosh(s: Any, field: str, word: str) -> tuple[int, int, int]:
    return Postings(TEXT_WEIGHT, "tie_break").word(s, field, word)  # no folder: Whoosh's postings only


def test_common_words_written_beside_a_segment_are_read_back_as_whoosh_gives_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "index"
    index = _index(folder)
    assert index.warm(lambda: None) >= len(COMMON)  # the read-ahead writes them
    (written,) = folder.glob("*.pkwords")  # the one big segment's; the small one is read each time anyway
    index.close()
    read: list[int] = []  # the size of each segment whose postings were read from Whoosh

    def counted(leaf: Any, *rest: Any) -> tuple[int, int, int]:
        read.append(leaf.doc_count_all())
        return word_sets(leaf, *rest)

    monkeypatch.setattr("personakit.store.postings.word_sets", counted)
    later = MemoryIndex(folder)  # another process, later
    later.open()
    with later._ix.searcher() as s:
        expected = [_whoosh(s, field, word) for field, word in COMMON]
        read.clear()
        assert [later._ranker.postings.word(s, field, word) for field, word in COMMON] == expected
    assert read and max(read) < SEGMENT_FROM  # from the file, not from the big segment's postings
    rng = random.Random(5)
    later.update([(_memory(i, rng), FileStat(i, 4)) for i in (3, 10, 11)])  # replaced: deleted in the big one
    with later._ix.searcher() as s:
        for field, word in COMMON:
            assert later._ranker.postings.word(s, field, word) == _whoosh(s, field, word), word
    later._ix.optimize()  # merged: the segment and its file go together (Whoosh's clean-up)
    assert not written.exists()
    later.close()


def _warmed(tmp_path: Path, pattern: str) -> tuple[Path, Path]:
    """The index folder after a read-ahead (as `reindex` runs it), and the one file of pattern it wrote."""
    folder = tmp_path / "index"
    index = _index(folder)
    index.warm(lambda: None)
    index.close()
    (written,) = folder.glob(pattern)
    return folder, written


@pytest.mark.parametrize("damage", ["flipped", "cut", "other size"])
def test_a_written_file_that_does_not_check_out_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    folder, written = _warmed(tmp_path, "*.pkwords")
    data = bytearray(written.read_bytes())
    if damage == "flipped":  # a byte of every set, after the table (whose length the head gives)
        for at in range(12 + int.from_bytes(data[8:12], "big"), len(data), 16):
            data[at] ^= 0x55
    elif damage == "cut":
        data = data[: len(data) // 2]
    else:
        data[4:8] = (int.from_bytes(data[4:8], "big") + 1).to_bytes(4, "big")
    written.write_bytes(bytes(data))
    read: list[int] = []
    monkeypatch.setattr(
        "personakit.store.postings.word_sets",
        lambda leaf, *rest: read.append(leaf.doc_count_all()) or word_sets(leaf, *rest),
    )
    later = MemoryIndex(folder)
    later.open()
    with later._ix.searcher() as s:
        expected = [_whoosh(s, field, word) for field, word in COMMON]
        read.clear()
        assert [later._ranker.postings.word(s, field, word) for field, word in COMMON] == expected
    from_whoosh = read.count(
        PLAIN_SEGMENT_FROM + 500
    )  # the big segment's sets read from Whoosh, not the file
    assert from_whoosh == len(COMMON) or (damage == "cut" and from_whoosh > 0)  # cut: the sets left are used
    later.close()


def test_the_words_a_segment_lacks_cost_no_look_up_and_hide_none_it_has(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`reindex` and a server's read-ahead write each big segment's words beside it (`.pkterms`): a later
    process answers a word the segment lacks without Whoosh, and still finds every word it has."""
    folder, terms = _warmed(tmp_path, "*.pkterms")  # the one big segment's
    looked: list[tuple[str, str]] = []  # the words looked up in the big segment
    monkeypatch.setattr(
        "personakit.store.postings.word_sets",
        lambda leaf, field, word, *rest: (
            (leaf.doc_count_all() >= SEGMENT_FROM and looked.append((field, word)))
            or word_sets(leaf, field, word, *rest)
        ),
    )
    later = MemoryIndex(folder)
    later.open()
    with later._ix.searcher() as s:
        (big,) = [leaf for leaf, _ in s.reader().leaf_readers() if leaf.doc_count_all() >= SEGMENT_FROM]
        having = [("words", t.decode()) for t in big.lexicon("words")]
        having += [("restricted_words", t.decode()) for t in big.lexicon("restricted_words")]
        lacking = [("words", f"nowhere{i}") for i in range(300)] + [
            ("restricted_words", "only1")
        ]  # (approved)
        expected = {key: _whoosh(s, *key) for key in having + lacking}
        looked.clear()
        for key in having + lacking:
            assert later._ranker.postings.word(s, *key) == expected[key], key
        assert later._ranker.postings.word(s, "id", "m_000000000003")[0] > 0  # a field the file does not hold
    assert len(set(lacking) & set(looked)) <= 3  # lacking: looked up only for a hash shared by chance
    later.close()
    assert terms.exists()


@pytest.mark.parametrize("damage", ["flipped", "cut", "other size", "missing"])
def test_a_terms_file_that_does_not_check_out_hides_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    """A damaged terms file would say a segment lacks words it has, and hide memories: it is not used."""
    folder, terms = _warmed(tmp_path, "*.pkterms")
    data = bytearray(terms.read_bytes())
    if damage == "flipped":  # a hash in the middle: a word the segment has would look lacking
        data[len(data) // 2] ^= 0x55
    elif damage == "cut":
        data = data[: len(data) - 4]
    elif damage == "other size":
        data[4:8] = (int.from_bytes(data[4:8], "big") + 1).to_bytes(4, "big")
    terms.write_bytes(bytes(data))
    if damage == "missing":
        terms.unlink()
    later = MemoryIndex(folder)
    later.open()
    with later._ix.searcher() as s:
        (big,) = [leaf for leaf, _ in s.reader().leaf_readers() if leaf.doc_count_all() >= SEGMENT_FROM]
        for term in big.lexicon("words"):
            word = term.decode()
            assert later._ranker.postings.word(s, "words", word) == _whoosh(s, "words", word), word
    if damage == "missing":  # an index of an earlier PersonaKit, with the common words' file only
        later.warm(lambda: None)  # the next read-ahead writes it
        assert terms.exists() and later._ranker.postings.written.lacks(
            terms.name.split(".")[0], PLAIN_SEGMENT_FROM + 500, "words", "nowhere"
        )
    later.close()


def test_a_later_read_ahead_takes_its_words_from_the_files_written_beside_the_segments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once `reindex` (or a read-ahead) wrote them, a server's read-ahead finds the common words in the big
    segments' files instead of walking every term of the index in its first seconds, and reads ahead the
    same words. A big segment missing either file is walked for, and gets it."""
    folder = tmp_path / "index"
    index = _index(folder)
    words = index.warm(lambda: None)
    index.close()
    walked: list[str] = []
    monkeypatch.setattr(
        "personakit.store.index.frequent",
        lambda reader, field, *rest: walked.append(field) or frequent(reader, field, *rest),
    )
    later = MemoryIndex(folder)
    later.open()
    assert later.warm(lambda: None) == words and walked == []
    read = later._ranker.postings._current.items  # what the read-ahead kept, for this searcher
    assert ("words", "common") in read and ("restricted_words", "common") in read
    later.close()
    (terms,) = folder.glob("*.pkterms")
    terms.unlink()
    again = MemoryIndex(folder)
    again.open()
    assert again.warm(lambda: None) == words and walked  # walked for, then written again
    again.close()
    assert terms.exists()
