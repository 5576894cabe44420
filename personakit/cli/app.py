"""The command line's frame: the command registry, the parser, opening the vault, and `main`.

A command is a function registered with `@command(name, example, arguments)`: its docstring is its help,
`example` is shown under it, and `arguments` adds its own options to its subparser. The commands live in
the modules beside this one, grouped by what they touch. Errors the owner can act on end a command with
a sentence on stderr and exit status 1; nothing is half-done.
"""

from __future__ import annotations

import argparse
import inspect
import logging
import sys
from collections.abc import Callable, Sequence

from personakit import __version__
from personakit.errors import PersonaKitError
from personakit.service import PersonaKit

Command = Callable[[argparse.Namespace], int]
Arguments = Callable[[argparse.ArgumentParser], None]
COMMANDS: dict[str, tuple[Command, str, str]] = {}
_ARGUMENTS: dict[str, Arguments] = {}


def command(name: str, example: str, arguments: Arguments | None = None) -> Callable[[Command], Command]:
    """Register a command; its docstring is its help and `example` is shown under it."""

    def register(fn: Command) -> Command:
        COMMANDS[name] = (fn, inspect.cleandoc(fn.__doc__ or ""), example)
        if arguments is not None:
            _ARGUMENTS[name] = arguments
        return fn

    return register


def open_vault(args: argparse.Namespace, writes: bool = False) -> PersonaKit:
    """Open the vault and take in what changed since the last command (hand edits become commits)."""
    kit = PersonaKit(args.vault, create=False)
    trouble = kit.history.trouble()
    if trouble and writes:
        raise PersonaKitError(f"{trouble}. Nothing was changed")
    if writes and not kit.writable:
        raise PersonaKitError(f"the vault at {kit.root} cannot be written (read-only); nothing was changed")
    if trouble:  # reading still works; hand edits wait until git is done
        warn(f"{trouble}. Until then, hand edits are not committed.")
        kit.refresh_index()
        return kit
    if kit.writable and kit.history.identity() is None:
        warn(
            "this machine has no git identity, so your decisions are signed 'PersonaKit'; set yours with: "
            "git config --global user.name 'Your Name' && git config --global user.email you@example.com"
        )
    kit.start()
    return kit


def warn_broken(kit: PersonaKit) -> None:
    if kit.broken:
        warn(f"{len(kit.broken)} file(s) in memories/ could not be read; 'personakit doctor' lists them")


def warn(text: str) -> None:
    print(f"personakit: {text}", file=sys.stderr)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="personakit",
        description="PersonaKit: your memory vault, which AI assistants read and add to, and you control.",
    )
    top.add_argument("--version", action="version", version=f"personakit {__version__}")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    for name, (fn, doc, example) in COMMANDS.items():
        p = sub.add_parser(
            name, help=" ".join(doc.split("\n\n")[0].split()), description=doc, epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )  # fmt: skip
        p.add_argument("--vault", help="the vault folder (default: $PERSONAKIT_VAULT, else ~/PersonaKit)")
        p.set_defaults(run=fn)
        if name in _ARGUMENTS:
            _ARGUMENTS[name](p)
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
