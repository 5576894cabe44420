"""Reading an import's source, judging each item, and storing the new ones: one commit for the import.

Each item is checked as `personakit_propose` checks a proposal (`core.proposal.check_proposal`, with the
source entry as the quote): an empty text, a text over 300 characters (`too_long`; not split, since
the halves of a sentence are two memories nobody said) and anything credential-shaped in the text or the
entry (`credential_shape`) are refused. An item whose normalized text is a memory the vault already has
(or an earlier item of the same import) is a duplicate: no new file, and that memory is left as it is.

A new memory reads like one an assistant proposed: its trailing full stop is taken off, and when the
source gave no category, the text's own words choose one (`core.categories`, the same table everywhere).
Its evidence is empty: the source entry is another tool's note of the text, not the owner's words, and a
copy of the text would be no evidence at all (the commit names where each memory came from). Like a
proposal, it is marked `similar` to the memories it nearly repeats, in the vault or earlier in the
import, so that review offers to merge it.

New memories are `unconfirmed`, `proposed_by: import:<format>`, with `said:` the source's own day when
it has one (mem0's `created_at`, the date of a Claude entry). Under the vault lock, every file is
written atomically, then all are committed at once (the subject gives the counts; the body names each
memory, so `personakit show` finds the commit), then indexed. If the commit fails, the files are put
back as they were. A dry run judges the same way and writes nothing.
"""

from __future__ import annotations

import os
import re
import sys
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Literal

from personakit.core.categories import guess_category
from personakit.core.memory import Memory, render_memory
from personakit.core.naming import memory_id, slug
from personakit.core.proposal import check_proposal
from personakit.core.relations.pairs import near_duplicates
from personakit.core.when import check_day
from personakit.errors import PersonaKitError
from personakit.owner.importing import FORMATS, Item, basic_memory, parsers
from personakit.owner.importing.guess import guess
from personakit.vault.linking import similar_to
from personakit.vault.service import PersonaKit, now
from personakit.vault.writing import write

MAX_SOURCE_BYTES = 20_000_000
_FULL_STOP = re.compile(r"(?<![.\s])\.$")  # one closing full stop; an ellipsis stays
Verdict = Literal["new", "known", "refused", "skipped"]


@dataclass(frozen=True)
class Outcome:
    item: Item
    verdict: Verdict
    reason: str = ""  # refused: the proposal's reason; skipped: the format's
    memory: Memory | None = None  # new or known: the memory (known: as the vault has it)
    earlier: bool = False  # known: the same as an earlier item of this import


@dataclass
class Report:
    format: str
    source: str
    outcomes: list[Outcome] = field(default_factory=list)
    commit: str | None = None

    def count(self, verdict: Verdict) -> int:
        return sum(1 for o in self.outcomes if o.verdict == verdict)

    def counts(self) -> str:
        parts = [f"{self.count('new')} new", f"{self.count('known')} already known"]
        parts += [f"{self.count(v)} {v}" for v in ("refused", "skipped") if self.count(v)]
        return ", ".join(parts)


def read_source(path: str, fmt: str | None) -> tuple[str, list[Item]]:
    """The format (as given or guessed) and the items of the file, folder or `-` (standard input)."""
    if fmt is not None and fmt not in FORMATS:
        raise PersonaKitError(f"{fmt!r} is not a format to import from; use one of {', '.join(FORMATS)}")
    if path == "-":
        text = sys.stdin.read()
        fmt = fmt or guess(Path("-"), text)
        return fmt, _parse(fmt, text)
    where = Path(path).expanduser()
    if where.is_dir():
        if fmt not in (None, "basic-memory"):
            raise PersonaKitError(f"{path} is a folder; only basic-memory notes are read from a folder")
        notes = sorted(p for p in where.rglob("*.md") if p.is_file() and not p.name.startswith("."))
        items = []
        for note in notes:
            items += basic_memory.parse(_text(note), note.relative_to(where).as_posix())
        return "basic-memory", items
    text = _text(where)
    fmt = fmt or guess(where, text)
    return fmt, _parse(fmt, text)


