"""A first index shared with a helper process gives the index, the reports and the skips of one made alone."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest
from owner import commit_all, git, write_memory

from personakit.store.index import MemoryIndex
from personakit.vault import firstindex
from personakit.vault.service import PersonaKit

STATES = ("approved", "unconfirmed", "restricted", "rejected")


def vault_of(root: Path) -> Path:
    from personakit.vault.service import init_vault

    init_vault(root)
    for i in range(240):
        write_memory(root, f"m{i:03d}.md", f"Plays {i} rounds of golf with zq{i}x", STATES[i % 4],
                     created=f"2026-01-{i % 28 + 1:02d}T00:00:00Z")  # fmt: skip
    (root / "memories" / "m150-broken.md").write_text("---\nid: [unclosed\n---\nText\n")
    (root / "memories" / "m200-odd.md").write_text("---\ncategory: tools\nstate: maybe\n---\nUses vim\n")
    write_memory(
        root, "m210-fact.md", "Keeps bees", "approved", category="fact"
    )  # plain but for its category
    commit_all(root)
    return root


def indexed(root: Path, caplog: pytest.LogCaptureFixture) -> tuple[dict[str, object], set[str], list[str]]:
    caplog.clear()
    kit = PersonaKit(root, create=False)
    with caplog.at_level(logging.INFO, logger="personakit"):
        kit.start()
    try:
        # A copy's files have their own inodes and change times: the rest of what is kept must match.
        memories = {
            h.memory.name: (h.memory, h.memory.problems, h.stat.size, h.stat.digest) for h in kit.index.all()
        }
        assert all(h.stat.digest for h in kit.index.all())  # what says a file changed when its times do not
        found = [h.memory.name for h in kit.index.search(["zq77x"], 7)]
        assert found == ["m077.md"] or found == []  # m077 is restricted: in its own field
        assert [h.memory.name for h in kit.index.search(["zq176x"], 7)] == ["m176.md"]
        return (
            memories,
            set(kit.broken),
            sorted(r.getMessage() for r in caplog.records if "memories/" in r.getMessage()),
        )
    finally:
        kit.close()


def test_a_shared_first_index_is_the_same_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    alone = vault_of(tmp_path / "alone")
    shutil.copytree(alone, tmp_path / "shared", symlinks=True)
    expected = indexed(alone, caplog)
    monkeypatch.setattr(firstindex, "PARALLEL_FROM", 50)
    adopted = []
    real_adopt = MemoryIndex.adopt
    monkeypatch.setattr(
        MemoryIndex,
        "adopt",
        lambda self, part: adopted.append(real_adopt(self, part)) or adopted[-1],
    )
    planted = tmp_path / "elsewhere" / "personakit" / "vault"  # the folder the server was started from
    planted.mkdir(parents=True)
    for init in (planted / "__init__.py", planted.parent / "__init__.py"):
        init.write_text("")
    (planted / "firstindex.py").write_text(
        "import pickle, sys\nsys.stdout.buffer.write(pickle.dumps(([], {})))\n"
    )
    monkeypatch.chdir(planted.parents[1])  # its personakit is not the one the helper runs
    assert indexed(tmp_path / "shared", caplog) == expected
    assert adopted and adopted[0] > 100  # the helper really indexed its half (less what it handed back)
    assert not list((tmp_path / "shared" / ".personakit").glob("index-part-*"))


def test_a_helper_that_fails_leaves_its_share_to_take_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    expected = indexed(vault_of(tmp_path / "alone"), caplog)
    root = vault_of(tmp_path / "failing")
    monkeypatch.setattr(firstindex, "PARALLEL_FROM", 50)
    monkeypatch.setattr(firstindex.sys, "executable", shutil.which("false"))
    memories, broken, said = indexed(root, caplog)
    assert (memories.keys(), broken) == (expected[0].keys(), expected[1])
    assert "the helper indexing part of the vault stopped" in caplog.text or said


def test_a_servers_first_index_answers_reads_then_commits_what_changed_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server's first index lets reads in once it is built; git's status of every file, and the commit
    of a file made by hand meanwhile, follow on a thread of their own: committed once all the same."""
    monkeypatch.setattr(firstindex, "PARALLEL_FROM", 50)
    root = vault_of(tmp_path / "vault")
    write_memory(root, "by-hand.md", "Keeps bees on the roof", "approved")
    kit = PersonaKit(root, create=False)
    kit.start(watch=True, background=True)
    try:
        kit.wait_until_synced()
        assert [m["text"] for m in kit.read("bees", record=False)["memories"]][:1] == [
            "Keeps bees on the roof"
        ]
        assert kit._caught_up.wait(timeout=60)
        assert git(root, "status", "--porcelain", "--", "memories") == ""
        assert len(git(root, "log", "--format=%H", "--", "memories/by-hand.md").split()) == 1
    finally:
        kit.close()


