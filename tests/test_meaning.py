"""Found by meaning (issue 19): related words and the closest fill, through the table, the engine, the
index and the real server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from personakit.core.meaning import EXPAND_LIMITS, expand, near_words, same_words
from personakit.core.reading import EMPTY_NOTE, FILL_NOTE, NOTE
from personakit.core.words import words
from personakit.service import PersonaKit
from tests.conftest import connect, server_env

READ, PROPOSE = "personakit_read", "personakit_propose"
TABLE = Path(__file__).resolve().parents[1] / "personakit" / "core" / "meaning" / "related.tsv"


def _one(word: str) -> str:
    (found,) = words(word)
    return found


# -- the table and the engine ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("word", "other"),
    [
        ("allergy", "allergic"),  # a derivation that keeps its beginning
        ("vegetarian", "vegetarianism"),
        ("answer", "reply"),  # each word's dominant sense is the same synset
        ("doctor", "physician"),
        ("deploy", "deployment"),
    ],
)
def test_words_of_the_same_meaning_are_one_class(word: str, other: str) -> None:
    assert _one(other) in same_words(_one(word))
    assert _one(word) in same_words(_one(other))  # stored both ways


@pytest.mark.parametrize(
    ("word", "near"),
    [("dinner", "meal"), ("dinner", "food"), ("cook", "dinner"), ("format", "bullet"), ("answer", "format")],
)
def test_topic_words_are_near_not_the_same(word: str, near: str) -> None:
    assert _one(near) in near_words(_one(word))
    assert _one(near) not in same_words(_one(word))


def test_rare_senses_do_not_make_synonyms() -> None:
    # "pet" can mean to caress, "go" to travel, "cook" to prepare: none counts as the same word.
    assert _one("kiss") not in same_words(_one("pet"))
    assert _one("prepare") not in same_words(_one("cook"))
    assert _one("call") not in same_words(_one("meeting"))


def test_expansion_is_capped_and_deterministic() -> None:
    question = words("food meal dinner eat cook recipe diet format answer travel schedule family health")
    first, second = expand(question), expand(list(question))
    assert first == second
    per_word, most = EXPAND_LIMITS
    assert len(first.near) <= most
    for term in question:
        assert sum(1 for source, _ in first.near if source == term) <= per_word
    counted = first.counted
    assert len(counted) == len(set(counted))  # a word is in one class only
    assert not {near for _, near in first.near} & set(counted)


def test_the_table_is_sorted_by_bytes_with_one_line_per_word() -> None:
    lines = TABLE.read_text(encoding="utf-8").splitlines()
    keys = [line.split("\t", 1)[0] for line in lines]
    assert keys == sorted(keys, key=lambda k: k.encode()) and len(keys) == len(
        set(keys)
    )  # bisection needs it
    assert all(line.count("\t") == 2 for line in lines)


# -- reads through the service ---------------------------------------------------------------------------
def _approved(kit: PersonaKit, text: str, quote: str, category: str) -> str:
    from personakit.owner.decisions import decide

    mid = kit.propose(text, quote, category)["id"]  # type: ignore[typeddict-item]
    decide(kit, mid, "approved")
    return mid


@pytest.fixture
def three(vault: Path) -> tuple[PersonaKit, dict[str, str]]:
    kit = PersonaKit(vault)
    kit.start()
    ids = {
        "fish": _approved(kit, "Is vegetarian but eats fish", "I'm veggie but I eat fish", "preferences"),
        "peanut": _approved(kit, "Allergic to peanuts", "peanuts put me in hospital", "constraints"),
        "bullet": _approved(
            kit,
            "Prefers bullet points over long paragraphs",
            "bullets please, no walls of text",
            "communication",
        ),
    }
    for i in range(4):  # newer approved memories on other subjects: "newest first" would pick these
        _approved(kit, f"Plays chess on Sundays number {i}", f"chess {i}", "other")
    return kit, ids


def test_the_fill_picks_the_closest_approved_memories(three: tuple[PersonaKit, dict[str, str]]) -> None:
    kit, ids = three
    try:
        dinner = kit.read("What should I cook for them for dinner?", record=False)
        assert {m["id"] for m in dinner["memories"][:2]} == {ids["fish"], ids["peanut"]}
        assert dinner["note"] == FILL_NOTE
        fmt = kit.read("How should I format my answer?", record=False)
        assert fmt["memories"][0]["id"] == ids["bullet"]
    finally:
        kit.close()


def test_a_same_meaning_word_matches_and_counts_in_withheld(vault: Path) -> None:
    from personakit.owner.decisions import decide

    kit = PersonaKit(vault)
    kit.start()
    try:
        mid = kit.propose("Allergic to penicillin", "penicillin gives me hives", "constraints")["id"]  # type: ignore[typeddict-item]
        found = kit.read("Any allergies?", record=False)
        assert [m["id"] for m in found["memories"]] == [mid] and found["note"] == NOTE
        decide(kit, mid, "restricted")
        hidden = kit.read("Any allergies?", record=False)
        assert hidden == {"memories": [], "withheld": 1, "note": EMPTY_NOTE}
        decide(kit, mid, "rejected")
        assert kit.read("Any allergies?", record=False)["withheld"] == 0
    finally:
        kit.close()


def test_more_of_the_questions_own_words_still_rank_first(vault: Path) -> None:
    kit = PersonaKit(vault)
    kit.start()
    try:
        plain = _approved(kit, "Cooks dinner at six", "dinner at six", "other")
        near = _approved(kit, "Eats a big meal with food from the market", "meal and food", "preferences")
        result = kit.read("dinner", record=False)
        assert [m["id"] for m in result["memories"]][:2] == [plain, near]  # the match, then the closest fill
        assert "note" not in result
    finally:
        kit.close()


# -- end to end, through the real server -----------------------------------------------------------------
def _approve_cli(vault: Path, mid: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "personakit", "approve", mid, "--vault", str(vault)],
        env=server_env(), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


@pytest.mark.anyio
async def test_an_assistants_own_words_find_the_owners_memories(vault: Path) -> None:
    async def call(session: Any, name: str, **arguments: Any) -> dict[str, Any]:
        result = await session.call_tool(name, arguments)
        assert not result.is_error, result.content
        assert json.loads(result.content[0].text) == result.structured_content
        return dict(result.structured_content)

    proposals = {
        "fish": ("Is vegetarian but eats fish", "I don't eat meat, fish is fine", "preferences"),
        "peanut": ("Allergic to peanuts", "peanuts and I are not friends", "constraints"),
        "bullet": ("Prefers bullet points over long paragraphs", "just give me bullets", "communication"),
    }
    ids: dict[str, str] = {}
    async with connect(vault) as session:
        for key, (text, quote, category) in proposals.items():
            ids[key] = (await call(session, PROPOSE, text=text, quote=quote, category=category))["id"]
        before = await call(session, READ, question="What should I cook for them for dinner?")
        assert before["memories"] == [] and before["withheld"] == 0 and before["note"] == EMPTY_NOTE
    for mid in ids.values():
        _approve_cli(vault, mid)
    async with connect(vault) as session:
        dinner = await call(session, READ, question="What should I cook for them for dinner?")
        assert {m["id"] for m in dinner["memories"][:2]} == {ids["fish"], ids["peanut"]}
        assert set(dinner) == {"memories", "withheld", "note"}  # the 0.1 shape, and the note
        fmt = await call(session, READ, question="How should I format my answer?")
        assert fmt["memories"][0]["id"] == ids["bullet"]
        assert fmt["memories"][0]["confirmed"] is True
