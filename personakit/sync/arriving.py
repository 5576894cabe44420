"""What the remote sends, looked at before it is taken in and after it is pushed to.

- **Files a remote must never plant** (`refuse_planted`). Whoever can push to the remote can commit any
  file, and a sync writes what it fetched into the vault. Some files change what git or PersonaKit does
  rather than what the vault says: `.gitattributes` (a union merge of memory files, CRLF endings),
  anything under `.personakit/` (machine state: the sync journal, the index), a symbolic link or a
  submodule in `memories/`, a folder inside it, a file name made for a shell (`memories/$(touch x).md`).
  A change to any of them stops the sync before anything moves, naming each; the owner can still take
  their own change with `git pull` in the vault, which the merge driver's settings survive (they are
  restored at every start: `vault/gitconfig.py`).
- **The device whose decision lost** (`lost`). When another device merged two decisions about a memory,
  its `sync m_x` commit lists the decisions it weighed (`Decided:` trailers); a device whose own decision
  is among them and whose vault that commit changed is told too, as the device that merged was.
- **A remote that a clone cannot check out** (`name_branch`). `git init --bare` names `master` (or
  whatever `init.defaultBranch` says) as HEAD; after the first push of `main` a clone warns "remote HEAD
  refers to nonexistent ref" and checks out nothing. A bare repository on this machine is given the
  pushed branch as HEAD; for a hosted one the owner is told what to set.
"""

from __future__ import annotations

import os
import re

from personakit.core.memory import InvalidMemory, Memory, parse_memory
from personakit.core.merging import Note
from personakit.store.plumbing import Entry, Plumbing
from personakit.sync.integration import SyncStopped
from personakit.sync.standing import TRAILER

_SETTLED = re.compile(r"sync (m_[0-9a-f]{12}):")
_DECIDED = re.compile(rf"^{TRAILER} (?P<state>[a-z]+) \((?P<event>[0-9a-f]+)\)$", re.M)
_UNSAFE = re.compile(
    r"[\x00-\x1f\x7f$`;|&<>*?\"\\!]|^-"
)  # what a shell or a terminal reads as more than a name
REGULAR = ("100644", "100755")


def planted(path: str, entry: Entry | None) -> str | None:
    """Why a remote may not make this change to path (entry: the remote's version), or None."""
    if path == ".gitattributes":
        return "how git merges memory files"
    if entry is None:
        return None
    if path.startswith(".personakit/"):
        return "PersonaKit's machine state, never versioned"
    if not path.startswith("memories/"):
        return None
    name = path.removeprefix("memories/")
    if "/" in name:
        return "a folder inside memories/"
    if entry[0] == "120000":
        return "a symbolic link"
    if entry[0] not in REGULAR:
        return "not a plain file"
    if _UNSAFE.search(name):
        return "a file name a shell would run"
    return None


def refuse_planted(git: Plumbing, name: str, head: str, incoming: str) -> None:
    """Stop the sync, changing nothing, when the remote's new commits plant what they must not."""
    base = git.merge_base(head, incoming)
    found = [(path, why) for path, (_, new) in sorted(git.changes(base or head, incoming).items())
             if (why := planted(path, new)) is not None]  # fmt: skip
    if not found:
        return
    listed = "; ".join(f"{_shown(path)} ({why})" for path, why in found[:5])
    more = f"; and {len(found) - 5} more" if len(found) > 5 else ""
    raise SyncStopped(
        f"{name} sent changes a vault never takes from a remote: {listed}{more}; nothing was changed here or "
        f"there. If the change is yours, take it with git pull in the vault; if not, someone else can push "
        f"to {name}: check who has access, and look at git log {name}/{git.branch() or 'main'}"
    )


def _shown(path: str) -> str:
    return path if path.isprintable() else ascii(path)


def lost(git: Plumbing, head: str, incoming: str) -> list[Note]:
    """Decisions of this device's that another device's merge replaced in this vault, as notes."""
    settled = [(m.group(1), c) for c in git.commits(head, incoming) if (m := _SETTLED.match(c.message))]
    if not settled:
        return []
    before, after = git.tree(head), git.tree(incoming)
    notes = []
    for mid, commit in settled:
        weighed = {found["state"] for found in _DECIDED.finditer(commit.message)}
        for path in commit.changes:
            was, now = _memory(git, path, before.get(path)), _memory(git, path, after.get(path))
            if was is None or now is None or was.id != mid or now.id != mid:
                continue
            if was.state != now.state and was.state in weighed:
                notes.append(Note("decisions", mid, now.text, was.state, now.state, now.state))
            if was.category != now.category:
                notes.append(Note("category", mid, now.text, was.category, now.category, now.category))
    return notes


def _memory(git: Plumbing, path: str, entry: Entry | None) -> Memory | None:
    if entry is None or entry[0] not in REGULAR or not path.startswith("memories/"):
        return None
    try:
        return parse_memory(git.blob(entry[1]).decode("utf-8"), path.removeprefix("memories/"))
    except (InvalidMemory, UnicodeError):
        return None


def name_branch(git: Plumbing, name: str, branch: str, interactive: bool) -> list[str]:
    """Make the remote's HEAD name branch when it names one it does not have; what to tell the owner."""
    named, branches = git.remote_head(name, interactive)
    if named in branches or branch not in branches:
        return []
    url = git.remotes().get(name, "")
    path = url.removeprefix("file://")
    if os.path.isdir(path):
        git.point_head(path, branch)
        return []
    return [
        f"{name}'s default branch is {named or 'unset'}, which it does not have, so a plain git clone of it "
        f"checks out nothing: set its default branch to {branch} in your git host's settings "
        "(personakit clone checks it out either way)."
    ]
