"""A memory is its text as a person reads it: invisible characters, look-alike letters and a hyphen inside
a word do not make it another memory, and invisible characters never reach a file or an assistant."""

from __future__ import annotations

import hashlib
import json
import unicodedata
from pathlib import Path

import pytest
from git import Repo

from personakit.core.naming import clean, memory_id, memory_ids, normalize, reading_form
from personakit.owner.decisions import decide
from personakit.vault.service import PersonaKit

from rawclient import RawServer

SHARK = "Owes money to loanshark Vinnie"
VARIANTS = [
    "Owes money to loan\u200bshark Vinnie",  # a zero-width space
    "Owes m\u043eney to loanshark Vinnie",  # a Cyrillic о
    "Owes money to loan-shark Vinnie",
    "Owes money to \u202eloanshark\u202c Vinnie",  # a bidirectional override
    "Owes money to loans\u00adhark Vinnie",  # a soft hyphen
]
INVISIBLE = "\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
QUALITY = Path(__file__).resolve().parents[2] / "bench" / "quality" / "memories.jsonl"


def _old_id(text: str) -> str:
    """The id PersonaKit made up to 0.3: sha256 of the NFKC, case-folded text, end punctuation aside."""
    kept = " ".join(text.split())
    kept = "".join(c for c in kept if unicodedata.category(c) not in ("Cc", "Cs"))
    form = unicodedata.normalize("NFKC", kept).casefold().rstrip(".!?,;:…。！？、 ").strip()
    return "m_" + hashlib.sha256(form.encode()).hexdigest()[:12]


@pytest.fixture
def kit(vault: Path):  # type: ignore[no-untyped-def]
    kit = PersonaKit(vault, create=False)
    kit.start()
    yield kit
    kit.close()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_rejected_memory_does_not_come_back_with_an_invisible_change(kit: PersonaKit, variant: str) -> None:
    first = kit.propose(SHARK, "I owe Vinnie money", "background")
    decide(kit, first["id"], "rejected")
    again = kit.propose(variant, "I owe Vinnie", "background")
    assert again == {"stored": True, "id": first["id"], "new": False, "state": "rejected"}
    assert len(list((kit.root / "memories").glob("*.md"))) == 1


def test_invisible_characters_never_reach_a_file_or_an_assistant(vault: Path) -> None:
    text = "Likes\u200b green\u202e tea\u2066 a lot"
    hand = vault / "memories" / "hand.md"
    hand.write_text(
        f"---\nid: {memory_id('Reads sci-fi')}\nstate: approved\ncategory: other\nevidence:\n"
        f"  - I read sci\u200b-fi\u2069 every night\n---\nReads sci\u200d-fi\u202a\n",
        encoding="utf-8",
    )
    Repo(vault).git.add("-A")
    Repo(vault).git.commit("-qm", "by hand")
    server = RawServer(vault)
    try:
        stored = server.call(
            "personakit_propose", text=text, quote="I like\u200f green tea", category="other"
        )
        assert stored["structuredContent"]["new"] is True
        for question in ("green tea", "sci-fi reading"):
            answer = server.call("personakit_read", question=question)
            served = json.dumps(answer["structuredContent"], ensure_ascii=False)
            assert answer["structuredContent"]["memories"], answer
            assert not set(served) & set(INVISIBLE), served
    finally:
        server.close()
    written = [p.read_text(encoding="utf-8") for p in (vault / "memories").glob("*.md") if p != hand]
    assert len(written) == 1 and not set(written[0]) & set(INVISIBLE)
    assert "Likes green tea a lot" in written[0]


def test_ids_of_texts_without_such_characters_are_what_they_always_were() -> None:
    texts = [json.loads(line)["text"] for line in QUALITY.read_text(encoding="utf-8").splitlines() if line]
    texts += ["Prefers blunt feedback", "Works 9-5 in Berlin", "緑茶を飲む", "Ça va", "Loves 東京 in May!"]
    for text in texts:
        if reading_form(text) == normalize(text) and clean(text) == text:
            assert memory_id(text) == _old_id(text), text
        assert _old_id(text) in memory_ids(text)  # an older vault's memory is still found by its text
    assert sum(memory_id(t) == _old_id(t) for t in texts) >= 500  # of 629: hyphens and accents aside


def test_a_memory_proposed_before_keeps_its_id_when_proposed_again(kit: PersonaKit) -> None:
    text = "Uses a to-do app every morning"
    old = _old_id(text)
    assert memory_id(text) != old  # the hyphen is read away now
    (kit.root / "memories" / "uses-a-to-do-app-every-morning.md").write_text(
        f"---\nid: {old}\ncategory: tools\nstate: restricted\nevidence:\n  - my to-do app\n---\n{text}\n",
        encoding="utf-8",
    )
    Repo(kit.root).git.add("-A")
    Repo(kit.root).git.commit("-qm", "an older vault")
    kit.sync()
    assert kit.propose(text, "my to-do app, again", "tools") == {
        "stored": True, "id": old, "new": False, "state": "restricted",
    }  # fmt: skip
