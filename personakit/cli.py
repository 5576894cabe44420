"""`personakit`: the owner's command line. Each command is a thin wrapper over the PersonaKit service.

Every decision is one git commit. Errors the owner can act on end the command with a sentence on stderr
and exit status 1; nothing is half-done. Every command but `doctor` first takes in what changed since
the last one (hand edits are committed as the owner's, the index catches up), so the audit trail has no
holes even when no server is running.
"""

from __future__ import annotations

import argparse
import inspect
import json
import logging
import sys
from collections.abc import Callable, Sequence

from personakit.core.memory import CATEGORIES, STATES, State
from personakit.core.reading import clamp_limit
from personakit.errors import PersonaKitError
from personakit.service import PersonaKit, init_vault
from personakit.store.files import resolve_vault

Command = Callable[[argparse.Namespace], int]
COMMANDS: dict[str, tuple[Command, str, str]] = {}


def command(name: str, example: str) -> Callable[[Command], Command]:
    """Register a command; its docstring is its help and `example` is shown under it."""

    def register(fn: Command) -> Command:
        COMMANDS[name] = (fn, inspect.cleandoc(fn.__doc__ or ""), example)
        return fn

    return register


def _kit(args: argparse.Namespace, writes: bool = False) -> PersonaKit:
    """Open the vault and take in what changed since the last command (hand edits become commits)."""
    kit = PersonaKit(args.vault, create=False)
    trouble = kit.history.trouble()
    if trouble and writes:
        raise PersonaKitError(f"{trouble}. Nothing was changed")
    if writes and not kit.writable:
        raise PersonaKitError(f"the vault at {kit.root} cannot be written (read-only); nothing was changed")
    if trouble:  # reading still works; hand edits wait until git is done
        _warn(f"{trouble}. Until then, hand edits are not committed.")
        kit.refresh_index()
        return kit
    if kit.writable and kit.history.identity() is None:
        _warn(
            "this machine has no git identity, so your decisions are signed 'PersonaKit'; set yours with: "
            "git config --global user.name 'Your Name' && git config --global user.email you@example.com"
        )
    kit.start()
    return kit


def _warn_broken(kit: PersonaKit) -> None:
    if kit.broken:
        _warn(f"{len(kit.broken)} file(s) in memories/ could not be read; 'personakit doctor' lists them")


def _warn(text: str) -> None:
    print(f"personakit: {text}", file=sys.stderr)


@command("init", "personakit init ~/PersonaKit")
def cmd_init(args: argparse.Namespace) -> int:
    """Make a new vault (a git repository of memory files) at PATH, or the default vault."""
    root = resolve_vault(args.path or args.vault)
    said = init_vault(root)
    print(f"Vault ready at {root}")
    if said:
        print(said)
    return 0


@command("serve", "personakit serve --vault ~/PersonaKit")
def cmd_serve(args: argparse.Namespace) -> int:
    """Run the MCP server on stdio for an assistant's host (the vault is created on first use)."""
    from personakit.server import serve  # the MCP SDK is only imported by the command that needs it

    serve(args.vault, read_only=args.read_only)
    return 0


@command("review", "personakit review")
def cmd_review(args: argparse.Namespace) -> int:
    """Walk the unconfirmed memories, oldest first; one key approves, rejects, restricts, edits or skips.

    Keys: a approve, r reject, s restrict, e edit in $VISUAL/$EDITOR, c change category, n skip, q quit.
    Each decision is one git commit. Needs a terminal; in scripts use approve, reject and restrict."""
    from personakit.review import require_terminal, review

    require_terminal()
    return review(_kit(args, writes=True))


def _decide(state: State) -> Command:
    def run(args: argparse.Namespace) -> int:
        kit = _kit(args, writes=True)
        for ref in args.ids:
            memory, changed = kit.decide(ref, state)
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
    command(_verb, f"personakit {_verb} m_0123456789ab 4f2c")(_fn)


@command("forget", "personakit forget m_0123456789ab")
def cmd_forget(args: argparse.Namespace) -> int:
    """Delete memories: the file goes, in one git commit each; a later proposal of it is new again.

    Git history keeps the old versions (git log -p shows them); docs/review.md says how to purge a memory
    from the history too."""
    kit = _kit(args, writes=True)
    for ref in args.ids:
        memory = kit.forget(ref)
        print(f"forgot {memory.id}: {memory.text}")
    return 0


@command("list", "personakit list --state unconfirmed")
def cmd_list(args: argparse.Namespace) -> int:
    """List memories, newest first, optionally only one state or category."""
    kit = _kit(args)
    hits = sorted(kit.index.all(), key=lambda h: (h.memory.created, h.memory.name), reverse=True)
    for hit in hits:
        m = hit.memory
        if (args.state and m.state != args.state) or (args.category and m.category != args.category):
            continue
        print(f"{m.id}  {m.state:<11} {m.category:<14} {m.text}")
    _warn_broken(kit)
    return 0


@command("show", "personakit show 4f2c")
def cmd_show(args: argparse.Namespace) -> int:
    """Show one memory: its text, evidence, and its history from git (who proposed it, each decision and
    edit with dates), and when an assistant last read it."""
    from personakit.audit import describe

    kit = _kit(args)
    print("\n".join(describe(kit, kit.resolve(args.id))))
    return 0


