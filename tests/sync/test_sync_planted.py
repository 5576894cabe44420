"""Files a remote plants (issue 23, item 8), and what a killed sync or a held lock leaves (item 9).

Someone with push access to the remote commits what a vault must never take from it: a new
`.gitattributes` (union merge, CRLF), a tracked file under `.personakit/`, a symlink or a folder in
`memories/`, a file name made for a shell. Sync refuses each by name and the vault stays as it was.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from owner import cli

from personakit.errors import PersonaKitError

from devices import Device, clone, git, laptop_and_desktop

Capsys = pytest.CaptureFixture[str]


@pytest.fixture
def devices(tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    yield from laptop_and_desktop(tmp_path)


def attacker(tmp_path: Path, plant: Callable[[Path], list[str]]) -> None:
    """Clone the laptop's remote as someone else, plant files, commit them and push."""
    bare = tmp_path / "remote.git"
    work = clone(tmp_path, bare, "attacker")
    git(work, "config", "user.name", "Mallory")
    git(work, "config", "user.email", "mallory@evil.example")
    paths = plant(work)
    git(work, "add", "-f", "--", *paths)
    git(work, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "tidy up")
    git(work, "push", "-q", "origin", "HEAD:main")


def attributes(work: Path) -> list[str]:
    (work / ".gitattributes").write_text("* merge=union\n* text eol=crlf\n")
    return [".gitattributes"]


def state_file(work: Path) -> list[str]:
    (work / ".personakit").mkdir(exist_ok=True)
    (work / ".personakit" / "sync.json").write_text('{"from": "0", "to": "1"}')
    return [".personakit/sync.json"]


def symlink(work: Path) -> list[str]:
    os.symlink("/etc/passwd", work / "memories" / "passwords.md")
    return ["memories/passwords.md"]


def nested(work: Path) -> list[str]:
    (work / "memories" / "sub").mkdir()
    (work / "memories" / "sub" / "x.md").write_text("---\nid: m_0123456789ab\nstate: approved\n---\nHidden\n")
    return ["memories/sub/x.md"]


def shell_name(work: Path) -> list[str]:
    name = "memories/$(touch PWNED).md"
    (work / name).write_text("---\nstate: approved\n---\nA file named for a shell\n")
    return [name]


@pytest.mark.parametrize("plant", [attributes, state_file, symlink, nested, shell_name])
def test_sync_refuses_what_a_remote_plants_by_name(
    devices: tuple[Device, Device], tmp_path: Path, plant: Callable[[Path], list[str]]
) -> None:
    laptop, _ = devices
    probe = tmp_path / "probe"
    (probe / "memories").mkdir(parents=True)
    planted = plant(probe)  # the names, to look for in the refusal
    attacker(tmp_path, plant)
    before = laptop.head(), laptop.files()
    with pytest.raises(PersonaKitError) as refused:
        laptop.sync()
    said = str(refused.value)
    assert planted[0] in said and "nothing was changed" in said, said
    assert (laptop.head(), laptop.files()) == before
    assert laptop.clean()
    assert not any(laptop.root.rglob("PWNED")) and not (Path.cwd() / "PWNED").exists()
    assert not (laptop.root / "memories" / "sub").exists()


def test_every_start_restores_the_merge_driver_a_plain_pull_replaced(
    devices: tuple[Device, Device], tmp_path: Path
) -> None:
    laptop, _ = devices
    attacker(tmp_path, attributes)
    laptop.close()
    git(laptop.root, "pull", "-q", "--no-rebase")  # the owner's own pull takes what sync refuses
    assert "merge=union" in (laptop.root / ".gitattributes").read_text()
    Device(laptop.root).close()
    assert (
        git(laptop.root, "check-attr", "merge", "memories/x.md").strip() == "memories/x.md: merge: personakit"
    )


def test_a_killed_syncs_leftover_is_removed_and_never_advised_for_committing(
    devices: tuple[Device, Device], capsys: Capsys
) -> None:
    laptop, _ = devices
    laptop.close()
    leftover = laptop.root / "memories" / ".personakit-sync-k1ll3d"  # what a kill during checkout left
    leftover.write_text("---\nid: m_0123456789ab\nstate: approved\n---\nHalf a file\n")
    code, out, err = cli(capsys, "doctor", "--vault", str(laptop.root))
    assert "commit" not in (out + err).lower(), out + err
    assert code == 0, out + err
    Device(laptop.root).close()  # any start cleans up
    assert not leftover.exists()
    assert git(laptop.root, "status", "--porcelain", "--untracked-files=all") == ""


def test_another_processs_held_index_lock_keeps_its_mode(vault: Path, capsys: Capsys) -> None:
    os.chmod(vault / ".git", 0o755)  # an older vault's .git, open to others: start walks it to close it
    lock = vault / ".git" / "index.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", (
            "import os, sys, time; os.umask(0); "
            f"fd = os.open({str(lock)!r}, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644); "
            "print('held', flush=True); time.sleep(60)"
        )],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        cli(capsys, "list", "--vault", str(vault))
        assert lock.exists()
        assert oct(lock.stat().st_mode & 0o777) == oct(0o644)
        assert oct((vault / ".git" / "config").stat().st_mode & 0o077) == oct(0)  # the rest was tightened
    finally:
        holder.kill()
        holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()
