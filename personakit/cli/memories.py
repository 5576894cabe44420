"""Commands about memories: review, approve, reject, restrict, forget, list, show, search, log."""

from __future__ import annotations

import argparse
import json

from personakit.cli.app import Command, command, open_vault, warn, warn_broken
from personakit.core.memory import CATEGORIES, STATES, State
from personakit.core.reading import clamp_limit
from personakit.owner.decisions import decide, forget, resolve


@command("review", "personakit review")
def cmd_review(args: argparse.Namespace) -> int:
    """Walk the unconfirmed memories, oldest first; one key approves, rejects, restricts, edits or skips.

    Keys: a approve, r reject, s restrict, e edit in $VISUAL/$EDITOR, c change category, n skip, q quit.
    Each decision is one git commit. Needs a terminal; in scripts use approve, reject and restrict."""
    from personakit.owner.review import require_terminal, review

    require_terminal()
    return review(open_vault(args, writes=True))


def _ids_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ids", nargs="+", metavar="ID", help="memory ids or unique prefixes")


def _decide(state: State) -> Command:
    def run(args: argparse.Namespace) -> int:
        kit = open_vault(args, writes=True)
        for ref in args.ids:
            memory, changed = decide(kit, ref, state)
            print(f"{memory.id} {state}: {memory.text}" if changed else f"{memory.id} was already {state}")
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
        f"Mark memories {_state}: {_meaning}.\n\nOne git commit each, whose diff is the one 'state:' line. "
        "An ID may be a unique prefix (4f2c or m_4f2c) or a file name in memories/."
    )
    command(_verb, f"personakit {_verb} m_0123456789ab 4f2c", _ids_arguments)(_fn)


@command("forget", "personakit forget m_0123456789ab", _ids_arguments)
def cmd_forget(args: argparse.Namespace) -> int:
    """Delete memories: the file goes, in one git commit each; a later proposal of it is new again.

    Git history keeps the old versions (git log -p shows them); docs/review.md says how to purge a memory
    from the history too."""
    kit = open_vault(args, writes=True)
    for ref in args.ids:
        memory = forget(kit, ref)
        print(f"forgot {memory.id}: {memory.text}")
    return 0


def _list_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--state", choices=STATES)
    p.add_argument("--category", choices=CATEGORIES)


@command("list", "personakit list --state unconfirmed", _list_arguments)
def cmd_list(args: argparse.Namespace) -> int:
    """List memories, newest first, optionally only one state or category."""
    kit = open_vault(args)
    hits = sorted(kit.index.all(), key=lambda h: (h.memory.created, h.memory.name), reverse=True)
    for hit in hits:
        m = hit.memory
        if (args.state and m.state != args.state) or (args.category and m.category != args.category):
            continue
        print(f"{m.id}  {m.state:<11} {m.category:<14} {m.text}")
    warn_broken(kit)
    return 0


def _show_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("id", metavar="ID", help="a memory id or unique prefix")


@command("show", "personakit show 4f2c", _show_arguments)
def cmd_show(args: argparse.Namespace) -> int:
    """Show one memory: its text, evidence, and its history from git (who proposed it, each decision and
    edit with dates), and when an assistant last read it."""
    from personakit.owner.audit import describe

    kit = open_vault(args)
    print("\n".join(describe(kit, resolve(kit, args.id))))
    return 0


def _search_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("question")
    p.add_argument("--limit", type=int, default=7, help="most memories to return (1-20, default 7)")
    p.add_argument("--json", action="store_true", help="print only what the assistant would get")


@command("search", 'personakit search "how do they like feedback?"', _search_arguments)
def cmd_search(args: argparse.Namespace) -> int:
    """Show exactly what an assistant would get for QUESTION, then (for you only) what was withheld and why.

    The first part is the JSON personakit_read returns. Your own searches are not written to the read ledger."""
    from personakit.owner.audit import explain, matching

    kit = open_vault(args)
    result = kit.read(args.question, args.limit, host="owner", record=False)
    print(json.dumps(result, indent=2, ensure_ascii=False))
    if not args.json:
        limit = clamp_limit(args.limit)
        print("\n".join(explain(args.question, result, matching(kit, args.question), limit)))
    return 0


def _log_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reads", action="store_true", help="the read ledger instead of the git trail")
    p.add_argument("--since", metavar="AGE", help="only newer entries: 7d, 12h, 2w or a date")
    p.add_argument("--limit", type=int, default=50, help="most entries to show (0: all; default 50)")


@command("log", "personakit log --reads --since 7d", _log_arguments)
def cmd_log(args: argparse.Namespace) -> int:
    """The audit trail, newest first: proposals, decisions, hand edits and forgets (from git); with
    --reads, the read ledger instead: what each assistant asked and which memories it was given."""
    from personakit.owner.audit import format_event, format_read, parse_since, reads, trail

    since = parse_since(args.since)
    kit = open_vault(args)
    limit = args.limit or None
    if args.reads:
        lines = [format_read(entry) for entry in reads(kit, since, limit)]
        empty = "No reads recorded" + (" in that time" if since else "") + "."
    else:
        lines = [format_event(e) for e in trail(kit, since, limit)]
        empty = "Nothing recorded" + (" in that time" if since else "") + "."
    print("\n".join(lines) if lines else empty)
    if limit and len(lines) == limit:
        warn(f"showing the newest {limit}; --limit 0 shows all")
    return 0
