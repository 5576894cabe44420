"""A server whose read costs nothing: it answers every read with one answer taken beforehand.

`bench/overhead.py` runs it beside the floor and PersonaKit, to split a served read's time into what the
SDK, the result's size and its output schema cost on both ends, and what the read itself costs.

    PK_CANNED=answer.json python bench/canned_server.py sdk           # the SDK's own server, no schema
    PK_CANNED=answer.json python bench/canned_server.py sdk-schema    # the same, with PersonaKit's schema
    PK_CANNED=answer.json PERSONAKIT_VAULT=V python bench/canned_server.py personakit
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent


def sdk_server(answer: dict[str, Any], schema: bool) -> MCPServer:
    server = MCPServer("canned", version="0")

    @server.tool()
    def personakit_read(question: str, limit: int = 7) -> CallToolResult:
        text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=answer)

    if schema:
        from personakit.mcp.server import RESULTS

        tool = server._tool_manager.get_tool("personakit_read")
        assert tool is not None
        tool.fn_metadata.output_schema = RESULTS["personakit_read"]
    return server


def main() -> None:
    answer = json.loads(Path(os.environ["PK_CANNED"]).read_text(encoding="utf-8"))
    mode = sys.argv[1]
    if mode == "personakit":  # PersonaKit's own server and vault, its read replaced by the answer
        from personakit.mcp.server import serve
        from personakit.vault.service import PersonaKit

        PersonaKit.read = lambda *_args, **_kwargs: answer  # type: ignore[method-assign,assignment]
        serve(os.environ["PERSONAKIT_VAULT"])
    else:
        sdk_server(answer, schema=mode == "sdk-schema").run("stdio")


if __name__ == "__main__":
    main()
