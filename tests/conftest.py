"""Shared fixtures: every test gets its own HOME, git identity and vault; nothing touches ~/PersonaKit.

`connect()` starts the real `personakit serve` as a subprocess and drives it with the MCP SDK's stdio
client, as a host would.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, Implementation, StdioServerParameters
from mcp.client.stdio import stdio_client

from personakit.vault.service import init_vault

ISOLATED_VARS = ("HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "PERSONAKIT_VAULT", "PATH")


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A home of its own for each test: its git config, and a default vault inside the temp folder."""
    home = tmp_path / "home"
    home.mkdir()
    gitconfig = home / ".gitconfig"
    gitconfig.write_text("[user]\n\tname = Test Owner\n\temail = owner@example.test\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(gitconfig))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("PERSONAKIT_VAULT", str(tmp_path / "default-vault"))
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "EDITOR", "VISUAL"):
        monkeypatch.delenv(name, raising=False)
    yield home


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    init_vault(root)
    return root


def server_env() -> dict[str, str]:
    return {k: os.environ[k] for k in ISOLATED_VARS if k in os.environ}


def server_command(vault: Path | None, *extra: str) -> list[str]:
    args = ["-m", "personakit", "serve", *extra]
    return args + (["--vault", str(vault)] if vault is not None else [])


@asynccontextmanager
async def connect(
    vault: Path | None, *extra: str, host: str = "test-host", stderr: Path | None = None
) -> AsyncIterator[ClientSession]:
    """A ClientSession (initialize handshake) on a fresh `personakit serve` subprocess."""
    params = StdioServerParameters(
        command=sys.executable, args=server_command(vault, *extra), env=server_env()
    )
    log_path = stderr or Path(os.environ["HOME"]) / "server-stderr.log"
    with open(log_path, "a", encoding="utf-8") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(
                read, write, client_info=Implementation(name=host, version="1.0")
            ) as session:
                await session.initialize()
                yield session


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; checks the text block carries the same JSON as the structured content."""
    result = await session.call_tool(tool, arguments)
    text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
    assert not result.is_error, text
    assert result.structured_content is not None
    assert json.loads(text) == result.structured_content
    return result.structured_content


async def call_error(session: ClientSession, tool: str, **arguments: Any) -> str:
    """Call a tool that must answer isError; returns its sentence."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result
    return result.content[0].text  # type: ignore[union-attr]
