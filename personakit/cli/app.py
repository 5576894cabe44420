"""The command line's frame: the command registry, the parser, opening the vault, and `main`.

A command is a function registered with `@command(name, example, arguments)`: its docstring is its help,
`example` is shown under it, and `arguments` adds its own options to its subparser. The commands live in
the modules beside this one, grouped by what they touch. Errors the owner can act on end a command with
one sentence on stderr and exit status 1; nothing is half-done. Only a mistake in the command line itself
(an unknown option or command, a missing argument, an invalid choice) shows the usage block, argparse's
way, with exit status 2; a mistyped command gets a guess at the one meant.
"""

from __future__ import annotations

import argparse
import difflib
import inspect
import logging
import os
import re
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, NoReturn

from personakit import __version__
from personakit.errors import PersonaKitError
from personakit.store.files import VaultFiles, resolve_vault
from personakit.store.objects.commits import NO_IDENTITY

if TYPE_CHECKING:
    from personakit.vault.service import PersonaKit

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
    from personakit.vault.service import PersonaKit

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
    if writes:
        tell_identity(kit)
    kit.start()
    return kit


def tell_identity(kit: PersonaKit) -> None:
    """Say once per vault (at the first command that commits) what git lacks of the owner's identity."""
    if kit.writable:
        note = kit.history.identity_note()
        if note is not None:
            tell_no_identity(kit.files, note)


def tell_no_identity(files: VaultFiles, note: str = NO_IDENTITY) -> None:
    """Say note about the owner's git identity, unless this vault was told it already (.personakit/
    remembers what it was told, so a name set later with the email still missing is said anew)."""
    told = files.state / "told-no-identity"
    with suppress(OSError, UnicodeError):
        if told.exists() and told.read_text(encoding="utf-8") in ("", note):  # "": told by an older version
            return
    warn(note)
    with suppress(OSError):
        files.ensure_state_dir()
        told.write_text(note, encoding="utf-8")


def warn_broken(kit: PersonaKit) -> None:
    from personakit.core.memory import Draft

    broken = [name for name, (_, error, _) in kit.broken.items() if not isinstance(error, Draft)]
    if broken:  # a draft (an empty new note) is no trouble
        warn(f"{len(broken)} file(s) in memories/ could not be read; 'personakit doctor' lists them")


def warn(text: str) -> None:
    print(f"personakit: {text}", file=sys.stderr)


DESCRIPTION = """\
PersonaKit keeps what AI assistants learn about you (how you like to work, your tools, your
constraints) as memory files in a folder you own, ~/PersonaKit unless you choose another. Assistants
read them and propose new ones; a proposal stays unconfirmed until you approve it, and every change is a
git commit you can read and undo. Nothing leaves your machine.

New here? 'personakit demo' shows the whole loop on a throwaway vault; then 'personakit init' makes
yours, and docs/connecting.md connects an assistant."""

EPILOG = """\
Each command has its own help: personakit COMMAND --help. The docs are in the docs/ folder of
PersonaKit's source: cli.md (every command), review.md (deciding), vault.md (the files),
connecting.md (assistants' hosts)."""

# Everyday commands first in the help; the others follow in the order they were registered.
EVERYDAY = [
    "review",
    "approve",
    "reject",
    "restrict",
    "add",
    "forget",
    "undo",
    "list",
    "show",
    "search",
    "log",
]
VAULT_HELP = "the vault folder (default: $PERSONAKIT_VAULT, else ~/PersonaKit)"


class _TopParser(argparse.ArgumentParser):
    """The top-level parser: --vault may come before the command or after it, not both with two folders."""

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def,override]
        parsed, rest = super().parse_known_args(args, namespace)
        before, after = parsed.__dict__.pop("vault_before", None), getattr(parsed, "vault", None)
        if before and after and resolve_vault(before) != resolve_vault(after):
            self.error(f"--vault names two folders ({before} before the command, {after} after it); give one")
        if hasattr(parsed, "vault"):
            parsed.vault = after or before
        return parsed, rest

    def error(self, message: str) -> NoReturn:  # type: ignore[override]
        """argparse's usage line and message, with a guess at the command a typo meant."""
        typo = re.match(r"argument COMMAND: invalid choice: '(.*?)'", message)
        if typo:
            message = f"{typo.group(1)!r} is not a command"
            close = difflib.get_close_matches(typo.group(1).lower(), COMMANDS, n=1, cutoff=0.6)
            message += f"; did you mean {close[0]!r}?" if close else "; personakit --help lists them"
        super().error(message)


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with only, the options of that command alone (the others' options are
    made by functions that import what they offer, such as the import formats: a command imports only
    what it needs)."""
    top = _TopParser(
        prog="personakit", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    top.add_argument("--version", action="version", version=f"personakit {__version__}")
    top.add_argument("--vault", dest="vault_before", metavar="VAULT", help=VAULT_HELP)
    sub = top.add_subparsers(
        dest="command", metavar="COMMAND", title="commands (the everyday ones first)",
        parser_class=argparse.ArgumentParser,
    )  # fmt: skip
    order = [n for n in EVERYDAY if n in COMMANDS] + [n for n in COMMANDS if n not in EVERYDAY]
    for name in order:
        fn, doc, example = COMMANDS[name]
        p = sub.add_parser(
            name, help=" ".join(doc.split("\n\n")[0].split()), description=doc, epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )  # fmt: skip
        p.add_argument("--vault", help=VAULT_HELP)
        p.set_defaults(run=fn)
        if name in _ARGUMENTS and only in (None, name):
            _ARGUMENTS[name](p)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command. Every problem ends it with one sentence on stderr and exit status 1, never a traceback
    (PERSONAKIT_DEBUG=1 shows the traceback of an unexpected error, for a bug report)."""
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="personakit: %(message)s")
    args = parser(_command_in(sys.argv[1:] if argv is None else argv)).parse_args(argv)
    if not getattr(args, "run", None):
        parser().print_help()
        return 2
    try:
        return int(args.run(args))
    except PersonaKitError as error:
        print(f"personakit: {error}", file=sys.stderr)
    except KeyboardInterrupt:  # Ctrl-C: the shell's prompt starts on a line of its own
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:  # `personakit list | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as error:
        where = f"could not use {error.filename}: " if error.filename else ""
        print(f"personakit: {where}{error.strerror or error}", file=sys.stderr)
    except Exception as error:
        if os.environ.get("PERSONAKIT_DEBUG"):
            raise
        print(
            f"personakit: unexpected error ({type(error).__name__}: {error}); please report it with the "
            "command you ran (PERSONAKIT_DEBUG=1 shows the details)",
            file=sys.stderr,
        )
    return 1


def _command_in(argv: Sequence[str]) -> str | None:
    """The command argv names, if it names one: the first word that is not an option or --vault's folder."""
    after_vault = False
    for word in argv:
        if after_vault:
            after_vault = False
        elif word == "--vault":
            after_vault = True
        elif not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def run() -> None:
    sys.exit(main())
