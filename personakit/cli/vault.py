"""Commands about the vault as a whole: init, serve, doctor, reindex, demo."""

from __future__ import annotations

import argparse
import sys

from personakit.cli.app import command, tell_no_identity, warn, warn_broken
from personakit.errors import PersonaKitError
from personakit.store.files import VaultFiles, resolve_vault


def _init_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", help="where to make the vault")


@command("init", "personakit init ~/PersonaKit", _init_arguments)
def cmd_init(args: argparse.Namespace) -> int:
    """Make a new vault (a git repository of memory files) at PATH, or the default vault."""
    from personakit.vault.service import init_vault

    root = resolve_vault(args.path or args.vault)
    said = init_vault(root)
    print(f"Vault ready at {root}")
    if said:
        tell_no_identity(VaultFiles(root), said)
    return 0


def _serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--read-only", action="store_true", help="offer only personakit_read")


@command("serve", "personakit serve --vault ~/PersonaKit", _serve_arguments)
def cmd_serve(args: argparse.Namespace) -> int:
    """Run the MCP server on stdio for an assistant's host (the vault is created on first use)."""
    # Said before anything slow (the MCP SDK's import alone takes most of a second, then the vault opens):
    # a person who runs this in a terminal sees at once that it runs.
    where = resolve_vault(args.vault)
    warn(f"serving {where}{' (read-only)' if args.read_only else ''} over stdio, for an assistant's host")
    if sys.stdin.isatty():
        warn("this is the command an assistant's host starts (see the README); press Ctrl-D to stop it")
    if not args.read_only:  # a vault with no index yet: its first index begins while the rest starts
        from personakit.vault import firstindex

        firstindex.begin(where)
    from personakit.mcp.server import serve  # the MCP SDK is only imported by the command that needs it

    serve(args.vault, read_only=args.read_only)
    return 0


def _doctor_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--full", action="store_true", help="check every file, not only those changed since")


@command("doctor", "personakit doctor", _doctor_arguments)
def cmd_doctor(args: argparse.Namespace) -> int:
    """Find every problem in the vault, with file and line; exit status 1 when there is any.

    Looks only, fixes nothing: unreadable files (YAML errors), unknown states or categories, keys written
    twice, duplicate ids, texts over 300 characters, credential-shaped text typed by hand, symbolic links,
    files others could read, uncommitted changes, an index out of step with the files, a merge in progress
    or a detached HEAD. A memory file found fine by the last run and unchanged since is not read again
    (the record is .personakit/doctor.json); --full checks every file."""
    from personakit.owner.doctor import examine

    report = examine(args.vault, full=args.full)
    print("\n".join(report.lines()))
    return 1 if report.problems else 0


@command("reindex", "personakit reindex")
def cmd_reindex(args: argparse.Namespace) -> int:
    """Throw the search index away and rebuild it from the memory files."""
    from personakit.vault.service import PersonaKit

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
    kit.index.warm(lambda: None)  # the common words' postings, written for a server's first reads
    print(f"indexed {kit.index.count()} memories")
    warn_broken(kit)
    return 0


def _demo_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--keep", action="store_true", help="keep the throwaway vault to look around")


@command("demo", "personakit demo", _demo_arguments)
def cmd_demo(args: argparse.Namespace) -> int:
    """See PersonaKit work on a throwaway vault, before connecting an assistant.

    Proposals made through the real server as a host would make them, an approval and a restriction, the
    read an assistant gets, and the git log that recorded it all. Your own vault is not touched."""
    from personakit.mcp.demo import run_demo

    return run_demo(keep=args.keep)