def _parse(fmt: str, text: str) -> list[Item]:
    return parsers()[fmt](text)


def _text(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_SOURCE_BYTES:
            raise PersonaKitError(
                f"{path} is over {MAX_SOURCE_BYTES // 1_000_000} MB; split it and import each part"
            )
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise PersonaKitError(f"there is no file {path}") from None
    except UnicodeDecodeError:
        raise PersonaKitError(f"{path} is not UTF-8 text; save it as text and try again") from None
    except OSError as error:
        raise PersonaKitError(f"{path} could not be read ({error.strerror or error})") from None


def bring_in(kit: PersonaKit, fmt: str, source: str, items: list[Item], dry_run: bool) -> Report:
    """Judge every item against the vault; unless dry_run, store the new ones (see the module docstring)."""
    report = Report(fmt, source)
    if not dry_run:
        kit.require_writable()
    with nullcontext() if dry_run else kit.mutating():
        changes: dict[str, tuple[Memory, str | None, str]] = {}  # file name -> (memory, old, new text)
        taken: dict[str, Memory] = {}  # id -> the memory an earlier item of this import made
        for item in items:
            report.outcomes.append(_judge(kit, fmt, item, taken, changes))
        if not dry_run and changes:
            writes = [(name, old, new) for name, (_, old, new) in changes.items()]
            report.commit = write(kit, writes, _message(report, changes))
    return report


def _judge(
    kit: PersonaKit,
    fmt: str,
    item: Item,
    taken: dict[str, Memory],
    changes: dict[str, tuple[Memory, str | None, str]],
) -> Outcome:
    if item.skip:
        return Outcome(item, "skipped", item.skip)
    text = _FULL_STOP.sub("", item.text.strip())
    category = item.category if item.category != "other" else guess_category(text)
    checked = check_proposal(text, item.source, category)
    if isinstance(checked, str):
        return Outcome(item, "refused", checked)
    mid = memory_id(checked.text)
    if mid in taken:
        return Outcome(item, "known", "", taken[mid], earlier=True)
    found = kit.find_memory(mid, checked.text)
    if found is not None:
        taken[mid] = found[0]
        return Outcome(item, "known", "", found[0])
    earlier = near_duplicates(checked.text, [(m.id, m.text) for m in taken.values()])
    memory = Memory(
        id=mid, text=checked.text, category=checked.category, state="unconfirmed", evidence=(),
        proposed_by=f"import:{fmt}", created=now(), name=_free_name(kit, slug(checked.text), mid[2:8], changes),
        similar=tuple(dict.fromkeys([*similar_to(kit, checked.text, exclude={mid}), *earlier])),
        said=_said(item.said),
    )  # fmt: skip
    changes[memory.name] = (memory, None, render_memory(memory))
    taken[mid] = memory
    return Outcome(item, "new", "", memory)


def _said(written: str) -> str:
    """The source's day, when it is one a proposal could give (YYYY-MM-DD, from 1900 to today)."""
    try:
        return check_day(written[:10], "said", date.today()) or ""
    except ValueError:
        return ""


def _free_name(
    kit: PersonaKit, stem: str, suffix: str, changes: dict[str, tuple[Memory, str | None, str]]
) -> str:
    """A file name free on disk and among this import's new files."""
    name = kit.files.free_name(stem, suffix)
    n = 2
    while name in changes or os.path.lexists(kit.files.memories / name):
        name = f"{stem}-{suffix}-{n}.md"
        n += 1
    return name


def _message(report: Report, changes: dict[str, tuple[Memory, str | None, str]]) -> str:
    lines = [f"import from {report.format} ({report.source}): {report.counts()}", ""]
    lines += [f"propose {memory.id}: {memory.text}" for memory, _, _ in changes.values()]
    return "\n".join(lines)
