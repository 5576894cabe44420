"""Property tests: for arbitrary vaults and questions, what a read returns obeys every privacy and shape
rule; arbitrary propose arguments only ever produce documented answers. CI runs a reduced number of
examples; `PERSONAKIT_FULL=1` runs the full count."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from personakit.core.meaning import expand
from personakit.core.memory import Memory, render_memory
from personakit.core.naming import memory_id
from personakit.core.proposal import REASONS
from personakit.core.reading import NOTE, clamp_limit
from personakit.core.withholding import counted_words
from personakit.core.words import words
from personakit.vault.service import PersonaKit, init_vault

from rawclient import RawServer

FULL = os.environ.get("PERSONAKIT_FULL") == "1"
VOCAB = [
    "coffee",
    "tea",
    "morning",
    "running",
    "runs",
    "Lisbon",
    "python",
    "meetings",
    "dog",
    "the",
    "what",
    "jazz",
]
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)*\.[a-z]{2,}", re.IGNORECASE)
STATES = ["unconfirmed", "approved", "rejected", "restricted", "aproved", None]

word = st.sampled_from(VOCAB)
phrase = st.lists(word, min_size=1, max_size=5).map(" ".join)
quote = st.one_of(
    phrase,
    phrase.map(lambda p: f"{p}, mail me at someone.else@example.org"),
    st.integers(241, 600).map(lambda n: ("long words " * n)[:n]),
    st.text(max_size=60),
)
memory = st.tuples(phrase, st.sampled_from(STATES), st.lists(quote, min_size=0, max_size=3))
vault_contents = st.lists(memory, min_size=0, max_size=10)


def _write_vault(
    contents: list[tuple[str, str | None, list[str]]],
) -> tuple[Path, dict[str, tuple[str, str]]]:
    root = Path(tempfile.mkdtemp(prefix="pk-prop-")) / "vault"
    init_vault(root)
    truth: dict[str, tuple[str, str]] = {}  # id -> (effective state, text)
    for n, (text, state, quotes) in enumerate(contents):
        text = f"{text} tag{n}"  # unique texts, so every memory is its own
        m = Memory(
            memory_id(text),
            text,
            "other",
            state or "unconfirmed",
            tuple(q for q in quotes if q.strip()),
            "p",
            f"2026-01-{n + 1:02d}T00:00:00Z",
        )  # type: ignore[arg-type]
        raw = render_memory(m)
        if state is None:  # a missing state line, as a careless hand edit might leave it
            raw = raw.replace("state: unconfirmed\n", "")
        (root / "memories" / f"m{n}.md").write_text(raw)
        effective = state if state in ("unconfirmed", "approved", "rejected", "restricted") else "restricted"
        truth[m.id] = (effective, " ".join((m.text, *m.evidence)))
    return root, truth


@settings(max_examples=300 if FULL else 40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(contents=vault_contents, question=st.one_of(phrase, st.text(max_size=40)), limit=st.integers(-5, 30))
def test_reads_never_leak_and_keep_their_shape(contents: list, question: str, limit: int) -> None:
    root, truth = _write_vault(contents)
    kit = PersonaKit(root, create=False)
    kit.start()
    try:
        result = kit.read(question, limit)
    finally:
        kit.close()
    found = expand(words(question))  # the question's words and the words that count as them
    first = set(counted_words(words(question)))  # those that may make a restricted memory count
    asked = {w for group in found.classes if first.intersection(group) for w in group}
    shares = {i: bool(asked & set(words(t))) for i, (_, t) in truth.items()}
    ranked = set(found.counted)
    matched = {i: bool(ranked & set(words(t))) for i, (_, t) in truth.items()}
    visible_matches = [i for i, (s, _) in truth.items() if s in ("approved", "unconfirmed") and matched[i]]
    approved_rest = [i for i, (s, _) in truth.items() if s == "approved" and not matched[i]]
    returned = [m["id"] for m in result["memories"]]
    limit = clamp_limit(limit)

    assert all(truth[i][0] in ("approved", "unconfirmed") for i in returned)  # nothing restricted or rejected
    assert result["withheld"] == sum(1 for i, (s, _) in truth.items() if s == "restricted" and shares[i])
    m = len(visible_matches)
    expected = min(limit, m) if m >= 3 else min(limit, 3, m + len(approved_rest))
    assert len(returned) == expected <= limit
    assert set(returned[: min(limit, m)]) <= set(visible_matches)  # matches first, then the approved fill
    assert set(returned[min(limit, m) :]) <= set(approved_rest)
    for shared in result["memories"]:
        assert shared["confirmed"] == (truth[shared["id"]][0] == "approved")
        assert len(shared["evidence"]) <= 2
        for q in shared["evidence"]:
            assert len(q) <= 240 and not EMAIL.search(q)
    unconfirmed = any(not s["confirmed"] for s in result["memories"])
    assert ("note" in result) == (unconfirmed or not visible_matches)  # or nothing matched: said, with a hint
    assert (NOTE in result.get("note", "")) == unconfirmed


@pytest.fixture
def server(vault: Path):  # type: ignore[no-untyped-def]
    running = RawServer(vault)
    yield running
    assert running.close() == 0  # it never crashed


anything = st.one_of(
    st.text(), st.text(alphabet=st.characters(codec="utf-8")), st.integers(), st.none(), st.booleans(),
    st.lists(st.text(max_size=5), max_size=3), st.floats(allow_nan=False), st.text(min_size=290, max_size=320),
    st.just("\0"), st.just("../" * 10), st.just("x" * 100_000),
)  # fmt: skip


@settings(
    max_examples=1000 if FULL else 80, deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)  # fmt: skip
@given(text=anything, quote=anything, category=anything)
def test_arbitrary_proposals_get_documented_answers(
    server: RawServer, vault: Path, text, quote, category
) -> None:  # type: ignore[no-untyped-def]
    result = server.call("personakit_propose", text=text, quote=quote, category=category)
    if result.get("isError"):
        assert isinstance(result["content"][0]["text"], str) and result["content"][0]["text"]
        assert not all(isinstance(v, str) for v in (text, quote, category))  # only wrong types are errors
        return
    answer = result["structuredContent"]
    if answer["stored"]:
        assert set(answer) == {"stored", "id", "new", "state"}
        assert re.fullmatch(r"m_[0-9a-f]{12}", answer["id"])
        assert answer["state"] in ("unconfirmed", "approved", "rejected", "restricted")
    else:
        assert set(answer) == {"stored", "reason"} and answer["reason"] in REASONS
    assert {p.name for p in vault.iterdir()} <= {
        ".git",
        ".gitattributes",
        ".gitignore",
        ".personakit",
        "README.md",
        "memories",
    }
