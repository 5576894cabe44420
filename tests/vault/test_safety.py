"""Hostile environments: paths, symlinks, read-only mounts, a full disk, a big vault with broken files,
and secrets typed by hand. Each through the real server."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from git import Repo

from personakit.core.memory import Memory, render_memory
from personakit.core.naming import memory_id, slug

from conftest import call, call_error, connect

pytestmark = pytest.mark.anyio
FULL = os.environ.get("PERSONAKIT_FULL") == "1"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and not p.is_symlink()
    }


def write(
    vault: Path, text: str, state: str = "approved", evidence: tuple[str, ...] = ("I said so",)
) -> Path:
    memory = Memory(memory_id(text), text, "other", state, evidence, "test", "2026-01-01T00:00:00Z")  # type: ignore[arg-type]
    path = vault / "memories" / f"{slug(text)}.md"
    path.write_text(render_memory(memory))
    return path


def commit_all(vault: Path) -> None:
    Repo(vault).git.add("-A")
    Repo(vault).git.commit("-qm", "setup")


async def test_symlinks_in_memories_are_never_followed(vault: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "likes-tea.md"
    secret = render_memory(
        Memory(memory_id("Secret"), "Secret outside memory", "other", "approved", ("x",), "t", "2026")
    )  # type: ignore[arg-type]
    target.write_text(secret)
    (vault / "memories" / "likes-tea.md").symlink_to(target)  # the name a proposal of "Likes tea" would take
    before = snapshot(outside)
    async with connect(vault) as session:
        stored = await call(
            session, "personakit_propose", text="Likes tea", quote="tea!", category="preferences"
        )
        assert stored["stored"] is True
        read = await call(session, "personakit_read", question="secret outside memory tea")
    assert snapshot(outside) == before  # never written through
    assert [m["text"] for m in read["memories"]] == ["Likes tea"]  # never read through either
    assert (vault / "memories" / "likes-tea.md").is_symlink()


async def test_no_input_touches_a_file_outside_memories(vault: Path, tmp_path: Path) -> None:
    def outside_vault() -> dict[str, bytes]:
        return {
            k: v
            for k, v in snapshot(tmp_path).items()
            if not k.startswith("vault/") and not k.endswith(".log")
        }

    before = outside_vault()
    strange = [
        "../../outside",
        "/etc/passwd",
        "..\\..\\win",
        "memories/../../x",
        ".git/config",
        "~/.bashrc",
        "a\0b",
    ]
    async with connect(vault) as session:
        for text in strange:
            await call(session, "personakit_propose", text=text, quote=text, category=text)
            await call(session, "personakit_read", question=text)
    assert outside_vault() == before
    changed = Repo(vault).git.diff("--name-only", f"HEAD~{len(strange)}", "HEAD").split()
    assert len(changed) == len(strange) and all(p.startswith("memories/") for p in changed)
    assert {p.name for p in vault.iterdir()} == {
        ".git",
        ".gitattributes",
        ".gitignore",
        ".personakit",
        "README.md",
        "memories",
    }


@contextmanager
def mounted(*args: str) -> Iterator[None]:
    target = args[-1]
    try:
        subprocess.run(["mount", *args], check=True, capture_output=True)
    except (subprocess.CalledProcessError, FileNotFoundError) as error:
        pytest.skip(f"this machine does not let the tests mount file systems: {error}")
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", target], check=False, capture_output=True)


async def test_a_read_only_vault_serves_reads_and_refuses_proposals(vault: Path, tmp_path: Path) -> None:
    write(vault, "Drinks green tea")
    commit_all(vault)
    view = tmp_path / "read-only-view"
    view.mkdir()
    with mounted("--bind", str(vault), str(view)):
        subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True)
        async with connect(view) as session:
            read = await call(session, "personakit_read", question="tea")
            assert [m["text"] for m in read["memories"]] == ["Drinks green tea"]
            said = await call_error(
                session, "personakit_propose", text="Likes rain", quote="rain!", category="other"
            )
            assert "read-only" in said and "nothing was stored" in said


async def test_a_full_disk_during_a_proposal_loses_nothing_stored(tmp_path: Path) -> None:
    disk = tmp_path / "small-disk"
    disk.mkdir()
    with mounted("-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)):
        from personakit.vault.service import init_vault

        vault = disk / "vault"
        init_vault(vault)
        async with connect(vault) as session:
            for i in range(3):
                await call(
                    session,
                    "personakit_propose",
                    text=f"Owns {i} kites",
                    quote=f"{i} kites",
                    category="other",
                )
            before = snapshot(vault / "memories")
            filler = disk / "filler"
            with open(filler, "wb") as handle:  # fill the disk to the last byte
                try:
                    while True:
                        handle.write(b"\0" * 65536)
                        handle.flush()
                except OSError:
                    pass
            for i in range(5):
                said = await call_error(
                    session, "personakit_propose", text=f"Flies kite {i}", quote="wind", category="other"
                )
                assert "nothing was stored" in said or "could not record" in said
            assert snapshot(vault / "memories") == before
            filler.unlink()
            after = await call(
                session, "personakit_propose", text="Flies kites on Sundays", quote="wind!", category="other"
            )
            assert after["stored"] is True
            read = await call(session, "personakit_read", question="kites", limit=20)
            assert len(read["memories"]) == 4
        Repo(vault).git.fsck("--full", "--strict")
        assert not Repo(vault).is_dirty(untracked_files=True)


async def test_a_big_vault_with_one_percent_broken_files_serves(vault: Path, tmp_path: Path) -> None:
    size = 10_000 if FULL else 2_000
    for i in range(size):
        if i % 100 == 7:
            (vault / "memories" / f"broken-{i}.md").write_text(
                f"---\nstate: [unclosed {i}\n---\nBroken {i}\n"
            )
        else:
            write(vault, f"Memory {i} about topic{i % 50} and item{i}")
    commit_all(vault)
    log = tmp_path / "stderr.log"
    async with connect(vault, stderr=log) as session:
        read = await call(session, "personakit_read", question="item42 topic42")
        assert read["memories"][0]["text"] == "Memory 42 about topic42 and item42"
        assert len(read["memories"]) == 7
    assert log.read_text().count("skipped memories/broken-") == size // 100


async def test_a_secret_typed_by_hand_is_masked_in_what_is_served(vault: Path, tmp_path: Path) -> None:
    key = "sk-proj-" + "Zq8RtY2pWx4Lm6Nb" * 3
    write(vault, "Uses the OpenAI API for side projects", evidence=(f"my key is {key} lol", "I build bots"))
    log = tmp_path / "stderr.log"
    async with connect(vault, stderr=log) as session:
        read = await call(session, "personakit_read", question="openai api")
    served = str(read)
    assert key not in served and "Zq8RtY2pWx4Lm6Nb" not in served
    assert "[secret]" in read["memories"][0]["evidence"][0]
    assert "shaped like a password or key" in log.read_text()  # and it was not committed to git
    assert "sk-proj" not in Repo(vault).git.log("-p")
