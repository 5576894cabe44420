"""A bare JSON-RPC client on a `personakit serve` subprocess's pipes, for tests that kill the server.

The SDK's client is the right tool for the contract; this one exists because a crash test must know the
exact instant a reply was read and must be able to SIGKILL the server between any two bytes.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import server_command, server_env


class RawServer:
    def __init__(
        self,
        vault: Path,
        *extra: str,
        stderr: Path | None = None,
        host: str = "raw-host",
        preexec_fn: Callable[[], None] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self._err = open(stderr or os.devnull, "ab")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            [sys.executable, *server_command(vault, *extra)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._err,
            env=env or server_env(),
            preexec_fn=preexec_fn,
        )
        self._next = 0
        self._buffer = b""
        self.request("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": host, "version": "1"},
        })  # fmt: skip
        self.notify("notifications/initialized")

    def send(self, method: str, params: dict[str, Any]) -> int:
        self._next += 1
        self._write({"jsonrpc": "2.0", "id": self._next, "method": method, "params": params})
        return self._next

    def notify(self, method: str) -> None:
        self._write({"jsonrpc": "2.0", "method": method})

    def _write(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def receive(self, request_id: int, timeout: float = 60.0) -> dict[str, Any]:
        """The reply to request_id (notifications and other replies are skipped)."""
        return self.next_message(lambda message: message.get("id") == request_id, timeout)

    def write_line(self, line: bytes) -> None:
        """Write bytes as they are, newline added: for tests that send what no client library would."""
        assert self.proc.stdin
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def answers_to(self, line: bytes) -> list[dict[str, Any]]:
        """Send a line as it is, then a ping; the answers that came before the ping's (the ping's own
        answer proves the server is still serving)."""
        self.write_line(line)
        answers = []
        ping = self.send("ping", {})
        while True:
            message = self.next_message(lambda m: "id" in m, timeout=20)
            if message["id"] == ping and "result" in message:
                return answers
            answers.append(message)

    def next_message(self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 60.0) -> dict[str, Any]:
        """The next message wanted accepts (the others are skipped)."""
        assert self.proc.stdout
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while True:
                while b"\n" in self._buffer:
                    line, self._buffer = self._buffer.split(b"\n", 1)
                    message = json.loads(line)
                    if wanted(message):
                        return dict(message)
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise TimeoutError("no such message")
                chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
                if not chunk:
                    raise EOFError("the server closed its stdout")
                self._buffer += chunk

    def request(self, method: str, params: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        return self.receive(self.send(method, params), timeout)

    def call(self, tool: str, timeout: float = 60.0, **arguments: Any) -> dict[str, Any]:
        """A tool's result: {"isError": bool, "structuredContent": ..., "content": [...]}."""
        reply = self.request("tools/call", {"name": tool, "arguments": arguments}, timeout)
        assert "result" in reply, reply
        return dict(reply["result"])

    def close(self, kill: bool = False) -> int:
        if kill:
            self.proc.kill()
        elif self.proc.stdin:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=10)
        finally:
            self.proc.kill()
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream and not stream.closed:
                    stream.close()
            self._err.close()
