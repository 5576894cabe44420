"""The Whoosh index on disk: segment files as whoosh-ng reads them back, and the contract's order."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from owner import commit_all, write_memory
from whoosh.searching import Searcher  # type: ignore[attr-defined]

from personakit.core.memory import Memory
from personakit.store import index as index_module
from personakit.store.files import FileStat, VaultFiles
from personakit.store.index import PLAIN_SEGMENT_FROM, MemoryIndex
from personakit.store.postings import READS, Ids, Reads, breathing
from personakit.vault.service import PersonaKit


def memory(i: int, text: str, state: str = "unconfirmed", created: str = "2026-01-01T00:00:00Z") -> Memory:
    return Memory(
        id=f"m_{i:012x}", text=text, category="other", state=state, evidence=(f"quote {i}",),  # type: ignore[arg-type]
        created=created, name=f"memory-{i}.md",
    )  # fmt: skip


def test_a_big_batch_is_written_as_plain_files_and_small_ones_still_open(tmp_path: Path) -> None:
    """whoosh-ng copies a compound segment's terms into memory per reader, and rejects a plain segment
    whose postings file is empty (a one-memory segment's is): both kinds must open again."""
    folder = tmp_path / "index"
    index = MemoryIndex(folder)
    index.open()
    batch = [(memory(i, f"likes tea number {i}"), FileStat(i, 10)) for i in range(PLAIN_SEGMENT_FROM)]
    index.update(batch)
    assert list(folder.glob("*.pst")) and not list(folder.glob("*.seg"))  # plain files
    index.update([(memory(10**6, "drinks coffee alone"), FileStat(1, 1))])  # one memory: compound
    assert list(folder.glob("*.seg"))
    index.close()
    again = MemoryIndex(folder)
    assert again.open() is False  # opened as it was, not thrown away and rebuilt
    assert [h.memory.text for h in again.search(["coffe"], 7)] == ["drinks coffee alone"]
    assert len(again.search(["tea"], 7)) == 7
    again.close()


def test_a_tie_at_the_cut_is_ordered_approved_first_then_newest(tmp_path: Path) -> None:
    """All twenty memories share the one word equally; only the tie-break decides which five come back."""
    index = MemoryIndex(tmp_path / "index")
    index.open()
    rows = [
        (memory(i, f"walks {i}", "approved" if i % 4 == 0 else "unconfirmed", f"2026-01-{i + 1:02d}T00:00:00Z"),
         FileStat(i, 1))
        for i in range(20)
    ]  # fmt: skip
    index.update(rows)
    found = [h.memory.text for h in index.search(["walk"], 5)]
    assert found == ["walks 16", "walks 12", "walks 8", "walks 4", "walks 0"]  # approved, newest first
    found = [h.memory.text for h in index.search(["walk"], 7)]
    assert found[5:] == ["walks 19", "walks 18"]  # then unconfirmed, newest first
    index.close()


def test_postings_kept_for_a_searcher_never_hide_a_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Postings read for one question serve the next ones until the index changes, within a bound."""
    monkeypatch.setattr("personakit.store.postings.SEGMENT_FROM", 10)  # the 30-memory segment's are kept
    for tiny in (False, True):
        if tiny:  # every read drops what it kept
            for bound in ("KEPT_BYTES", "SEARCHER_BYTES"):
                monkeypatch.setattr(f"personakit.store.postings.{bound}", 10)
        index = MemoryIndex(tmp_path / f"index-{tiny}")
        index.open()
        index.update([(memory(i, f"plays chess {i}"), FileStat(i, 1)) for i in range(30)])
        first = [h.memory.id for h in index.search(["chess", "play"], 7)]
        assert first == [h.memory.id for h in index.search(["chess", "play"], 7)]  # the kept postings
        assert index.count_restricted(["chess"]) == 0
        index.update([(memory(99, "plays chess", "restricted"), FileStat(99, 1))])
        assert index.count_restricted(["chess"]) == 1  # a new searcher, with nothing kept from the old
        index.update([(memory(100, "plays chess daily", created="2027-01-01T00:00:00Z"), FileStat(100, 1))])
        assert index.search(["chess", "play", "daili"], 1)[0].memory.id == memory(100, "").id
        assert index.search(["novel"], 7) == []  # kept as no memory of the kept segment having it
        # A memory of the kept segment changes: its old version there is deleted, never found again.
        index.update([(memory(3, "reads novels"), FileStat(3, 2))])
        found = [h.memory for h in index.search(["chess"], None)]
        assert memory(3, "").id not in {m.id for m in found} and len(found) == 30
        assert [h.memory.text for h in index.search(["novel"], 7)] == ["reads novels"]
        index.close()


def test_what_another_process_writes_is_read_at_once_also_after_a_quiet_while(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read knows its searcher is the latest from the folder's time when that time is settled, else from
    Whoosh's listing: a change by another writer (the owner's command beside a server) is read next."""
    folder = tmp_path / "index"
    server, command = MemoryIndex(folder), MemoryIndex(folder)
    server.open()
    command.open()
    server.update([(memory(1, "plays chess"), FileStat(1, 1))])
    for settled in (False, True):
        monkeypatch.setattr("personakit.store.index.SETTLED_NS", 0 if settled else 10**18)
        assert len(server.search(["chess"], None)) == 1 + settled
        assert len(server.search(["chess"], None)) == 1 + settled  # the folder's time: unchanged
        command.update([(memory(2 + settled, "plays chess too"), FileStat(2, 1))])
        assert len(server.search(["chess"], None)) == 2 + settled  # a new generation: seen at once
    server.search(["chess"], None)  # the new searcher found latest once, by Whoosh's listing
    looked = []
    monkeypatch.setattr("whoosh.searching.Searcher.up_to_date", lambda s: looked.append(s) or True)
    server.search(["chess"], None)
    server.search(["chess"], None)
    assert not looked  # settled and unchanged: Whoosh's listing is not asked
    server.close()
    command.close()


def test_within_a_hold_of_the_vault_lock_the_index_is_looked_at_once_and_a_new_hold_looks_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every writer holds the vault lock, so while this thread holds it the searcher found latest stays
    so, until this process writes; another holder (here a second process's files and index) may have
    written before the next hold, which looks again."""
    monkeypatch.setattr("personakit.store.index.SETTLED_NS", 10**18)  # a folder time never settles
    vault = tmp_path / "vault"
    vault.mkdir()
    server_files, command_files = VaultFiles(vault), VaultFiles(vault)
    server = MemoryIndex(vault / "index", server_files.holding)
    command = MemoryIndex(vault / "index", command_files.holding)
    server.open()
    command.open()
    looked = []
    listing = Searcher.up_to_date
    monkeypatch.setattr(Searcher, "up_to_date", lambda s: looked.append(s) or listing(s))
    with server_files.lock():
        server.update([(memory(1, "plays chess"), FileStat(1, 1))])
        assert len(server.search(["chess"], None)) == 1  # its own write: seen
        looked.clear()
        for _ in range(3):
            assert len(server.search(["chess"], None)) == 1
        assert len(looked) == 1  # once in the hold, not at each look
    assert len(server.search(["chess"], None)) == 1
    assert looked[1:]  # outside a hold: Whoosh's listing, as before
    with command_files.lock():
        command.update([(memory(2, "plays chess too"), FileStat(2, 1))])
    with server_files.lock():
        assert len(server.search(["chess"], None)) == 2  # a new hold: the other's write is read
        server.update([(memory(3, "plays chess on sundays"), FileStat(3, 1))])
        assert len(server.search(["chess"], None)) == 3  # and its own, in the same hold
    server.close()
    command.close()


def test_a_first_index_in_batches_takes_every_memory_once(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sync of many files commits them to Whoosh in batches, to bound what it holds at once."""
    monkeypatch.setattr("personakit.vault.intake.SYNC_BATCH", 7)
    for i in range(30):
        write_memory(vault, f"walk-{i}.md", f"Walks the dog at {i} o'clock", "approved")
    commit_all(vault)
    kit = PersonaKit(vault)
    kit.start()
    try:
        names = sorted(hit.memory.name for hit in kit.index.all())
        assert names == sorted(f"walk-{i}.md" for i in range(30))  # each once
        assert len(kit.read("dog walks", limit=20, record=False)["memories"]) == 20
        with kit.index._ix.reader() as reader:  # one writer: a read looks each word up in one segment
            assert len(list(reader.segments())) == 1
    finally:
        kit.close()


def test_a_first_index_in_parts_is_seen_in_the_hold_that_wrote_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read between a first index's parts finds the searcher latest in that hold: the last part's
    commit must make the same hold look again (a first index commits what changed by hand next)."""
    monkeypatch.setattr("personakit.store.index.SETTLED_NS", 10**18)  # a folder time never settles
    files = VaultFiles(tmp_path)
    index = MemoryIndex(tmp_path / "index", files.holding)
    index.open()
    index.update([(memory(99, "plays golf"), FileStat(99, 1))])  # an index with a generation to be latest
    with files.lock():
        index.update([(memory(i, f"plays chess {i}"), FileStat(i, 1)) for i in range(3)], more=True)
        for _ in range(2):  # the second finds the searcher latest, for the rest of the hold
            assert index.search(["chess"], None) == []  # not committed yet
        index.update([(memory(i, f"plays chess {i}"), FileStat(i, 1)) for i in range(3, 5)])
        assert len(index.search(["chess"], None)) == 5
    index.close()


def test_a_first_index_whose_writer_fails_midway_takes_in_its_earlier_parts_too(
    vault: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The parts a first index handed its one writer are lost with it: the repair takes in every file,
    not only the part that failed."""
    monkeypatch.setattr("personakit.vault.intake.SYNC_BATCH", 7)
    for i in range(30):
        write_memory(vault, f"walk-{i}.md", f"Walks the dog at {i} o'clock", "approved")
    commit_all(vault)
    added = []
    real = index_module.add_document

    def failing_once(writer: Any, doc: dict[str, Any]) -> None:
        added.append(doc["name"])
        if len(added) == 10:  # in the second part
            raise OSError(28, "No space left on device")
        real(writer, doc)

    monkeypatch.setattr(index_module, "add_document", failing_once)
    kit = PersonaKit(vault)
    kit.start()
    try:
        names = sorted(hit.memory.name for hit in kit.index.all())
        assert names == sorted(f"walk-{i}.md" for i in range(30))  # each once, the first part's too
        assert "repairing it from the files" in caplog.text
    finally:
        kit.close()


def test_a_big_writer_clears_the_scratch_a_killed_one_left(tmp_path: Path) -> None:
    folder = tmp_path / "index"
    index = MemoryIndex(folder)
    index.open()
    left = folder / "k1ll3d.tmp"
    left.mkdir()
    (left / "abc.run").write_bytes(b"postings of a killed first index")
    index.update([(memory(1, "likes tea"), FileStat(1, 1))])  # a small writer's scratch is in memory
    assert left.exists()
    index.update([(memory(i, f"likes tea number {i}"), FileStat(i, 10)) for i in range(PLAIN_SEGMENT_FROM)])
    assert not left.exists() and not list(folder.glob("*.tmp"))  # nor its own
    index.close()
    in_memory = MemoryIndex(None)  # a vault that cannot be written: no folder to clear
    in_memory.open()
    in_memory.update([(memory(i, f"likes tea {i}"), FileStat(i, 10)) for i in range(PLAIN_SEGMENT_FROM)])
    assert len(in_memory.search(["tea"], None)) == PLAIN_SEGMENT_FROM


def test_the_newest_approved_are_those_whoosh_sorts_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fill's newest approved memories come from each segment's kept tie-break order; they must be
    exactly what Whoosh's own search sorted by the column returns, ties, deletions and segments included."""
    from whoosh import query

    monkeypatch.setattr("personakit.store.postings.SEGMENT_FROM", 5)  # kept orders for small segments too
    index = MemoryIndex(tmp_path / "index")
    index.open()
    states = ("approved", "unconfirmed", "approved", "restricted")
    for batch in range(4):  # four segments
        index.update([
            (memory(i, f"note {i}", states[i % 4], f"2026-01-{i % 5 + 1:02d}T00:00:00Z"), FileStat(i, 1))
            for i in range(batch * 12, batch * 12 + 12)
        ])  # fmt: skip
    index.update([(memory(2, "note 2 changed", "unconfirmed"), FileStat(2, 2))])  # deletes an approved one
    index.update([(memory(99, "a new one", "approved", "2026-01-05T00:00:00Z"), FileStat(99, 1))])
    for limit in (1, 3, 4, 7, 40):
        searcher = index._fresh_searcher()
        expected = [
            h["name"]
            for h in searcher.search(query.Term("state", "approved"), limit=limit, sortedby="tie_break")
        ]
        index._newest = (None, ("", 0), [])
        assert [h.memory.name for h in index.newest("approved", limit)] == expected
    index.close()


@pytest.mark.parametrize("kept_from", [1000, 2])  # 2: the segments' postings and ids are kept across reads
def test_restricted_copies_count_once_and_so_does_a_memory_restricted_since(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept_from: int
) -> None:
    """Two files with one id are one memory in the withheld count, however many segments hold them; an id
    restricted on disk since it was indexed counts once more, unless the index already counts it."""
    monkeypatch.setattr("personakit.store.postings.SEGMENT_FROM", kept_from)
    index = MemoryIndex(tmp_path / "index")
    index.open()
    index.update([(memory(i, f"keeps bees {i}", "restricted"), FileStat(i, 1)) for i in range(3)])
    assert index.count_restricted(["bee"]) == 3
    copy = Memory(**{**memory(1, "keeps bees 1", "restricted").__dict__, "name": "copy of memory-1.md"})
    index.update([(copy, FileStat(50, 1))])  # a copy, in a segment of its own
    assert index.count_restricted(["bee"]) == 3
    assert index.count_restricted(["bee"], also=[memory(1, "").id]) == 3  # counted already
    assert index.count_restricted(["bee"], also=[memory(7, "").id, memory(7, "").id]) == 4
    assert index.count_restricted(["wasp"], also=[memory(1, "").id]) == 1  # its words are not asked about
    index.update([], ["copy of memory-1.md"])
    index.update([(memory(2, "keeps bees 2", "approved"), FileStat(2, 2))])
    assert index.count_restricted(["bee"]) == 2
    index.close()


@pytest.mark.parametrize("kept_from", [1000, 2])
def test_copies_are_found_by_the_whole_id_whatever_its_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept_from: int
) -> None:
    """The ids the withheld count compares are kept packed (`store.postings.Ids`): an id of PersonaKit's
    form as its number, any other as it is. Two files are copies exactly when their ids are equal: an id
    in capitals, or with a number's underscore, is another memory's."""
    monkeypatch.setattr("personakit.store.postings.SEGMENT_FROM", kept_from)
    ids = ["m_00000000000a", "m_00000000000A", "m_0000_000000a", "own", "m_00000000000a", "own", "x"]
    index = MemoryIndex(tmp_path / "index")
    index.open()
    index.update([
        (Memory(**{**memory(i, "keeps bees", "restricted").__dict__, "id": mid}), FileStat(i, 1))
        for i, mid in enumerate(ids)
    ])  # fmt: skip
    assert index.count_restricted(["bee"]) == 5
    keys = Ids(ids).keys(list(range(7)))
    assert [k == other for k in keys for other in keys] == [a == b for a in ids for b in ids]
    index.close()


def _everything(index: MemoryIndex) -> object:
    """All an index holds, by file name: each term's postings (weight and value), the stored fields, the
    columns, each field's lengths per memory and in all."""
    reader = index._fresh_searcher().reader()
    name_of = {doc: reader.stored_fields(doc)["name"] for doc in reader.all_doc_ids()}
    postings = {}
    for field in reader.indexed_field_names():
        for term in reader.lexicon(field):
            matcher = reader.postings(field, term)
            found = []
            while matcher.is_active():
                found.append((name_of[matcher.id()], matcher.weight(), matcher.value()))
                matcher.next()
            postings[field, term] = sorted(found)
    words = ("words", "restricted_words", "rejected_words")
    per_memory = {
        name: (
            reader.stored_fields(doc),
            [reader.column_reader(column)[doc] for column in ("id", "tie_break")],
            [reader.doc_field_length(doc, field) for field in words],
        )
        for doc, name in name_of.items()
    }
    return postings, per_memory, [reader.field_length(field) for field in words], reader.doc_count_all()


@pytest.mark.parametrize(("size", "held"), [(5, None), (PLAIN_SEGMENT_FROM, None), (PLAIN_SEGMENT_FROM, 50)])
def test_a_memory_is_added_as_whoosh_adds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int, held: int | None
) -> None:
    """`add_document` writes what Whoosh's own `add_document` writes, in each state and with every field,
    empty or not, repeated words, other scripts, a text whose words repeat its quotes'. Its postings are
    kept per term (`store.pool`); held: past so many, handed to Whoosh's pool, as for a huge first index."""
    if held is not None:
        monkeypatch.setattr("personakit.store.pool.HELD", held)
    states = ("approved", "unconfirmed", "restricted", "rejected")
    rows = [
        (
            Memory(
                id=f"m_{i:012x}", text=f"Drinks café {i % 7} with Zoë, drinks tea and 日本茶 again " * (i % 3 + 1),
                category=("food", "other", "people")[i % 3], state=states[i % 4],  # type: ignore[arg-type]
                evidence=(f"I drink tea at {i}", "café") if i % 2 else (), proposed_by="host (assistant)" if i % 3 else "",
                created=f"2026-01-{i % 28 + 1:02d}T00:00:00Z" if i % 5 else "", name=f"memory-{i}.md",
                problems=("state 'maybe'",) if i % 11 == 0 else (), replaces="m_00000000000a" if i % 6 == 0 else "",
                similar=("m_00000000000b",) if i % 4 == 1 else (), about=("Carla",) if i % 9 == 0 else (),
                said="2026-01-02" if i % 8 == 0 else "", until="2027-01-01" if i % 10 == 0 else "",
                pending=("unseen quote",) if i % 13 == 0 else (),
            ),
            FileStat(i, 100 + i, i * 3, i * 7, f"digest{i}"),
        )
        for i in range(size)
    ]  # fmt: skip
    ours = MemoryIndex(tmp_path / "ours")
    ours.open()
    ours.update(rows)
    monkeypatch.setattr("personakit.store.index.add_document", lambda writer, doc: writer.add_document(**doc))
    whooshs = MemoryIndex(tmp_path / "whoosh")
    whooshs.open()
    whooshs.update(rows)
    assert _everything(ours) == _everything(whooshs)
    ours.close()
    whooshs.close()


