"""The repository is packed in the background, and packing never costs a proposal or an object."""

from __future__ import annotations

import fcntl
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest
from owner import git

from personakit.store import packing
from personakit.vault.service import PersonaKit


def loose(vault: Path) -> int:
    counts = dict(line.split(": ") for line in git(vault, "count-objects", "-v").splitlines())
    return int(counts["count"])


def packer_done(vault: Path, seconds: float = 30.0) -> None:
    """Wait until no packer holds the pack lock (one may not have taken it yet: give it a moment)."""
    time.sleep(0.3)
    deadline = time.monotonic() + seconds
    fd = os.open(vault / ".git" / "personakit-pack.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                assert time.monotonic() < deadline, "the packer did not finish"
                time.sleep(0.05)
    finally:
        os.close(fd)


def test_loose_objects_are_packed_in_the_background(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packing, "LOOSE_LIMIT", 16)
    monkeypatch.setattr(packing, "AGAIN_AFTER", 0.0)
    kit = PersonaKit(vault)
    kit.start()
    try:
        for i in range(30):
            assert kit.propose(f"Owns {i} bicycles", "bikes!", "background")["stored"]
    finally:
        kit.close()
    packer_done(vault)
    assert loose(vault) < 30 * 3  # most of the ~120 loose objects the commits wrote are in a pack now
    assert list((vault / ".git" / "objects" / "pack").glob("*.pack"))
    subprocess.run(
        ["git", "-C", str(vault), "fsck", "--full", "--no-dangling"], check=True, capture_output=True
    )
    assert len(git(vault, "log", "--format=%s").splitlines()) == 31


def test_packing_all_the_time_costs_no_proposal_and_no_object(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A packer that consolidates every pack and expires reflogs over and over, while proposals commit."""
    monkeypatch.setattr(packing, "PACK_LIMIT", 0)
    monkeypatch.setattr(packing, "LOOSE_LIMIT", 10**9)  # no packer of the kit's own: only this one
    stop = threading.Event()
    rounds = []

    def pack_again_and_again() -> None:
        while not stop.is_set():
            rounds.append(packing.pack(vault))

    packer = threading.Thread(target=pack_again_and_again)
    kit = PersonaKit(vault)
    kit.start()
    packer.start()
    try:
        for i in range(25):
            assert kit.propose(f"Drinks {i} cups of tea", "tea!", "preferences")["stored"]
            time.sleep(0.02)  # an assistant's pace: the packer gets its turn at the vault lock
    finally:
        stop.set()
        packer.join()
        kit.close()
    assert sum(rounds) >= 2  # it really packed meanwhile
    subprocess.run(
        ["git", "-C", str(vault), "fsck", "--full", "--no-dangling"], check=True, capture_output=True
    )
    assert len(git(vault, "log", "--format=%s").splitlines()) == 26
    assert git(vault, "status", "--porcelain") == ""


def test_a_second_packer_leaves_the_first_alone(vault: Path) -> None:
    fd = os.open(vault / ".git" / "personakit-pack.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert packing.pack(vault) is False
    finally:
        os.close(fd)
    assert packing.pack(vault) is True
