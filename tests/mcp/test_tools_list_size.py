"""tools/list stays small: every host sends it to the model at the start of each conversation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import connect

TOKEN_CHARS = 4  # English text and JSON run at about four characters a token


@pytest.mark.anyio
async def test_tools_list_is_under_a_thousand_tokens(vault: Path) -> None:
    async with connect(vault) as session:
        tools = (await session.list_tools()).tools
    size = len(json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]))
    print(f"tools/list: {size} characters, about {size // TOKEN_CHARS} tokens")
    assert size < 1000 * TOKEN_CHARS
