"""Every way a sync can fail leaves the vault as it was, or fully synced, and says so in a sentence.
Nothing here uses the network: remotes are paths, a closed local port, and a local server that refuses.
CI kills 4 syncs at chosen and random instants; `PERSONAKIT_FULL=1` kills 40."""

from __future__ import annotations

import http.server
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from personakit.errors import PersonaKitError

from conftest import server_env
from devices import Device, bare_remote, clone, first_device, git

FULL = os.environ.get("PERSONAKIT_FULL") == "1"
KILLS = 40 if FULL else 4


@pytest.fixture
def laptop(tmp_path: Path) -> Iterator[Device]:
    device = Device(first_device(tmp_path, bare_remote(tmp_path)))
    device.propose("Drinks green tea in the morning")
    try:
        yield device
    finally:
        device.close()


def as_it_was(device: Device) -> tuple[str, dict[str, str], bool]:
    return device.head(), device.files(), device.clean()


def point_at(device: Device, url: str) -> None:
    git(device.root, "remote", "set-url", "origin", url)


def test_an_unreachable_remote_says_so_and_changes_nothing(laptop: Device, tmp_path: Path) -> None:
    before = as_it_was(laptop)
    point_at(laptop, str(tmp_path / "no-such-disk" / "vault.git"))
    with pytest.raises(PersonaKitError, match=r"could not reach origin .*no-such-disk.*nothing was changed"):
        laptop.sync()
    assert as_it_was(laptop) == before
    port = _closed_port()
    point_at(laptop, f"ssh://git@127.0.0.1:{port}/vault.git")
    with pytest.raises(PersonaKitError, match=r"could not reach origin .*Connection refused"):
        laptop.sync()
    point_at(laptop, f"https://127.0.0.1:{port}/vault.git")
    with pytest.raises(
        PersonaKitError, match=r"could not reach origin .*(Failed to connect|Could not connect)"
    ):
        laptop.sync()
    assert as_it_was(laptop) == before


