"""The resources and the guide prompt end to end: `personakit serve` as a subprocess, driven by the SDK's
stdio client, with the 2025-11-25 handshake hosts use today and the stateless 2026-07-28 `mcp.Client`."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from owner import cli, commit_all, propose, write_memory

from personakit.core.naming import memory_id
from personakit.mcp.resources import guide_text
from personakit.store.ledger import Ledger

from conftest import connect, server_command, server_env

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]
READ, PROPOSE = "personakit_read", "personakit_propose"


async def read_text(session, uri: str) -> str:  # type: ignore[no-untyped-def]
    result = await session.read_resource(uri)
    assert len(result.contents) == 1 and str(result.contents[0].uri) == uri
    return result.contents[0].text  # type: ignore[no-any-return]


async def refusal(session, uri: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    with pytest.raises(MCPError) as raised:
        await session.read_resource(uri)
    return raised.value.error.code, raised.value.error.message


async def test_one_memory_with_its_history_and_private_ones_are_indistinguishable_from_unknown(
    vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    waiting, liked, moved, hidden, dropped = propose(
        vault,
        "Prefers blunt feedback",
        "Drinks oolong tea",
        "Lives at 12 Baker Street",
        "Is seeing a therapist",
        "Hates mornings",
        quote="write to me at sam.lee@example.com, keep it blunt",
    )
    assert cli(capsys, "approve", liked, moved, "--vault", str(vault))[0] == 0
    assert cli(capsys, "restrict", moved, hidden, "--vault", str(vault))[0] == 0
    assert cli(capsys, "reject", dropped, "--vault", str(vault))[0] == 0
    # While restricted, the owner edits the address out by hand (the id stays), then approves it.
    path = next((vault / "memories").glob("lives-at-12-baker-street*.md"))
    path.write_text(path.read_text().replace("Lives at 12 Baker Street", "Lives in London"))
    assert cli(capsys, "approve", moved, "--vault", str(vault))[0] == 0

    async with connect(vault) as session:
        tools = sorted(t.name for t in (await session.list_tools()).tools)
        assert tools == [PROPOSE, READ]  # the two tools, unchanged
        templates = (await session.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == [
            "personakit://memory/{id}",
            "personakit://about/{name}",
        ]

        one = json.loads(await read_text(session, f"personakit://memory/{waiting}"))
        assert one["id"] == waiting and one["text"] == "Prefers blunt feedback"
        assert one["confirmed"] is False and "Unconfirmed" in one["note"]
        assert one["category"] == "preferences" and one["proposed_by"] == "claude-desktop"
        assert one["evidence"] == ["write to me at [email], keep it blunt"]
        day = one["created"][:10]
        assert one["history"] == [f"{day} proposed by claude-desktop"]

        two = json.loads(await read_text(session, f"personakit://memory/{liked}"))
        assert two["confirmed"] is True and "note" not in two
        assert two["history"] == [f"{day} proposed by claude-desktop", f"{day} approved by the owner"]

        edited = await read_text(session, f"personakit://memory/{moved}")
        assert "Lives in London" in edited and "Baker" not in edited  # not the text it had while private
        assert json.loads(edited)["history"] == [
            f"{day} {what} by {who}"
            for what, who in (
                ("proposed", "claude-desktop"), ("approved", "the owner"), ("restricted", "the owner"),
                ("edited by hand", "the owner"), ("approved", "the owner"),
            )
        ]  # fmt: skip

        unknown = memory_id("Never proposed")
        answers = {}
        for ref in (hidden, dropped, unknown, "m_NOTANID", "nonsense", "..", waiting + "x"):
            uri = f"personakit://memory/{ref}"
            code, message = await refusal(session, uri)
            answers[ref] = (code, message.replace(uri, "URI"))
        assert len(set(answers.values())) == 1, answers  # one answer: nothing to probe
        assert answers[hidden] == (-32602, "Unknown resource: URI")

    ledger = list(Ledger(vault / ".personakit").entries())
    opened = [(e["resource"], e["ids"], e["host"]) for e in ledger]
    assert opened[:3] == [
        (f"personakit://memory/{waiting}", [waiting], "test-host"),
        (f"personakit://memory/{liked}", [liked], "test-host"),
        (f"personakit://memory/{moved}", [moved], "test-host"),
    ]
    assert (f"personakit://memory/{hidden}", [], "test-host") in opened
    code, out, _ = cli(capsys, "log", "--reads", "--vault", str(vault))
    assert code == 0 and f"test-host opened personakit://memory/{liked}\n    given: {liked}" in out


async def test_the_profile_is_approved_memories_by_category_newest_first_and_bounded(
    vault: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    categories = ["tools", "communication", "preferences"]
    for i in range(150):
        text = f"Approved fact number {i:03d} about the owner, padded to a typical length of text"
        write_memory(
            vault, f"a{i:03d}.md", text, "approved", f"2026-{1 + i // 28:02d}-{1 + i % 28:02d}T09:00:00Z",
            category=categories[i % 3],
        )  # fmt: skip
    write_memory(vault, "r.md", "Restricted secret hobby", "restricted", "2026-12-30T00:00:00Z")
    write_memory(vault, "u.md", "Unreviewed guess about tea", "unconfirmed", "2026-12-30T00:00:00Z")
    commit_all(vault)

    async with connect(vault) as session:
        listed = (await session.list_resources()).resources
        assert [(str(r.uri), r.mime_type) for r in listed] == [("personakit://profile", "text/markdown")]
        profile = await read_text(session, "personakit://profile")

    assert len(profile) <= 8_000  # about 2,000 tokens
    assert profile.startswith("# About the user\n")
    assert "Restricted" not in profile and "Unreviewed" not in profile
    headings = re.findall(r"(?m)^## (.+)$", profile)
    assert headings == ["Communication", "Tools", "Preferences"]  # the documented order of categories
    shown = [int(n) for n in re.findall(r"number (\d{3})", profile)]
    tools = [n for n in shown if n % 3 == 0]
    assert tools == sorted(tools, reverse=True) and tools[0] == 147  # newest first within a group
    left = 150 - len(shown)
    assert 0 < left < 150 and min(shown) == left  # the oldest are the ones left out
    assert f"({left} older approved memories were left out to keep this short" in profile
    entry = list(Ledger(vault / ".personakit").entries())[-1]
    assert entry["resource"] == "personakit://profile" and len(entry["ids"]) == len(shown)
    code, out, _ = cli(capsys, "log", "--reads", "--vault", str(vault))
    assert code == 0 and "test-host opened personakit://profile" in out


async def test_the_guide_prompt_and_a_read_only_server_that_never_mentions_proposing(vault: Path) -> None:
    async with connect(vault) as session:
        prompts = (await session.list_prompts()).prompts
        assert [p.name for p in prompts] == ["personakit-guide"]
        guide = await session.get_prompt("personakit-guide")
        text = guide.messages[0].content.text  # type: ignore[union-attr]
        assert guide.messages[0].role == "user" and text == guide_text()
        for heading in ("## When to read", "## What is worth proposing", "## What never to propose"):
            assert heading in text
        assert "personakit_propose" in (session.instructions or "")

    async with connect(vault, "--read-only") as session:
        assert [t.name for t in (await session.list_tools()).tools] == [READ]
        assert "propos" not in (session.instructions or "").lower()
        assert "personakit_read" in (session.instructions or "")
        text = (await session.get_prompt("personakit-guide")).messages[0].content.text  # type: ignore[union-attr]
        assert "## When to read" in text and "propos" not in text.lower()
        assert "propos" not in (await session.list_prompts()).prompts[0].description.lower()  # type: ignore[union-attr]


async def test_resources_and_the_prompt_over_the_stateless_2026_protocol(vault: Path) -> None:
    (waiting,) = propose(vault, "Prefers green tea")
    params = StdioServerParameters(command=sys.executable, args=server_command(vault), env=server_env())
    async with Client(params) as client:
        assert client.protocol_version == "2026-07-28"
        assert [str(r.uri) for r in (await client.list_resources()).resources] == ["personakit://profile"]
        read = await client.read_resource(f"personakit://memory/{waiting}")
        assert json.loads(read.contents[0].text)["text"] == "Prefers green tea"  # type: ignore[union-attr]
        profile = await client.read_resource("personakit://profile")
        assert "Nothing is approved yet." in profile.contents[0].text  # type: ignore[union-attr]
        with pytest.raises(MCPError, match="Unknown resource"):
            await client.read_resource(f"personakit://memory/{memory_id('nothing')}")
        prompt = await client.get_prompt("personakit-guide")
        assert prompt.messages[0].content.text == guide_text()  # type: ignore[union-attr]


def test_the_skill_file_says_what_the_prompt_says() -> None:
    skill = (ROOT / "docs" / "skill.md").read_text(encoding="utf-8")
    front, body = re.fullmatch(r"---\n(.*?)\n---\n\n(.*)", skill, re.S).groups()  # type: ignore[union-attr]
    assert "name: personakit" in front and "description:" in front
    assert body == guide_text()
