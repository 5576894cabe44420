"""`personakit sync` merges who and when as docs/sync.md says: `about` changed on both devices is the
union of the names, `said` the earlier day, `until` the later day; each device ends with the same file."""

from __future__ import annotations

from pathlib import Path

from personakit.core.memory import parse_memory

from devices import Device, bare_remote, clone, first_device


def edit(device: Device, mid: str, old: str, new: str) -> None:
    """A hand edit of one front-matter line, taken in as the owner's."""
    name = device.name_of(mid)
    path = device.root / "memories" / name
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    device.kit.sync([name])


def test_sync_merges_about_as_a_union_said_earlier_until_later(tmp_path: Path) -> None:
    bare = bare_remote(tmp_path)
    laptop = Device(first_device(tmp_path, bare))
    try:
        mid = laptop.kit.propose("Is in Lisbon", "Carla is in Lisbon until the 20th", "background",
                                 about=["Carla"], said="2026-11-10", until="2026-12-20")["id"]  # fmt: skip
        laptop.sync()
        desktop = Device(clone(tmp_path, bare, "desktop"))
        try:
            edit(laptop, mid, 'about: ["[[Carla]]"]', 'about: ["[[Carla]]", "[[Ben]]"]')
            edit(laptop, mid, "said: 2026-11-10", "said: 2026-11-05")
            edit(laptop, mid, "until: 2026-12-20", "until: 2026-12-22")
            edit(desktop, mid, 'about: ["[[Carla]]"]', 'about: ["[[Carla]]", "[[Dana]]"]')
            edit(desktop, mid, "said: 2026-11-10", "said: 2026-11-01")
            edit(desktop, mid, "until: 2026-12-20", "until: 2026-12-21")
            laptop.sync()
            desktop.sync()
            laptop.sync()
            here, there = laptop.files(), desktop.files()
        finally:
            desktop.close()
    finally:
        laptop.close()
    assert here == there
    merged = parse_memory(next(iter(here.values())))
    assert (merged.id, merged.about) == (
        mid,
        ("Carla", "Dana", "Ben"),
    )  # the desktop merged first: its own names first
    assert (merged.said, merged.until, merged.state) == ("2026-11-01", "2026-12-22", "unconfirmed")