def test_a_big_batch_replaces_the_memories_already_indexed(tmp_path: Path) -> None:
    """A big batch looks the files up in the segments' names at once, not one by one: each stays once."""
    index = MemoryIndex(tmp_path / "index")
    index.open()
    index.update([(memory(i, f"plays golf {i}"), FileStat(i, 1)) for i in range(10)])
    index.update([(memory(i, f"plays chess {i}"), FileStat(i, 2)) for i in range(5, PLAIN_SEGMENT_FROM + 5)])
    assert index.count() == PLAIN_SEGMENT_FROM + 5
    assert sorted(h.memory.name for h in index.search(["golf"], None)) == [f"memory-{i}.md" for i in range(5)]
    assert len(index.search(["chess"], None)) == PLAIN_SEGMENT_FROM
    index.close()


def test_a_searcher_after_a_change_keeps_the_readers_of_unchanged_segments_and_sees_every_change(
    tmp_path: Path,
) -> None:
    """After each small commit (a new memory, a changed one, a removed one; Whoosh merges small segments
    on the way) the searcher keeps the readers of segments left as they were, finds what a searcher opened
    anew finds, and leaves no file open behind it."""
    import os
    import random

    folder = tmp_path / "index"
    index = MemoryIndex(folder)
    index.open()
    index.update([(memory(i, f"plays chess {i}"), FileStat(i, 1)) for i in range(40)])
    rng, reused, fds = random.Random(7), 0, []
    for step in range(60):
        before = {id(leaf) for leaf, _ in index._fresh_searcher().reader().leaf_readers()}
        i = rng.randrange(80)
        if step % 5 == 4:
            index.update([], [f"memory-{i}.md"])
        else:
            index.update([(memory(i, f"plays chess {i} step {step}"), FileStat(i, step + 2))])
        after = {id(leaf) for leaf, _ in index._fresh_searcher().reader().leaf_readers()}
        reused += bool(before & after)
        anew = MemoryIndex(folder)
        anew.open()
        for words in (["chess"], [f"{step}"], ["step"]):
            assert sorted(h.memory.id for h in index.search(words, None)) == sorted(
                h.memory.id for h in anew.search(words, None)
            )
        assert [h.memory.text for h in index.by_id(memory(i, "").id)] == [
            h.memory.text for h in anew.by_id(memory(i, "").id)
        ]
        anew.close()
        fds.append(len(os.listdir("/proc/self/fd")))
    assert reused > 30  # most commits left the big segment's reader in place
    assert max(fds[20:]) <= max(fds[:20]) + 2  # the readers let go are closed
    index.close()


