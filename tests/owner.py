"""Helpers for the owner-side tests: run the CLI in process, put memories in a vault, read git back."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from personakit.cli import main
from personakit.core.naming import memory_id
from personakit.vault.service import PersonaKit


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run `personakit ARGS` in this process: (exit status, stdout, stderr)."""
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def cli_process(
    *args: str,
    stdin: int | None = subprocess.DEVNULL,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run `python -m personakit ARGS` as its own process, as an owner's shell would (env: variables to add)."""
    return subprocess.run(
        [sys.executable, "-m", "personakit", *args],
        capture_output=True, text=True, stdin=None if input is not None else stdin, input=input,
        env=dict(os.environ) | (env or {}), cwd=cwd, timeout=60, check=False,
    )  # fmt: skip


def propose(
    vault: Path, *texts: str, host: str = "claude-desktop", category: str = "preferences", quote: str = ""
) -> list[str]:
    """Propose memories as an assistant would (through the service the server calls); their ids."""
    kit = PersonaKit(vault, create=False)
    kit.start()
    try:
        ids = []
        for text in texts:
            result = kit.propose(text, quote or f"I said: {text.lower()}", category, host=host)
            assert result["stored"], result
            ids.append(result["id"])
        return ids
    finally:
        kit.close()


def write_memory(
    vault: Path,
    name: str,
    text: str,
    state: str = "unconfirmed",
    created: str = "2026-01-01T00:00:00Z",
    **front: str,
) -> Path:
    """A memory file as a person (or an older PersonaKit) might have written it; not committed."""
    lines = ["---", f"id: {memory_id(text)}", f"category: {front.pop('category', 'preferences')}"]
    lines += [f"state: {state}", "evidence:", f"  - I said {text.lower()}", "proposed_by: cursor"]
    lines += [f"created: {created}", *(f"{k}: {v}" for k, v in front.items()), "---", text, ""]
    path = vault / "memories" / name
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def git(vault: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(vault), *args], capture_output=True, text=True, check=True).stdout


def commit_all(vault: Path, message: str = "test setup") -> None:
    git(vault, "add", "-A")
    git(vault, "commit", "-qm", message)


def subjects(vault: Path) -> list[str]:
    """Commit subjects, newest first."""
    return git(vault, "log", "--format=%s").splitlines()


def changed_lines(vault: Path, rev: str = "HEAD") -> tuple[list[str], list[str]]:
    """The files a commit touched, and its diff's added and removed lines (without the file headers)."""
    files = git(vault, "show", "--format=", "--name-only", rev).split()
    diff = git(vault, "show", "--format=", "--unified=0", rev).splitlines()
    lines = [line for line in diff if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))]
    return files, lines


def author(vault: Path, rev: str = "HEAD") -> str:
    return git(vault, "show", "-s", "--format=%an <%ae>", rev).strip()


def clean(vault: Path) -> bool:
    return git(vault, "status", "--porcelain", "--untracked-files=all") == ""


STUCK = """
import os, time
from personakit.store.objects import refs

def move(self, *args, **kwargs):  # HEAD's branch never moves: the process stops here, to be killed
    with open({stuck!r}, "w") as out:
        out.write(str(os.getpid()))
    time.sleep(60)

refs.Refs.move = move
"""


def stuck_before_head_moves(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """The environment for a PersonaKit process that stops right before it moves HEAD (its files written,
    its commit's objects made), and the file that holds its pid once it has stopped there."""
    folder, stuck = tmp_path / "stuck-site", tmp_path / "stuck.pid"
    folder.mkdir(exist_ok=True)
    stuck.unlink(missing_ok=True)
    (folder / "sitecustomize.py").write_text(STUCK.format(stuck=str(stuck)))
    path = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH", "")]))
    return {"PYTHONPATH": path}, stuck
