"""The per-memory rules (core/merging.py) on three versions of a file: base, here (this device), there."""

from __future__ import annotations

import pytest

from personakit.core.memory import InvalidMemory, parse_memory, set_state
from personakit.core.merging import merge_memory, more_private
from personakit.core.naming import memory_id

TEXT = "Prefers direct, practical feedback"
BASE = f"""---
# my own comment, keep it
id: {memory_id(TEXT)}
category: preferences
state: unconfirmed   # review later
evidence:
    - "give me blunt feedback"
proposed_by: claude-desktop
created: 2026-11-12T09:41:00Z
mood: cheerful
---
{TEXT}
"""
MID = memory_id(TEXT)


def with_text(raw: str, text: str) -> str:
    return raw.replace(f"\n{TEXT}\n", f"\n{text}\n")


def with_quote(raw: str, quote: str) -> str:
    return raw.replace('    - "give me blunt feedback"\n', f'    - "give me blunt feedback"\n    - {quote}\n')


def test_the_order_of_privacy() -> None:
    assert more_private("approved", "unconfirmed") == "unconfirmed"
    assert more_private("unconfirmed", "rejected") == "rejected"
    assert more_private("restricted", "rejected") == "restricted"
    assert more_private("approved", "aproved") == "restricted"  # a typo reads as restricted


@pytest.mark.parametrize(
    "here, there", [(BASE, set_state(BASE, "approved")), (set_state(BASE, "approved"), BASE)]
)
def test_a_change_on_one_side_wins_whole(here: str, there: str) -> None:
    merged = merge_memory(BASE, here, there)
    assert merged.text == set_state(BASE, "approved") and not merged.notes and merged.second is None


def test_the_same_memory_added_on_both_sides_is_one_file_with_the_evidence_of_both() -> None:
    merged = merge_memory(None, BASE, with_quote(BASE, "no sugar-coating, please"))
    assert merged.text is not None and merged.second is None and not merged.notes
    assert parse_memory(merged.text).evidence == ("give me blunt feedback", "no sugar-coating, please")


def test_evidence_added_on_both_sides_is_the_union_and_keeps_the_formatting() -> None:
    here = set_state(with_quote(BASE, "mine"), "approved")
    there = with_quote(BASE, "theirs")
    merged = merge_memory(BASE, here, there)
    assert merged.text is not None
    memory = parse_memory(merged.text)
    assert memory.evidence == ("give me blunt feedback", "mine", "theirs") and memory.state == "approved"
    assert "# my own comment, keep it" in merged.text and "mood: cheerful" in merged.text
    assert "state: approved   # review later" in merged.text


@pytest.mark.parametrize(
    "here, there, kept",
    [
        ("approved", "restricted", "restricted"),
        ("restricted", "approved", "restricted"),
        ("rejected", "approved", "rejected"),
        ("rejected", "restricted", "restricted"),
    ],
)
def test_states_decided_differently_keep_the_more_private_and_say_so(
    here: str, there: str, kept: str
) -> None:
    merged = merge_memory(BASE, set_state(BASE, here), set_state(BASE, there))
    assert merged.text is not None and parse_memory(merged.text).state == kept
    (note,) = merged.notes
    assert (note.kind, note.id, note.here, note.there, note.kept) == ("decisions", MID, here, there, kept)
    assert here in note.sentence() and there in note.sentence() and TEXT in note.sentence()


def test_a_memory_added_on_both_sides_and_decided_on_one_keeps_that_decision() -> None:
    merged = merge_memory(None, BASE, set_state(BASE, "approved"))
    assert merged.text is not None and parse_memory(merged.text).state == "approved" and not merged.notes


def test_text_edited_on_both_sides_keeps_both_texts() -> None:
    here = with_text(BASE, "Prefers blunt feedback")
    there = set_state(with_text(BASE, "Prefers gentle feedback"), "approved")
    merged = merge_memory(BASE, here, there)
    assert merged.text is not None and merged.second is not None
    kept, second = parse_memory(merged.text), parse_memory(merged.second)
    assert (kept.id, kept.text) == (MID, "Prefers blunt feedback")
    assert (second.id, second.text, second.state) == (
        memory_id("Prefers gentle feedback"),
        "Prefers gentle feedback",
        "unconfirmed",
    )
    assert "mood: cheerful" in merged.second
    (note,) = merged.notes
    assert (note.kind, note.second) == ("texts", second.id)
    assert "Prefers blunt feedback" in note.sentence() and "Prefers gentle feedback" in note.sentence()


def test_a_second_memory_from_a_restricted_one_stays_restricted() -> None:
    there = set_state(with_text(BASE, "Prefers gentle feedback"), "restricted")
    merged = merge_memory(BASE, with_text(BASE, "Prefers blunt feedback"), there)
    assert merged.second is not None and parse_memory(merged.second).state == "restricted"


def test_a_second_memory_never_takes_the_first_ones_id() -> None:
    edited = with_text(BASE, "Prefers written feedback")  # the id stays the one of TEXT
    merged = merge_memory(edited, with_text(BASE, "Prefers spoken feedback"), BASE)  # there: back to TEXT
    assert merged.second is not None and merged.text is not None
    assert parse_memory(merged.second).id != parse_memory(merged.text).id


def test_the_text_edited_on_one_side_and_decided_on_the_other_keeps_both_changes() -> None:
    merged = merge_memory(BASE, with_text(BASE, "Prefers blunt feedback"), set_state(BASE, "restricted"))
    assert merged.text is not None and not merged.notes and merged.second is None
    memory = parse_memory(merged.text)
    assert (memory.text, memory.state) == ("Prefers blunt feedback", "restricted")


@pytest.mark.parametrize("forgotten_here", [True, False])
def test_forgotten_on_one_side_and_changed_on_the_other_keeps_the_change(forgotten_here: bool) -> None:
    changed = set_state(BASE, "approved")
    merged = merge_memory(BASE, None, changed) if forgotten_here else merge_memory(BASE, changed, None)
    assert merged.text == changed
    (note,) = merged.notes
    assert note.kind == "kept" and ("this device" in note.sentence()) == forgotten_here


@pytest.mark.parametrize("forgotten_here", [True, False])
def test_forgotten_on_one_side_and_untouched_on_the_other_is_forgotten(forgotten_here: bool) -> None:
    merged = merge_memory(BASE, None, BASE) if forgotten_here else merge_memory(BASE, BASE, None)
    assert merged.text is None and not merged.notes


def test_a_category_changed_differently_keeps_this_devices_and_says_so() -> None:
    here, there = (
        BASE.replace("category: preferences", "category: tools"),
        BASE.replace("category: preferences", "category: other"),
    )
    merged = merge_memory(BASE, here, there)
    assert merged.text is not None and parse_memory(merged.text).category == "tools"
    assert [n.kind for n in merged.notes] == ["category"]


def test_keys_added_on_each_side_both_survive() -> None:
    here = BASE.replace("mood: cheerful\n", "mood: cheerful\ntags: [a]\n")
    there = set_state(BASE.replace("mood: cheerful\n", "mood: cheerful\nsource: chat\n"), "approved")
    merged = merge_memory(BASE, here, there)
    assert merged.text is not None and "tags: [a]" in merged.text and "source: chat" in merged.text
    assert parse_memory(merged.text).state == "approved"


def test_an_unreadable_version_changed_on_both_sides_is_left_to_a_text_merge() -> None:
    with pytest.raises(InvalidMemory):
        merge_memory(BASE, BASE.replace("state: unconfirmed", "state: [oops"), set_state(BASE, "approved"))
