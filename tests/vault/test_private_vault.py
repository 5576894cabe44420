"""The vault keeps to itself (issue 10, items 9 and 17): nothing is read or written through a link that
leads out of it, and on a shared machine only its owner can read it, whatever their umask."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from owner import cli_process, commit_all, git, propose, write_memory

from personakit.core.memory import Memory, render_memory
from personakit.core.naming import memory_id

from conftest import server_command, server_env
from rawclient import RawServer


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def outside_memory(folder: Path) -> None:
    text = "Secret outside memory about tea"
    memory = Memory(memory_id(text), text, "other", "approved", ("outside",), "t", "2026-01-01T00:00:00Z")
    (folder / "outside.md").write_text(render_memory(memory))


# -- item 9: nothing outside the vault ------------------------------------------------------------------


@pytest.mark.parametrize(
    "place", ["memories", ".personakit", ".personakit/reads.jsonl", ".personakit/index", ".git"]
)
def test_a_link_out_of_the_vault_is_refused_at_open(vault: Path, tmp_path: Path, place: str) -> None:
    propose(vault, "Drinks green tea")
    outside, target = tmp_path / "outside", vault / place
    if target.exists():
        shutil.move(target, outside)  # the vault's own folder (or file), moved out and linked back
    else:
        outside.write_text("")
    target.symlink_to(outside)
    if place == "memories":
        outside_memory(outside)
    before = snapshot(outside) if outside.is_dir() else {"file": outside.read_bytes()}

    for command in (["search", "tea"], ["doctor"]):
        done = cli_process(*command, "--vault", str(vault))
        assert done.returncode == 1, done
        assert f"personakit: {target} is a symbolic link" in done.stderr, done.stderr
        assert "Nothing was read or changed" in done.stderr and "Secret" not in done.stdout
    served = subprocess.run(
        [sys.executable, *server_command(vault)], stdin=subprocess.DEVNULL, capture_output=True, text=True,
        env=server_env(), timeout=60, check=False,
    )  # fmt: skip
    assert served.returncode != 0 and f"{target} is a symbolic link" in served.stderr
    after = snapshot(outside) if outside.is_dir() else {"file": outside.read_bytes()}
    assert after == before  # nothing was written outside


def test_a_link_in_personakit_state_is_refused(vault: Path, tmp_path: Path) -> None:
    propose(vault, "Drinks green tea")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    (vault / ".personakit" / "vault.lock").unlink()
    (vault / ".personakit" / "vault.lock").symlink_to(victim)
    done = cli_process("list", "--vault", str(vault))
    assert done.returncode == 1 and ".personakit/vault.lock is a symbolic link" in done.stderr
    assert victim.read_text() == "keep me\n"


# -- item 17: private on a shared machine ----------------------------------------------------------------


@pytest.fixture
def careless_umask() -> Iterator[None]:
    """The umask many systems ship: everything readable by everyone. Children of the test inherit it."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def open_to_others(root: Path) -> list[str]:
    found = []
    for path in [root, *root.rglob("*")]:
        st = os.lstat(path)
        if not stat.S_ISLNK(st.st_mode) and st.st_mode & 0o077:
            found.append(f"{oct(st.st_mode & 0o777)} {path.relative_to(root)}")
    return found


def test_a_new_vault_is_private_whatever_the_umask(tmp_path: Path, careless_umask: None) -> None:
    vault = tmp_path / "vault"
    assert cli_process("init", str(vault)).returncode == 0
    server = RawServer(vault)  # inherits the careless umask
    try:
        stored = server.call("personakit_propose", text="Drinks green tea", quote="tea!", category="other")
        assert stored["structuredContent"]["stored"] is True
        server.call("personakit_read", question="tea")
    finally:
        assert server.close() == 0
    subprocess.run(["git", "-C", str(vault), "gc", "-q"], check=True)  # the owner's own git, same umask
    write_memory(vault, "by-hand.md", "Walks the dog")
    assert cli_process("list", "--vault", str(vault)).returncode == 0  # takes in and commits the new file
    assert open_to_others(vault) == []
    for made in (
        ".personakit/index",
        ".personakit/reads.jsonl",
        ".personakit/vault.lock",
        "memories/by-hand.md",
    ):
        assert (vault / made).exists()
    assert git(vault, "config", "core.sharedRepository").strip() == "0600"


def test_an_old_vault_is_tightened_at_start_and_doctor_reports_what_is_loose(
    vault: Path, careless_umask: None
) -> None:
    propose(vault, "Drinks green tea")
    subprocess.run(["chmod", "-R", "go+rX", str(vault)], check=True)  # as an older PersonaKit left it
    write_memory(vault, "by-hand.md", "Walks the dog")
    commit_all(vault)
    assert open_to_others(vault)
    done = cli_process("doctor", "--vault", str(vault))
    assert done.returncode == 1
    for place in ("vault:", "memories:", ".personakit:", ".git:"):
        assert any(
            line.startswith(place) and "can be read by other users" in line
            for line in done.stdout.splitlines()
        ), (place, done.stdout)
    assert f"chmod -R go= {vault}" in done.stdout
    assert cli_process("list", "--vault", str(vault)).returncode == 0  # a start
    assert open_to_others(vault) == []
    assert "can be read by other users" not in cli_process("doctor", "--vault", str(vault)).stdout
