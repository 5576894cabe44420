"""The memory file format: identity, parsing of hand-typed files, and rewrites that touch one line."""

from __future__ import annotations

import re
import unicodedata

import pytest

from personakit.core.evidence import add_evidence
from personakit.core.memory import InvalidMemory, Memory, parse_memory, render_memory, set_state
from personakit.core.naming import memory_id, normalize, slug

HAND_FORMATTED = """---
# my own comment, keep it
id: m_0123456789ab
category:   preferences
state: unconfirmed   # review later
evidence:
    - "give me blunt feedback, skip the padding"
proposed_by: claude-desktop
created: 2026-11-12T09:41:00Z
mood: cheerful
tags: [a, b]
---
Prefers direct, practical feedback
"""


def test_id_is_m_and_12_hex_of_the_normalized_text() -> None:
    mid = memory_id("Prefers direct, practical feedback")
    assert re.fullmatch(r"m_[0-9a-f]{12}", mid)
    for same in (
        "  prefers DIRECT, practical   feedback. ",
        "Prefers direct, practical feedback!!",
        "Prefers\tdirect, practical\nfeedback",
    ):
        assert memory_id(same) == mid
    assert memory_id("Prefers direct practical feedback") != mid  # inner punctuation is part of the text


def test_normalize_keeps_inner_punctuation_and_drops_trailing() -> None:
    assert normalize("  Hello,   World?! ") == "hello, world"


@pytest.mark.parametrize(
    "text",
    [
        "../../etc/passwd",
        "a/b\\c",
        "\0nul",
        "🎉🎉",
        "مرحبا",
        "...",
        "",
        "C:\\x<y>|z?*",
        "‮gpj.exe",
        "CON",
        "lpt1",
    ],
)
def test_slug_never_names_a_path(text: str) -> None:
    s = slug(text)
    assert re.fullmatch(r"[^\W_]+(-[^\W_]+)*", s), s
    assert not set(s) & set('/\\:<>|?*"\0.') and s not in ("con", "lpt1")
    assert len(s) <= 60


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Prefers direct, practical feedback", "prefers-direct-practical-feedback"),
        ("Café crème, Straße", "cafe-creme-strasse"),  # Latin letters lose their accents, as before
        ("東京に住んでいる", "東京に住んでいる"),
        ("저는 녹차를 좋아해요", "저는-녹차를-좋아해요"),
        ("Любит зелёный чай", "любит-зелёный-чай"),
        ("喜欢喝绿茶，不加糖", "喜欢喝绿茶-不加糖"),
        ("🎉", "memory"),
    ],
)
def test_slugs_are_readable_in_every_script(text: str, name: str) -> None:
    assert slug(text) == name


def test_slugs_are_nfc_and_bounded_in_bytes() -> None:
    decomposed = unicodedata.normalize("NFD", "저는 녹차를 좋아해요")  # as a Mac's old file system spells it
    assert slug(decomposed) == slug("저는 녹차를 좋아해요") == unicodedata.normalize("NFC", slug(decomposed))
    long = slug("我喜欢喝绿茶" * 30)  # one word with no space to cut at
    assert long.startswith("我喜欢喝绿茶") and len(long.encode()) <= 120 and len(long) <= 60
    assert len(slug("word " * 100)) <= 60


def test_render_then_parse_round_trips() -> None:
    m = Memory(
        id=memory_id("Likes tea"), text="Likes tea", category="preferences", state="unconfirmed",
        evidence=("I love tea: #1, 'really'", 'say "yes"'), proposed_by="host", created="2026-01-02T03:04:05Z",
        name="likes-tea.md",
    )  # fmt: skip
    assert parse_memory(render_memory(m), "likes-tea.md") == m


def test_set_state_changes_exactly_one_line() -> None:
    new = set_state(HAND_FORMATTED, "approved")
    diff = [(a, b) for a, b in zip(HAND_FORMATTED.splitlines(), new.splitlines(), strict=True) if a != b]
    assert diff == [("state: unconfirmed   # review later", "state: approved   # review later")]
    assert parse_memory(new).state == "approved"


