"""`personakit remote` and `personakit sync` at the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from owner import cli, propose

from devices import bare_remote, clone, git

Capsys = pytest.CaptureFixture[str]


def test_sync_without_a_remote_says_how_to_add_one(vault: Path, capsys: Capsys) -> None:
    code, out, err = cli(capsys, "sync", "--vault", str(vault))
    assert code == 1 and out == ""
    assert err.strip().splitlines()[-1] == (
        "personakit: this vault has no remote to sync with; add one with: personakit remote add origin URL "
        "(a private git repository of yours; docs/sync.md shows how)"
    )
    assert cli(capsys, "remote", "--vault", str(vault))[1].startswith("No remote yet")


def test_remote_add_then_sync_then_a_clone_syncs_back(vault: Path, tmp_path: Path, capsys: Capsys) -> None:
    bare = bare_remote(tmp_path)
    code, out, _ = cli(capsys, "remote", "add", "origin", str(bare), "--vault", str(vault))
    assert code == 0 and "Now run: personakit sync" in out
    assert cli(capsys, "remote", "--vault", str(vault))[1].split() == ["origin", str(bare)]
    code, _, err = cli(capsys, "remote", "add", "origin", "elsewhere", "--vault", str(vault))
    assert code == 1 and "already has a remote named 'origin'" in err
    propose(vault, "Drinks green tea")
    code, out, _ = cli(capsys, "sync", "--vault", str(vault))
    assert code == 0 and out.startswith("Synced with origin (main): 0 files changed here, 2 commits sent.")
    desk = clone(tmp_path, bare, "desk")
    propose(desk, "Works in Go and Python")
    assert cli(capsys, "sync", "--vault", str(desk))[1].startswith(
        "Synced with origin (main): 0 files changed"
    )
    code, out, _ = cli(capsys, "sync", "--vault", str(vault))
    assert out.startswith("Synced with origin (main): 1 file changed here, 0 commits sent.")
    assert cli(capsys, "sync", "--vault", str(vault))[1] == "Already in sync with origin (main).\n"
    assert git(vault, "config", "branch.main.remote").strip() == "origin"  # so a plain git pull works too
    assert "synced" not in cli(capsys, "log", "--vault", str(vault))[1]  # no sync commit for plain syncs
