"""`personakit undo`: revert the owner's last change to their memories, as a new commit.

What counts as the owner's change: a commit in memories/ that PersonaKit made for the owner (approve,
reject, restrict, categorize, forget, add, and a quote `add` added) or took in from their editor (edits,
renames, deletions and decisions made by hand), whoever's git identity signed it, as long as it is not an
assistant's (`<host> (assistant)`, whose proposals are the owner's to reject, not to undo). Commits made
with git by hand are not PersonaKit's and are skipped. An undo is itself such a change, and undoing
again goes one step further back: each undo names the commit it reverts (`(reverts <12 hex>, <verb>)`),
and a reverted commit is passed over.

The revert is a three-way merge of each file it touched (as `git revert` does): changes made since to
other lines of the file (an assistant's new quote) stay. When the file changed since in a way that
clashes, or is gone, or holds changes not committed, nothing is changed and the owner is told why.
"""

from __future__ import annotations

import codecs
import re
import tempfile
from pathlib import Path

from personakit.core.memory import InvalidMemory, parse_memory
from personakit.errors import PersonaKitError
from personakit.owner.audit import _SUBJECT, local
from personakit.store.history import Commit
from personakit.vault.service import ASSISTANT_EMAIL, PersonaKit
from personakit.vault.writing import Change, write

OWNER_VERBS = frozenset(
    (
        "approve",
        "reject",
        "restrict",
        "unconfirm",
        "categorize",
        "edit",
        "rename",
        "forget",
        "add",
        "evidence",
    )
)
_REVERTS = re.compile(r"\(reverts ([0-9a-f]{12}), [a-z ]+\)$")
PAGE = 200  # commits read at a time while looking for the last undoable one


def last_change(kit: PersonaKit) -> Commit | None:
    """The owner's newest change that no undo has reverted yet, or None."""
    undone: set[str] = set()
    skip = 0
    while True:
        page = kit.history.commits(
            "--no-merges", "--full-history", f"--max-count={PAGE}", f"--skip={skip}", "--", "memories"
        )
        for commit in page:
            found = _SUBJECT.match(commit.subject)
            if commit.email == ASSISTANT_EMAIL or not found:
                continue
            reverts = _REVERTS.search(commit.subject)
            if found["verb"] == "undo" and reverts:
                undone.add(reverts[1])
            elif found["verb"] in OWNER_VERBS and commit.sha[:12] not in undone:
                return commit
        if len(page) < PAGE:
            return None
        skip += PAGE


def shown(kit: PersonaKit, commit: Commit) -> list[str]:
    """The change as the owner reads it: when, who, what, and the lines of its diff."""
    patch = kit.history.log("-1", "-p", "--format=", "--unified=0", commit.sha, "--", "memories")
    lines = [f"{local(commit.date)}  {commit.author}  {commit.subject}"]
    old, header = "", False
    for line in patch.splitlines():
        if line.startswith("diff --git "):
            header = True
        elif line.startswith("@@"):
            header = False
        elif header and line.startswith("--- "):
            old = _path(line[4:])
        elif header and line.startswith("+++ "):
            lines.append(f"  {_path(line[4:]) or old}")
        elif not header and line.startswith(("+", "-")):
            lines.append(f"    {line}")
    return lines


def _path(said: str) -> str:
    """A path as a diff header gives it ("b/memories/x.md", quoted with octal escapes when it is not
    ASCII), as the owner reads it; "" for /dev/null."""
    if said.startswith('"') and said.endswith('"'):
        said = codecs.escape_decode(said[1:-1].encode())[0].decode("utf-8", "replace")  # type: ignore[attr-defined]
    return "" if said == "/dev/null" else said.split("/", 1)[-1]


def undo(kit: PersonaKit, commit: Commit) -> str:
    """Revert commit as one new commit by the owner, and bring the index level; the new commit's subject.

    Raises a PersonaKitError, changing nothing, when the commit is no longer the last change (something
    happened meanwhile) or cannot be reverted cleanly."""
    kit.require_writable()
    with kit.files.lock():
        latest = last_change(kit)
        if latest is None or latest.sha != commit.sha:
            raise PersonaKitError(
                "the vault changed while you were deciding; nothing was changed, run undo again"
            )
        scratch = kit.files.ensure_state_dir() / "tmp"
        contents = reverted(kit, commit.sha, scratch)
        paths = [p for p in contents if p.startswith("memories/")]
        if not paths:
            raise PersonaKitError("that change is already undone in the files; nothing was changed")
        dirty = kit.history.changed(*paths)
        if dirty:
            raise PersonaKitError(
                f"{sorted(dirty)[0]} has changes not committed (see personakit doctor); nothing was changed"
            )
        found = _SUBJECT.match(commit.subject)
        verb, mid, text = (found["verb"], found["id"], found["text"]) if found else ("change", "", "")
        text = re.sub(r" \((?:by hand|as [a-z-]+|file deleted by hand|by hand, was .*)\)$", "", text)
        changes: list[Change] = []
        for path in paths:
            name = path.removeprefix("memories/")
            after = contents[path]
            changes.append((name, kit.files.read(name) if kit.files.stat(name) else None, after))
            if after is not None:
                try:
                    text = parse_memory(after, name).text
                except InvalidMemory as error:
                    raise PersonaKitError(
                        f"{path} would not read back after the undo ({error}); nothing was changed"
                    ) from None
        message = f"undo {mid}: {text} (reverts {commit.sha[:12]}, {verb})"
        write(kit, changes, f"{message}\n\nThis reverts commit {commit.sha}: {commit.subject}")
        return message


def reverted(kit: PersonaKit, sha: str, scratch: Path) -> dict[str, str | None]:
    """What reverting commit sha would leave at each path it touched (None: no file), without changing
    anything. Like `git revert`, a three-way merge per file keeps changes made since to other lines;
    raises a PersonaKitError when a file changed since in a way that clashes. scratch: a folder for
    the merge's temporary files (inside the vault, so no memory's text is written elsewhere)."""
    result: dict[str, str | None] = {}
    for path in kit.history.touched_by(sha):
        before, after, now = (kit.history.blob(f"{rev}:{path}") for rev in (f"{sha}^", sha, "HEAD"))
        if now == before:
            continue  # already as it was before the commit
        if now == after:
            result[path] = before
        elif before is None or after is None or now is None:
            raise PersonaKitError(f"{path} was added, deleted or written again since; it cannot be undone")
        else:
            result[path] = _merged(kit, now, after, before, scratch, path)
    return result


def _merged(kit: PersonaKit, ours: str, base: str, theirs: str, scratch: Path, path: str) -> str:
    files = []
    for label, text in (("ours", ours), ("base", base), ("theirs", theirs)):
        with tempfile.NamedTemporaryFile("w", dir=scratch, prefix=f"undo-{label}-", delete=False) as handle:
            handle.write(text)
        files.append(handle.name)
    try:
        merged = kit.history.merge_file(*files)
    finally:
        for name in files:
            Path(name).unlink(missing_ok=True)
    if merged is None:
        raise PersonaKitError(f"{path} changed since in the same lines; it cannot be undone")
    return merged
