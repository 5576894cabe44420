"""The owner's view of whom their memories are about: people notes and the names memories use.

`roster` lists each person with a note (`people/<name>.md`, its Obsidian `aliases`) and each name a
memory's `about` uses without one, with how many memories in each state are about them (a memory about
an alias counts for the person whose note lists it). `add_person` writes a new note, in one commit: the
only way PersonaKit ever writes one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from personakit.core.memory import STATES
from personakit.core.people import Person, check_about, key, note_name_problem
from personakit.errors import PersonaKitError
from personakit.vault.people import PeopleNotes
from personakit.vault.service import PersonaKit


@dataclass
class Row:
    name: str
    aliases: tuple[str, ...] = ()
    note: str | None = None  # the note's path in the vault; None: a name only memories use
    counts: dict[str, int] = field(default_factory=dict)  # state -> memories about them
    problem: str = ""

    def record(self) -> dict[str, object]:
        return {
            "name": self.name,
            "aliases": list(self.aliases),
            "note": self.note,
            "memories": {state: self.counts.get(state, 0) for state in STATES},
        }


def notes(kit: PersonaKit) -> PeopleNotes:
    return kit.people


def roster(kit: PersonaKit) -> list[Row]:
    """Everyone with a note, then every other name memories are about, each with counts by state."""
    rows: list[Row] = []
    by_key: dict[str, Row] = {}
    for person in notes(kit).all():
        row = Row(person.name, person.aliases, person.file, problem=person.problem)
        rows.append(row)
        for name_key in person.name_keys():
            by_key.setdefault(name_key, row)
    kit.wait_until_synced()
    loose: list[Row] = []
    for hit in kit.indexed(lambda: list(kit.index.all())):
        memory = hit.memory
        about: dict[int, Row] = {}
        for name in memory.about:
            found = by_key.get(key(name))
            if found is None:
                found = by_key[key(name)] = Row(name)
                loose.append(found)
            about[id(found)] = found
        for row in about.values():  # a memory about Carla and "my sister" counts once for Carla
            row.counts[memory.state] = row.counts.get(memory.state, 0) + 1
    return rows + sorted(loose, key=lambda r: r.name.casefold())


def add_person(kit: PersonaKit, name: str, aliases: list[str]) -> tuple[Person, str | None]:
    """Write people/<name>.md with its aliases and commit it; refuses, writing nothing, a name that
    cannot name a note, or one that has a note already."""
    names = check_about([name, *aliases])
    if isinstance(names, str):
        raise PersonaKitError(names.replace("about", "the names").replace("; nothing was stored", ""))
    wanted = names[0]
    problem = note_name_problem(wanted)
    if problem:
        raise PersonaKitError(f"{problem}; nothing was written")
    kit.require_writable()
    people = notes(kit)
    with kit.files.lock():
        for person in people.all():
            if key(wanted) in person.name_keys():
                raise PersonaKitError(
                    f"{person.file} already names {wanted}; edit that note to change its aliases"
                )
        try:
            path = people.write_new(wanted, list(names[1:]))
        except FileExistsError:
            raise PersonaKitError(f"people/{wanted}.md exists already; nothing was written") from None
        try:
            commit = kit.history.commit([path], f"people: add {wanted}")
        except BaseException:
            (kit.root / path).unlink(missing_ok=True)
            raise
    return Person(wanted, tuple(names[1:]), path), commit
