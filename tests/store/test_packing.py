"""The repository is packed in the background, and packing never costs a proposal or an object."""

from __future__ import annotations

import fcntl
import os
import subprocess
import threading
import time
from pathlib import Path

import pygit2
import pytest
from owner import git

from personakit.store import packing
from personakit.vault.service import PersonaKit


def loose(vault: Path) -> int:
    counts = dict(line.split(": ") for line in git(vault, "count-objects", "-v").splitlines())
    return int(counts["count"])


def packer_done(vault: Path, since: float, seconds: float = 60.0) -> None:
    """Wait until a packer started after `since` has recorded a look and none holds the pack lock (a
    packer is a process of its own: on a busy machine it may take a while to start at all)."""
    deadline = time.monotonic() + seconds
    fd = os.open(vault / ".git" / "personakit-pack.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        while True:
            if float(packing.record(vault / ".git").get("looked", 0)) >= since:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return
                except BlockingIOError:
                    pass
            assert time.monotonic() < deadline, "no packer looked at the repository, or it did not finish"
            time.sleep(0.05)
    finally:
        os.close(fd)


def test_loose_objects_are_packed_in_the_background(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packing, "LOOSE_LIMIT", 16)
    monkeypatch.setattr(packing, "GRACE", 0.1)  # passed on to the packer's process
    monkeypatch.setattr(packing, "AGAIN_AFTER", 0.0)
    # Every object folder counted, not a sample of 8: with ~120 loose objects a sample misses them all
    # about once in 55 runs, and then no packer starts (past 256, the limit in use, about never).
    monkeypatch.setattr(packing, "SAMPLE", packing.ALL)
    since = time.time()
    kit = PersonaKit(vault)
    kit.start()
    try:
        for i in range(30):
            assert kit.propose(f"Owns {i} bicycles", "bikes!", "background")["stored"]
    finally:
        kit.close()
    packer_done(vault, since)
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
    monkeypatch.setattr(packing, "LOOK_EVERY", float("inf"))
    stop = threading.Event()
    rounds = []

    def pack_again_and_again() -> None:
        while not stop.is_set():
            rounds.append(packing.pack(vault, grace=0.05))

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
        assert packing.pack(vault, grace=0) is False
    finally:
        os.close(fd)
    assert packing.pack(vault, grace=0) is True


def fsck_strict(vault: Path) -> None:
    found = subprocess.run(["git", "-C", str(vault), "fsck", "--strict", "--full", "--no-dangling"],
                           capture_output=True, text=True)  # fmt: skip
    assert found.returncode == 0, found.stdout + found.stderr


def test_a_deep_repack_keeps_what_proposals_land_meanwhile(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deepest repack the packer makes, with proposals landing before, during and after it (in the
    grace between the new pack and the removal of the old ones too): every commit stays, and git, fsck
    --strict and libgit2 accept the repository it leaves."""
    monkeypatch.setattr(packing, "LOOSE_LIMIT", 10**9)  # no packer of the kit's own: only this one
    monkeypatch.setattr(packing, "LOOK_EVERY", float("inf"))
    monkeypatch.setattr(packing, "DEEP_FROM", 0)
    monkeypatch.setattr(packing, "DEEP_RATIO", 0.0)
    monkeypatch.setattr(packing, "DEEP_GROWTH", 0.0)
    kit = PersonaKit(vault)
    kit.start()
    try:
        for i in range(15):  # a history in several packs, as the loose packer leaves one
            assert kit.propose(f"Reads {i} books a month", "books!", "interests")["stored"]
            if i % 5 == 4:
                assert packing.pack(vault, grace=0)  # "deep" each time: DEEP_RATIO is 0
        before = len(packing.record(vault / ".git")["runs"])
        done = threading.Event()
        ran: list[bool] = []
        packer = threading.Thread(target=lambda: (ran.append(packing.pack(vault, grace=3.0)), done.set()))
        packer.start()
        during = 0
        while not done.is_set():
            assert kit.propose(f"Walks {during} km on Sundays", "walks!", "habits")["stored"]
            during += 1
        packer.join()
    finally:
        kit.close()
    assert ran == [True] and during >= 2  # proposals landed while the packer worked
    subjects = git(vault, "log", "--format=%s").splitlines()
    assert len(subjects) == 1 + 15 + during
    assert all(any(f"Walks {i} km" in s for s in subjects) for i in range(during))
    assert git(vault, "status", "--porcelain") == ""
    fsck_strict(vault)
    git(vault, "gc", "--prune=now", "--quiet")  # nothing any commit needs was left only loose or dropped
    fsck_strict(vault)
    repo = pygit2.Repository(str(vault))
    walked = [c.message for c in repo.walk(repo.head.target)]
    assert len(walked) == len(subjects)
    listed = git(vault, "ls-tree", "--name-only", "HEAD:memories").splitlines()
    tree = repo.revparse_single("HEAD:memories")
    assert isinstance(tree, pygit2.Tree) and sorted(entry.name for entry in tree) == sorted(listed)
    runs = packing.record(vault / ".git")["runs"]
    assert [run["kind"] for run in runs[:2]] == ["loose", "deep"]  # no pack to search at first
    # The packer that ran beside the proposals looked again after its deep repack, and found their objects.
    assert runs[before]["kind"] == "deep" and len(runs) > before + 1
    assert runs[before + 1]["loose"] > 0
    assert all(run["cpu"] > 0 for run in runs)


def test_the_packer_searches_deltas_again_only_when_packs_outgrow_memories(
    vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(packing, "DEEP_FROM", 0)
    monkeypatch.setattr(packing, "LOOK_EVERY", float("inf"))  # only this test's packer
    kit = PersonaKit(vault)
    kit.start()
    try:
        for i in range(6):
            assert kit.propose(f"Plays {i} games of chess a week", "chess!", "interests")["stored"]
    finally:
        kit.close()
    monkeypatch.setattr(packing, "DEEP_RATIO", 1000.0)  # the packs are well within memories/
    assert packing.plan(vault, {})[0] == "loose"
    assert packing.pack(vault, grace=0)
    assert packing.plan(vault, packing.record(vault / ".git"))[0] is None  # nothing loose, few packs
    monkeypatch.setattr(packing, "DEEP_RATIO", 0.0)  # the packs outgrew memories/
    assert packing.plan(vault, packing.record(vault / ".git"))[0] == "deep"
    assert packing.pack(vault, grace=0)
    seen = packing.record(vault / ".git")
    assert seen["deep_objects"] > 0 and seen["cpu"] > 0
    # Searched again just now: not again until the repository has grown by DEEP_GROWTH.
    assert packing.plan(vault, seen)[0] is None
    monkeypatch.setattr(packing, "PACK_LIMIT", 0)
    assert packing.plan(vault, seen)[0] == "whole"
    fsck_strict(vault)


def test_opening_a_vault_starts_the_daily_look(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not packing.maybe_pack(vault, opening=True)  # a small vault: its packs are not worth a look
    monkeypatch.setattr(packing, "DEEP_FROM", 0)
    monkeypatch.setattr(packing, "AGAIN_AFTER", 0.0)
    monkeypatch.setattr(packing, "GRACE", 0.0)
    planted = vault / "personakit" / "store"  # as a remote may plant it beside memories/: never run
    planted.mkdir(parents=True)
    for init in (planted / "__init__.py", planted.parent / "__init__.py"):
        init.write_text("")
    (planted / "packing.py").write_text("import pathlib\npathlib.Path('planted-ran').write_text('')\n")
    monkeypatch.chdir(vault)  # and the folder PersonaKit was started from
    since = time.time()
    assert packing.maybe_pack(vault, opening=True)  # never looked at
    packer_done(vault, since)
    assert not list(vault.rglob("planted-ran"))
    assert packing.record(vault / ".git")["looked"] > time.time() - 60
    assert not packing.maybe_pack(vault, opening=True)  # looked at a moment ago
    assert not packing.maybe_pack(vault)
