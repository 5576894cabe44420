"""`personakit serve` run by a person in a terminal says that it serves before anything slow (the SDK's
import, opening the vault), on stderr: stdout is the protocol's."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

from conftest import server_command, server_env


def test_serve_says_serving_before_any_host_speaks(vault: Path) -> None:
    lines: queue.Queue[str] = queue.Queue()
    with subprocess.Popen(
        [sys.executable, *server_command(vault)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=server_env(), text=True,
    ) as process:  # fmt: skip
        assert process.stdin and process.stdout and process.stderr
        errors = process.stderr

        def read() -> None:
            for line in errors:
                lines.put(line)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        try:
            first = lines.get(timeout=60)  # stdin stays open and silent: no host has said anything
            assert first.startswith(f"personakit: serving {vault} over stdio")
            assert process.poll() is None
        finally:
            process.stdin.close()
            process.wait(timeout=60)
            reader.join(timeout=60)
        assert process.stdout.read() == ""  # nothing but the protocol ever goes to stdout
