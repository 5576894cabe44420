"""Sync end to end: a real `personakit serve` running on a device while `personakit sync` brings changes
in, and a third device cloned while the other two push."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from personakit.core.naming import memory_id

from conftest import call, connect, server_env
from devices import Device, bare_remote, clone, first_device, git

READ, PROPOSE = "personakit_read", "personakit_propose"


@pytest.mark.anyio
async def test_a_running_server_sees_what_sync_brought_in_and_commits_none_of_it_again(
    tmp_path: Path,
) -> None:
    bare = bare_remote(tmp_path)
    laptop = Device(first_device(tmp_path, bare))
    desktop = clone(tmp_path, bare, "desktop")
    try:
        async with connect(desktop, host="claude-desktop") as session:
            await call(
                session,
                PROPOSE,
                text="Prefers short answers",
                quote="keep it short",
                category="communication",
            )
            for n in range(30):
                laptop.propose(f"Uses tool number {n} at work", host="cursor")
            laptop.decide(memory_id("Uses tool number 7 at work"), "approved")
            laptop.decide(memory_id("Uses tool number 8 at work"), "restricted")
            laptop.sync()
            synced = subprocess.run(
                [sys.executable, "-m", "personakit", "sync", "--vault", str(desktop)],
                capture_output=True, text=True, env=server_env(), timeout=120, check=False,
            )  # fmt: skip
            assert synced.returncode == 0, synced.stderr
            assert "30 files changed here, 1 commit sent" in synced.stdout
            done = time.monotonic()
            while True:  # the server's watcher takes the pulled files in
                found = await call(session, READ, question="tool number 7 at work")
                if any(m["id"] == memory_id("Uses tool number 7 at work") for m in found["memories"]):
                    break
                assert time.monotonic() - done < 3, found
                await asyncio.sleep(0.05)
            seen = time.monotonic() - done
            assert found["memories"][0]["confirmed"] is True
            restricted = await call(session, READ, question="tool number 8 at work")
            assert memory_id("Uses tool number 8 at work") not in [m["id"] for m in restricted["memories"]]
            assert restricted["withheld"] >= 1
            await asyncio.sleep(1.0)  # long enough for a stray "by hand" commit to show
            subjects = git(desktop, "log", "--format=%s").splitlines()
            assert not [s for s in subjects if "by hand" in s], subjects
            assert git(desktop, "status", "--porcelain") == ""
            await call(
                session, PROPOSE, text="Prefers dark mode", quote="dark, please", category="preferences"
            )
        assert seen < 1.5, f"the server saw the synced memories {seen:.2f} s after sync returned"
        out = subprocess.run(
            [sys.executable, "-m", "personakit", "sync", "--vault", str(desktop)],
            capture_output=True, text=True, env=server_env(), timeout=120, check=True,
        ).stdout  # fmt: skip
        assert "1 commit sent" in out
        laptop.sync()
        assert memory_id("Prefers dark mode") in laptop.memories()
        assert memory_id("Prefers short answers") in laptop.memories()
    finally:
        laptop.close()


def test_a_third_device_cloned_while_two_others_push_ends_level_with_them(tmp_path: Path) -> None:
    bare = bare_remote(tmp_path)
    devices = [Device(first_device(tmp_path, bare)), Device(clone(tmp_path, bare, "desktop"))]
    proposed: list[str] = []
    failures: list[BaseException] = []

    def busy(device: Device, name: str) -> None:
        try:
            for n in range(6):
                proposed.append(device.propose(f"{name} fact number {n}")["id"])
                device.sync()
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=busy, args=(d, d.root.name)) for d in devices]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    phone = Device(clone(tmp_path, bare, "phone"))  # cloned while the other two push
    devices.append(phone)
    try:
        proposed.append(phone.propose("phone fact")["id"])
        phone.sync()
        for thread in threads:
            thread.join(timeout=300)
        assert not failures, failures
        for _ in range(2):
            for device in devices:
                device.sync()
        first = devices[0]
        for device in devices:
            assert device.files() == first.files() and device.head() == first.head()
            # (dangling objects are no fault: a push the remote refused leaves its objects there, and a
            # clone from a path copies them)
            assert device.clean() and git(device.root, "fsck", "--no-progress", "--no-dangling") == ""
        assert set(proposed) <= set(first.memories()) and len(proposed) == 13
        assert git(first.root, "rev-list", "--merges", "HEAD") == ""
    finally:
        for device in devices:
            device.close()