def test_add_evidence_adds_one_line_and_keeps_everything_else() -> None:
    new = add_evidence(HAND_FORMATTED, "and don't sugar-coat it: ever")
    old_lines, new_lines = HAND_FORMATTED.splitlines(), new.splitlines()
    assert len(new_lines) == len(old_lines) + 1
    added = [line for line in new_lines if line not in old_lines]
    assert added == ["    - 'and don''t sugar-coat it: ever'"]
    parsed = parse_memory(new)
    assert parsed.evidence == ("give me blunt feedback, skip the padding", "and don't sugar-coat it: ever")
    assert "mood: cheerful" in new and "# my own comment, keep it" in new


@pytest.mark.parametrize("evidence", ["evidence: [one, two]", "evidence: just one", "evidence: []", ""])
def test_add_evidence_to_other_shapes(evidence: str) -> None:
    raw = f"---\nid: m_0123456789ab\nstate: approved\n{evidence}\n---\nText\n".replace("\n\n", "\n")
    before = parse_memory(raw).evidence
    assert parse_memory(add_evidence(raw, "new words")).evidence == (*before, "new words")


@pytest.mark.parametrize(
    ("state_line", "expected"),
    [("state: approved", "approved"), ("state: aproved", "restricted"), ("", "restricted"),
     ("state: no", "restricted"), ("state: [approved]", "restricted"), ("state: Approved", "restricted")],
)  # fmt: skip
def test_missing_or_unknown_state_reads_as_restricted(state_line: str, expected: str) -> None:
    raw = f"---\nid: m_0123456789ab\ncategory: tools\n{state_line}\n---\nText\n"
    memory = parse_memory(raw)
    assert memory.state == expected
    assert bool(memory.problems) == (expected == "restricted")


@pytest.mark.parametrize(
    ("front", "said"),
    [("state: aproved", "state 'aproved' is not a state"), ("", "state is missing"),
     ("state: [approved]", "state is a list, not a state"), ("state: no", "state is a yes or no, not a state"),
     ("state: ''", "state is empty"), ("state: approved\ncategory: [a, b]", "category is a list, not one of")],
)  # fmt: skip
def test_problems_are_said_in_words_never_as_python_values(front: str, said: str) -> None:
    category = "" if "category" in front else "category: tools\n"
    (problem,) = parse_memory(f"---\n{category}{front}\n---\nText\n").problems
    assert problem.startswith(said)
    assert not re.search(r"None|\[|\]|False|True|\{", problem), problem


def test_a_missing_id_is_no_problem() -> None:
    memory = parse_memory("---\ncategory: tools\nstate: approved\n---\nUses vim\n")
    assert memory.id == memory_id("Uses vim") and memory.problems == ()


def test_unknown_category_reads_as_other_and_bad_id_is_derived() -> None:
    memory = parse_memory(
        "---\nid: 0042\ncategory: hobbies\nstate: approved\nevidence: hi\n---\nPlays chess\n"
    )
    assert memory.category == "other"
    assert memory.id == memory_id("Plays chess")
    assert memory.evidence == ("hi",)
    assert len(memory.problems) == 3


@pytest.mark.parametrize(
    ("raw", "line"),
    [("", 1), ("no front matter\n", 1), ("---\nid: [unclosed\n---\ntext\n", 3), ("---\n- a list\n---\ntext\n", 1),
     ("---\nid: m_0123456789ab\nstate: approved\n---\n   \n", None), ("---\nstate: approved\n  bad: indent\n---\nx\n", 3)],
)  # fmt: skip
def test_unparseable_files_raise_with_a_line(raw: str, line: int | None) -> None:
    with pytest.raises(InvalidMemory) as caught:
        parse_memory(raw)
    assert caught.value.line == line
    assert str(caught.value)


def test_timestamps_typed_by_hand_read_as_text() -> None:
    memory = parse_memory("---\nstate: approved\ncreated: 2026-11-12 09:41:00\n---\nText\n")
    assert memory.created == "2026-11-12T09:41:00Z"
