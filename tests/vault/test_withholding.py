"""The words that may make a restricted memory count: few a question, few new ones a day, kept on disk."""

from __future__ import annotations

from pathlib import Path

from personakit.core.withholding import COUNTED_WORDS, admitted, counted_words
from personakit.owner.decisions import decide
from personakit.store.ledger import AskedWords
from personakit.vault.service import PersonaKit


def test_only_the_first_distinct_words_of_a_question_count() -> None:
    terms = [f"w{i}" for i in range(30)]
    assert counted_words(["a", "b", "a", "c"]) == ["a", "b", "c"]
    assert counted_words(terms) == terms[:COUNTED_WORDS]


def test_known_words_always_count_new_ones_while_there_is_room() -> None:
    assert admitted(["x", "n1", "y", "n2"], {"x", "y"}, 1) == (["x", "n1", "y"], ["n1"])
    assert admitted(["n1"], set(), 0) == ([], [])


def test_the_allowance_survives_a_restart_and_is_shared(tmp_path: Path) -> None:
    tmp_path = tmp_path / "state"
    tmp_path.mkdir()
    first = AskedWords(tmp_path, most=3)
    assert first.admit(["salary", "initech"], day="2026-12-01") == ["salary", "initech"]
    other = AskedWords(tmp_path, most=3)  # another server on the vault, or this one restarted
    assert other.admit(["93750", "10000"], day="2026-12-01") == ["93750"]
    assert first.admit(["10001", "salary"], day="2026-12-01") == ["salary"]  # it saw the other's word
    again = AskedWords(tmp_path, most=3)
    assert again.admit(["initech", "acme"], day="2026-12-01") == ["initech"]
    assert not any(b"salary" in p.read_bytes() for p in tmp_path.iterdir())  # digests, not the words


def test_the_owners_search_spends_nothing_and_a_new_day_starts_afresh(tmp_path: Path) -> None:
    tmp_path = tmp_path / "state"
    tmp_path.mkdir()
    asked = AskedWords(tmp_path, most=1)
    assert asked.admit(["a", "b"], spend=False, day="2026-12-01") == ["a"]
    assert asked.admit(["b"], day="2026-12-01") == ["b"]
    assert asked.admit(["a"], day="2026-12-01") == []
    assert asked.admit(["a"], day="2026-12-02") == ["a"]
    assert [p.name for p in tmp_path.iterdir()] == ["asked-2026-12-02"]


def test_a_read_past_the_allowance_counts_only_words_tested_today(vault: Path) -> None:
    text = "Annual salary at Initech is 93750"
    kit = PersonaKit(vault, create=False)
    kit.start()
    try:
        kit.propose(text, "my salary is 93750 at initech", "background")
        decide(kit, kit.read("salary")["memories"][0]["id"], "restricted")
        kit.asked.most = len(kit.asked._known) + 1
        assert kit.read("salary")["withheld"] == 1  # tested today already
        assert kit.read("filler words first 93750")["withheld"] == 0  # 'filler' took the last place
        assert kit.read("93750", record=False)["withheld"] == 0  # the owner's search says the same
        assert kit.read("initech salary")["withheld"] == 1
    finally:
        kit.close()
