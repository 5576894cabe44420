"""Speed work must not change what a read returns: the retrieval-quality set's answers, pinned.

`tests/data/quality_expected.json` holds, for every question of `bench/quality/`, the ids a read returns
at limit 7 and at limit 20, its `withheld` count, and the owner's search order over every state. It was
written by the code before the read path was made faster (issue 15), and any change to it must be a
deliberate change to the ranking rules, regenerated with:

    python tests/store/test_ranking_unchanged.py --write

The vault is the set's 624 memories in all four states (chosen per memory, so ties at the cut, the
approved fill, restricted counts and the newest-first tie-break all take part), indexed in process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest

from personakit.core.memory import Category, Memory, State, render_memory
from personakit.core.naming import memory_id, slug
from personakit.core.words import words
from personakit.store.index import ALL_WORDS_FIELDS
from personakit.vault.service import PersonaKit, init_vault

QUALITY = Path(__file__).resolve().parents[2] / "bench" / "quality"
EXPECTED = Path(__file__).resolve().parents[1] / "data" / "quality_expected.json"
STATES: tuple[State, ...] = ("approved",) * 5 + ("unconfirmed",) * 3 + ("restricted", "rejected")


def _lines(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (QUALITY / name).read_text(encoding="utf-8").splitlines() if line]


def build(root: Path) -> dict[str, str]:
    """A vault of the quality set's memories at root, committed once. Returns id -> the set's key."""
    init_vault(root)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    keys = {}
    for i, record in enumerate(_lines("memories.jsonl")):
        mid = memory_id(record["text"])
        keys[mid] = record["key"]
        created = start + timedelta(hours=7 * ((i * 37) % 624))  # distinct, not in file order
        memory = Memory(
            id=mid, text=record["text"], category=cast(Category, record["category"]), state=STATES[i % 10],
            evidence=(record["quote"],), proposed_by="quality-set",
            created=created.strftime("%Y-%m-%dT%H:%M:%SZ"), name=f"{slug(record['text'])}-{mid[2:8]}.md",
        )  # fmt: skip
        (root / "memories" / memory.name).write_text(render_memory(memory), encoding="utf-8")
    for args in (["add", "-A"], ["commit", "-qm", "the quality set"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)
    return keys


def answers(root: Path) -> dict[str, Any]:
    """Every question's results, as the set's keys."""
    keys = build(root)
    kit = PersonaKit(root, create=False)
    kit.start()
    try:
        out = {}
        for q in _lines("questions.jsonl"):
            question = q["question"]
            seven = kit.read(question, 7, record=False)
            twenty = kit.read(question, 20, record=False)
            owner = kit.index.search(words(question), None, ALL_WORDS_FIELDS)
            out[q["qid"]] = {
                "7": [keys[m["id"]] for m in seven["memories"]],
                "20": [keys[m["id"]] for m in twenty["memories"]],
                "withheld": seven["withheld"],
                "owner": [keys[h.memory.id] for h in owner],
            }
        return out
    finally:
        kit.close()


@pytest.mark.parametrize(
    "knobs",
    [{}, {"GROUPS_FROM": 0, "WALK_FROM": 0}, {"GROUPS_FROM": 0, "MOST_GROUPS": 4}],
    ids=["as-shipped", "per-group-walking-ties", "groups-overflow"],
)
def test_the_quality_sets_results_are_what_they_were(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, knobs: dict[str, int]
) -> None:
    """The same answers whichever way the candidates are scored (one by one, or per group of memories
    sharing the same words) and ties are ordered (looked up, or walked in tie_break order): at this size
    only forced thresholds reach the second ways."""
    for name, value in knobs.items():
        monkeypatch.setattr(f"personakit.store.ranking.{name}", value)
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    found = answers(tmp_path / "vault")
    differ = [qid for qid in expected if found.get(qid) != expected[qid]]
    shown = {qid: {"expected": expected[qid], "found": found.get(qid)} for qid in differ[:3]}
    assert not differ, f"{len(differ)} questions answer differently, e.g. {json.dumps(shown, indent=1)}"
    assert found.keys() == expected.keys()


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        EXPECTED.write_text(json.dumps(answers(Path(folder) / "vault"), indent=0, sort_keys=True) + "\n")
    print(f"wrote {EXPECTED}")
