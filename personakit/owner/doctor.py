"""`personakit doctor`: every problem in a vault, each with its file and line and what to do about it.

The doctor looks and never fixes. It opens the vault without the start-up sync that every other command
runs (which would commit pending hand edits and bring the index level), so that what it reports is the
vault as it is: files that cannot be read, unknown states or categories, duplicate ids, texts over 300
characters, credential-shaped text typed by hand, symbolic links, files or folders other users could read,
changes not committed to git, an index out of step with the files, and a repository in the middle of a
merge or on a detached HEAD. Memories that likely disagree (`personakit clashes`) are counted as a note,
not a problem: only the owner can say which one is true.
"""

from __future__ import annotations

import os
import re
import shlex
from collections import defaultdict
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial

from personakit.core.credentials.engine import holds_credential, looks_like_credential
from personakit.core.front_matter import read
from personakit.core.memory import MAX_TEXT, VISIBLE_STATES, Draft, InvalidMemory, Memory
from personakit.core.people import Person, same_subject
from personakit.core.plainfile import read_memory
from personakit.core.relations.pairs import clashes
from personakit.owner.checked import Checked
from personakit.store.files import FileStat, leftover, plain_name
from personakit.store.private import loose
from personakit.vault.service import PersonaKit

VAULT_FILES = frozenset({".gitignore", ".gitattributes"})  # outside memories/, the vault's own workings


@dataclass(frozen=True)
class Problem:
    where: str  # "memories/name.md:LINE", "memories/name.md", "git" or "index"
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclass
class Report:
    root: str
    memories: int = 0
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # worth knowing, not wrong

    def lines(self) -> list[str]:
        out = [str(p) for p in self.problems] + [f"note: {n}" for n in self.notes]
        count = len(self.problems)
        if count:
            out.append(
                f"{count} problem{'s' if count != 1 else ''} in {self.root} ({self.memories} memories)"
            )
        else:
            out.append(f"No problems in {self.root} ({self.memories} memories)")
        return out


def examine(vault: str | None, full: bool = False) -> Report:
    """The vault's problems; without full, memory files found fine by the last run and unchanged since
    are not read again (`owner.checked`)."""
    kit = PersonaKit(vault, create=False)
    report = Report(str(kit.root))
    checked = Checked(kit.files.state, full)
    on_disk = kit.files.list()
    readable: dict[str, FileStat] = {}
    held: set[str] = set()  # files a commit would refuse: unreadable, or holding a secret
    by_id: dict[str, list[str]] = defaultdict(list)
    visible: dict[str, str] = {}  # id -> text, for the clashes note
    drafts: list[str] = []
    for name, stat in sorted(on_disk.items()):
        where = f"memories/{name}"
        known = checked.known(name, stat)
        if known is not None:
            readable[name] = stat
            by_id[known[0]].append(name)
            if known[1] is not None:
                visible.setdefault(known[0], known[1])
            continue
        try:
            raw = kit.files.read(name)
            memory = read_memory(raw, name)  # the fast path for plain files: the same Memory
        except Draft:
            drafts.append(where)
            continue
        except InvalidMemory as error:
            report.problems.append(Problem(f"{where}:{error.line}" if error.line else where, str(error)))
            held.add(where)
            continue
        except UnicodeError:
            report.problems.append(
                Problem(where, "is not UTF-8 text (a binary file?); move it out of memories/")
            )
            held.add(where)
            continue
        except OSError as error:
            report.problems.append(Problem(where, f"cannot be read: {error.strerror or error}"))
            held.add(where)
            continue
        readable[name] = stat
        by_id[memory.id].append(name)
        if memory.state in VISIBLE_STATES:
            visible.setdefault(memory.id, _visible(memory))
        found = _memory_problems(memory, raw)
        if _secrets(memory):
            held.add(where)
            found += _secret_problems(memory, raw)
        if not found:
            checked.fine(name, stat, memory.id, _visible(memory) if memory.state in VISIBLE_STATES else None)
        report.problems += found

    for mid, names in sorted(by_id.items()):
        if len(names) > 1:
            files = " and ".join(f"memories/{n}" for n in names)
            report.problems.append(
                Problem(
                    f"memories/{names[0]}",
                    f"{files} have the same id ({mid}): they are read as one memory, in the most private "
                    "state among them, and a decision changes them all; delete the copy you do not want, or "
                    "give it its own text and remove its id line",
                )
            )
    for name in kit.files.symlinks():
        held.add(f"memories/{name}")
        report.problems.append(
            Problem(
                f"memories/{name}",
                "is a symbolic link; PersonaKit never follows or commits one: replace it with the file itself",
            )
        )
    report.memories = len(readable)
    people = kit.people.all()
    clashing = checked.clashes(visible, partial(_clashing, visible, people))
    report.problems += [Problem(p.file, p.problem) for p in people if p.problem]
    if clashing:
        report.notes.append(
            f"{clashing} pair{'s' if clashing != 1 else ''} of memories likely disagree; "
            "'personakit clashes' lists them"
        )
    if drafts:
        shown = ", ".join(drafts[:3]) + (f" and {len(drafts) - 3} more" if len(drafts) > 3 else "")
        report.notes.append(
            f"{shown} {'is a draft' if len(drafts) == 1 else 'are drafts'} (empty, or no front matter), "
            "not a memory yet: PersonaKit takes a draft in once it starts with front matter and has a text "
            "below it (docs/vault.md)"
        )
    _mode_problems(kit, report)
    _git_problems(kit, report, held, set(drafts))
    _index_problems(kit, report, readable)
    report.problems.sort(key=_by_file)
    if kit.writable:
        checked.save()
    return report


