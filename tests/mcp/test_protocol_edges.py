"""Lines no client library would send, through the real server over stdio: each gets an answer or a
JSON-RPC error, and the server keeps serving (issue 23, items 4 and 9)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rawclient import RawServer


def codes(answers: list[dict[str, Any]]) -> list[tuple[Any, int]]:
    return [(a["id"], a["error"]["code"]) for a in answers]


def test_a_line_nested_thousands_deep_is_answered_and_the_server_lives_on(vault: Path) -> None:
    server = RawServer(vault)
    try:
        assert codes(server.answers_to(b"[" * 2000 + b"]" * 2000)) == [(None, -32600)]
        deep = b'{"jsonrpc":"2.0","id":5,"method":"ping","params":' + b'{"a":' * 2000 + b"1" + b"}" * 2001
        assert [code for _, code in codes(server.answers_to(deep))] == [-32600]
        objects = b'{"a":' * 100_000 + b"1" + b"}" * 100_000  # far past Python's recursion limit
        assert [code for _, code in codes(server.answers_to(objects))] == [-32600]
        result = server.call("personakit_propose", text="Still answering", quote="yes", category="other")
        assert result["structuredContent"]["stored"] is True
    finally:
        assert server.close() == 0


def test_ids_that_are_objects_floats_or_booleans_get_invalid_request(vault: Path) -> None:
    server = RawServer(vault)
    try:
        for request_id in ({"a": 1}, 1.5, 1.0, True, False, [7]):
            line = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}).encode()
            assert codes(server.answers_to(line)) == [(None, -32600)], request_id
        # a notification (no id at all) is still answered by nothing
        assert server.answers_to(b'{"jsonrpc":"2.0","method":"notifications/initialized"}') == []
    finally:
        assert server.close() == 0


def test_unknown_prompt_unexpected_argument_and_unknown_tool_are_invalid_params(vault: Path) -> None:
    server = RawServer(vault)
    try:
        unknown = server.request("prompts/get", {"name": "no-such-prompt"})
        assert unknown["error"]["code"] == -32602, unknown
        assert "no-such-prompt" in unknown["error"]["message"]
        extra = server.request("prompts/get", {"name": "personakit-guide", "arguments": {"tone": "shouty"}})
        assert extra["error"]["code"] == -32602, extra
        assert "tone" in extra["error"]["message"]
        fine = server.request("prompts/get", {"name": "personakit-guide"})
        assert fine["result"]["messages"], fine
        tool = server.request("tools/call", {"name": "personakit_delete_everything", "arguments": {}})
        assert tool["error"]["code"] == -32602, tool
        assert "personakit_delete_everything" in tool["error"]["message"]
        read = server.call("personakit_read", question="anything")
        assert read["isError"] is False
    finally:
        assert server.close() == 0


def test_a_read_only_server_says_unknown_tool_for_propose(vault: Path) -> None:
    server = RawServer(vault, "--read-only")
    try:
        answer = server.request(
            "tools/call",
            {"name": "personakit_propose", "arguments": {"text": "x", "quote": "y", "category": "other"}},
        )
        assert answer["error"]["code"] == -32602, answer
    finally:
        assert server.close() == 0


def test_half_a_surrogate_pair_gets_an_answer_that_says_so(vault: Path) -> None:
    """`\\ud800` alone is valid JSON but no text (UTF-8 cannot hold it): a read or a proposal holding one is
    refused with its id and a message naming the cause, and the server goes on."""
    server = RawServer(vault)
    try:
        for arguments in (
            {"question": "green \ud800 tea?"},
            {"text": "x\udfff", "quote": "y", "category": "other"},
        ):
            name = "personakit_read" if "question" in arguments else "personakit_propose"
            line = json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 41,
                    "method": "tools/call",
                    "params": {"name": name, "arguments": arguments},
                }
            )
            assert (
                "\\ud800" in line or "\\udfff" in line
            )  # json.dumps escapes it, as a host's JSON library would
            (answer,) = server.answers_to(line.encode())
            assert (answer["id"], answer["error"]["code"]) == (41, -32600)
            assert "surrogate" in answer["error"]["message"]
        fine = server.call("personakit_read", question="green \U0001f375 tea?")  # a whole pair: an emoji
        assert fine["isError"] is False
    finally:
        assert server.close() == 0