@command("search", 'personakit search "how do they like feedback?"')
def cmd_search(args: argparse.Namespace) -> int:
    """Show exactly what an assistant would get for QUESTION, then (for you only) what was withheld and why.

    The first part is the JSON personakit_read returns. Your own searches are not written to the read ledger."""
    from personakit.audit import explain

    kit = _kit(args)
    result = kit.read(args.question, args.limit, host="owner", record=False)
    print(json.dumps(result, indent=2, ensure_ascii=False))
    if not args.json:
        limit = clamp_limit(args.limit)
        print("\n".join(explain(args.question, result, kit.matching(args.question), limit)))
    return 0


@command("log", "personakit log --reads --since 7d")
def cmd_log(args: argparse.Namespace) -> int:
    """The audit trail, newest first: proposals, decisions, hand edits and forgets (from git); with
    --reads, the read ledger instead: what each assistant asked and which memories it was given."""
    from personakit.audit import format_event, format_read, parse_since, reads, trail

    since = parse_since(args.since)
    kit = _kit(args)
    limit = args.limit or None
    if args.reads:
        lines = [format_read(entry) for entry in reads(kit, since, limit)]
        empty = "No reads recorded" + (" in that time" if since else "") + "."
    else:
        lines = [format_event(e) for e in trail(kit, since, limit)]
        empty = "Nothing recorded" + (" in that time" if since else "") + "."
    print("\n".join(lines) if lines else empty)
    if limit and len(lines) == limit:
        _warn(f"showing the newest {limit}; --limit 0 shows all")
    return 0


@command("doctor", "personakit doctor")
def cmd_doctor(args: argparse.Namespace) -> int:
    """Find every problem in the vault, with file and line; exit status 1 when there is any.

    Looks only, fixes nothing: unreadable files (YAML errors), unknown states or categories, duplicate ids,
    texts over 300 characters, credential-shaped text typed by hand, symbolic links, uncommitted changes,
    an index out of step with the files, a merge in progress or a detached HEAD."""
    from personakit.doctor import examine

    report = examine(args.vault)
    print("\n".join(report.lines()))
    return 1 if report.problems else 0


@command("reindex", "personakit reindex")
def cmd_reindex(args: argparse.Namespace) -> int:
    """Throw the search index away and rebuild it from the memory files."""
    kit = PersonaKit(args.vault, create=False)
    if not kit.writable:
        raise PersonaKitError(
            f"the vault at {kit.root} cannot be written (read-only), so it keeps no index to rebuild; "
            "each PersonaKit process builds one in memory"
        )
    kit.files.ensure_state_dir()
    with kit.files.lock():
        kit.index.open_fresh()
        if kit.history.trouble():
            kit.refresh_index()  # mid-merge: index only, commit nothing
        else:
            kit.sync(None)
    print(f"indexed {sum(1 for _ in kit.index.all())} memories")
    _warn_broken(kit)
    return 0


@command("demo", "personakit demo")
def cmd_demo(args: argparse.Namespace) -> int:
    """See PersonaKit work before connecting an assistant: a throwaway vault, proposals made through the
    real server as a host would make them, an approval and a restriction, the read an assistant gets, and
    the git log that recorded it all. Your own vault is not touched."""
    from personakit.demo import run_demo

    return run_demo(keep=args.keep)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="personakit", description=__doc__.splitlines()[0] if __doc__ else None)
    top.add_argument("--version", action="version", version="personakit 0.1.0")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    for name, (fn, doc, example) in COMMANDS.items():
        p = sub.add_parser(
            name, help=" ".join(doc.split("\n\n")[0].split()), description=doc, epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )  # fmt: skip
        p.add_argument("--vault", help="the vault folder (default: $PERSONAKIT_VAULT, else ~/PersonaKit)")
        p.set_defaults(run=fn)
        if name == "init":
            p.add_argument("path", nargs="?", help="where to make the vault")
        elif name == "serve":
            p.add_argument("--read-only", action="store_true", help="offer only personakit_read")
        elif name in ("approve", "reject", "restrict", "forget"):
            p.add_argument("ids", nargs="+", metavar="ID", help="memory ids or unique prefixes")
        elif name == "show":
            p.add_argument("id", metavar="ID", help="a memory id or unique prefix")
        elif name == "list":
            p.add_argument("--state", choices=STATES)
            p.add_argument("--category", choices=CATEGORIES)
        elif name == "search":
            p.add_argument("question")
            p.add_argument("--limit", type=int, default=7, help="most memories to return (1-20, default 7)")
            p.add_argument("--json", action="store_true", help="print only what the assistant would get")
        elif name == "log":
            p.add_argument("--reads", action="store_true", help="the read ledger instead of the git trail")
            p.add_argument("--since", metavar="AGE", help="only newer entries: 7d, 12h, 2w or a date")
            p.add_argument("--limit", type=int, default=50, help="most entries to show (0: all; default 50)")
        elif name == "demo":
            p.add_argument("--keep", action="store_true", help="keep the throwaway vault to look around")
    return top


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="personakit: %(message)s")
    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return 2
    try:
        return int(args.run(args))
    except PersonaKitError as error:
        print(f"personakit: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
