"""The floor: the smallest MCP server the SDK makes, with one trivial tool, served over stdio.

`bench/run.py` times it with the same client, in the same run, as PersonaKit, so every PersonaKit figure
can be read as a multiple of what the SDK and the pipe cost on their own.

    python bench/floor_server.py      # speaks MCP on stdin/stdout until stdin closes
"""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer

server = MCPServer("floor", version="0")


@server.tool()
def echo(text: str) -> dict[str, str]:
    """Return the text it was given."""
    return {"text": text}


if __name__ == "__main__":
    server.run("stdio")
