"""`withheld` is not an oracle: the issue 23 attack, scripted end to end against `personakit serve`.

An assistant that sees only `personakit_read` sends batches of candidate words and splits every batch
whose `withheld` is above 0 (group testing). Against a restricted "Annual salary at Initech is 93750" it
must recover neither the number (every 5-digit number tried) nor, after a restart, the employer's name
hidden among a thousand ordinary words; an honest question asked first still sees the memory counted.
The server is driven over its real stdio pipes (`rawclient`: ~1 ms a read, so the 1,800-read sweep stays
a few seconds).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path

from git import Repo

from personakit.core.naming import memory_id

from rawclient import RawServer

SECRET = "Annual salary at Initech is 93750"
ORDINARY = [  # a few approved memories, as a lived-in vault has
    "Prefers blunt feedback without padding",
    "Works in Go and Python at the office",
    "Never schedule calls before 10am",
    "Drinks oat milk lattes in the morning",
]


def _write(vault: Path, text: str, state: str) -> None:
    front = ["---", f"id: {memory_id(text)}", "category: background", f"state: {state}", "evidence:"]
    body = "\n".join([*front, f"  - I said {text.lower()}", "---", text, ""])
    (vault / "memories" / f"{memory_id(text)}.md").write_text(body, encoding="utf-8")


def _withheld(server: RawServer, question: str) -> int:
    result = server.call("personakit_read", question=question, limit=7)
    assert not result.get("isError"), result
    return int(result["structuredContent"]["withheld"])


def _sweep(probe: Callable[[list[str]], int], candidates: list[str], batch: int = 50) -> set[str]:
    """Group testing: every batch that counts is split in two until single words remain."""
    found: set[str] = set()
    todo = [candidates[i : i + batch] for i in range(0, len(candidates), batch)]
    while todo:
        group = todo.pop()
        if probe(group) == 0:
            continue
        if len(group) == 1:
            found.add(group[0])
        else:
            todo += [group[: len(group) // 2], group[len(group) // 2 :]]
    return found


def test_group_testing_recovers_neither_the_number_nor_the_name(vault: Path) -> None:
    _write(vault, SECRET, "restricted")
    for text in ORDINARY:
        _write(vault, text, "approved")
    repo = Repo(vault)
    repo.git.add("-A")
    repo.git.commit("-qm", "setup")

    server = RawServer(vault)
    try:
        # 1. An honest question about the topic, asked first, is told that something private bears on it.
        assert _withheld(server, "What is my salary at Initech?") >= 1
        # 2. Every 5-digit number, 50 a question, every batch that counts split in two.
        numbers = [str(n) for n in range(10_000, 100_000)]
        assert _sweep(lambda group: _withheld(server, " ".join(group)), numbers) == set()
    finally:
        server.close()

    # 3. After a restart, a thousand ordinary words with the employer's name among them.
    words = (
        (resources.files("personakit.core.credentials") / "data" / "bip39-english.txt")
        .read_text()
        .split()[:999]
    )
    words.insert(617, "initech")
    server = RawServer(vault)
    try:
        found = _sweep(lambda group: _withheld(server, " ".join(group)), words)
    finally:
        server.close()
    assert "initech" not in found
