"""People notes: `people/<name>.md` in the vault, one per person (or pet, place, thing) the owner keeps a
note on, with Obsidian's own `aliases` property. PersonaKit reads them; it writes one only when the owner
asks (`personakit people add`).

Notes are read when they are asked for, not indexed: a read looks up which people its question names
(`core.people.expand`), so a changed alias counts at the next read with no reindex. The folder is
listed and each note stat-ed on every look-up (a few microseconds a note); a note is parsed again only
when its stat changed. Symbolic links are never followed, and a note that cannot be read still names a
person (its file name), with the reason as its problem.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from personakit.core.front_matter import InvalidFrontMatter, read
from personakit.core.people import Person, clean_name, read_person, render_person
from personakit.store.files import fsync_dir

FOLDER = "people"
MAX_NOTE_BYTES = 200_000


class PeopleNotes:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.folder = root / FOLDER
        self._lock = threading.Lock()
        self._known: dict[str, tuple[tuple[int, int, int], Person]] = {}  # file name -> (stat, person)

    def all(self) -> list[Person]:
        """Every people note, by name."""
        try:
            entries = list(os.scandir(self.folder))
        except OSError:  # no people/ folder: no notes
            return []
        found: dict[str, tuple[tuple[int, int, int], Person]] = {}
        with self._lock:
            for entry in entries:
                if not entry.name.endswith(".md") or entry.name.startswith("."):
                    continue
                try:
                    if not entry.is_file(follow_symlinks=False):
                        continue
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
                known = self._known.get(entry.name)
                person = known[1] if known and known[0] == stamp else self._read(entry.name, st.st_size)
                found[entry.name] = (stamp, person)
            self._known = found
        return sorted((p for _, p in found.values() if p.name), key=lambda p: p.name.casefold())

    def _read(self, name: str, size: int) -> Person:
        stem, file = name[:-3], f"{FOLDER}/{name}"
        if size > MAX_NOTE_BYTES:
            return Person(clean_name(stem), (), file, "the note is too big to read its aliases")
        try:
            raw = (self.folder / name).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeError) as error:
            return Person(clean_name(stem), (), file, f"the note cannot be read ({error})")
        if not raw.startswith("---"):
            return Person(clean_name(stem), (), file)  # a note with no properties: no aliases
        try:
            meta = read(raw).meta
        except InvalidFrontMatter as error:
            return Person(clean_name(stem), (), file, f"its properties cannot be read: {error}")
        return read_person(meta, stem, file)

    def path(self, name: str) -> Path:
        return self.folder / f"{clean_name(name)}.md"

    def write_new(self, name: str, aliases: list[str]) -> str:
        """Write a new note for name (it must not exist); returns its path inside the vault."""
        self.folder.mkdir(exist_ok=True)
        path = self.path(name)
        tmp = self.folder / f".{path.name}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as handle:
                handle.write(render_person(name, aliases))
                handle.flush()
                os.fsync(handle.fileno())
            os.link(tmp, path)  # whole or not at all, and never over a note that exists (FileExistsError)
        finally:
            tmp.unlink(missing_ok=True)
        fsync_dir(self.folder)
        return f"{FOLDER}/{path.name}"
