"""`serve` answers its host's handshake while the vault opens on a thread of its own (`mcp/opening.py`):
the handshake imports none of the vault's modules, the first read after tools/list is the read a server
that had long been running would give (an index there or none yet, hand edits made while no server
ran), and a kill while the vault opens loses nothing."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from git import Repo

from personakit.core.naming import memory_id
from personakit.vault.service import PersonaKit

from conftest import call, connect, server_command, server_env

HEAVY = ("personakit.vault.service", "personakit.core.masking", "whoosh", "git", "watchdog", "yaml")
QUESTIONS = ["what does the user drink", "tea in the morning", "which editor for code", "number 7", "jazz"]


def test_answering_the_handshake_imports_none_of_the_vaults_modules() -> None:
    """What `personakit serve` imports before its first answer: the command line for `serve`, the server
    with its tools, resources and prompt. The vault's own modules come later, on the opening thread."""
    script = (
        "import sys\n"
        "from personakit.cli import app\n"
        "app.parser('serve').parse_args(['serve', '--vault', 'v'])\n"
        "from personakit.mcp.server import build_server\n"
        "server = build_server('v')\n"
        "assert [t.name for t in server._tool_manager.list_tools()] == ['personakit_read', 'personakit_propose']\n"
        f"print([m for m in sys.modules if m.split('.')[0] in {HEAVY!r} or m in {HEAVY!r}])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.replace("'", '"')) == []


def test_the_published_result_schemas_are_the_result_types() -> None:
    """results.json is what the SDK would make from the service's types (the handshake imports neither)."""
    from personakit.core.reading import DEFAULT_LIMIT
    from personakit.mcp.server import DEFAULT_LIMIT as SERVED_LIMIT
    from personakit.mcp.server import RESULTS, result_schemas

    assert result_schemas() == RESULTS
    assert SERVED_LIMIT == DEFAULT_LIMIT


def _memories(vault: Path, count: int) -> list[str]:
    """count approved memories, committed; returns their texts."""
    drinks = ["green tea", "black coffee", "oat milk", "sparkling water", "jasmine tea", "cold brew"]
    texts = [f"Drinks {drinks[i % len(drinks)]} with breakfast, note number {i}" for i in range(count)]
    texts += ["Writes code in Neovim", "Listens to jazz while working"]
    for text in texts:
        name = text.lower().replace(" ", "-").replace(",", "") + ".md"
        (vault / "memories" / name).write_text(
            f"---\nid: {memory_id(text)}\ncategory: preferences\nstate: approved\nevidence:\n  - said so\n---\n"
            f"{text}\n",
            encoding="utf-8",
        )
    repo = Repo(vault)
    repo.git.add("-A")
    repo.git.commit("-qm", "the owner's memories")
    return texts


def _hand_made(vault: Path, text: str) -> str:
    """A memory file the owner writes while no server runs (committed by the next start)."""
    name = text.lower().replace(" ", "-") + ".md"
    (vault / "memories" / name).write_text(
        f"---\nid: {memory_id(text)}\ncategory: tools\nstate: approved\n---\n{text}\n", encoding="utf-8"
    )
    return name


def _expected(vault: Path, questions: list[str]) -> dict[str, dict[str, object]]:
    kit = PersonaKit(vault, create=False)
    kit.start()
    try:
        return {q: json.loads(json.dumps(kit.read(q, record=False))) for q in questions}
    finally:
        kit.close()


@pytest.mark.anyio
@pytest.mark.parametrize("index", ["there", "none yet"])
async def test_the_first_read_right_after_tools_list_is_whole(vault: Path, index: str) -> None:
    _memories(vault, 300)
    if index == "there":
        kit = PersonaKit(vault, create=False)
        kit.start()
        kit.close()
    else:
        assert not (vault / ".personakit" / "index").exists()  # the server builds its first index
    _hand_made(vault, "Keeps a paper notebook for todo lists")  # and a memory written by hand meanwhile
    questions = [*QUESTIONS, "paper notebook"]
    async with connect(vault) as session:
        tools = await session.list_tools()
        assert [t.name for t in tools.tools] == ["personakit_read", "personakit_propose"]
        served = {q: await call(session, "personakit_read", question=q) for q in questions}
    assert served == _expected(vault, questions)
    assert memory_id("Keeps a paper notebook for todo lists") in [m["id"] for m in served["paper notebook"]["memories"]]  # fmt: skip
    assert all(served[q]["memories"] for q in ("what does the user drink", "which editor for code", "jazz"))


@pytest.mark.slow
@pytest.mark.anyio
async def test_a_big_vaults_first_index_by_the_server_reads_as_one_made_in_process(vault: Path) -> None:
    """With 5,200 memories and no index, `serve` begins the first index's helper before the SDK's import
    and lets it index once the handshake is answered (`vault.firstindex`); a file made by hand included,
    the first reads are those of a copy indexed in process, and no helper's folder is left."""
    _memories(vault, 5_200)
    _hand_made(vault, "Keeps a paper notebook for todo lists")
    questions = [*QUESTIONS, "paper notebook", "note number 4321"]
    alone = vault.parent / "alone"  # the same vault, indexed in process
    shutil.copytree(vault, alone, symlinks=True)
    expected = _expected(alone, questions)
    async with connect(vault) as session:
        await session.list_tools()
        served = {q: await call(session, "personakit_read", question=q) for q in questions}
    assert not list((vault / ".personakit").glob("index-part-*"))
    assert served == expected
    assert memory_id("Keeps a paper notebook for todo lists") in [m["id"] for m in served["paper notebook"]["memories"]]  # fmt: skip


def _start_and_kill(vault: Path, after: float) -> bool:
    """Start a server, wait for its tools/list answer, ask a read, and kill the server (SIGKILL) `after`
    seconds later. Returns whether the read was still unanswered: the vault still opening, or reading."""
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "k", "version": "1"}}
    read = {"name": "personakit_read", "arguments": {"question": "tea"}}
    with subprocess.Popen(
        [sys.executable, *server_command(vault)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, env=server_env(),
    ) as process:  # fmt: skip
        assert process.stdin and process.stdout
        for message in (
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        ):
            process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
        while json.loads(process.stdout.readline()).get("id") != 2:
            pass
        call_read = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": read}
        process.stdin.write(json.dumps(call_read).encode() + b"\n")
        process.stdin.flush()
        time.sleep(after)
        process.kill()
        answered = process.stdout.read()  # what it said before the kill
    return b'"id":3' not in answered.replace(b" ", b"")


def test_a_kill_while_the_vault_opens_loses_nothing(vault: Path) -> None:
    _memories(vault, 300)
    made = []
    killed_opening = 0
    for round_, after in enumerate((0.0, 0.0, 0.02, 0.05, 0.1, 0.2, 0.4)):
        made.append(_hand_made(vault, f"Uses tool number {round_} every day"))
        if round_ == 3:  # from here on, the server that starts also builds the first index
            shutil.rmtree(vault / ".personakit" / "index", ignore_errors=True)
        killed_opening += _start_and_kill(vault, after)
        Repo(vault).git.fsck("--full", "--strict")
    assert killed_opening >= 1  # the run meant something: some kill came before the vault had answered

    async def check() -> None:
        async with connect(vault) as session:
            for round_ in range(len(made)):
                found = await call(session, "personakit_read", question=f"tool number {round_}")
                assert memory_id(f"Uses tool number {round_} every day") in [
                    m["id"] for m in found["memories"]
                ]

    anyio.run(check)
    kit = PersonaKit(vault, create=False)  # a start that runs its whole pass (a short session may end first)
    kit.start()
    kit.close()
    repo = Repo(vault)
    assert not repo.is_dirty(untracked_files=True), repo.git.status()
    for name in made:  # each hand-made file committed once, whichever start took it in
        assert len(repo.git.log("--format=%H", "--", f"memories/{name}").split()) == 1, name
