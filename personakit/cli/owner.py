"""Commands for the owner's own changes: add (a memory in their words) and undo (their last change)."""

from __future__ import annotations

import argparse
import sys

from personakit.cli.app import command, open_vault
from personakit.errors import PersonaKitError


def _add_arguments(p: argparse.ArgumentParser) -> None:
    from personakit.core.memory import CATEGORIES

    p.add_argument("text", metavar="TEXT", help="the memory, one short statement about you")
    p.add_argument("--category", default="other", choices=CATEGORIES, help="default: other")
    p.add_argument("--quote", metavar="QUOTE", help="your own words behind it, kept as its evidence")


@command("add", 'personakit add "Prefers tea to coffee" --category preferences', _add_arguments)
def cmd_add(args: argparse.Namespace) -> int:
    """Add a memory in your own words, approved at once: one commit, signed by you.

    The checks an assistant's proposal gets apply (not empty, at most 300 characters, nothing shaped like
    a password or key). If an assistant already proposed the same text, that memory is approved instead
    of a second one being made; one you rejected or restricted is left as it is, and you are told."""
    from personakit.owner.adding import add

    kit = open_vault(args, writes=True)
    memory, outcome = add(kit, args.text, args.quote, args.category)
    said = {
        "added": f"added {memory.id}: {memory.text}",
        "approved": f"{memory.id} approved (an assistant had proposed it): {memory.text}",
        "evidence": f"{memory.id} was already approved; your quote was added: {memory.text}",
        "unchanged": f"{memory.id} was already approved: {memory.text}",
    }
    print(said[outcome])
    return 0


def _undo_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--yes", action="store_true", help="undo without asking (needed without a terminal)")


@command("undo", "personakit undo", _undo_arguments)
def cmd_undo(args: argparse.Namespace) -> int:
    """Undo your last change to your memories, as a new commit, after showing it.

    Your changes are decisions (approve, reject, restrict, a category), forgets, adds, and edits, renames
    and deletions made by hand; an assistant's proposal is not yours to undo (reject it). Run it again to
    go one change further back. Asks before changing anything; --yes skips the question. Refuses, changing
    nothing, when the file changed since in the same lines."""
    from personakit.owner.undoing import last_change, shown, undo

    kit = open_vault(args, writes=True)
    change = last_change(kit)
    if change is None:
        raise PersonaKitError(
            "there is nothing to undo: you have made no change to your memories, or undone them all"
        )
    print("Your last change:")
    print("\n".join(shown(kit, change)))
    if not args.yes:
        if not sys.stdin.isatty():
            raise PersonaKitError("undo asks before changing anything, and there is no terminal to ask on; "
                                  "to undo the change shown, run: personakit undo --yes")  # fmt: skip
        if input("Undo it? [y/N] ").strip().lower() not in ("y", "yes"):
            print("Nothing was changed.")
            return 0
    print(f"Done: {undo(kit, change)}")
    return 0
