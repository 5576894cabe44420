"""Commands about other devices: sync (fetch, integrate, push) and remote (where to sync with)."""

from __future__ import annotations

import argparse
import sys

from personakit.cli.app import command, open_vault
from personakit.errors import PersonaKitError


def _sync_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "remote", nargs="?", metavar="REMOTE", help="the remote to sync with (default: the only one)"
    )


@command("sync", "personakit sync", _sync_arguments)
def cmd_sync(args: argparse.Namespace) -> int:
    """Bring in what your other devices sent to the vault's git remote, and send them this device's changes.

    Fetches, merges memory by memory (no decision is lost silently: where two devices decided differently,
    the more private state is kept and listed below), and pushes; never forces. Running servers see what
    came in within a second. Uses git's own credentials (ssh keys, credential helpers); docs/sync.md has
    the rules and how to set up a remote."""
    from personakit.sync.syncing import sync

    kit = open_vault(args, writes=True)
    report = sync(kit, args.remote, interactive=sys.stdin.isatty())
    print("\n".join(report.lines()))
    return 0


def _remote_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", nargs="?", choices=["add"], help="add a remote (without it: list them)")
    p.add_argument("name", nargs="?", metavar="NAME", help="the remote's name, such as origin")
    p.add_argument(
        "url", nargs="?", metavar="URL", help="an ssh or https address, or a path to a bare repository"
    )


@command("remote", "personakit remote add origin git@github.com:you/personakit-vault.git", _remote_arguments)
def cmd_remote(args: argparse.Namespace) -> int:
    """List the vault's git remotes, or add one to sync with: personakit remote add NAME URL.

    The same as `git remote add` in the vault. Use a private repository: the remote holds every memory,
    restricted ones included."""
    from personakit.store.plumbing import Plumbing
    from personakit.sync.syncing import SYNCED

    kit = open_vault(args, writes=args.action == "add")
    git = Plumbing(kit.history)
    if args.action is None:
        remotes = git.remotes()
        print("\n".join(f"{n}  {u}" for n, u in sorted(remotes.items())) or "No remote yet; add one with: "
              "personakit remote add origin URL")  # fmt: skip
        return 0
    if not args.name or not args.url:
        raise PersonaKitError("say the remote's name and address: personakit remote add origin URL")
    if args.name in git.remotes():
        raise PersonaKitError(f"the vault already has a remote named {args.name!r}; choose another name")
    git.add_remote(args.name, args.url, forget=SYNCED + args.name)
    print(f"Added {args.name} ({args.url}). Now run: personakit sync")
    return 0
