"""Who made a memory more visible: a change from another device is named, and a stranger's is held.

A change that makes a memory more visible to assistants (an approval; a restricted or rejected memory
made unconfirmed or approved; a new memory arriving approved) may arrive from the remote, through
`personakit sync` or a plain `git pull`. Every such change is reported with its commit's author. When
the author is not an identity this device knows (`vault.identities`: not this device's own, not in the
vault's history when PersonaKit first looked, not accepted by the owner since), the change is *held*: a
commit of the owner's, `hold m_x: text (...)`, puts the memory back in the state it had (a new memory:
unconfirmed, as a proposal would be) and records what the stranger's version said in the front-matter
line `held: approved by Mallory <mallory@evil.example> (1a2b3c4d5e6f), kept restricted`. Reads,
resources and the profile read the file, so they serve the held state with no rule of their own, on
every device the hold reaches.
The owner accepts it in `personakit review` or with `personakit sync --accept` (`owner.held`); any
decision on the memory ends the hold too.

Changes that make a memory more private apply at once, whoever made them. A stranger's change to a
`held:` line itself (a hold forged for `--accept` to approve) is held the same way.

The commits looked at are those new to this device: `head..tip` during a sync, and since the commit
recorded in `refs/personakit/checked` for anything else that moved HEAD (a `git pull`, `git merge`). A
merge commit by a known identity is only the sum of its parents, whose commits are looked at one by one;
one by a stranger is read against its first parent, like any other commit.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace

from personakit.core.memory import (
    InvalidMemory,
    Memory,
    key_value,
    parse_memory,
    set_key,
    set_state,
    unset_key,
)
from personakit.store.plumbing import Entry, Plumbing
from personakit.vault import identities
from personakit.vault.moving import advance
from personakit.vault.state import Vault

log = logging.getLogger("personakit")

HELD = "held"
VISIBILITY = {"approved": 2, "unconfirmed": 1, "rejected": 0, "restricted": 0}
Seen = tuple[str, str | None]  # (state, held line) of a memory as a commit left it


@dataclass(frozen=True)
class Arrival:
    """A change that made a memory more visible, and who made it."""

    id: str
    text: str
    was: str | None  # its state before (None: it is new)
    now: str  # the state the change gave it
    author: str  # "Name <email>"
    commit: str
    path: str = ""  # its file, as the last commit looked at left it
    held: bool = False  # kept at `kept` until the owner accepts it
    kept: str = ""

    def sentence(self) -> str:
        what = f'{self.id} "{self.text}": '
        if self.was is None:
            what += f"arrived {self.now}, from {self.author}"
        elif self.was == self.now:
            what += f"its held line was changed by {self.author}"
        else:
            what += f"{self.was} -> {self.now} by {self.author}"
        return what + (f"; kept {self.kept}" if self.held else "")


def held_line(arrival: Arrival) -> str:
    """What the `held:` line says: the stranger's state, who, which commit, and the state kept (a decision
    taken by hand since, which leaves the line, makes the hold stale: accepting skips it)."""
    return f"{arrival.now} by {arrival.author} ({arrival.commit[:12]}), kept {arrival.kept}"


def look(git: Plumbing, since: str | None, tip: str, known: set[str]) -> list[Arrival]:
    """The changes in since..tip that made a memory more visible, oldest first; held when a stranger
    made them and nothing the owner trusts decided the memory since."""
    trusted: dict[str, Seen] = {}  # id -> what the last trusted change (or since) left
    origin: dict[str, Seen | None] = {}  # id -> what it was at since (None: it is new)
    pending: dict[str, Arrival] = {}
    applied: dict[str, Arrival] = {}  # the last trusted change that loosened each, reported if it still does
    for commit in git.commits(since, tip):
        stranger = commit.email.casefold() not in known
        if commit.merge and not stranger:
            continue
        before, after = _sides(git, commit.changes)
        author = f"{commit.author} <{commit.email}>"
        for mid in before.keys() | after.keys():
            origin.setdefault(mid, before.get(mid))
        for mid, (memory, now, path) in after.items():
            old = before.get(mid)
            base = trusted.get(mid, old)
            looser = _looser(base, now)
            if stranger and looser:
                kept = base[0] if base else "unconfirmed"
                pending[mid] = Arrival(
                    mid, memory.text, base[0] if base else None, now[0], author, commit.sha, path, True, kept
                )
            elif mid in pending and old == now:  # the owner's side left it as the stranger had it
                pending[mid] = replace(pending[mid], path=path, text=memory.text)
            else:  # a decision the owner trusts, or a stranger's that loosens nothing: applies at once
                if looser:
                    applied[mid] = Arrival(mid, memory.text, None, now[0], author, commit.sha, path)
                trusted[mid] = now
                pending.pop(mid, None)
        for mid in before.keys() - after.keys():  # forgotten (or renamed: then it is in after)
            trusted.pop(mid, None)
            pending.pop(mid, None)
    told = []
    had = git.tree(since) if applied and since else {}
    for mid, arrival in applied.items():  # what this device had at since, against what it has now
        found = _read(git, arrival.path, had.get(arrival.path))
        was: Seen | None = origin.get(mid)
        if found is not None and found[0].id == mid:
            was = (found[0].state, key_value(found[1], HELD))
        final = trusted.get(mid)
        if mid not in pending and final is not None and final[0] == arrival.now and _looser(was, final):
            told.append(replace(arrival, was=was[0] if was else None))
    return told + list(pending.values())


def _looser(base: Seen | None, now: Seen) -> bool:
    if base is None:
        return now[0] == "approved"  # a new memory: only one arriving approved skipped the owner
    return VISIBILITY[now[0]] > VISIBILITY[base[0]] or now[1] != base[1]


def _sides(
    git: Plumbing, changes: dict[str, tuple[Entry | None, Entry | None]]
) -> tuple[dict[str, Seen], dict[str, tuple[Memory, Seen, str]]]:
    """The memories a commit's changed files held before and after it, by id (after: with the path)."""
    before: dict[str, Seen] = {}
    after: dict[str, tuple[Memory, Seen, str]] = {}
    for path, (old, new) in changes.items():
        if not path.startswith("memories/"):
            continue
        for side, entry in ((0, old), (1, new)):
            found = _read(git, path, entry)
            if found is None:
                continue
            memory, raw = found
            seen = (memory.state, key_value(raw, HELD))
            if side == 0:
                before[memory.id] = seen
            else:
                after[memory.id] = (memory, seen, path)
    return before, after


