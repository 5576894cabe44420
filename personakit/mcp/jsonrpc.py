"""The spec's error answers for malformed JSON-RPC on stdio, which the MCP SDK drops in silence.

The SDK's stdio transport (mcp/server/stdio.py) validates each line and, when that fails, passes the
exception to the session, which only logs it at debug level (`JSONRPCDispatcher._dispatch`): a client
that sends bad JSON, a wrong `jsonrpc` value or a batch waits for an answer that never comes. This stdin,
given to the SDK's transport in place of the process's, looks at each line first. A line the SDK would
accept passes through untouched; any other gets the error JSON-RPC 2.0 prescribes, written through the
SDK's own writer so it can never interleave with another message:

- not JSON: -32700 Parse error, id null;
- a batch (a JSON array): MCP removed batching in its 2025-06-18 revision, so each element gets -32600
  Invalid Request with its id (null when it has none), and an empty array one -32600 with id null;
- anything else that is not a JSON-RPC 2.0 message (a `jsonrpc` other than "2.0", no method, an id that
  is neither a string nor an integer, ...): -32600 Invalid Request, with the id when there is a valid one;
- JSON nested deeper than the checks parse (pydantic stops at 200 levels; Python's own parser raises
  RecursionError near 1,000, which once ended the server): -32600, id null;
- a string escaping half of a UTF-16 surrogate pair (`"\\ud800"`: valid JSON, but no text; pydantic refuses
  it): -32600 saying so, with the id.

Any line gets an answer or passes on; nothing a line holds can end the server. (A cap on the size of a
line, where stdin is read, is a separate guard.)

A line over MAX_MESSAGE characters is never held whole nor parsed: its first MAX_MESSAGE characters are
read, the rest is read past in small pieces, and it gets -32600 Invalid Request saying its size (with
its id when the line opens with one, as the SDKs write messages; else null). Blank lines are not messages
and are skipped. Fd 0 itself is pointed at /dev/null while serving, as the
SDK does, so a child process (git) can never read the protocol.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import AsyncIterator
from typing import Any

import anyio
import mcp_types as types
from anyio.abc import ObjectSendStream
from mcp.shared.message import SessionMessage

MAX_MESSAGE = 1_000_000  # characters in one line of stdin; a proposal or question needs a few thousand
# The id of a message that says it first (as the SDKs write messages), so a refusal reaches its request.
_ID_FIRST = re.compile(
    r'\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,200}")\s*[,}]'
)
BATCH = (
    "Invalid Request: batches are not supported (MCP removed JSON-RPC batching in its 2025-06-18 "
    "revision); send one message per line"
)


BAD_ID = "Invalid Request: an id must be a string or an integer"
DEEP = "Invalid Request: the message is nested too deeply"
HALF_PAIR = (
    "Invalid Request: a string holds half of a UTF-16 surrogate pair (such as \\ud800), which is not text"
)


class AnsweredLines:
    """The protocol's stdin, line by line; malformed lines are answered instead of passed on."""

    def __init__(self) -> None:
        wire = os.dup(0)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        self._text = io.TextIOWrapper(os.fdopen(wire, "rb"), encoding="utf-8", errors="replace")
        self._answer: ObjectSendStream[SessionMessage] | None = None
        self._ready = anyio.Event()

    def answer_with(self, stream: ObjectSendStream[SessionMessage]) -> None:
        self._answer = stream
        self._ready.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        while line := await anyio.to_thread.run_sync(self._text.readline, MAX_MESSAGE + 1):
            if len(line) > MAX_MESSAGE and not line.endswith("\n"):  # never held whole, never parsed
                size = len(line) + await anyio.to_thread.run_sync(self._skip_rest)
                errors: list[types.JSONRPCError] | None = [too_long(line, size)]
            elif not line.strip():
                continue
            else:
                try:
                    errors = malformed(line)
                except Exception:  # whatever a line does to the checks, the server answers and goes on
                    errors = [
                        _error(None, types.INVALID_REQUEST, "Invalid Request: the line could not be read")
                    ]
            if errors is None:
                yield line
                continue
            await self._ready.wait()
            assert self._answer is not None
            for error in errors:
                await self._answer.send(SessionMessage(error))

    def _skip_rest(self) -> int:
        """Read past the rest of a line too long to take, a piece at a time; how many characters."""
        skipped = 0
        while piece := self._text.readline(1 << 16):
            skipped += len(piece)
            if piece.endswith("\n"):
                break
        return skipped


def too_long(start: str, size: int) -> types.JSONRPCError:
    """The answer to a line over MAX_MESSAGE characters, to the id it opens with when it says one first."""
    found = _ID_FIRST.match(start)
    request_id = None if found is None else json.loads(found.group(1))
    return _error(
        request_id,
        types.INVALID_REQUEST,
        f"Invalid Request: the message is {size:,} characters long; PersonaKit takes at most "
        f"{MAX_MESSAGE:,} and did not read it",
    )


def malformed(line: str) -> list[types.JSONRPCError] | None:
    """The error answers a line needs, or None when it is a JSON-RPC message the SDK takes."""
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception:  # pydantic's ValidationError: decide below which error the spec asks for
        message = None
    if isinstance(message, types.JSONRPCNotification) and "id" in json.loads(line):
        # pydantic took a request whose id is an object, a float, a boolean or null for a notification
        # (extra keys are ignored), which the SDK would never answer. Parsing again is safe: pydantic
        # bounds the nesting of what it accepts, and notifications are few.
        return [_error(None, types.INVALID_REQUEST, BAD_ID)]
    if message is not None:
        return None
    try:
        value = json.loads(line)
    except RecursionError:  # valid JSON nested past Python's limit: pydantic refused it at 200 levels
        return [_error(None, types.INVALID_REQUEST, DEEP)]
    except ValueError:
        return [_error(None, types.PARSE_ERROR, "Parse error: the line is not valid JSON")]
    if isinstance(value, list):
        if not value:
            return [_error(None, types.INVALID_REQUEST, "Invalid Request: an empty batch")]
        return [_error(_id(item), types.INVALID_REQUEST, BATCH) for item in value]
    if isinstance(value, dict) and value.get("jsonrpc") != "2.0":
        return [_error(_id(value), types.INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')]
    if _half_pair(value):
        return [_error(_id(value), types.INVALID_REQUEST, HALF_PAIR)]
    return [
        _error(
            _id(value), types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request or notification"
        )
    ]


def _half_pair(value: Any) -> bool:
    """Does a string of value hold half of a UTF-16 surrogate pair (which UTF-8 cannot encode)?"""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except RecursionError:
        pass
    return False


def _id(message: Any) -> int | str | None:
    found = message.get("id") if isinstance(message, dict) else None
    if isinstance(found, str) or (isinstance(found, int) and not isinstance(found, bool)):
        return found
    return None


def _error(request_id: int | str | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))
