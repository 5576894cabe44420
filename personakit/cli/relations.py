"""Commands about how memories relate: near-duplicates (`similar`, and `merge` to keep one of them),
likely contradictions (`clashes`), and correcting a memory by hand (`edit`)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from personakit.cli.app import command, open_vault
from personakit.errors import PersonaKitError

if TYPE_CHECKING:
    from personakit.core.memory import Memory


def _json_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of text")


def _line(memory: Memory) -> str:
    return f"{memory.id}  {memory.state:<11} {memory.text}"


@command("similar", "personakit similar --json", _json_argument)
def cmd_similar(args: argparse.Namespace) -> int:
    """List groups of near-duplicates: memories (not rejected) that say the same in other words, such as
    "Prefers blunt feedback" and "Likes blunt, direct feedback", each group oldest first.

    Changes nothing. 'personakit merge NEWER OLDER' merges one into another, whatever their states, and
    review offers it too (key m). With --json: a list of groups, each a list of {"id", "state", "text"}."""
    from personakit.owner.corrections import vault_similar

    groups = vault_similar(open_vault(args))
    if args.json:
        shown = [[{"id": m.id, "state": m.state, "text": m.text} for m in group] for group in groups]
        print(json.dumps(shown, indent=2, ensure_ascii=False))
        return 0
    for group in groups:
        print("\n".join(_line(m) for m in group))
        print(f"  to keep the oldest: personakit merge {group[-1].id} {group[0].id}\n")
    count = len(groups)
    print(
        f"{count} group{'s' if count != 1 else ''} of near-duplicates; 'personakit merge NEWER OLDER' "
        "merges one into another, and 'personakit review' offers it too (key m)"
        if count
        else "No near-duplicates."
    )
    return 0


def _merge_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", help="the memory to merge (its file is removed)")
    p.add_argument("into", metavar="INTO", help="the memory to keep, which receives its quotes")


@command("merge", "personakit merge 9c1e 4f2c", _merge_arguments)
def cmd_merge(args: argparse.Namespace) -> int:
    """Merge a near-duplicate into the memory to keep: ID's quotes (those INTO lacks) move to INTO, and
    ID's file is removed, in one commit ("merge ID into INTO: TEXT"). Any two memories that are not
    rejected can be merged, whatever their states and wherever they came from.

    INTO keeps its state, unless ID was restricted: then INTO becomes restricted too, the more private
    decision winning as it does in sync. 'personakit similar' lists the near-duplicates."""
    from personakit.owner.corrections import merge
    from personakit.owner.decisions import resolve

    kit = open_vault(args, writes=True)
    with kit.files.lock():
        memory, into = resolve(kit, args.id), resolve(kit, args.into)
        merged = merge(kit, memory, into.id)
    print(f"{memory.id} merged into {merged.id} ({merged.state}): {merged.text}")
    moved = [q for q in memory.evidence if q not in into.evidence]
    print("".join(f"  its quote now on {merged.id}: {q!r}\n" for q in moved), end="")
    if merged.state != into.state:
        print(f"  {merged.id} is now {merged.state}, as {memory.id} was: the more private decision wins")
    elif memory.state == "approved" and merged.state == "unconfirmed":
        print(f"  {merged.id} is still unconfirmed; to let assistants use it: personakit approve {merged.id}")
    return 0


@command("clashes", "personakit clashes --json", _json_argument)
def cmd_clashes(args: argparse.Namespace) -> int:
    """List pairs of visible memories (approved or unconfirmed) that likely disagree, each with a reason:
    the same fact with another value ("Lives in Lisbon" / "Lives in Porto"), a negation ("Drinks coffee" /
    "Doesn't drink coffee"), or opposite preferences ("short answers" / "long answers").

    Changes nothing: decide with review, reject or edit. With --json: a list of {"a", "b", "reason"}, a
    the older memory's id."""
    from personakit.owner.corrections import vault_clashes

    found = vault_clashes(open_vault(args))
    if args.json:
        print(json.dumps([{"a": a.id, "b": b.id, "reason": why} for a, b, why in found], indent=2))
        return 0
    for a, b, why in found:
        print(f"{_line(a)}\n{_line(b)}\n  {why}\n")
    count = len(found)
    print(
        f"{count} likely clash{'es' if count != 1 else ''}; keep the true one: personakit reject ID, or "
        "personakit edit ID"
        if count
        else "No likely clashes."
    )
    return 0


def _id_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", help="a memory id or unique prefix")


@command("edit", "personakit edit 4f2c", _id_argument)
def cmd_edit(args: argparse.Namespace) -> int:
    """Open a memory's file in $VISUAL or $EDITOR; when you save and quit, the file is committed as your
    edit ("edit ID: TEXT (by hand)").

    The id stays the same (an id line you change or remove is put back), so the memory keeps its history;
    'personakit show ID' shows a changed text as was / now. An editor that fails leaves the file as it was,
    and so does an edit holding a password or key: secrets never stay in the vault."""
    from personakit.owner.decisions import resolve
    from personakit.owner.editing import edit_in_editor

    kit = open_vault(args, writes=True)
    memory = resolve(kit, args.id)
    said: list[str] = []
    outcome, edited = edit_in_editor(kit, memory, said.append, again="run personakit edit again")
    sentences = [
        s.strip() for s in said if s.strip() not in ("", "unchanged", "edited (committed as your edit)")
    ]
    if outcome in ("no-editor", "failed", "unreadable", "refused"):
        raise PersonaKitError(" ".join(sentences).removesuffix("."))
    print("".join(f"{sentence}\n" for sentence in sentences), end="")
    if outcome == "unchanged":
        print(f"{memory.id} unchanged")
    elif edited is not None and outcome == "edited":
        print(f"{memory.id} edited (committed as your edit): {edited.text}")
        if edited.text != memory.text:
            print(f"  was: {memory.text}\n  now: {edited.text}")
    return 0