def _read(git: Plumbing, path: str, entry: Entry | None) -> tuple[Memory, str] | None:
    if entry is None or entry[0] not in ("100644", "100755"):
        return None
    try:
        raw = git.blob(entry[1]).decode("utf-8")
        return parse_memory(raw, path.removeprefix("memories/")), raw
    except (InvalidMemory, UnicodeError):
        return None


def hold(git: Plumbing, tip: str, arrivals: list[Arrival]) -> str:
    """tip with one commit of the owner's per held memory, putting its file back in its kept state."""
    for arrival in (a for a in arrivals if a.held):
        found = _read(git, arrival.path, git.tree(tip).get(arrival.path))
        if found is None or found[0].id != arrival.id:
            continue  # gone or moved since: nothing the stranger changed is left to hold
        line = json.dumps(held_line(arrival), ensure_ascii=False)
        new = set_key(set_state(found[1], arrival.kept), HELD, line)
        tree = git.build_tree(tip, {arrival.path: ("100644", git.write_blob(new.encode("utf-8")))})
        what = f"{arrival.now} by" if arrival.was != arrival.now else "its held line changed by"
        tip = git.commit_tree(tree, tip, (
            f"hold {arrival.id}: {arrival.text} ({what} {arrival.author}, an identity new to this vault; kept "
            f"{arrival.kept} until you accept it: personakit review, or personakit sync --accept)"
        ))  # fmt: skip
    return tip


def _own(made: dict[str, str | None], head: str, since: str) -> bool:
    """Is every commit from since to head one this process made (each the parent of the next)?"""
    at: str | None = head
    for _ in range(len(made) + 1):
        if at == since:
            return True
        if at not in made:
            return False
        at = made[at]
    return False


def release(raw: str) -> str:
    """A memory file's text without its hold (what any decision does)."""
    return unset_key(raw, HELD)


def hold_arrivals(kit: Vault) -> list[Arrival]:
    """Under the vault lock: look at the commits that moved HEAD since this device last looked (a plain
    `git pull`, a merge) and hold what a stranger made more visible, before anything is read or indexed.
    Cheap when nothing moved: one git command."""
    if not kit.writable:
        return []
    with kit.files.lock():
        head, since = identities.looked(kit.history)
        if head is None or head == since:
            return []
        made = kit.history.trees().made  # the commits this process made
        if since is not None and _own(made, head, since):
            if len(made) > 1000:  # only this process's commits since: nothing to look at, and no git
                identities.mark_checked(kit.history, head)  # command until many have piled up
                made.clear()
            return []
        git = Plumbing(kit.history)
        try:
            if since is None or not git.is_ancestor(since, head):
                if since is None:  # a clone PersonaKit never opened: it trusts what it was cloned from
                    identities.first_look(kit.history, head)
                    return []
                # history rewritten under it (a reset): look from where both agree
                since = git.merge_base(since, head)
            arrivals = look(git, since, head, identities.known(kit.history))
            tip = hold(git, head, arrivals)
            identities.mark_checked(kit.history, tip)  # first: the move below takes in its own files
            made.clear()
            if tip != head and advance(kit, git, head, tip) is None:
                identities.mark_checked(kit.history, since or head)
                return []  # HEAD moved meanwhile: look again next time
        finally:
            git.close()
    for arrival in arrivals:
        if arrival.held:
            log.warning("held: %s (personakit review, or personakit sync --accept)", arrival.sentence())
    return arrivals
