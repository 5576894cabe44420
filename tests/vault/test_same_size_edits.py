"""A change that keeps a file's size and mtime is still taken in (issue 10, item 3): `cp -p`, `touch -r`,
a restored mtime, and a file system whose timestamps are whole seconds. Checked by a running server's
reads and watcher, and after a restart."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from owner import cli, propose

from personakit.vault.service import PersonaKit, init_vault

Capsys = pytest.CaptureFixture[str]
TEA = "drinks-green-tea.md"


def cp_p(path: Path, text: str) -> None:
    edited = path.with_name("edited.tmp")
    edited.write_text(text)
    st = path.stat()
    os.utime(edited, ns=(st.st_atime_ns, st.st_mtime_ns))
    subprocess.run(["cp", "-p", str(edited), str(path)], check=True)  # in place: the inode stays
    edited.unlink()


def touch_r(path: Path, text: str) -> None:
    reference = path.with_name("reference.tmp")
    shutil.copy2(path, reference)
    path.write_text(text)
    subprocess.run(["touch", "-r", str(reference), str(path)], check=True)
    reference.unlink()


def utime(path: Path, text: str) -> None:
    st = path.stat()
    path.write_text(text)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def rsync_t(path: Path, text: str) -> None:  # as `rsync -t` does it: a new file, renamed over, old mtime
    st = path.stat()
    new = path.with_name(".drinks-green-tea.md.XXXXXX")
    new.write_text(text)
    os.utime(new, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(new, path)


@pytest.mark.parametrize("edit", [cp_p, touch_r, utime, rsync_t])
def test_an_edit_that_keeps_size_and_mtime_is_taken_in(
    vault: Path, capsys: Capsys, edit: Callable[[Path, str], None]
) -> None:
    check_rejection_is_seen(vault, capsys, edit)


def check_rejection_is_seen(vault: Path, capsys: Capsys, edit: Callable[[Path, str], None]) -> None:
    [tea] = propose(vault, "Drinks green tea")
    cli(capsys, "approve", tea, "--vault", str(vault))
    path = vault / "memories" / TEA
    before = path.stat()
    kit = PersonaKit(vault, create=False)
    kit.start(watch=True)
    try:
        assert ids(kit) == [tea]
        text = path.read_text()
        assert len("state: approved") == len("state: rejected")
        edit(path, text.replace("state: approved", "state: rejected"))
        after = path.stat()
        assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
        assert ids(kit) == []  # the read path
        time.sleep(0.8)  # the watcher's turn: it must not have taken the old stat for "unchanged"
        assert [h.memory.state for h in kit.index.by_id(tea)] == ["rejected"]
    finally:
        kit.close()
    restarted = PersonaKit(vault, create=False)
    restarted.start()
    try:
        assert ids(restarted) == []
    finally:
        restarted.close()


def ids(kit: PersonaKit) -> list[str]:
    return [m["id"] for m in kit.read("green tea", record=False)["memories"]]


@contextmanager
def coarse_file_system(tmp_path: Path) -> Iterator[Path]:
    """An ext2 file system with 128-byte inodes: every timestamp is a whole second."""
    image, mount = tmp_path / "coarse.img", tmp_path / "coarse"
    mount.mkdir()
    try:
        with open(image, "wb") as handle:
            handle.truncate(16 << 20)
        subprocess.run(
            ["mke2fs", "-q", "-t", "ext2", "-I", "128", "-F", str(image)], check=True, capture_output=True
        )
        subprocess.run(["mount", "-o", "loop", str(image), str(mount)], check=True, capture_output=True)
    except (subprocess.CalledProcessError, FileNotFoundError) as error:
        pytest.skip(f"this machine does not let the tests mount a file system: {error}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False, capture_output=True)


def test_an_edit_within_the_same_second_on_coarse_timestamps_is_taken_in(
    tmp_path: Path, capsys: Capsys
) -> None:
    with coarse_file_system(tmp_path) as mount:
        vault = mount / "vault"
        init_vault(vault)
        for attempt in range(5):  # the edit must land in the second of the approval; retry if not
            text = f"Drinks green tea, take {attempt}"
            [tea] = propose(vault, text)
            path = vault / "memories" / f"drinks-green-tea-take-{attempt}.md"
            while time.time() % 1 > 0.3:  # start early in a second
                time.sleep(0.05)
            cli(capsys, "approve", tea, "--vault", str(vault))
            before = path.stat()
            path.write_text(path.read_text().replace("state: approved", "state: rejected"))  # in place
            after = path.stat()
            if (after.st_ctime_ns, after.st_mtime_ns, after.st_size) == (
                before.st_ctime_ns, before.st_mtime_ns, before.st_size,
            ):  # fmt: skip
                break
        else:
            pytest.skip("could not edit within one second of the approval")
        kit = PersonaKit(vault, create=False)
        kit.start()
        try:
            assert tea not in ids(kit)
        finally:
            kit.close()
