"""Memories masking left as they are are not scanned again (`core.masking.Plain`, `vault.plain`), and a
read shows exactly what masking makes of every memory, whether it was scanned now, known plain from this
process, from a file an earlier server kept, or masked ahead."""

from __future__ import annotations

import json
import random
import subprocess
import threading
import time
from pathlib import Path
from typing import cast

import anyio
import pytest
from credential_corpus import TUNING, benign, secrets

import personakit.core.masking as masking
from personakit.core.masking import MAX_QUOTE_CHARS, MAX_QUOTES, Plain, _masked, plain_key, present
from personakit.core.memory import Category, Memory, State, render_memory
from personakit.core.naming import memory_id, slug
from personakit.core.proposal import shorten
from personakit.store.index import stored_memories
from personakit.vault.plain import (
    APART_FROM,
    FILE,
    IDLE,
    KEY,
    Calls,
    PlainKeeper,
    mask_ahead,
    mask_apart,
    until_quiet,
)
from personakit.vault.service import PersonaKit, init_vault

from conftest import connect

WORDS = [
    "coffee",
    "tea",
    "morning",
    "meeting",
    "garden",
    "python",
    "rust",
    "travel",
    "sister",
    "dinner",
    "book",
    "music",
    "run",
    "walk",
]
STATES: tuple[State, ...] = ("approved", "approved", "unconfirmed", "restricted", "rejected")


def _pairs() -> list[tuple[str, tuple[str, ...]]]:
    """Texts and quotes: secrets (alone, and cut between a text and its quote), benign near-misses,
    addresses, and prose."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for secret in secrets(TUNING)[::7]:
        found.append((secret.text, (secret.quote,) if secret.quote else ()))
    for item in benign(TUNING)[::7]:
        found.append((item.text, (item.quote,) if item.quote else ()))
    found += [
        ("Writes to sam@example.com on Fridays", ("mail sam at example dot com",)),
        ("Likes tea in the morning", ("I drink tea every morning", "cc jo@example.org please")),
        ("Runs a garden", ("x" * 300,)),  # a quote masking shortens
    ]
    return found


def test_plain_shows_what_masking_makes_scanned_or_known() -> None:
    plain = Plain()
    pairs = _pairs()
    assert len(pairs) > 100
    for text, quotes in pairs:
        expected = _masked(text, quotes)
        assert plain.shown(text, quotes) == expected  # scanned
        assert plain.shown(text, quotes) == expected  # known plain, or scanned again
        assert (plain_key(text, quotes) in plain.keys) is (expected == _unmasked(text, quotes))


def test_plain_keeps_a_plain_memory_as_its_key_and_a_masked_one_masked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server shows thousands of memories: those masking leaves alone are kept as 16-byte keys, not as
    copies of their words; the few it changes are kept masked, so they are not scanned at each read."""
    plain, scans = Plain(), []
    scan = masking._mask_parts
    monkeypatch.setattr(masking, "_mask_parts", lambda text, quotes: scans.append(text) or scan(text, quotes))
    cached = _masked.cache_info().currsize
    texts = [f"Likes {word} number {i}" for i, word in enumerate(WORDS * 20)]
    for text in texts:
        plain.shown(text, ("I said so",))
    assert _masked.cache_info().currsize == cached
    assert len(plain.keys) == len(texts) and scans == texts
    secret = ("Writes to sam@example.com", ("mail me at sam@example.com",))
    first = plain.shown(*secret)
    assert plain.shown(*secret) == first == _masked(*secret) != _unmasked(*secret)
    assert scans == [*texts, secret[0]]  # the masked memory was scanned once


