"""Commands that move memories in and out: import, export."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from personakit.cli.app import command, open_vault, warn, warn_broken
from personakit.errors import PersonaKitError

if TYPE_CHECKING:
    from personakit.owner.importing.storing import Outcome

_WHY = {
    "empty_text": "no text",
    "too_long": "over the {MAX_TEXT} characters a memory may have; shorten or split it and import again",
    "credential_shape": "looks like a password, key or token (not shown)",
    "empty_quote": "no source text",
}


def _import_arguments(p: argparse.ArgumentParser) -> None:
    from personakit.owner.importing import FORMATS

    p.add_argument("file", metavar="FILE", help="the file (or basic-memory folder) to import; - reads stdin")
    p.add_argument("--from", dest="format", choices=FORMATS, help="the file's format (default: guessed)")
    p.add_argument(
        "--dry-run", action="store_true", help="show what would be stored and refused; write nothing"
    )


@command("import", "personakit import chatgpt-memories.txt --dry-run", _import_arguments)
def cmd_import(args: argparse.Namespace) -> int:
    """Bring in what another assistant remembers about you, as unconfirmed memories for you to review.

    Formats: chatgpt (the saved-memories list copied as text), claude (the text Claude gives when asked to
    export its memory), mcp-memory (the MCP memory server's memory.jsonl), mem0 (a mem0 or OpenMemory
    export), basic-memory (notes, or a folder of them), lines (plain lines or Markdown bullets). Each item
    is checked as an assistant's proposal is; one already in the vault is not added twice. One commit."""
    from personakit.owner.importing.storing import bring_in, read_source

    fmt, items = read_source(args.file, args.format)
    source = "standard input" if args.file == "-" else Path(args.file).name
    if not items:
        raise PersonaKitError(
            f"found nothing to import in {source} read as {fmt}; if that is the wrong format, say which "
            "with --from"
        )
    if args.dry_run:  # index only: even hand edits waiting to be committed stay as they are
        from personakit.vault.service import PersonaKit

        kit = PersonaKit(args.vault, create=False)
        kit.refresh_index()
    else:
        kit = open_vault(args, writes=True)
    report = bring_in(kit, fmt, source, items, args.dry_run)
    for outcome in report.outcomes:
        print(_line(outcome))
    if args.dry_run:
        print(
            f"Would import from {source} (read as {fmt}): {report.counts()}. Nothing was written (--dry-run)."
        )
    elif report.commit is None:
        print(f"Nothing new to import from {source} (read as {fmt}): {report.counts()}.")
    else:
        print(f"Imported from {source} (read as {fmt}): {report.counts()}; one commit, {report.commit[:10]}.")
        if report.count("new"):
            print("The new memories are unconfirmed: review them with 'personakit review'.")
    return 0


def _line(outcome: Outcome) -> str:
    from personakit.core.memory import MAX_TEXT
    from personakit.core.proposal import shorten

    item, memory = outcome.item, outcome.memory
    if memory is not None:
        said = f"  {outcome.verdict:<8} {memory.id}  {memory.category:<13} {shorten(memory.text, 80)}"
        if outcome.verdict == "new":
            return said + (f" (similar to {', '.join(memory.similar)})" if memory.similar else "")
        if outcome.earlier:
            return f"{said} (again, {item.where})"
        return f"{said} (already {memory.state})"
    if outcome.verdict == "refused":
        shown = "" if outcome.reason == "credential_shape" else f": {shorten(item.text, 60)!r}"
        return f"  refused  {item.where}  {outcome.reason}, {_WHY[outcome.reason].format(MAX_TEXT=MAX_TEXT)}{shown}"
    return f"  skipped  {item.where}  {outcome.reason}: {shorten(item.text, 60)!r}"


def _export_arguments(p: argparse.ArgumentParser) -> None:
    from personakit.owner.exporting import FORMATS, STATES

    p.add_argument("--format", choices=FORMATS, default="markdown", help="default: markdown")
    p.add_argument(
        "--state", choices=STATES, default="approved",
        help="approved (default), or visible: approved and unconfirmed, what assistants may see",
    )  # fmt: skip
    p.add_argument(
        "--include-private",
        action="store_true",
        help="also restricted and rejected memories (with a warning)",
    )
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")


@command("export", "personakit export --format json > memories.json", _export_arguments)
def cmd_export(args: argparse.Namespace) -> int:
    """Print your approved memories, to paste into another assistant or to keep.

    Markdown grouped by category (compact, for a custom-instructions box), or JSON / JSON Lines with id,
    text, category, state, evidence, created and proposed_by. Restricted and rejected memories stay out
    unless you add --include-private. Email addresses and anything shaped like a password or key are
    masked, as in what assistants read."""
    from personakit.owner.exporting import INSTRUCTIONS_BOX, chosen, render

    kit = open_vault(args)
    if args.include_private:
        warn(
            "--include-private: restricted and rejected memories are in this export; do not paste it into an "
            "assistant"
        )
    memories = chosen(kit, args.state, args.include_private)
    text = render(memories, args.format)
    if args.output:
        Path(args.output).expanduser().write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    noun = "memory" if len(memories) == 1 else "memories"
    if not memories:
        warn(f"no {'approved' if args.state == 'approved' else 'approved or unconfirmed'} memories to export")
    elif args.format == "markdown":
        over = len(text) > INSTRUCTIONS_BOX
        warn(
            f"{len(memories)} {noun}, {len(text):,} characters"
            + (f"; over the {INSTRUCTIONS_BOX:,} a ChatGPT custom-instructions box holds" if over else "")
        )
    else:
        warn(f"{len(memories)} {noun} exported")
    warn_broken(kit)
    return 0
