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
    p.add_argument(
        "--accept",
        action="store_true",
        help="first accept the held changes the last sync listed (made by identities new to this vault)",
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
    if args.accept:
        from personakit.owner.held import accept_all

        accepted = accept_all(kit)
        print(
            "\n".join(["Accepted:", *(f"  {said}" for said in accepted)]) if accepted else "Nothing was held."
        )
    report = sync(kit, args.remote, interactive=sys.stdin.isatty())
    print("\n".join(report.lines()))
    return 0


def _clone_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("url", metavar="URL", help="the vault's git remote: an ssh or https address, or a path")
    p.add_argument("path", nargs="?", metavar="PATH", help="where to put it (default: the default vault)")


@command("clone", "personakit clone git@github.com:you/personakit-vault.git ~/PersonaKit", _clone_arguments)
def cmd_clone(args: argparse.Namespace) -> int:
    """Set up the vault on another device: clone its git remote, check it is a vault, and prepare it.

    Unlike a plain git clone, it checks out the vault's branch even when the remote names none, and
    writes the vault's git settings (the merge driver, pull.rebase) so a plain git pull merges memory by
    memory. The identities that committed to the vault so far are trusted on this device: it prints
    them. Then run: personakit sync."""
    from personakit.store.files import resolve_vault
    from personakit.sync.cloning import clone

    root = resolve_vault(args.path or args.vault)
    done = clone(args.url, root, interactive=sys.stdin.isatty())
    noun = "memory" if done.memories == 1 else "memories"
    print(f"Cloned {args.url} into {done.root}: {done.memories} {noun}.")
    print(f"Trusted on this device (their changes apply at once): {', '.join(done.trusted) or 'nobody yet'}.")
    print(f"From now on: personakit sync --vault {done.root}")
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
    from personakit.sync.syncing import SYNCED, choose_remote

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
    try:
        plain = choose_remote(git, None)[0] == args.name  # a plain `personakit sync` would use it
    except PersonaKitError:
        plain = False
    print(f"Added {args.name} ({args.url}). Now run: personakit sync" + ("" if plain else f" {args.name}"))
    return 0