def _by_file(problem: Problem) -> tuple[int, str, int]:
    """Problems of memory files first, by file then line; then the vault's own."""
    path, _, line = problem.where.partition(":")
    return (0 if path.startswith("memories/") else 1, path, int(line) if line.isdigit() else 0)


def _line_of(raw: str, key: str) -> int | None:
    """The 1-based line of a front-matter key."""
    for number, line in enumerate(raw.splitlines(), 1):
        if number > 1 and line.rstrip() in ("---", "..."):
            return None
        if re.match(rf"{re.escape(key)}\s*:", line):
            return number
    return None


def _body_line(raw: str) -> int | None:
    lines = raw.splitlines()
    for number in range(2, len(lines) + 1):
        if lines[number - 1].rstrip() in ("---", "..."):
            return number + 1
    return None


def _at(memory: Memory, line: int | None) -> str:
    return f"memories/{memory.name}" + (f":{line}" if line else "")


_NAME = "\x1f"  # joins a visible memory's text and the names it is about (never in either: clean() drops it)


def _visible(memory: Memory) -> str:
    """What the clash note needs of a visible memory: its text, and whom it is about."""
    return _NAME.join((memory.text, *memory.about))


def _clashing(visible: dict[str, str], people: list[Person]) -> int:
    """Pairs of visible memories that likely disagree, about the same one (`core.people.same_subject`)."""
    split = {mid: value.split(_NAME) for mid, value in visible.items()}
    pairs = clashes([(mid, parts[0]) for mid, parts in split.items()])
    return sum(1 for a, b, _ in pairs if same_subject(split[a][1:], split[b][1:], people))


def _memory_problems(memory: Memory, raw: str) -> list[Problem]:
    if not memory.problems:
        return []
    found = []
    twice = read(raw).duplicates  # a key written twice: named at its later line, the one a paste added
    for problem in memory.problems:
        key = problem.split()[0]
        if key in twice and " is written " in problem:
            found.append(Problem(_at(memory, twice[key][-1]), problem))
            continue
        keyed = ("state", "category", "id", "evidence", "about", "said", "until")
        line = _line_of(raw, key) if key in keyed else _body_line(raw)
        advice = {
            "state": "; set it to unconfirmed, approved, rejected or restricted",
            "category": "; use communication, work-style, tools, preferences, background, constraints or other",
            "id": "",
            "evidence": "; write it as a list ('  - quote' lines)",
            "about": "",  # the problem says how to write it
            "said": "",
            "until": "",
        }.get(key, f"; shorten it to {MAX_TEXT} characters or fewer")
        found.append(Problem(_at(memory, line), problem + advice))
    return found


def _secrets(memory: Memory) -> list[str]:
    texts = (memory.text, *memory.evidence)
    if not holds_credential(*texts):  # each text alone, then the seams between them: one pass for most files
        return []
    return [t for t in texts if looks_like_credential(t)] or list(texts)


def _secret_problems(memory: Memory, raw: str) -> list[Problem]:
    found = []
    if looks_like_credential(memory.text):
        found.append(Problem(_at(memory, _body_line(raw)), "the text looks like a password, key or token"))
    for quote in memory.evidence:
        if looks_like_credential(quote):
            probe = quote[:24]
            line = next((n for n, text in enumerate(raw.splitlines(), 1) if probe in text), None)
            found.append(Problem(_at(memory, line), "an evidence quote looks like a password, key or token"))
    if not found:  # a key cut in two, between the text and a quote or two quotes
        found.append(
            Problem(
                _at(memory, _body_line(raw)), "the text and quotes together hold a password, key or token"
            )
        )
    advice = (
        "; remove it from the file. It is masked in anything served and PersonaKit does not commit the "
        "file while it is there (if git already has it, docs/review.md says how to purge it)"
    )
    return [Problem(p.where, p.what + advice) for p in found]


def _mode_problems(kit: PersonaKit, report: Report) -> None:
    """Anything in the vault other users of this machine could read or enter."""
    for place, paths in sorted(loose(kit.root).items()):
        shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        report.problems.append(
            Problem(
                "vault" if place == "." else place,
                f"{shown} can be read by other users of this machine (folders should be 0700, files "
                f"0600); PersonaKit tightens what it uses when it starts; to make all of it private now: "
                f"chmod -R go= {kit.root}",
            )
        )


