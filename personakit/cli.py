"""`personakit`: the owner's command line. Each command is a thin wrapper over the PersonaKit service.

Every decision is one git commit. Errors the owner can act on end the command with a sentence on stderr
and exit status 1; nothing is half-done.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence

from personakit.core.memory import CATEGORIES, STATES
from personakit.errors import PersonaKitError
from personakit.service import PersonaKit, init_vault
from personakit.store.files import resolve_vault

Command = Callable[[argparse.Namespace], int]
COMMANDS: dict[str, tuple[Command, str, str]] = {}


def command(name: str, example: str) -> Callable[[Command], Command]:
    """Register a command; its docstring is its help and `example` is shown under it."""

    def register(fn: Command) -> Command:
        COMMANDS[name] = (fn, fn.__doc__ or "", example)
        return fn

    return register


def _kit(args: argparse.Namespace) -> PersonaKit:
    kit = PersonaKit(args.vault, create=False)
    kit.start()
    return kit


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


def _decide(state: str) -> Command:
    def run(args: argparse.Namespace) -> int:
        kit = _kit(args)
        for ref in args.ids:
            memory, changed = kit.decide(ref, state)
            print(f"{memory.id} {state}: {memory.text}" if changed else f"{memory.id} was already {state}")
        return 0

    return run


for _state, _verb in (("approved", "approve"), ("rejected", "reject"), ("restricted", "restrict")):
    _fn = _decide(_state)
    _fn.__doc__ = f"Mark memories {_state} (one git commit each). IDs may be unique prefixes."
    command(_verb, f"personakit {_verb} m_0123456789ab 4f2c")(_fn)


@command("forget", "personakit forget m_0123456789ab")
def cmd_forget(args: argparse.Namespace) -> int:
    """Delete memories (one git commit each; git history keeps the old versions, see docs/review.md)."""
    kit = _kit(args)
    for ref in args.ids:
        memory = kit.forget(ref)
        print(f"forgot {memory.id}: {memory.text}")
    return 0


@command("list", "personakit list --state unconfirmed")
def cmd_list(args: argparse.Namespace) -> int:
    """List memories, newest first, optionally only one state or category."""
    kit = _kit(args)
    hits = sorted(kit.index.all(), key=lambda h: h.memory.created, reverse=True)
    for hit in hits:
        m = hit.memory
        if (args.state and m.state != args.state) or (args.category and m.category != args.category):
            continue
        print(f"{m.id}  {m.state:<11} {m.category:<14} {m.text}")
    return 0


@command("search", 'personakit search "how do they like feedback?"')
def cmd_search(args: argparse.Namespace) -> int:
    """Show exactly what an assistant would get for QUESTION."""
    kit = _kit(args)
    print(
        json.dumps(
            kit.read(args.question, args.limit, host="owner (personakit search)"),
            indent=2,
            ensure_ascii=False,
        )
    )
    return 0


@command("reindex", "personakit reindex")
def cmd_reindex(args: argparse.Namespace) -> int:
    """Throw the search index away and rebuild it from the memory files."""
    kit = PersonaKit(args.vault, create=False)
    kit.files.ensure_state_dir()
    kit.index.open_fresh()
    kit.sync(None)
    print(f"indexed {sum(1 for _ in kit.index.all())} memories")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="personakit", description=__doc__.splitlines()[0] if __doc__ else None)
    top.add_argument("--version", action="version", version="personakit 0.1.0")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    for name, (fn, doc, example) in COMMANDS.items():
        p = sub.add_parser(
            name, help=doc.splitlines()[0], description=doc, epilog=f"example:\n  {example}",
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
        elif name == "list":
            p.add_argument("--state", choices=STATES)
            p.add_argument("--category", choices=CATEGORIES)
        elif name == "search":
            p.add_argument("question")
            p.add_argument("--limit", type=int, default=7)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="personakit: %(message)s")
    args = parser().parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return 2
    try:
        return args.run(args)
    except PersonaKitError as error:
        print(f"personakit: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
