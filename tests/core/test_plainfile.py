"""The fast path for plain memory files gives exactly the Memory `parse_memory` gives, or steps aside."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from personakit.core.memory import CATEGORIES, STATES, InvalidMemory, Memory, parse_memory, render_memory
from personakit.core.naming import clean
from personakit.core.plainfile import _clean, read_memory, read_plain

# Values a person might type where a plain word is expected: YAML reads many of them as something else.
ODD = ["yes", "no", "on", "null", "~", "123", "0042", "1e3", "0x1f", "2026-01-01", "a: b", "#x", "x #y", "- x",
       "[a]", "{a: 1}", "&anchor x", "*alias", "!tag x", "|", ">", "'quoted'", '"double"', "it's", "tab\there",
       "<<", "=", "%x", "@x", "`x", "ünï", "emoji 😀", "x\u2028y", "x\x85y", "\ufeffbom", "\x07bell", " lead"]  # fmt: skip
printable = st.text(st.characters(min_codepoint=32, max_codepoint=0x24FF), max_size=60)
words = st.integers(0, 5).flatmap(
    lambda i: printable if i else st.one_of(st.text(max_size=60), st.sampled_from(ODD))
)
valid_created = st.datetimes(timezones=st.none()).map(lambda d: d.strftime("%Y-%m-%dT%H:%M:%SZ"))
# A day or none; sometimes one read_day reports (before 1900, impossible, not a day).
days = st.one_of(
    st.just(""), st.dates().map(lambda d: d.strftime("%Y-%m-%d")),
    st.sampled_from(["1899-12-31", "2026-02-30", "0001-01-01", "tomorrow", "2026-1-2"]),
)  # fmt: skip


def mostly(valid: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Valid values most of the time (so the fast path is taken and compared), odd ones sometimes."""
    return st.integers(0, 9).flatmap(lambda i: valid if i else words)


@st.composite
def memories(draw: st.DrawFn) -> Memory:
    return Memory(
        id=draw(mostly(st.from_regex(r"\Am_[0-9a-f]{12}\Z"))),
        text=draw(
            st.one_of(printable.filter(str.strip), st.text(min_size=1, max_size=320), st.sampled_from(ODD))
        ),
        category=draw(mostly(st.sampled_from(CATEGORIES))),  # type: ignore[arg-type]
        state=draw(mostly(st.sampled_from(STATES))),  # type: ignore[arg-type]
        evidence=tuple(draw(st.lists(words, max_size=4))),
        proposed_by=draw(words),
        created=draw(mostly(valid_created)),
        said=draw(days),
        until=draw(days),
    )


# Categories other tools name (read as 'other', with a problem): the fast path takes them too.
OTHER_TOOLS = ["fact", "skill", "routine", "goal", "relationship", "Preferences", "x" * 80]
# Plain words with the punctuation YAML cares about: what most files hold, and where quoting is decided.
tricky = st.text(st.sampled_from("abcXYZ019 .,:;#'\"-!?()[]{}&*%@`|>~=<üé"), min_size=1, max_size=40)


@st.composite
def plain_memories(draw: st.DrawFn) -> Memory:
    return Memory(
        id=draw(st.from_regex(r"\Am_[0-9a-f]{12}\Z")),
        text=draw(tricky.filter(str.strip)),
        category=draw(st.one_of(st.sampled_from(CATEGORIES), st.sampled_from(OTHER_TOOLS), tricky)),  # type: ignore[arg-type]
        state=draw(st.sampled_from(STATES)),  # type: ignore[arg-type]
        evidence=tuple(draw(st.lists(st.one_of(tricky, st.sampled_from(ODD)), max_size=4))),
        proposed_by=draw(st.one_of(tricky, st.sampled_from(ODD))),
        created=draw(valid_created),
        said=draw(days),
        until=draw(days),
    )


