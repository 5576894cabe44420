"""Clear answers, no tracebacks: every problem, from every command and from `serve`, is one sentence on
stderr and a non-zero exit; malformed JSON-RPC gets the error answer the JSON-RPC spec prescribes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from rawclient import RawServer

INITIALIZE = json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
})  # fmt: skip


def run(
    *args: str, path: str | None = None, stdin: str = INITIALIZE + "\n"
) -> subprocess.CompletedProcess[str]:
    """`python -m personakit ARGS` as its own process (serve gets an initialize request, then EOF)."""
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [sys.executable, "-m", "personakit", *args],
        input=stdin, capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip


def one_sentence(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr, done.stderr
    *first, said = done.stderr.splitlines()  # no usage block: that is for mistakes in the command line
    assert said.startswith("personakit: "), done.stderr
    assert all(line.startswith("personakit: serving ") for line in first), done.stderr  # serve says it first
    for word in words:
        assert word in said, said


def test_every_problem_is_one_sentence_and_exit_1(tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder\n")
    for args in (["init", str(a_file)], ["serve", "--vault", str(a_file)]):
        one_sentence(run(*args), str(a_file), "is a file, not a folder")
    one_sentence(run("list", "--vault", str(a_file)), "is a file, not a folder")  # said the first time
    one_sentence(run("doctor", "--vault", str(tmp_path / "nowhere")), "personakit init")
    one_sentence(run("approve", "m_0", "--vault", str(tmp_path / "nowhere")), "personakit init")
    one_sentence(run("init", str(a_file / "vault")), "cannot make a vault", "Not a directory")
    crowded = tmp_path / "crowded"
    crowded.mkdir()
    (crowded / "taxes.pdf").write_text("")
    one_sentence(run("serve", "--vault", str(crowded)), "already holds files (taxes.pdf)")

    broken = tmp_path / "broken"
    assert run("init", str(broken)).returncode == 0
    (broken / ".personakit").rename(tmp_path / "state-elsewhere")
    (broken / ".personakit").write_text("")  # the state folder is a file: the server cannot start
    done = run("serve", "--vault", str(broken))
    one_sentence(done, ".personakit", "Not a directory")
    assert '"id":1' not in done.stdout or '"result"' in done.stdout


def test_without_git_version_and_help_work_and_the_rest_say_so(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin-without-git"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    path = str(bin_dir)
    done = run("--version", path=path)
    assert done.returncode == 0 and done.stdout.startswith("personakit ") and done.stderr == ""
    done = run("--help", path=path)
    assert done.returncode == 0 and "usage: personakit" in done.stdout and done.stderr == ""
    vault, existing = tmp_path / "vault", tmp_path / "existing"
    assert run("init", str(existing)).returncode == 0  # made while git was there
    for args in (["init", str(vault)], ["serve", "--vault", str(vault)], ["list", "--vault", str(existing)]):
        one_sentence(run(*args, path=path), "git is not installed")
    assert not vault.exists()  # nothing was half-made


def test_malformed_json_rpc_gets_the_specs_error_answers(vault: Path) -> None:
    server = RawServer(vault)
    try:
        assert [(a["id"], a["error"]["code"]) for a in server.answers_to(b"{not json")] == [(None, -32700)]
        wrong = json.dumps({"jsonrpc": "1.0", "id": 41, "method": "tools/list"}).encode()
        assert [(a["id"], a["error"]["code"]) for a in server.answers_to(wrong)] == [(41, -32600)]
        batch = json.dumps([
            {"jsonrpc": "2.0", "id": 42, "method": "tools/list"},
            {"jsonrpc": "2.0", "id": "forty-three", "method": "ping"},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
        ]).encode()  # fmt: skip
        answers = server.answers_to(batch)
        assert [(a["id"], a["error"]["code"]) for a in answers] == [
            (42, -32600),
            ("forty-three", -32600),
            (None, -32600),
        ]
        assert "batch" in answers[0]["error"]["message"]
        assert [(a["id"], a["error"]["code"]) for a in server.answers_to(b"[]")] == [(None, -32600)]
        no_method = json.dumps({"jsonrpc": "2.0", "id": 44}).encode()
        assert [(a["id"], a["error"]["code"]) for a in server.answers_to(no_method)] == [(44, -32600)]
        assert server.answers_to(b"") == []  # a blank line is not a message
        result = server.call("personakit_propose", text="Still answering", quote="yes", category="other")
        assert result["structuredContent"]["stored"] is True  # and the session carries on
    finally:
        assert server.close() == 0