def test_near_duplicate_candidates_leave_out_replaced_and_quote_only_words(tmp_path: Path) -> None:
    """`sharing` walks each segment's postings a block at a time: a memory replaced since (its old
    document deleted in the big segment) and a word only a quote has are never counted."""
    index = MemoryIndex(tmp_path / "index")
    index.open()
    index.update([(memory(i, f"plays chess with friend {i}"), FileStat(i, 1)) for i in range(300)])
    index.update([(memory(7, "reads novels"), FileStat(7, 2))])  # replaced: deleted in the big segment
    index.update([(memory(1000, "swims daily"), FileStat(1000, 1))])  # its quote says "quote 1000"
    index.update([(memory(1001, "plays chess daily"), FileStat(1001, 1))])
    found = {h.memory.id for h in index.sharing([["chess"], ["play"]], 0, 1000)}
    assert len(found) == 300 and memory(7, "").id not in found and memory(1001, "").id in found
    assert {h.memory.id for h in index.sharing([["quote"]], 0, 1000)} == set()  # quote words only
    among = {
        h.memory.id for h in index.sharing([["friend"], ["chess"], ["play"], ["daili"]], 1, 1000, walked=1)
    }
    assert memory(1001, "").id not in among and len(among) == 299  # looked up among those still running
    index.close()