def _git_problems(kit: PersonaKit, report: Report, held: set[str], drafts: set[str]) -> None:
    trouble = kit.history.trouble()
    if trouble:
        report.problems.append(Problem("git", trouble))
    if kit.history.detached():
        report.problems.append(
            Problem(
                "git",
                "HEAD is detached: decisions are committed, but no branch keeps them; "
                f"put them on one with: git -C {kit.root} switch -c NAME (or switch back to your branch)",
            )
        )
    identity = kit.history.identity_note()
    if identity is not None:
        report.notes.append(identity)
    if not kit.history.ignored(".personakit/reads.jsonl"):
        report.problems.append(
            Problem(
                ".gitignore",
                "no longer ignores .personakit/, so the read ledger and the index could be committed; "
                "put the line '.personakit/' back",
            )
        )
    symlinks = {f"memories/{name}" for name in kit.files.symlinks()}
    obsidian = False
    notes: list[str] = []  # the owner's own files beside the memories
    for path in sorted(kit.history.changed(".")):
        memory = path.startswith("memories/") and plain_name(path.removeprefix("memories/"))
        if path.startswith(".personakit/") or path in symlinks or path in drafts:
            continue  # machine state; a link is reported as one; a draft is noted
        if leftover(path):
            report.notes.append(
                f"{path} is half a file left by a sync or merge that was interrupted; PersonaKit removes it "
                "when it next starts (any command but doctor)"
            )
            continue
        if path.startswith(".obsidian/"):
            obsidian = True  # the app's settings: never a problem of the vault's
            continue
        if not path.startswith("memories/") and path not in VAULT_FILES:
            notes.append(path)  # the owner's: PersonaKit neither reads nor commits them
            continue
        if path in held:
            what = "is not committed to git, and will not be while the problem reported for it stands"
        elif memory and not os.path.lexists(kit.root / path):
            what = (
                "was deleted but the deletion is not committed; the next personakit command (or a running "
                "server) commits it as your edit"
            )
        elif memory:
            what = (
                "has changes not committed to git; the next personakit command (or a running server) "
                "commits them as your edit"
            )
        else:  # `git commit -- PATH` commits that file only, whatever else is staged
            what = (
                "has changes not committed to git; commit them with: "
                f"git -C {shlex.quote(str(kit.root))} add -- {shlex.quote(path)} && "
                f"git -C {shlex.quote(str(kit.root))} commit -m 'Update {path}' -- {shlex.quote(path)}"
            )
        report.problems.append(Problem(path, what))
    if notes:
        shown = ", ".join(notes[:3]) + (f" and {len(notes) - 3} more" if len(notes) > 3 else "")
        them = "it" if len(notes) == 1 else "them"
        root, paths = shlex.quote(str(kit.root)), " ".join(map(shlex.quote, notes))
        report.notes.append(
            f"{shown} {'is' if len(notes) == 1 else 'are'} yours, outside memories/: PersonaKit never reads or "
            f"commits {them}, and sync carries only what git has committed; to keep {them} on every device: "
            f"git -C {root} add -- {paths} && git -C {root} commit -m 'My notes' -- {paths}"
        )
    if obsidian and kit.history.tracked([".obsidian"]):
        report.notes.append(
            "git tracks Obsidian's settings (.obsidian/), so they show as changes whenever Obsidian saves "
            "them; to stop tracking them (the files stay): "
            f"git -C {shlex.quote(str(kit.root))} rm -r -q --cached .obsidian && "
            f"git -C {shlex.quote(str(kit.root))} commit -m 'Stop tracking Obsidian settings' -- .obsidian"
        )
    if kit.history.owner_index.pending():
        report.notes.append(
            "git's index is behind PersonaKit's last commits (another program held .git/index.lock); "
            "git status shows those memories as changed until the next personakit command updates it"
        )


def _index_problems(kit: PersonaKit, report: Report, readable: dict[str, FileStat]) -> None:
    if kit.index.folder is None:
        return  # a vault that cannot be written: each process builds its index in memory
    if not (kit.files.state / "index").is_dir():
        report.notes.append("there is no search index yet; the next personakit command or server builds it")
        return
    with kit.files.lock() if kit.writable else nullcontext():
        fresh = kit.index.open()
        indexed = kit.index.stats()
        kit.index.close()
    if fresh:
        report.problems.append(
            Problem("index", "the search index could not be opened (damaged?); run personakit reindex")
        )
        return
    behind = sorted(n for n, s in readable.items() if indexed.get(n) != s)
    extra = sorted(n for n in indexed if n not in readable)
    if behind or extra:
        shown = ", ".join(f"memories/{n}" for n in (behind + extra)[:3])
        more = len(behind) + len(extra) - 3
        report.problems.append(
            Problem(
                "index",
                f"is out of step with {len(behind) + len(extra)} file(s) ({shown}"
                + (f" and {more} more" if more > 0 else "")
                + "); the next personakit command brings it level, or run personakit reindex",
            )
        )