class _Refusing(http.server.BaseHTTPRequestHandler):
    """A git host that wants credentials and accepts none."""

    def do_GET(self) -> None:
        self.send_response(401)
        self.send_header("WWW-Authenticate", 'Basic realm="vaults"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def test_refused_credentials_say_so_and_changes_nothing(laptop: Device) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Refusing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        before = as_it_was(laptop)
        port = server.server_address[1]
        point_at(laptop, f"http://127.0.0.1:{port}/you/vault.git")  # no prompt: sync is not interactive here
        with pytest.raises(PersonaKitError, match=r"origin .* refused this device's credentials.*git's own"):
            laptop.sync()
        point_at(laptop, f"http://owner:wrong@127.0.0.1:{port}/you/vault.git")
        with pytest.raises(
            PersonaKitError,
            match=r"origin \(http://owner:\*\*\*@.*refused this device's credentials: Authentication failed",
        ):
            laptop.sync()
        assert as_it_was(laptop) == before
    finally:
        server.shutdown()
        server.server_close()


def test_a_rewritten_remote_stops_the_sync_and_nothing_is_pushed(laptop: Device, tmp_path: Path) -> None:
    laptop.sync()
    bare = Path(git(laptop.root, "remote", "get-url", "origin").strip())
    other = clone(tmp_path, bare, "other")
    git(other, "reset", "-q", "--hard", "HEAD~1")  # someone purges the last memory and force-pushes
    git(other, "push", "-q", "--force", "origin", "main")
    rewritten = git(bare, "rev-parse", "main").strip()
    laptop.propose("Works in Go and Python")
    before = as_it_was(laptop)
    with pytest.raises(
        PersonaKitError, match=r"history was rewritten \(force-pushed\).*nothing was changed here or there"
    ):
        laptop.sync()
    assert as_it_was(laptop) == before
    assert git(bare, "rev-parse", "main").strip() == rewritten


def test_a_remote_that_moves_ahead_during_the_push_is_fetched_again(laptop: Device, tmp_path: Path) -> None:
    laptop.sync()
    desktop = Device(
        clone(tmp_path, Path(git(laptop.root, "remote", "get-url", "origin").strip()), "desktop")
    )
    try:
        laptop.propose("Works in Go and Python")
        desktop.propose("Never schedule calls before 10am")
        moved: list[bool] = []

        def desktop_pushes_first() -> None:
            if not moved:
                moved.append(True)
                desktop.sync()

        report = laptop.sync(before_push=desktop_pushes_first)
        assert moved and report.sent == 1 and report.brought == 1
        desktop.sync()
        assert desktop.files() == laptop.files() and len(laptop.files()) == 3
        assert git(laptop.root, "rev-list", "--merges", "HEAD") == ""
    finally:
        desktop.close()


def test_both_devices_syncing_at_the_same_moment_both_succeed(laptop: Device, tmp_path: Path) -> None:
    laptop.sync()
    desktop = clone(tmp_path, Path(git(laptop.root, "remote", "get-url", "origin").strip()), "desktop")
    Device(desktop).close()  # PersonaKit ran there once: its merge driver and index
    laptop.propose("Works in Go and Python")
    laptop.close()
    try:
        proposals = [
            subprocess.run(
                [sys.executable, "-c", PROPOSE, str(root), text], env=server_env(), check=True, timeout=60
            )
            for root, text in ((desktop, "Never schedule calls before 10am"),)
        ]
        assert proposals
        runs = [_cli("sync", "--vault", str(root)) for root in (laptop.root, desktop)]
        for run in runs:
            out, err = run.communicate(timeout=120)
            assert run.returncode == 0, err
            assert "Synced with origin" in out
        for root in (laptop.root, desktop, laptop.root):
            out, err = _cli("sync", "--vault", str(root)).communicate(timeout=120)
        a, b = git(laptop.root, "rev-parse", "HEAD"), git(desktop, "rev-parse", "HEAD")
        assert a == b and len(list((desktop / "memories").glob("*.md"))) == 3
    finally:
        laptop.kit = Device(laptop.root).kit


PROPOSE = """
import sys
from personakit.vault.service import PersonaKit
kit = PersonaKit(sys.argv[1], create=False)
kit.start()
assert kit.propose(sys.argv[2], "I said so", "preferences", host="cursor")["stored"]
kit.close()
"""


def test_a_kill_in_the_middle_of_a_sync_is_finished_at_the_next_start(laptop: Device, tmp_path: Path) -> None:
    """SIGKILL while the vault moves (the journal exists), and at random instants: the next PersonaKit
    process finishes the sync; nothing is committed as a hand edit, nothing is lost."""
    laptop.sync()
    bare = Path(git(laptop.root, "remote", "get-url", "origin").strip())
    desktop = clone(tmp_path, bare, "desktop")
    Device(desktop).close()
    journal = desktop / ".personakit" / "sync.json"
    killed_moving = 0
    for round_ in range(KILLS):
        for n in range(25):  # incoming changes, so the window in which the vault moves is wide
            laptop.propose(f"Round {round_} fact number {n}", host="claude")
        laptop.sync()
        before = git(desktop, "rev-parse", "HEAD").strip()
        run = _cli("sync", "--vault", str(desktop))
        moving = False
        if round_ % 2 == 0:  # kill while the files are written: the moment the journal appears
            deadline = time.monotonic() + 60
            while not journal.exists() and run.poll() is None and time.monotonic() < deadline:
                time.sleep(0.0005)
            moving = journal.exists()
            killed_moving += moving
        else:
            time.sleep(0.3 + (round_ * 0.37) % 1.5)
        run.send_signal(signal.SIGKILL)
        run.communicate()
        recovered = Device(desktop)  # the next start finishes whatever the kill interrupted
        try:
            assert not journal.exists()
            assert recovered.clean(), git(desktop, "status", "--short")
            ancestry = subprocess.run(
                ["git", "-C", str(desktop), "merge-base", "--is-ancestor", before, "HEAD"]
            )
            assert ancestry.returncode == 0  # as it was, or moved on to the synced history; never elsewhere
            if moving:  # finished by the start alone: fully synced, before any further sync
                assert recovered.files() == laptop.files() and recovered.head() == laptop.head()
            assert not [s for s in recovered.subjects() if "(by hand)" in s or "deleted by hand" in s]
            recovered.sync()
            assert recovered.files() == laptop.files()
        finally:
            recovered.close()
        assert git(desktop, "fsck", "--no-progress", "--no-dangling") == ""
    assert killed_moving, "no kill landed while the vault was moving"
    laptop.sync()
    final = Device(desktop)
    try:
        final.sync()
        assert final.files() == laptop.files() and final.head() == laptop.head()
    finally:
        final.close()


def _cli(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "personakit", *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=server_env(),
    )  # fmt: skip


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
