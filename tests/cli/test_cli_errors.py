"""Errors say one thing: a problem the owner can act on is one sentence on stderr and exit 1; the usage
block belongs only to mistakes in the command line itself (an unknown option or command, a missing
argument, an invalid choice), with exit 2; a mistyped command gets a guess."""

from __future__ import annotations

import subprocess
from pathlib import Path

from owner import cli_process, propose


def one_sentence(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 1, done
    assert "usage:" not in done.stderr, done.stderr
    [said] = done.stderr.splitlines()
    assert said.startswith("personakit: "), said
    for word in words:
        assert word in said, said


def test_a_problem_is_one_sentence_without_the_usage_block(vault: Path, tmp_path: Path) -> None:
    nowhere = str(tmp_path / "nowhere")
    one_sentence(cli_process("list", "--vault", nowhere), "is not a PersonaKit vault")
    one_sentence(cli_process("approve", "zzzz", "--vault", str(vault)), "no memory has an id starting with")
    one_sentence(cli_process("sync", "--vault", str(vault)), "no remote to sync with")
    one_sentence(cli_process("review", "--vault", str(vault)), "review needs a terminal")
    one_sentence(
        cli_process("add", "My password is hunter2!x9Q", "--vault", str(vault)),
        "looks like a password, key or token",
    )
    propose(vault, "Drinks green tea")
    added = cli_process(
        "remote", "add", "origin", str(tmp_path / "no-such-remote.git"), "--vault", str(vault)
    )
    assert added.returncode == 0, added
    one_sentence(cli_process("sync", "--vault", str(vault)))


def test_command_line_mistakes_show_the_usage_and_a_typo_gets_a_guess(vault: Path) -> None:
    typo = cli_process("reviw", "--vault", str(vault))
    assert typo.returncode == 2
    usage, said = typo.stderr.splitlines()
    assert usage.startswith("usage: personakit ")
    assert said == "personakit: error: 'reviw' is not a command; did you mean 'review'?"
    far = cli_process("xyzzy")
    assert far.returncode == 2 and far.stderr.splitlines()[-1].endswith("personakit --help lists them")
    for args in (["approve"], ["list", "--state", "maybe"], ["list", "--colour"]):
        done = cli_process(*args, "--vault", str(vault))
        assert done.returncode == 2 and done.stderr.startswith("usage: personakit "), done


def test_a_vault_that_is_a_file_is_said_to_be_one_the_first_time(tmp_path: Path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a vault\n")
    for args in (["list"], ["approve", "m_0"], ["doctor"]):
        one_sentence(cli_process(*args, "--vault", str(a_file)), f"{a_file} is a file, not a folder")
