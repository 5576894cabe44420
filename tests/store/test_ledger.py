"""The read ledger read from its end: the same entries as from the start, newest first, in any chunking."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from personakit.store.ledger import Ledger, _lines_backwards


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 16])
def test_lines_read_backwards_are_the_lines_reversed(tmp_path: Path, chunk: int) -> None:
    path = tmp_path / "reads.jsonl"
    lines = [json.dumps({"n": i, "q": "é" * (i % 5) + "\u2028x"}, ensure_ascii=False) for i in range(40)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert list(_lines_backwards(path, chunk)) == lines[::-1]
    path.write_text("\n".join(lines), encoding="utf-8")  # no newline at the end
    assert list(_lines_backwards(path, chunk)) == lines[::-1]


def test_newest_first_spans_the_rolled_over_file_and_skips_a_cut_line(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path)
    for i in range(5):
        ledger.record({"at": f"2026-01-0{i + 1}T00:00:00Z", "ids": [f"m_{i:012x}"]})
    ledger.path.replace(ledger.older)  # rolled over
    for i in range(5, 8):
        ledger.record({"at": f"2026-01-0{i + 1}T00:00:00Z", "ids": [f"m_{i:012x}"]})
    with open(ledger.path, "a", encoding="utf-8") as handle:
        handle.write('{"at": "2026-02-01T00:0')  # a crash mid-write
    newest = [e["ids"][0] for e in ledger.newest_first()]
    assert newest == [f"m_{i:012x}" for i in range(7, -1, -1)]
    assert newest == [e["ids"][0] for e in ledger.entries()][::-1]
    assert [e["at"] for e in ledger.newest_first(containing="m_000000000002")] == ["2026-01-03T00:00:00Z"]


def test_an_entry_a_file_cannot_hold_is_written_escaped_and_a_full_ledger_rolls_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half a UTF-16 pair (JSON's `\\ud800`, from a caller in this process) cannot be UTF-8: the line keeps
    JSON's escape, so the entry reads back as it was; a full ledger becomes the older half first."""
    entries = [
        {"at": "2026-01-01T00:00:00Z", "question": f"tea \ud800 {i} ünïcode", "ids": []} for i in range(8)
    ]
    line = len(json.dumps(entries[0]))  # about as long as a line written
    monkeypatch.setattr("personakit.store.ledger.LEDGER_MOST_BYTES", int(line * 3.5))
    ledger = Ledger(tmp_path)
    for entry in entries:
        ledger.record(entry)
    older, newer = (path.read_bytes().decode("utf-8").splitlines() for path in (ledger.older, ledger.path))
    assert [json.loads(text) for text in older + newer] == entries and len(older) == 4  # rolled at the fifth
    assert list(ledger.newest_first()) == entries[::-1]
    Ledger(tmp_path / "nowhere").record(
        entries[0]
    )  # a folder that is not there: the entry is lost, not the read
