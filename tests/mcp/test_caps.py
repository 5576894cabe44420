"""Limits on what an assistant (or a hand-made file) can make PersonaKit hold: a message on stdin over
1,000,000 characters is refused unread, and the server keeps serving; a file listing more quotes than a
memory may have is skipped with a sentence, quickly, by the server and by `doctor`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from personakit.core.memory import MAX_QUOTES_READ
from personakit.mcp.jsonrpc import MAX_MESSAGE

from conftest import server_env
from rawclient import RawServer


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def test_a_30_mb_message_is_refused_unread_and_the_server_keeps_serving(vault: Path) -> None:
    server = RawServer(vault)
    try:
        arguments = {"text": "Likes tea", "quote": "x" * 30_000_000, "category": "preferences"}
        message = {
            "jsonrpc": "2.0",
            "id": 77,
            "method": "tools/call",
            "params": {"name": "personakit_propose"},
        }
        message["params"]["arguments"] = arguments  # type: ignore[index]
        server.write_line(json.dumps(message).encode())
        answer = server.receive(77)
        assert answer["error"]["code"] == -32600
        assert f"at most {MAX_MESSAGE:,}" in answer["error"]["message"]
        answer = server.call("personakit_read", question="tea")["structuredContent"]
        assert answer["memories"] == [] and answer["withheld"] == 0  # still serving; nothing was stored
        assert _peak_rss_mb(server.proc.pid) < 400  # before: about 1 GB for the line and its parse
        edge = json.dumps({"jsonrpc": "2.0", "id": 78, "method": "ping"})
        server.write_line((edge + " " * (MAX_MESSAGE - len(edge))).encode())  # exactly the most: taken
        assert server.receive(78)["result"] == {}
    finally:
        server.close()
    assert list((vault / "memories").glob("*.md")) == []


def test_a_file_with_too_many_quotes_is_skipped_with_a_sentence(vault: Path) -> None:
    quotes = "".join(f"  - q{i}\n" for i in range(60_000))
    (vault / "memories" / "many.md").write_text(
        f"---\nid: m_0123456789ab\ncategory: other\nstate: approved\nevidence:\n{quotes}---\nLikes quotes\n"
    )
    (vault / "memories" / "fine.md").write_text(
        "---\nid: m_0123456789ac\ncategory: other\nstate: approved\nevidence:\n"
        + "".join(f"  - q{i}\n" for i in range(MAX_QUOTES_READ))
        + "---\nLikes fine quotes\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "personakit", "doctor", "--vault", str(vault)],
        capture_output=True, text=True, env=server_env(), timeout=120,
    )  # fmt: skip
    assert "memories/many.md: it lists 60,000 quotes; a memory file is read with at most 200" in done.stdout
    assert "fine.md: it lists" not in done.stdout