def test_a_helper_started_early_gives_the_same_index_whatever_changed_since_it_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """`serve` starts the helper before it opens the vault (`begin`). Files changed, deleted and made after
    the helper listed them are taken in as they are now; the index is the one a start alone makes."""
    alone = vault_of(tmp_path / "alone")
    early = tmp_path / "early"
    shutil.copytree(alone, early, symlinks=True)
    monkeypatch.setattr(firstindex, "_cores", lambda: 2)
    ours = ["m230.md", "m231.md", "m232.md"]  # among the last files by name: the helper's share

    def meanwhile(root: Path) -> None:
        write_memory(root, ours[0], "Plays squash now with zq900x", "approved")
        (root / "memories" / ours[1]).unlink()
        write_memory(root, f"{ours[2]}-new.md", "Sails on Sundays with zq901x", "approved")

    meanwhile(alone)
    expected = indexed(alone, caplog)
    monkeypatch.setattr(firstindex, "PARALLEL_FROM", 50)
    firstindex.begin(early.resolve())
    helper = firstindex._early
    assert helper is not None and helper.share == 800  # per mille: a vault this small
    firstindex.go()
    helper._feed.join()  # it has listed, read and indexed its share
    meanwhile(early)
    assert indexed(early, caplog) == expected
    assert firstindex._early is None and not list((early / ".personakit").glob("index-part-*"))


def test_an_early_helper_no_first_index_needs_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index was there after all (another process built it meanwhile): the helper is stopped and its
    folder removed; with an index there, none begins."""
    root = vault_of(tmp_path / "vault")
    monkeypatch.setattr(firstindex, "_cores", lambda: 2)
    monkeypatch.setattr(firstindex, "PARALLEL_FROM", 50)
    firstindex.begin(root.resolve())
    helper, firstindex._early = firstindex._early, None  # aside while another process's start indexes
    assert helper is not None
    kit = PersonaKit(root, create=False)
    kit.start()
    kit.close()
    firstindex._early = helper  # then this process starts, with the index there now
    kit = PersonaKit(root, create=False)
    kit.start()
    kit.close()
    assert firstindex._early is None and helper.process.poll() is not None
    assert not list((root / ".personakit").glob("index-part-*"))
    firstindex.begin(root.resolve())
    assert firstindex._early is None


def test_the_helpers_share_is_one_segment_whatever_its_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The helper hands its share to one writer in batches: one segment, so that a read looks each word
    up in two segments after a first index, not in one per batch."""
    from personakit.store.files import VaultFiles
    from personakit.store.index import stored_memories
    from personakit.store.segments import Folder

    root = vault_of(tmp_path / "vault")
    monkeypatch.setattr(firstindex, "BATCH", 30)
    listed = VaultFiles(root).list()
    part = tmp_path / "part"
    back, done, _ = firstindex.build_part(root, part, listed)
    assert len(done) > 200 and set(back) == {"m150-broken.md", "m200-odd.md"}
    with Folder(str(part)).open_index().reader() as reader:
        assert len(list(reader.segments())) == 1
    assert sorted(m.name for m in stored_memories(part)) == sorted(done)
