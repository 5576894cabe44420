"""`personakit demo`: the whole loop on a throwaway vault, for someone with no assistant connected yet.

An assistant (the real `personakit serve`, started over stdio by the MCP SDK's client, exactly as a host
starts it) proposes a few memories about a fictional person; the owner approves one and restricts one,
as `personakit approve` and `personakit restrict` would; the assistant reads; and the git log shows the
record of it all. Nothing here touches the owner's own vault.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, Implementation, StdioServerParameters
from mcp.client.stdio import stdio_client

from personakit.core.memory import State
from personakit.errors import PersonaKitError
from personakit.owner.audit import local
from personakit.owner.decisions import decide
from personakit.vault.service import PersonaKit, init_vault

HOST = "demo-assistant"
PROPOSALS = [
    ("Prefers short, direct answers without a preamble", "just give me the answer, skip the intro", "communication"),
    ("Never schedule calls before 10am", "please, no calls before ten, I'm useless before then", "constraints"),
    ("Keeps Thursday afternoons free for therapy; never schedule calls then", "Thursdays after lunch are my therapy slot", "constraints"),
    ("Works mostly in Python and Go", "our backend is Go, the data side is all Python", "tools"),
]  # fmt: skip
QUESTION = "When can I schedule a call with them, and how should I write to them?"
NEXT = """
Next, your own vault:
  1. personakit init                 makes it, at ~/PersonaKit
  2. connect your assistant's host   docs/connecting.md has Claude Desktop, Claude Code, Cursor, VS Code
  3. personakit review               approve, reject or restrict what it proposes"""


def run_demo(keep: bool, say: Callable[[str], None] = print) -> int:
    root = Path(tempfile.mkdtemp(prefix="personakit-demo-"))
    try:
        vault = root / "vault"
        said = init_vault(vault)
        say(f"A throwaway vault: {vault}")
        if said:
            say(said)
        anyio.run(_story, vault, say)
        if keep:
            say(f"\nThe vault is kept at {vault}: look around, or run: personakit review --vault {vault}")
        else:
            say("\nThe throwaway vault is deleted (run 'personakit demo --keep' to keep it and look around).")
        say(NEXT)
        return 0
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


async def _story(vault: Path, say: Callable[[str], None]) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "personakit", "serve", "--vault", str(vault)],
        env=dict(os.environ),
    )
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write):
            async with ClientSession(
                read, write, client_info=Implementation(name=HOST, version="1")
            ) as session:
                await session.initialize()
                ids = await _propose(session, say)
                kit = PersonaKit(vault, create=False)
                kit.start()
                try:
                    _decide(kit, ids, say)
                    await _read(session, say)
                    _log(kit, ids[0], say)
                finally:
                    kit.close()


async def _propose(session: ClientSession, say: Callable[[str], None]) -> list[str]:
    say(f"\n1. An assistant ({HOST}) connects over stdio, as a host would, and proposes, each with a quote")
    say("   of the person's own words as evidence:")
    ids = []
    for text, quote, category in PROPOSALS:
        result = await _call(session, "personakit_propose", text=text, quote=quote, category=category)
        ids.append(str(result.get("id", "")))
        say(f"   {_quoted(text)} ({category})\n     quote: {_quoted(quote)}\n     -> {json.dumps(result)}")
    return ids


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _decide(kit: PersonaKit, ids: list[str], say: Callable[[str], None]) -> None:
    say("\n2. The owner reviews them (as 'personakit approve' and 'personakit restrict' do):")
    decisions: tuple[tuple[str, State], ...] = ((ids[0], "approved"), (ids[2], "restricted"))
    for mid, state in decisions:
        memory, _ = decide(kit, mid, state)
        say(f"   {state:<10} {mid}: {memory.text}")
    say("   (the other two stay unconfirmed: assistants see them marked confirmed: false)")


async def _read(session: ClientSession, say: Callable[[str], None]) -> None:
    say(f"\n3. The assistant asks personakit_read({_quoted(QUESTION)}) and gets:")
    answer = await _call(session, "personakit_read", question=QUESTION)
    say("\n".join(f"   {line}" for line in json.dumps(answer, indent=2, ensure_ascii=False).splitlines()))
    say(
        f"   The restricted memory never left the vault; 'withheld': {answer['withheld']} only tells the "
        "assistant that something it may not see matched."
    )


def _log(kit: PersonaKit, approved: str, say: Callable[[str], None]) -> None:
    say("\n4. git recorded every step (git log, newest first):")
    for commit in kit.history.commits("--", "memories"):
        say(f"   {local(commit.date)}  {commit.author:<28} {commit.subject}")
    approval = kit.history.commits("-1", f"--grep=^approve {approved}", "--", "memories")
    if approval:
        diff = kit.history.show(approval[0].sha).splitlines()
        changed = [line for line in diff if line.startswith(("+", "-")) and line[:3] not in ("+++", "---")]
        say(f"\n   The approval's diff is exactly the decision: {'  '.join(changed)}")


async def _call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    if result.is_error or result.structured_content is None:
        text = getattr(result.content[0], "text", "") if result.content else ""
        raise PersonaKitError(f"the demo server answered {tool} with an error: {text}")
    return dict(result.structured_content)
