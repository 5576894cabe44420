"""Other programs' locks: git's index.lock is never removed while any program holds it open or while it
is young, whoever holds it is named, a killed PersonaKit's lock is cleared at once, and waiting for the
vault lock says who kept it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from owner import clean, cli_process, git, propose, subjects

from personakit.errors import VaultBusy
from personakit.store.files import VaultFiles


def old(path: Path, seconds: float = 3600) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_a_lock_held_open_by_any_program_is_left_alone_and_named(vault: Path, tmp_path: Path) -> None:
    (tea,) = propose(vault, "Drinks green tea")
    lock = vault / ".git" / "index.lock"
    lock.write_text("")
    old(lock)  # however old: a program has it open, so it is live
    obsidian = tmp_path / "bin" / "Obsidian"
    obsidian.parent.mkdir()
    shutil.copy("/bin/sleep", obsidian)  # not named git, not working in the vault: only its open file shows
    with open(lock, "rb") as held, subprocess.Popen([str(obsidian), "60"], stdin=held, cwd=tmp_path) as app:
        try:
            done = cli_process("approve", tea, "--vault", str(vault))
            assert done.returncode == 0, done.stderr
            assert subjects(vault)[0] == f"approve {tea}: Drinks green tea"  # the decision is committed
            assert lock.exists()
            said = [line for line in done.stderr.splitlines() if "index.lock" in line]
            assert len(said) == 1 and f"Obsidian (pid {app.pid})" in said[0], done.stderr
            assert "git status shows memories/drinks-green-tea.md as changed" in said[0]
        finally:
            app.kill()
    done = cli_process("list", "--vault", str(vault))  # nobody holds it now, and it is old: removed
    assert done.returncode == 0, done.stderr
    assert not lock.exists()
    assert clean(vault), git(vault, "status", "--porcelain")


def test_a_young_lock_that_nobody_holds_is_left_alone_until_it_is_old(vault: Path) -> None:
    lock = vault / ".git" / "index.lock"
    lock.write_text("")  # another machine's git on a shared folder, say: nothing here shows it
    (tea,) = propose(vault, "Drinks green tea")
    assert lock.exists()
    assert subjects(vault)[0] == f"propose {tea}: Drinks green tea"
    done = cli_process("approve", tea, "--vault", str(vault))
    assert done.returncode == 0 and "no running program this machine can see" in done.stderr
    assert lock.exists()
    old(lock, 11 * 60)
    assert cli_process("list", "--vault", str(vault)).returncode == 0
    assert not lock.exists()
    assert clean(vault), git(vault, "status", "--porcelain")


def test_a_killed_personakits_lock_is_cleared_at_once(vault: Path) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    note = vault / ".personakit" / f"git-intent-{dead.pid}"
    note.parent.mkdir(exist_ok=True)
    note.write_text("")  # it died inside a git command that takes the lock...
    old(note, 5)
    lock = vault / ".git" / "index.lock"
    lock.write_text("")  # ...which it had just taken
    old(lock, 4.5)
    propose(vault, "Drinks green tea")
    assert not lock.exists()
    assert not note.exists()
    assert clean(vault), git(vault, "status", "--porcelain")


HOLD = """
import sys, time
from pathlib import Path
from personakit.store.files import VaultFiles
with VaultFiles(Path(sys.argv[1])).lock():
    print("held", flush=True)
    time.sleep(30)
"""


def test_waiting_for_the_vault_lock_says_who_kept_it(vault: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", HOLD, str(vault)], stdout=subprocess.PIPE, text=True
    ) as holder:  # fmt: skip
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"
            with pytest.raises(VaultBusy) as busy:
                with VaultFiles(vault).lock(timeout=1):
                    pass
        finally:
            holder.kill()
    said = str(busy.value)
    assert f"pid {holder.pid} (python" in said and "held its lock the whole time" in said, said
    assert "held the vault lock for over" not in said
