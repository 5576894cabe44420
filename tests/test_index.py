"""The Whoosh index on disk: segment files as whoosh-ng reads them back, and the contract's order."""

from __future__ import annotations

from pathlib import Path

import pytest
from owner import commit_all, write_memory

from personakit.core.memory import Memory
from personakit.service import PersonaKit
from personakit.store.files import FileStat
from personakit.store.index import PLAIN_SEGMENT_FROM, MemoryIndex


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
    index = MemoryIndex(tmp_path / "index")
    index.open()
    index.update([(memory(i, f"plays chess {i}"), FileStat(i, 1)) for i in range(30)])
    first = [h.memory.id for h in index.search(["chess", "play"], 7)]
    assert first == [h.memory.id for h in index.search(["chess", "play"], 7)]  # the kept postings
    monkeypatch.setattr("personakit.store.kept.POSTINGS_KEPT_BYTES", 10)  # every read clears what it keeps
    assert first == [h.memory.id for h in index.search(["chess", "play"], 7)]
    assert index.count_restricted(["chess"]) == 0
    index.update([(memory(99, "plays chess", "restricted"), FileStat(99, 1))])
    assert index.count_restricted(["chess"]) == 1  # a new searcher, with nothing kept from the old
    index.update([(memory(100, "plays chess daily", created="2027-01-01T00:00:00Z"), FileStat(100, 1))])
    assert index.search(["chess", "play", "daili"], 1)[0].memory.id == memory(100, "").id
    index.close()


def test_a_first_index_in_batches_takes_every_memory_once(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sync of many files commits them to Whoosh in batches, to bound what it holds at once."""
    monkeypatch.setattr("personakit.intake.SYNC_BATCH", 7)
    for i in range(30):
        write_memory(vault, f"walk-{i}.md", f"Walks the dog at {i} o'clock", "approved")
    commit_all(vault)
    kit = PersonaKit(vault)
    kit.start()
    try:
        names = sorted(hit.memory.name for hit in kit.index.all())
        assert names == sorted(f"walk-{i}.md" for i in range(30))  # each once
        assert len(kit.read("dog walks", limit=20, record=False)["memories"]) == 20
    finally:
        kit.close()