def test_a_segment_gone_while_the_searcher_opens_again_falls_back_to_whooshs_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process may merge a segment away between the table of contents and its files: the searcher
    is then opened whole, as Whoosh opens it (retrying), and the change is read."""
    index = MemoryIndex(tmp_path / "index")
    index.open()
    index.update([(memory(1, "plays chess"), FileStat(1, 1))])
    assert len(index.search(["chess"], None)) == 1

    def gone(_: object, old: Any) -> None:
        old.close()  # as reopened() does when it fails: the old searcher's readers are let go
        raise FileNotFoundError("MAIN_abc.seg")

    monkeypatch.setattr("personakit.store.index.reopened", gone)
    index.update([(memory(2, "plays chess too"), FileStat(2, 1))])
    assert len(index.search(["chess"], None)) == 2
    index.close()


def test_background_walks_wait_while_a_read_runs_but_never_for_ever() -> None:
    reads = Reads()
    inside, release = threading.Event(), threading.Event()
    ended: list[str] = []

    def read() -> None:
        with reads:
            inside.set()
            release.wait(30)
            ended.append("read")

    def walk(most: float) -> None:
        reads.wait(most)
        ended.append("walk")

    reader = threading.Thread(target=read)
    reader.start()
    assert inside.wait(10)
    walker = threading.Thread(target=walk, args=(30,))
    walker.start()
    walker.join(0.2)
    assert walker.is_alive() and ended == []  # the walk waits while the read runs
    release.set()
    reader.join(10)
    walker.join(10)
    assert ended == ["read", "walk"] and not reads.others()
    inside.clear(), release.clear(), ended.clear()
    reader = threading.Thread(target=read)
    reader.start()
    assert inside.wait(10)
    walker = threading.Thread(target=walk, args=(0.01,))  # a read that never ends: held up `most` at most
    walker.start()
    walker.join(10)
    assert ended == ["walk"] and reads.others()
    release.set()
    reader.join(10)

    def repairing() -> None:  # a walk a read runs itself (repairing the index) never waits for that read
        with reads:
            walk(30)

    walker = threading.Thread(target=repairing)
    walker.start()
    walker.join(10)
    assert not walker.is_alive() and ended == ["walk", "read", "walk"] and not reads.others()
    assert list(breathing(range(100), every=7)) == list(range(100))  # every item, in order


def test_a_walk_waits_for_reads_a_bounded_time_in_all() -> None:
    """A read that waits for the walk itself (for the vault lock the walk's pass holds) while counted as
    running must not hold the walk up for 50 ms at every step: the walk's waiting is bounded in all."""
    inside, release = threading.Event(), threading.Event()

    def read() -> None:
        with READS:
            inside.set()
            release.wait(60)

    reader = threading.Thread(target=read)
    reader.start()
    assert inside.wait(10)
    walked: list[int] = []
    walker = threading.Thread(target=lambda: walked.extend(breathing(range(2000), every=1, most=0.2)))
    walker.start()
    walker.join(20)  # 2,000 steps of 50 ms each would take 100 s
    done = not walker.is_alive()
    release.set()
    reader.join(10)
    walker.join(120)
    assert done and walked == list(range(2000))


def test_common_words_are_read_ahead_one_at_a_time_each_once_it_is_quiet(tmp_path: Path) -> None:
    index = MemoryIndex(tmp_path / "index")
    index.open()
    index.update(
        [(memory(i, f"likes tea and garden walks {i}", "approved"), FileStat(i, 10)) for i in range(40)]
    )
    looks: list[int] = []
    warmed = index.warm(lambda: looks.append(len(looks)), share=0.1)
    assert warmed >= 4  # likes, tea, garden, walks (and "and", if it counts): each in every memory
    assert len(looks) == warmed + 1  # once before the walk of every term, then before each word

    def closing() -> None:
        index.close()  # a server closing while read-ahead waited for quiet: nothing more is read

    assert index.warm(closing) == 0
