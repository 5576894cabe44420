"""Found by meaning (issue 19), through the service and the real server: an assistant's own words find
the owner's memories; the fill is the approved memories closest to the question."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from owner import cli

from personakit.core.reading import EMPTY_NOTE, FILL_NOTE, NOTE
from personakit.owner.decisions import decide
from personakit.vault.service import PersonaKit

from conftest import call, connect, server_env

READ, PROPOSE = "personakit_read", "personakit_propose"


# -- reads through the service ---------------------------------------------------------------------------
def _approved(kit: PersonaKit, text: str, quote: str, category: str) -> str:
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


def test_the_fill_reaches_every_word_of_the_questions_topics(
    vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With more memories on the table than the near words' cap reaches, the fill still finds the allergy
    for a dinner question ("dinner" and "allergic" share the food topic), and a word that counts as
    another ("dietary" as "diet") reaches that word's topics too."""
    kit = PersonaKit(vault)
    kit.start()
    try:
        fish = _approved(kit, "Is vegetarian but eats fish", "I'm veggie but I eat fish", "preferences")
        peanut = _approved(kit, "Allergic to peanuts", "peanuts put me in hospital", "constraints")
        for text in ("Wakes up at 6 every day", "Budget for holidays is under 1000 euros", "Hates flying"):
            _approved(kit, text, text.lower(), "constraints")  # newer, same category as the allergy
        for question in ("What should I cook for dinner?", "Any dietary restrictions I should know about?"):
            found = [m["id"] for m in kit.read(question, record=False)["memories"]]
            assert {fish, peanut} <= set(found), question
    finally:
        kit.close()
    code, out, _ = cli(capsys, "search", "What should I cook for dinner?", "--vault", str(vault))
    owner = out.split("For your eyes only", 1)[1]
    assert code == 0 and f"{peanut}  fill: related (" in owner and "~ allergic" in owner  # the owner sees why


def test_the_owners_search_says_why_each_memory_came_back(
    three: tuple[PersonaKit, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    kit, ids = three
    kit.close()
    code, out, _ = cli(capsys, "search", "What should I cook for dinner?", "--vault", str(kit.root))
    owner = out.split("For your eyes only", 1)[1]
    assert code == 0 and f"{ids['fish']}  fill: related (" in owner and "dinner ~ vegetarian" in owner
    code, out, _ = cli(capsys, "search", "vegetarianism at dinner", "--vault", str(kit.root))
    owner = out.split("For your eyes only", 1)[1]
    assert f"{ids['fish']}  shares: vegetarianism (as vegetarian); related: " in owner


def test_a_same_meaning_word_matches_and_counts_in_withheld(vault: Path) -> None:
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


@pytest.mark.anyio
async def test_a_products_kind_is_a_key_of_the_memory_that_names_it(vault: Path) -> None:
    """ "Which IDE?" finds the memory naming Neovim, ahead of memories sharing only "prefer"; a restricted
    memory found through its product's kind counts in `withheld`, and an everyday word that names a
    product elsewhere ("fish", a shell) is no key."""
    async with connect(vault) as session:
        editor = await call(
            session, PROPOSE, text="Uses Neovim with LazyVim", quote="nvim, always", category="tools"
        )
        for text in ("Prefers tea to coffee", "Prefers trains to planes", "Prefers mornings for calls"):
            await call(session, PROPOSE, text=text, quote=text.lower(), category="preferences")
        fish = await call(
            session, PROPOSE, text="Eats fish on Fridays", quote="fish fridays", category="other"
        )
        secret = await call(
            session,
            PROPOSE,
            text="Keeps every login in 1Password",
            quote="all my logins live there",
            category="tools",
        )
    _approve_cli(vault, editor["id"])
    done = subprocess.run(
        [sys.executable, "-m", "personakit", "restrict", secret["id"], "--vault", str(vault)],
        env=server_env(), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    async with connect(vault) as session:
        ide = await call(session, READ, question="Which IDE does she prefer?")
        assert ide["memories"][0]["id"] == editor["id"]
        shell = await call(session, READ, question="Which shell does she use?")
        assert fish["id"] not in [m["id"] for m in shell["memories"]]
        vault_question = await call(session, READ, question="Which password manager?")
        assert vault_question["withheld"] == 1 and secret["id"] not in str(vault_question)
