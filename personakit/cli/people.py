"""`personakit people`: whom your memories are about, and people notes (`people add`)."""

from __future__ import annotations

import argparse
import json

from personakit.cli.app import command, open_vault
from personakit.errors import PersonaKitError


def _people_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", nargs="?", choices=["add"], help="add: write a people note")
    p.add_argument("name", nargs="?", metavar="NAME", help="with add: the note's name (people/NAME.md)")
    p.add_argument(
        "--alias", action="append", default=[], metavar="A", help="with add: another name (repeat)"
    )
    p.add_argument("--json", action="store_true", help="print JSON for scripts")


@command("people", 'personakit people add Carla --alias "my sister"', _people_arguments)
def cmd_people(args: argparse.Namespace) -> int:
    """List whom your memories are about: each people note (people/NAME.md) with its aliases, and each
    name a memory's `about` uses, with how many memories in each state are about them.

    `people add NAME [--alias A]...` writes people/NAME.md with Obsidian's `aliases` property, in one
    commit; PersonaKit never writes a note you did not ask for. A question naming an alias ("my sister")
    finds the memories about the person. With --json: a list of {"name", "aliases", "note", "memories"}."""
    from personakit.owner.people import add_person, roster

    if args.action == "add":
        if not args.name:
            raise PersonaKitError("people add needs a NAME, such as: personakit people add Carla")
        person, commit = add_person(open_vault(args, writes=True), args.name, args.alias)
        aliases = f" (aliases: {', '.join(person.aliases)})" if person.aliases else ""
        print(f"wrote {person.file}{aliases}" + (f" in commit {commit[:7]}" if commit else ""))
        return 0
    if args.name or args.alias:
        raise PersonaKitError("a NAME and --alias go with add: personakit people add NAME --alias A")
    rows = roster(open_vault(args))
    if args.json:
        print(json.dumps([row.record() for row in rows], indent=2, ensure_ascii=False))
        return 0
    for row in rows:
        counts = ", ".join(f"{n} {state}" for state, n in row.counts.items() if n) or "no memories"
        aliases = f" (aliases: {', '.join(row.aliases)})" if row.aliases else ""
        where = row.note or "no note"
        print(f"{row.name}{aliases}: {counts}; {where}" + (f"; {row.problem}" if row.problem else ""))
    if not rows:
        print("No memory is about anyone else yet, and people/ holds no notes.")
    return 0
