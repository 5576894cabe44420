"""Which format a file is in, when the owner did not say (`--from`): by its shape, never its name alone.

JSON with `entities`/`relations`, or JSON Lines of `"type": "entity"|"relation"`, is the MCP memory
server's; JSON with `results` or `memories`, or lines of objects with `memory`/`content`, is mem0's; a
folder, or Markdown with `## Observations` or `- [category] text` bullets, is basic-memory; text with
ChatGPT's "Model Set Context" heading or its settings dialog's words is ChatGPT's; entries written
`[date] - memory` are Claude's; anything else is plain lines.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from personakit.errors import PersonaKitError
from personakit.owner.importing.chatgpt import is_chrome
from personakit.owner.importing.lines import plain

_OBSERVATIONS = re.compile(r"(?m)^##\s+Observations\s*$")
_CATEGORY_BULLET = re.compile(r"(?m)^\s*[-*]\s+\[(?![ xX-]\])[^\[\]()]+\]\s+\S")
_DATED = re.compile(r"^\[[^\]\n]{0,40}\]\s*[-–—]\s+\S")
_MODEL_SET_CONTEXT = re.compile(r"(?m)^\s*#*\s*Model Set Context\s*$")
_CHATGPT_DATED = re.compile(r"(?m)^\s*\d+\.\s+\[\d{4}-\d{2}-\d{2}\]\.\s")


def guess(path: Path, text: str | None) -> str:
    if path.is_dir():
        return "basic-memory"
    text = text or ""
    shape = _json_shape(text)
    if shape:
        return shape
    if _OBSERVATIONS.search(text) or len(_CATEGORY_BULLET.findall(text)) >= 2:
        return "basic-memory"
    if _MODEL_SET_CONTEXT.search(text) or _CHATGPT_DATED.search(text):
        return "chatgpt"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if any(is_chrome(line) for line in lines[:5]):
        return "chatgpt"
    if sum(1 for line in lines if _DATED.match(plain(line))) >= max(1, len(lines) // 3):
        return "claude"
    return "lines"


def _json_shape(text: str) -> str | None:
    """The format of JSON text; None for text that is not JSON. JSON of no known shape is an error, not
    plain lines: its memories would be lines of braces."""
    stripped = text.strip()
    try:
        data = json.loads(stripped)
        first = data[0] if isinstance(data, list) and data else data
    except ValueError:  # perhaps JSON Lines: judge by the first line
        try:
            data = first = json.loads(stripped.splitlines()[0]) if stripped.startswith("{") else None
        except ValueError:
            return None
    if data is None:
        return None
    if isinstance(data, dict) and ("entities" in data or "relations" in data):
        return "mcp-memory"
    if isinstance(first, dict) and first.get("type") in ("entity", "relation"):
        return "mcp-memory"
    if isinstance(data, dict) and ("results" in data or "memories" in data):
        return "mem0"
    if isinstance(first, dict) and any(k in first for k in ("memory", "content")):
        return "mem0"
    raise PersonaKitError(
        "this is JSON, but not in a shape PersonaKit imports (the MCP memory server's graph, or a mem0 "
        "export); if it is one of them, say which with --from"
    )
