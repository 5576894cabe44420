"""Commands about memories: review, approve, reject, restrict, forget, list, show, search, log.

`--json` (list, show, search, log) prints the shapes `personakit.owner.records` describes."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from personakit.cli.app import Command, command, open_vault, warn, warn_broken

if TYPE_CHECKING:
    from personakit.core.memory import State


@command("review", "personakit review")
def cmd_review(args: argparse.Namespace) -> int:
    """Walk the unconfirmed memories, oldest first; one key approves, rejects, restricts, edits or skips.

    Keys: a approve, r reject, s restrict, e edit in $VISUAL/$EDITOR, c change category, n skip, q quit.
    Each decision is one git commit. Needs a terminal; in scripts use approve, reject and restrict."""
    from personakit.owner.review import require_terminal, review

    require_terminal()
    return review(open_vault(args, writes=True))


def _ids_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "ids", nargs="+", metavar="ID", help="memory ids, unique beginnings of them, or file names"
    )


def _decide(state: State) -> Command:
    def run(args: argparse.Namespace) -> int:
        from personakit.owner.decisions import decide, resolve_all

        kit = open_vault(args, writes=True)
        with (
            kit.files.lock()
        ):  # every id is checked first, and nothing changes between the check and the deed
            for named in resolve_all(kit, args.ids):
                notes: list[str] = []  # what approving a correction did to the memory it replaces
                memory, changed = decide(kit, named.name, state, notes.append)
                files = f" ({changed} files)" if changed > 1 else ""  # copies of one memory
                print(
                    f"{memory.id} {state}: {memory.text}{files}"
                    if changed
                    else f"{memory.id} was already {state}"
                )
                print("".join(f"  {note}\n" for note in notes), end="")
        return 0

    return run


_DECISIONS: tuple[tuple[State, str, str], ...] = (
    ("approved", "approve", "assistants may use them"),
    ("rejected", "reject", "never used; a new proposal of the same text stays rejected"),
    ("restricted", "restrict", "kept, but never shown to an assistant, only counted as withheld"),
)
for _state, _verb, _meaning in _DECISIONS:
    _fn = _decide(_state)
    _fn.__doc__ = (
        f"Mark memories {_state}: {_meaning}.\n\nOne git commit each, whose diff is the 'state:' line of "
        "each file holding the memory (a copy too). "
        "An ID may be a unique beginning (4f2c or m_4f2c), a file name or a file's path, in any case; "
        "every ID is checked first, and one that names no memory changes nothing."
    )
    command(_verb, f"personakit {_verb} m_0123456789ab 4f2c", _ids_arguments)(_fn)


@command("forget", "personakit forget m_0123456789ab", _ids_arguments)
def cmd_forget(args: argparse.Namespace) -> int:
    """Delete memories: the file goes, in one git commit each; a later proposal of it is new again.

    Git history keeps the old versions (git log -p shows them); docs/review.md says how to purge a memory
    from the history too."""
    from personakit.owner.decisions import forget, resolve_all

    kit = open_vault(args, writes=True)
    with kit.files.lock():
        for named in resolve_all(kit, args.ids):
            memory, removed = forget(kit, named.name)
            print(f"forgot {memory.id}: {memory.text}" + (f" ({removed} files)" if removed > 1 else ""))
    return 0


def _json_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON for scripts (docs/cli.md shows its shape)")


def _list_arguments(p: argparse.ArgumentParser) -> None:
    from personakit.core.memory import CATEGORIES, STATES

    p.add_argument("--state", choices=STATES)
    p.add_argument("--category", choices=CATEGORIES)
    _json_argument(p)


@command("list", "personakit list --state unconfirmed", _list_arguments)
def cmd_list(args: argparse.Namespace) -> int:
    """List memories, newest first, optionally only one state or category."""
    from personakit.owner.audit import state_shown, who_and_when_tag
    from personakit.owner.records import memory_record

    kit = open_vault(args)
    hits = sorted(kit.index.all(), key=lambda h: (h.memory.created, h.memory.name), reverse=True)
    chosen = [
        h.memory
        for h in hits
        if not (args.state and h.memory.state != args.state)
        and not (args.category and h.memory.category != args.category)
    ]
    if args.json:
        print(json.dumps([memory_record(m) for m in chosen], indent=2, ensure_ascii=False))
    elif chosen:
        print(
            "\n".join(
                f"{m.id}  {state_shown(m):<11} {m.category:<14} {m.text}{who_and_when_tag(m)}" for m in chosen
            )
        )
    else:
        which = f"No {args.state} memories" if args.state else "No memories"
        print(which + (f" in the category {args.category}." if args.category else "."))
    warn_broken(kit)
    return 0


def _show_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", help="a memory id, a unique beginning of one, or a file name")
    _json_argument(p)


@command("show", "personakit show 4f2c", _show_arguments)
def cmd_show(args: argparse.Namespace) -> int:
    """Show one memory: its text and evidence, its history, and when an assistant last read it.

    The history comes from git: who proposed it, each quote added, each decision and edit, with dates."""
    from personakit.owner.audit import describe, last_read, memory_history
    from personakit.owner.decisions import resolve
    from personakit.owner.records import event_record, memory_record

    kit = open_vault(args)
    memory = resolve(kit, args.id)
    if not args.json:
        print("\n".join(describe(kit, memory)))
        return 0
    seen = last_read(kit, memory.id)
    record = memory_record(memory) | {
        "history": [event_record(e) for e in memory_history(kit, memory)],
        "last_read": {k: seen.get(k) for k in ("at", "host", "question")} if seen else None,
    }
    print(json.dumps(record, indent=2, ensure_ascii=False))
    return 0


def _search_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("question")
    p.add_argument("--limit", type=int, default=7, help="most memories to return (1-20, default 7)")
    p.add_argument("--json", action="store_true", help="print only what the assistant would get")


@command("search", 'personakit search "how do they like feedback?"', _search_arguments)
def cmd_search(args: argparse.Namespace) -> int:
    """Show exactly what an assistant would get for QUESTION, then (for you only) what was withheld and why.

    The first part is the JSON personakit_read returns. Your own searches are not written to the read ledger."""
    from personakit.core.reading import clamp_limit
    from personakit.owner.audit import explain, filled, matching

    kit = open_vault(args)
    result = kit.read(args.question, args.limit, host="owner", record=False)
    print(json.dumps(result, indent=2, ensure_ascii=False))
    if not args.json:
        limit = clamp_limit(args.limit)
        found = matching(kit, args.question)
        fills = filled(kit, args.question, result, (memory.id for memory, *_ in found))
        print("\n".join(explain(args.question, result, found, limit, fills)))
    return 0


def _log_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reads", action="store_true", help="the read ledger instead of the git trail")
    p.add_argument("--since", metavar="AGE", help="only newer entries: 7d, 12h, 2w or a date")
    p.add_argument("--limit", type=int, default=50, help="most entries to show (0: all; default 50)")
    _json_argument(p)


@command("log", "personakit log --reads --since 7d", _log_arguments)
def cmd_log(args: argparse.Namespace) -> int:
    """The audit trail, newest first: who proposed, decided and changed what; with --reads, what was read.

    From git: proposals, decisions, hand edits, forgets and undos, including commits that came in through
    a merge. With --reads, the read ledger instead: what each assistant asked and which memories it was
    given, with their text as it is now."""
    from personakit.owner.audit import format_event, format_read, parse_since, reads, trail
    from personakit.owner.records import event_record, read_record, texts_of

    since = parse_since(args.since)
    kit = open_vault(args)
    limit = args.limit or None
    records: list[dict[str, object]]
    if args.reads:
        entries = reads(kit, since, limit)
        texts = texts_of(kit, [str(i) for e in entries for i in e.get("ids") or []])
        lines = [format_read(entry, texts) for entry in entries]
        records = [read_record(entry, texts) for entry in entries]
        empty = "No reads recorded" + (" in that time" if since else "") + "."
    else:
        events = trail(kit, since, limit)
        lines, records = [format_event(e) for e in events], [event_record(e) for e in events]
        empty = "Nothing recorded" + (" in that time" if since else "") + "."
    if args.json:
        print(json.dumps(records, indent=2, ensure_ascii=False))
    else:
        print("\n".join(lines) if lines else empty)
    if limit and len(lines) == limit:
        warn(f"showing the newest {limit}; --limit 0 shows all")
    return 0
