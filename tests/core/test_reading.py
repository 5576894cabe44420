"""The rules of a read, on in-memory memories: order, approved fill, limit, note, masking."""

from __future__ import annotations

import pytest

from personakit.core.masking import present
from personakit.core.memory import Memory
from personakit.core.naming import memory_id
from personakit.core.reading import EMPTY_NOTE, FILL_NOTE, NOTE, Match, clamp_limit, compose


def mem(
    text: str,
    state: str = "approved",
    created: str = "2026-01-01T00:00:00Z",
    evidence: tuple[str, ...] = ("q",),
) -> Memory:
    return Memory(memory_id(text), text, "other", state, evidence, "host", created, slug_name(text))


def slug_name(text: str) -> str:
    return text.lower().replace(" ", "-") + ".md"


def test_more_shared_words_first_then_finer_then_approved_then_newest() -> None:
    a = Match(mem("a", "unconfirmed"), shared=1, fine=0.5)
    b = Match(mem("b", "approved"), shared=2, fine=0.1)
    c = Match(mem("c", "approved"), shared=1, fine=0.5)
    d = Match(mem("d", "approved", created="2026-05-01T00:00:00Z"), shared=1, fine=0.5)
    e = Match(mem("e"), shared=1, fine=0.9)
    result = compose([a, b, c, d, e], [], withheld=0, limit=7)
    assert [m["text"] for m in result["memories"]] == ["b", "e", "d", "c", "a"]


def test_fewer_than_three_matches_are_filled_with_approved_up_to_three() -> None:
    match = Match(mem("m", "unconfirmed"), 1, 0.0)
    approved = [mem("x"), mem("y"), mem("z")]
    result = compose([match], approved, withheld=2, limit=7)
    assert [m["text"] for m in result["memories"]] == ["m", "x", "y"]
    assert result["withheld"] == 2
    assert result["note"] == NOTE


def test_fill_never_passes_limit_and_never_repeats_a_match() -> None:
    match = Match(mem("x"), 1, 0.0)
    result = compose([match], [mem("x"), mem("y"), mem("z")], 0, limit=2)
    assert [m["text"] for m in result["memories"]] == ["x", "y"]
    assert "note" not in result


def test_three_matches_mean_no_fill() -> None:
    matches = [Match(mem(t, "unconfirmed"), 1, 0.0) for t in "abc"]
    result = compose(matches, [mem("x")], 0, limit=7)
    assert [m["text"] for m in result["memories"]] == ["a", "b", "c"]


def test_empty_result_when_nothing_matches_and_nothing_is_approved() -> None:
    assert compose([], [], 0, 7) == {"memories": [], "withheld": 0, "note": EMPTY_NOTE}


def test_a_result_of_fill_only_says_so_and_an_unconfirmed_match_keeps_the_contracts_sentence() -> None:
    assert compose([], [mem("x")], 0, 7)["note"] == FILL_NOTE
    one = compose([Match(mem("a", "unconfirmed"), 1, 0.0)], [mem("x")], 0, 7)
    assert one["note"] == NOTE  # something matched: only the contract's exact sentence
    assert "note" not in compose([Match(mem("a"), 1, 0.0)], [mem("x")], 0, 7)


@pytest.mark.parametrize(
    ("given", "used"), [(-5, 1), (0, 1), (1, 1), (7, 7), (20, 20), (21, 20), (10**9, 20)]
)
def test_limit_is_clamped(given: int, used: int) -> None:
    assert clamp_limit(given) == used
    matches = [Match(mem(f"t{i}", "unconfirmed"), 1, 0.0) for i in range(30)]
    assert len(compose(matches, [], 0, given)["memories"]) == used


def test_evidence_is_two_quotes_of_at_most_240_characters_with_emails_masked() -> None:
    long = "word " * 100
    memory = mem("x", evidence=("mail me at jane.doe+tag@example.co.uk please", long, "third"))
    shared = present(memory)
    assert len(shared["evidence"]) == 2
    assert shared["evidence"][0] == "mail me at [email] please"
    assert len(shared["evidence"][1]) <= 240 and shared["evidence"][1].endswith("…")
    assert shared["confirmed"] is True


@pytest.mark.parametrize("state", ["restricted", "rejected"])
def test_hidden_states_can_never_be_presented(state: str) -> None:
    with pytest.raises(ValueError):
        present(mem("secret", state))