def _unmasked(text: str, quotes: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    return text, tuple(shorten(q, MAX_QUOTE_CHARS) for q in quotes)


def test_a_memory_with_a_secret_or_an_address_is_never_known_plain() -> None:
    plain = Plain()
    for secret in secrets(TUNING)[::11]:
        quotes = (secret.quote,) if secret.quote else ()
        plain.shown(secret.text, quotes)
        assert plain_key(secret.text, quotes) not in plain.keys, secret
    plain.shown("Writes to sam@example.com", ())
    assert not plain.keys


def test_keys_tell_apart_texts_and_quotes_split_differently() -> None:
    assert plain_key("ab", ("c",)) != plain_key("a", ("bc",))
    assert plain_key("a", ("b", "c")) != plain_key("a", ("b c",))
    assert plain_key("a", ()) != plain_key("a", ("",))


def _vault(root: Path, count: int = 120) -> None:
    """A vault of prose memories in all four states, some with a secret or an address in the text or a
    quote (read back masked), committed once."""
    rng = random.Random(5)
    hidden = [s for s in secrets(TUNING) if s.secret and not s.quote][:40]
    init_vault(root)
    for i in range(count):
        text = " ".join(rng.choices(WORDS, k=6)) + f" {i}"
        quotes = [" ".join(rng.choices(WORDS, k=8))]
        if i % 4 == 0:
            quotes.append(hidden[i // 4 % len(hidden)].text)
        if i % 9 == 0:
            text += " with lee@example.com"
        mid = memory_id(text)
        memory = Memory(
            id=mid, text=text, category=cast(Category, "other"), state=STATES[i % len(STATES)],
            evidence=tuple(quotes), proposed_by="test", created=f"2025-01-{1 + i % 28:02d}T10:00:00Z",
            name=f"{slug(text)}-{mid[2:8]}.md",
        )  # fmt: skip
        (root / "memories" / memory.name).write_text(render_memory(memory), encoding="utf-8")
    for args in (["add", "-A"], ["commit", "-qm", "memories"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def _reads(kit: PersonaKit, questions: list[str]) -> list[str]:
    return [json.dumps(kit.read(q, 20, record=False), sort_keys=True) for q in questions]


def _straight(kit: PersonaKit, questions: list[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The reads with every memory scanned, as before `Plain`."""
    with monkeypatch.context() as patch:
        patch.setattr("personakit.core.reading.present", lambda m, today=None, plain=None: present(m, today))
        return _reads(kit, questions)


def _started(tmp_path: Path, seed: int, count: int) -> tuple[Path, list[str], PersonaKit]:
    """A vault (`_vault`), count questions of its words, and a PersonaKit started on it, kept keys loaded."""
    root = tmp_path / "vault"
    _vault(root)
    rng = random.Random(seed)
    questions = [" ".join(rng.choices(WORDS, k=rng.randint(2, 6))) for _ in range(count)]
    kit = PersonaKit(root, create=False)
    kit.start()
    kit.plain.load()
    return root, questions, kit


def test_reads_are_unchanged_scanned_known_kept_and_masked_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, questions, first = _started(tmp_path, seed=9, count=60)
    try:
        expected = _straight(first, questions, monkeypatch)
        assert any("[secret]" in r for r in expected) and any("[email]" in r for r in expected)
        assert _reads(first, questions) == expected  # scanned, then known plain in this process
        assert _reads(first, questions) == expected
        known = set(first.plain.plain.keys)
        assert known
    finally:
        first.close()
    kept = (root / ".personakit" / FILE).read_bytes()
    second = PersonaKit(root, create=False)
    second.start()
    second.plain.load()
    try:
        assert second.plain.plain.keys == known  # what the first server kept
        assert _reads(second, questions) == expected
        memories = [hit.memory for hit in second.index.all(pause=True)]
        assert mask_ahead(second.plain, memories, lambda: False, lambda: False) > 0
        for memory in memories:
            quotes = memory.evidence[:MAX_QUOTES]
            is_plain = _masked(memory.text, quotes) == _unmasked(memory.text, quotes)
            key = plain_key(memory.text, quotes)
            if memory.state in ("approved", "unconfirmed"):
                assert (key in second.plain.plain.keys) is is_plain
            else:  # never shown, never masked ahead
                assert key not in second.plain.plain.keys
        assert _reads(second, questions) == expected
        after = set(second.plain.plain.keys)
    finally:
        second.close()
    third = PlainKeeper(root / ".personakit")
    third.load()
    assert third.plain.keys == after and len(after) >= len(known)
    assert (root / ".personakit" / FILE).read_bytes().startswith(kept)


def test_the_file_is_dropped_for_other_rules_and_a_torn_key_is_ignored(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    keeper = PlainKeeper(state)
    keeper.load()
    keeper.plain.shown("Likes tea", ("I like tea",))
    keeper.save(at_least=1)
    data = (state / FILE).read_bytes()
    (state / FILE).write_bytes(data + b"\x01" * (KEY - 3))  # a kill in the middle of an append
    again = PlainKeeper(state)
    again.load()
    assert again.plain.keys == keeper.plain.keys and len(again.plain.keys) == 1
    (state / FILE).write_bytes(b"personakit plain other-rules\n" + data.split(b"\n", 1)[1])
    other = PlainKeeper(state)
    other.load()
    assert not other.plain.keys and not (state / FILE).exists()
    memory_only = PlainKeeper(None)  # a vault that cannot be written: nothing is kept
    memory_only.load()
    memory_only.plain.shown("Likes tea", ("I like tea",))
    memory_only.save(at_least=1)
    assert memory_only.plain.keys


def test_masking_ahead_waits_while_reads_run_and_stops_when_told() -> None:
    memories = [
        Memory(id=memory_id(f"Likes tea {i}"), text=f"Likes tea {i}", category="other", state="approved",
               evidence=("I like tea",), proposed_by="test", created="2025-01-01T10:00:00Z", name=f"t{i}.md")
        for i in range(5)
    ]  # fmt: skip
    asked = []

    def busy() -> bool:
        asked.append(True)
        return len(asked) <= 3  # a read runs for the first three looks

    keeper = PlainKeeper(None)
    assert mask_ahead(keeper, memories, lambda: False, busy) == 5
    assert len(asked) == 3 + 5 and len(keeper.plain.keys) == 5
    assert mask_ahead(PlainKeeper(None), memories, lambda: True, lambda: True) == 0  # closing


def test_a_file_grown_past_its_bound_starts_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    keeper = PlainKeeper(tmp_path)
    keeper.load()
    for i in range(3):
        keeper.plain.shown(f"Likes tea {i}", ("I like tea",))
    keeper.save(at_least=1)
    monkeypatch.setattr("personakit.vault.plain.MOST_BYTES", len((tmp_path / FILE).read_bytes()) - 1)
    again = PlainKeeper(tmp_path)
    again.load()
    assert not again.plain.keys and not (tmp_path / FILE).exists()


def test_any_call_running_or_just_ended_keeps_masking_ahead_waiting(vault: Path) -> None:
    calls = Calls()
    assert not calls.busy()
    with calls:
        with calls:  # a read on one thread, a proposal on another
            assert calls.busy()
        assert calls.busy() and calls.running == 1
    assert calls.busy()  # just ended
    calls.ended -= IDLE
    assert not calls.busy()
    waiting = threading.Thread(target=until_quiet, args=(calls.busy, lambda: False))  # common words ahead
    with calls:
        until_quiet(calls.busy, lambda: True)  # a server closing: at once, though a call runs
        waiting.start()
        waiting.join(0.2)
        assert waiting.is_alive()  # waits while the call runs
    waiting.join(10)
    assert not waiting.is_alive() and not calls.busy()  # went on once it was quiet
    kit = PersonaKit(vault)
    kit.start()
    try:
        for call in (
            lambda: kit.propose("Likes green tea", "green tea please", "preferences"),
            lambda: kit.read("tea", record=False),
            lambda: kit.sync(None),
        ):
            before = time.monotonic()
            call()
            assert kit._calls.ended >= before and kit._calls.running == 0  # it went through `with calls`
    finally:
        kit.close()


def _helpers(index: Path) -> list[str]:
    """The masking-ahead processes at work on this index."""
    found = subprocess.run(["pgrep", "-f", f"personakit.vault.plain {index}"], capture_output=True, text=True)
    return found.stdout.split()


def test_masking_ahead_apart_finds_what_masking_here_finds_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, questions, kit = _started(tmp_path, seed=3, count=40)
    try:
        assert kit.index.folder is not None
        expected = _straight(kit, questions, monkeypatch)
        here = PlainKeeper(None)
        mask_ahead(here, [hit.memory for hit in kit.index.all()], lambda: False, lambda: False)
        state = sorted(p.name for p in (root / ".personakit").iterdir())
        other = tmp_path / "elsewhere" / "personakit" / "vault"  # a folder the server was started from
        other.mkdir(parents=True)
        for init in (other / "__init__.py", other.parent / "__init__.py"):
            init.write_text("")
        (other / "plain.py").write_text("import sys\nsys.stdout.buffer.write(b'x' * 16)\n")
        monkeypatch.chdir(other.parents[1])  # its personakit is not the one the helper runs
        taken = mask_apart(kit.plain, kit.index.folder, lambda: False)
        assert taken == len(here.plain.keys) > 0  # no secret, no address, no restricted memory among them
        assert kit.plain.plain.keys == here.plain.keys
        assert sorted(p.name for p in (root / ".personakit").iterdir()) == state  # the helper wrote nothing
        kit.plain.save(at_least=1)
        kept = PlainKeeper(root / ".personakit")
        kept.load()
        assert kept.plain.keys == here.plain.keys  # taken in as a read's own keys are: kept for the next
        assert _reads(kit, questions) == expected
        assert mask_apart(kit.plain, kit.index.folder, lambda: False) == 0  # all known: nothing more
        assert mask_apart(kit.plain, tmp_path / "no-index", lambda: False) is None  # it failed: said
        started = time.monotonic()
        assert mask_apart(PlainKeeper(None), kit.index.folder, lambda: True) is None  # closing: stopped
        assert time.monotonic() - started < 5 and not _helpers(kit.index.folder)
    finally:
        kit.close()


def test_a_server_masks_a_big_vault_ahead_apart_and_leaves_no_process_behind(tmp_path: Path) -> None:
    """Served: a vault of APART_FROM memories and more, none known plain, is masked ahead by a process of
    its own while the host reads; its keys reach the kept file; closing the server ends it."""
    root = tmp_path / "vault"
    _vault(root, count=APART_FROM + 100)
    index, log = root / ".personakit" / "index", tmp_path / "server.log"
    expected = PlainKeeper(None)

    async def serve() -> None:
        async with connect(root, stderr=log) as session:
            await session.call_tool("personakit_read", {"question": "tea"})
            memories = list(stored_memories(index))  # the same memories, masked here for the keys expected
            mask_ahead(expected, memories, lambda: False, lambda: False)
            for _ in range(600):
                kept = PlainKeeper(root / ".personakit")
                kept.load()
                if kept.plain.keys >= expected.plain.keys and "in a process of its own" in log.read_text():
                    break
                await anyio.sleep(0.1)
            assert kept.plain.keys >= expected.plain.keys and expected.plain.keys
            assert (
                f"masked {len(expected.plain.keys):,} memories ahead in a process of its own"
                in log.read_text()
            )
            await session.call_tool("personakit_read", {"question": "coffee"})
        for _ in range(100):
            if not _helpers(index):
                break
            await anyio.sleep(0.05)
        assert not _helpers(index)

    anyio.run(serve)
