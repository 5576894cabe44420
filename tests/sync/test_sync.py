"""`personakit sync` between devices through a bare repository on local disk: each per-memory rule.

Every test makes a remote and two devices (a laptop that made the vault, a desktop that cloned it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from personakit.core.memory import parse_memory
from personakit.core.naming import memory_id
from personakit.errors import PersonaKitError
from personakit.vault.service import init_vault

from devices import TEA, Device, git, laptop_and_desktop


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Device, Device]]:
    yield from laptop_and_desktop(tmp_path)


def settle(*devices: Device) -> None:
    """Sync each device in turn until none brings anything new (twice round is always enough)."""
    for _ in range(2):
        for device in devices:
            device.sync()


def same_everywhere(*devices: Device) -> None:
    first = devices[0]
    for other in devices[1:]:
        assert other.files() == first.files() and other.head() == first.head()
    for device in devices:
        assert device.clean(), git(device.root, "status", "--short")


def test_different_memories_on_each_side_are_both_kept_and_history_stays_linear(
    pair: tuple[Device, Device],
) -> None:
    laptop, desktop = pair
    a = laptop.propose("Works in Go and Python", host="cursor")["id"]
    b = desktop.propose("Never schedule calls before 10am", host="claude-desktop")["id"]
    laptop.sync()
    report = desktop.sync()
    assert report.brought == 1 and report.sent == 1 and not report.notes
    laptop.sync()
    same_everywhere(laptop, desktop)
    assert {a, b, memory_id(TEA)} == set(laptop.memories())
    assert git(laptop.root, "rev-list", "--merges", "HEAD") == ""  # no merge commit
    authors = git(laptop.root, "log", "--format=%an|%s").splitlines()
    assert f"claude-desktop (assistant)|propose {b}: Never schedule calls before 10am" in authors
    assert f"cursor (assistant)|propose {a}: Works in Go and Python" in authors


def test_the_same_memory_proposed_on_both_sides_is_one_file_with_both_quotes(
    pair: tuple[Device, Device],
) -> None:
    laptop, desktop = pair
    mid = laptop.propose("Likes dark mode everywhere", quote="dark mode, always")["id"]
    desktop.propose("likes dark mode everywhere.", quote="my eyes hate light themes")
    laptop.sync()
    report = desktop.sync()
    laptop.sync()
    same_everywhere(laptop, desktop)
    assert not report.notes
    (name,) = [n for n, t in laptop.files().items() if parse_memory(t).id == mid]
    memory = parse_memory(laptop.files()[name])
    assert set(memory.evidence) == {"dark mode, always", "my eyes hate light themes"}
    assert sum(parse_memory(t).id == mid for t in laptop.files().values()) == 1


def test_states_decided_differently_keep_the_more_private_and_the_report_names_both(
    pair: tuple[Device, Device],
) -> None:
    laptop, desktop = pair
    mid = memory_id(TEA)
    laptop.decide(mid, "approved")
    desktop.decide(mid, "restricted")
    laptop.sync()
    report = desktop.sync()
    (note,) = report.notes
    assert (note.kind, note.id, note.here, note.there, note.kept) == (
        "decisions",
        mid,
        "restricted",
        "approved",
        "restricted",
    )
    printed = "\n".join(report.lines())
    assert TEA in printed and "restricted on this device, approved on the other" in printed
    laptop.sync()
    same_everywhere(laptop, desktop)
    assert laptop.memories()[mid][0] == "restricted"
    # the disagreement stays in the audit trail, not only in one terminal
    assert any(s.startswith(f"sync {mid}:") and "kept restricted" in s for s in laptop.subjects())
    # and the more private wins whichever device syncs first
    laptop.decide(mid, "approved")
    desktop.decide(mid, "rejected")
    desktop.sync()
    report = laptop.sync()
    assert [(n.here, n.there, n.kept) for n in report.notes] == [("approved", "rejected", "rejected")]


def test_text_edited_on_both_sides_keeps_both_the_other_text_as_a_second_memory(
    pair: tuple[Device, Device],
) -> None:
    laptop, desktop = pair
    mid = memory_id(TEA)
    laptop.edit_text(mid, "Drinks green tea before nine")
    desktop.edit_text(mid, "Drinks jasmine tea in the morning")
    laptop.sync()
    report = desktop.sync()
    laptop.sync()
    same_everywhere(laptop, desktop)
    memories = laptop.memories()
    second = memory_id("Drinks green tea before nine")
    assert memories[mid] == ("unconfirmed", "Drinks jasmine tea in the morning")  # the syncing device's text
    assert memories[second] == ("unconfirmed", "Drinks green tea before nine")
    (note,) = report.notes
    assert note.kind == "texts" and note.second == second and second in "\n".join(report.lines())


def test_a_memory_forgotten_on_one_side_and_edited_on_the_other_is_kept(pair: tuple[Device, Device]) -> None:
    laptop, desktop = pair
    mid = memory_id(TEA)
    laptop.forget(mid)
    desktop.decide(mid, "approved")
    laptop.sync()
    report = desktop.sync()
    assert [n.kind for n in report.notes] == ["kept"] and "forgotten on the other device" in report.lines()[
        -1
    ]
    report = laptop.sync()
    same_everywhere(laptop, desktop)
    assert laptop.memories()[mid][0] == "approved"
    # the other way round: edited here (by hand), deleted by hand there
    desktop.edit_text(mid, "Drinks green tea at dawn")
    laptop.delete_file(mid)
    desktop.sync()
    report = laptop.sync()
    assert [n.kind for n in report.notes] == ["kept"] and "forgotten on this device" in report.lines()[-1]
    desktop.sync()
    same_everywhere(laptop, desktop)
    assert laptop.memories()[mid] == ("approved", "Drinks green tea at dawn")


def test_a_memory_forgotten_on_one_side_and_untouched_on_the_other_is_forgotten(
    pair: tuple[Device, Device],
) -> None:
    laptop, desktop = pair
    desktop.propose("Works in Go and Python")  # something else changes there
    laptop.forget(memory_id(TEA))
    desktop.sync()
    report = laptop.sync()
    desktop.sync()
    same_everywhere(laptop, desktop)
    assert memory_id(TEA) not in desktop.memories() and not report.notes


def test_a_file_renamed_by_hand_on_one_side_and_decided_on_the_other_is_one_memory(
    pair: tuple[Device, Device],
) -> None:
    laptop, desktop = pair
    mid = memory_id(TEA)
    name = laptop.name_of(mid)
    (laptop.root / "memories" / name).rename(laptop.root / "memories" / "tea.md")
    laptop.kit.sync([name, "tea.md"])
    desktop.decide(mid, "approved")
    desktop.sync()
    laptop.sync()
    desktop.sync()
    same_everywhere(laptop, desktop)
    assert [n for n, t in laptop.files().items() if parse_memory(t).id == mid] == ["tea.md"]
    assert laptop.memories()[mid][0] == "approved"


def test_other_files_follow_gits_merge_and_a_true_conflict_stops_with_the_vault_as_it_was(
    pair: tuple[Device, Device],
) -> None:
    laptop, desktop = pair
    for device, line in ((laptop, "laptop note"), (desktop, "desktop note")):
        readme = device.root / "README.md"
        readme.write_text(readme.read_text() + f"\n{line}\n")
        git(device.root, "commit", "-qam", f"{line} in the README")
    desktop.propose("Works in Go and Python")
    laptop.sync()
    before = (desktop.head(), desktop.files(), (desktop.root / "README.md").read_text())
    with pytest.raises(
        PersonaKitError, match=r"README.md was changed on this device and on the other .* nothing was changed"
    ):
        desktop.sync()
    assert (desktop.head(), desktop.files(), (desktop.root / "README.md").read_text()) == before
    assert desktop.clean()
    # a change git can merge is merged
    git(desktop.root, "reset", "-q", "--hard", "HEAD~2")
    readme = desktop.root / "README.md"
    readme.write_text("desktop title\n" + readme.read_text())
    git(desktop.root, "commit", "-qam", "a title")
    desktop.sync()
    text = (desktop.root / "README.md").read_text()
    assert text.startswith("desktop title\n") and "laptop note" in text and desktop.clean()


def test_sync_without_a_remote_says_how_to_add_one(vault: Path) -> None:
    device = Device(vault)
    try:
        with pytest.raises(PersonaKitError, match="personakit remote add origin URL"):
            device.sync()
    finally:
        device.close()


def test_a_vault_made_on_its_own_joins_a_remote_that_has_memories(
    pair: tuple[Device, Device], tmp_path: Path
) -> None:
    laptop, _ = pair
    own = tmp_path / "own"
    init_vault(own)  # a vault started separately on another machine, with memories of its own
    device = Device(own)
    try:
        mine = device.propose("Works in Go and Python")["id"]
        same = device.propose(TEA, quote="green tea, every morning")["id"]
        git(own, "remote", "add", "origin", git(laptop.root, "remote", "get-url", "origin").strip())
        device.sync()
        laptop.sync()
        same_everywhere(laptop, device)
        assert {mine, same} == set(laptop.memories())
        (text,) = [t for t in laptop.files().values() if parse_memory(t).id == same]
        assert set(parse_memory(text).evidence) == {
            "I said: drinks green tea in the morning",
            "green tea, every morning",
        }
    finally:
        device.close()


def test_a_decision_taken_back_before_syncing_still_counts(pair: tuple[Device, Device]) -> None:
    laptop, desktop = pair
    mid = memory_id(TEA)
    laptop.decide(mid, "approved")
    desktop.decide(mid, "restricted")
    desktop.decide(mid, "unconfirmed")  # back where it was: the file is as it was, the decision is not
    laptop.sync()
    report = desktop.sync()
    assert [(n.kind, n.here, n.there, n.kept) for n in report.notes] == [
        ("decisions", "unconfirmed", "approved", "unconfirmed")
    ]
    laptop.sync()
    same_everywhere(laptop, desktop)
    assert laptop.memories()[mid][0] == "unconfirmed"
    subject, *trailers = (
        git(laptop.root, "log", "-1", "--format=%B", "--grep", f"sync {mid}").strip().splitlines()
    )
    assert "unconfirmed here, approved on the other device: kept unconfirmed" in subject
    assert sorted(t.split()[1] for t in trailers if t.startswith("Decided:")) == ["approved", "unconfirmed"]