def typed(memory: Memory, draw: st.DrawFn) -> str:
    """The memory as a person might type it: values as they are, no quoting, in any order."""
    lines = [f"id: {memory.id}", f"category: {memory.category}", f"state: {memory.state}",
             f"proposed_by: {memory.proposed_by}", f"created: {memory.created}",
             *(f"{k}: {v}" for k, v in (("said", memory.said), ("until", memory.until)) if v)]  # fmt: skip
    indent = draw(st.sampled_from(["", "  ", "    "]))
    lines.append("evidence:" + "".join(f"\n{indent}- {q}" for q in memory.evidence))
    lines = draw(st.permutations(lines))
    return "---\n" + "\n".join(lines) + "\n---\n" + memory.text + "\n"


def mangled(raw: str, draw: st.DrawFn) -> str:
    """raw with one of the changes a hand edit makes."""
    lines = raw.split("\n")
    where = draw(st.integers(0, max(len(lines) - 1, 0)))
    change = draw(
        st.sampled_from(["none", "duplicate", "drop", "comment", "indent", "crlf", "blank", "dashes"])
    )
    if change == "duplicate":
        lines.insert(where, lines[where])
    elif change == "drop":
        del lines[where]
    elif change == "comment":
        lines[where] += " # note"
    elif change == "indent":
        lines[where] = " " + lines[where]
    elif change == "blank":
        lines.insert(where, "")
    elif change == "dashes":
        lines.insert(where, "----")
    text = "\n".join(lines)
    return text.replace("\n", "\r\n") if change == "crlf" else text


def same_as_the_slow_path(raw: str) -> bool:
    """Asserts the fast path agrees with parse_memory; returns whether it took the file."""
    fast = read_plain(raw, "note.md")
    try:
        slow = parse_memory(raw, "note.md")
    except InvalidMemory:
        assert fast is None, raw
        with pytest.raises(InvalidMemory):
            read_memory(raw, "note.md")
        return False
    if fast is not None:
        assert fast == slow and fast.problems == slow.problems, raw
    assert read_memory(raw, "note.md") == slow
    return fast is not None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memories(), st.data())
def test_files_personakit_writes_read_the_same(memory: Memory, data: st.DataObject) -> None:
    try:
        raw = render_memory(memory)
    except Exception:
        assume(False)
    same_as_the_slow_path(mangled(raw, data.draw))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(memories(), st.data())
def test_files_typed_by_hand_read_the_same(memory: Memory, data: st.DataObject) -> None:
    same_as_the_slow_path(mangled(typed(memory, data.draw), data.draw))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plain_memories(), st.booleans(), st.data())
def test_plain_files_with_tricky_punctuation_read_the_same(
    memory: Memory, by_hand: bool, data: st.DataObject
) -> None:
    same_as_the_slow_path(typed(memory, data.draw) if by_hand else render_memory(memory))


@given(st.text())
def test_the_quick_clean_is_clean(text: str) -> None:
    assert _clean(text) == clean(text)


def test_what_personakit_writes_takes_the_fast_path() -> None:
    """Without this the fast path could quietly stop being taken, and a first index be slow again."""
    taken = 0
    for i, text in enumerate(
        ["Prefers tea over coffee", "Uses vim for Python, and ruff", "Grew up in Zürich"]
    ):
        memory = Memory(
            id=f"m_{i:012x}", text=text, category="preferences", state=STATES[i % 4],
            evidence=("I'd pick tea any day", "it's what I know: really", "yes"),
            proposed_by="claude-desktop", created="2026-01-02T03:04:05Z", name="note.md",
            said="2025-12-24" if i else "", until="2026-03-01" if i == 2 else "",
        )  # fmt: skip
        taken += same_as_the_slow_path(render_memory(memory))
    assert taken == 3


def test_a_category_outside_the_seven_takes_the_fast_path_with_its_problem() -> None:
    """A vault another tool made may name every memory's category so: the slow path cost 0.5 ms a file."""
    for category in OTHER_TOOLS:
        raw = f"---\nid: m_00000000000a\ncategory: {category}\nstate: approved\nevidence:\n  - I said so\n---\nKeeps bees\n"
        assert same_as_the_slow_path(raw), category
        memory = read_plain(raw, "note.md")
        assert memory is not None and memory.category == "other" and len(memory.problems) == 1
        assert "one of the seven" in memory.problems[0] and category[:57] in memory.problems[0]
