"""`personakit sync`: one vault on every device, carried by the owner's own git remote.

A round is fetch, integrate, push:

1. Fetch the remote's branch (no lock: the network may be slow, and servers keep working meanwhile).
   A remote whose history no longer contains the commit this device last synced with was rewritten
   (force-pushed): the sync stops there, changing nothing.
2. Under the vault lock: take in hand edits (they become commits first), then build one linear history of
   the remote's commits and this device's (`personakit.sync.integration`: this device's commits replayed with
   their authors, each memory changed on both sides merged by `core.merging`). No network, no merge commit.
3. Move the vault to it, in an order that a kill at any instant cannot turn into a loss: the journal
   `.personakit/sync.json` names the old and new commit; the changed files are written into the work tree
   (each atomically); git's index and then HEAD (one compare-and-swap) follow. Until HEAD moves, the files
   on disk are already the new ones, so nothing ever looks like an edit that undoes what came in. A killed
   sync is finished by `vault.moving.recover`, which every PersonaKit process runs before it takes in
   changes.
4. Push, never forced. If the remote moved ahead meanwhile, go round again (up to eight rounds, with a
   growing random pause between them).

Running servers see the written files through their watchers; the files arrive committed, so git sees
them clean and nothing is committed again "by hand".
"""

from __future__ import annotations

import logging
import random
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from personakit.core.merging import Note
from personakit.errors import PersonaKitError, ReadOnlyVault
from personakit.store.plumbing import Plumbing, RemoteFailed
from personakit.sync.arriving import lost, name_branch, refuse_planted
from personakit.sync.integration import Integration, SyncStopped
from personakit.vault import identities
from personakit.vault.moving import advance, memory_path, recover
from personakit.vault.service import PersonaKit
from personakit.vault.trust import Arrival, hold, hold_arrivals, look

log = logging.getLogger("personakit")

ROUNDS = 8
SYNCED = "refs/personakit/synced/"  # the remote commit this device last synced with, per remote

__all__ = ["Report", "SyncStopped", "sync"]


@dataclass
class Report:
    remote: str
    branch: str
    brought: int = 0  # files changed here by what came in
    sent: int = 0  # commits of this device's that the remote now has
    notes: list[Note] = field(default_factory=list)
    arrived: list[Arrival] = field(default_factory=list)  # changes that made a memory more visible
    advice: list[str] = field(default_factory=list)

    @property
    def held(self) -> list[Arrival]:
        return [a for a in self.arrived if a.held]

    def lines(self) -> list[str]:
        if not self.brought and not self.sent:
            head = f"Already in sync with {self.remote} ({self.branch})."
        else:
            head = (
                f"Synced with {self.remote} ({self.branch}): {_count(self.brought, 'file')} changed here, "
                f"{_count(self.sent, 'commit')} sent."
            )
        notes = _unique(self.notes)
        lines = [head]
        if notes:
            lines += ["", "Decide again where you want to (personakit show ID has the history):"]
            lines += [f"  {note.sentence()}" for note in notes]
        applied = [a for a in self.arrived if not a.held]
        if applied:
            lines += ["", "Made more visible on another device (personakit show ID has the history):"]
            lines += [f"  {a.sentence()}" for a in applied]
        if self.held:
            strangers = ", ".join(sorted({a.author for a in self.held}))
            lines += ["", f"Held until you accept them: made more visible by {strangers}, new to this vault:"]
            lines += [f"  {a.sentence()}" for a in self.held]
            lines += [
                "Assistants see each as kept. Read them; then accept them all with: personakit sync --accept",
                "(or one by one in: personakit review). Did you not expect them? See docs/sync.md, 'Who may "
                "change what'.",
            ]
        return lines + (["", *self.advice] if self.advice else [])


def sync(
    kit: PersonaKit,
    remote: str | None = None,
    interactive: bool = False,
    before_push: Callable[[], None] | None = None,
) -> Report:
    """Fetch, integrate and push (see the module docstring). `before_push` lets a test act at that moment."""
    if not kit.writable:
        raise ReadOnlyVault(f"the vault at {kit.root} cannot be written (read-only); nothing was synced")
    git = Plumbing(kit.history)
    try:
        name, branch = choose_remote(git, remote)
        report = Report(name, branch)
        for attempt in range(ROUNDS):
            incoming = _fetch(git, name, branch, interactive)
            tip = _integrate(kit, git, incoming, report)
            if tip != incoming:
                if before_push is not None:
                    before_push()
                try:
                    git.push(name, tip, branch, interactive)
                except RemoteFailed as failed:
                    if failed.kind == "behind":  # the remote moved ahead since the fetch: another round,
                        time.sleep(random.uniform(0, 0.1 * 2**attempt))  # after a random pause, so two
                        continue  # devices that keep meeting at the remote stop meeting
                    brought = (
                        f"brought in {_count(report.brought, 'changed file')}, but " if report.brought else ""
                    )
                    raise PersonaKitError(
                        f"{brought}{_failure(failed, name, git)}; this device's changes stay here, and go "
                        "with the next sync"
                    ) from None
                report.sent += git.count(incoming, tip)
                if incoming is None:  # this sync made the branch there: can a clone check it out?
                    report.advice += name_branch(git, name, branch, interactive)
                    url = git.remotes().get(name, "")
                    report.advice.append(f"On your next device: personakit clone {shlex.quote(_shown(url))}")
                if git.config(f"branch.{git.branch()}.remote") is None:
                    git.set_config(f"branch.{git.branch()}.remote", name)  # so a plain `git pull` works too
                    git.set_config(f"branch.{git.branch()}.merge", f"refs/heads/{branch}")
            git.move_ref(SYNCED + name, tip, git.ref(SYNCED + name), "personakit sync")
            return report
        raise PersonaKitError(
            f"{name} kept moving ahead while this device sent its changes ({ROUNDS} tries); nothing is lost: "
            "run personakit sync again"
        )
    finally:
        git.close()


def choose_remote(git: Plumbing, wanted: str | None) -> tuple[str, str]:
    """The remote to sync with and its branch: the one named, the branch's upstream, the only one, origin."""
    remotes = git.remotes()
    if not remotes:
        raise PersonaKitError(
            "this vault has no remote to sync with; add one with: personakit remote add origin URL "
            "(a private git repository of yours; docs/sync.md shows how)"
        )
    branch = git.branch()
    if branch is None:
        raise PersonaKitError("the vault's HEAD is not on a branch (detached); check out main, then sync")
    upstream = git.config(f"branch.{branch}.remote")
    name = wanted or (upstream if upstream in remotes else None)
    name = name or (next(iter(remotes)) if len(remotes) == 1 else "origin" if "origin" in remotes else None)
    if name is None:
        raise PersonaKitError(
            f"this vault has several remotes ({', '.join(sorted(remotes))}); say which: personakit sync NAME"
        )
    if name not in remotes:
        raise PersonaKitError(
            f"this vault has no remote named {name!r}; it has: {', '.join(sorted(remotes))}"
        )
    merge = git.config(f"branch.{branch}.merge") if upstream == name else None
    return name, (merge or branch).removeprefix("refs/heads/")


def _fetch(git: Plumbing, name: str, branch: str, interactive: bool) -> str | None:
    try:
        incoming = git.fetch(name, branch, interactive)
    except RemoteFailed as failed:
        raise PersonaKitError(f"{_failure(failed, name, git)}; nothing was changed") from None
    synced = git.ref(SYNCED + name)
    if synced and (incoming is None or not git.is_ancestor(synced, incoming)):
        gone = (
            "no longer has the branch " + branch
            if incoming is None
            else "history was rewritten (force-pushed)"
        )
        raise SyncStopped(
            f"{name}'s {gone} since this device last synced with it (commit {synced[:12]}), so syncing could "
            "undo what someone removed on purpose; nothing was changed here or there. If you rewrote or "
            "replaced it yourself, make this device a fresh clone of it (docs/sync.md, 'A rewritten "
            f"remote'); to keep this device's history instead: git -C {git.history.root} push --force {name}"
        )
    return incoming


def _failure(failed: RemoteFailed, name: str, git: Plumbing) -> str:
    url = _shown(git.remotes().get(name, ""))
    if failed.kind == "unreachable" and "not found" in failed.said.lower():  # how hosts answer a private one
        return (
            f"{name} ({url}) has no such repository, or your credentials do not reach it: {failed.said}. "
            "Check the address, and that `git fetch` works in the vault"
        )
    if failed.kind == "unreachable":
        return f"could not reach {name} ({url}): {failed.said}. Check the address and your connection"
    if failed.kind == "credentials":
        return (
            f"{name} ({url}) refused this device's credentials: {failed.said}. PersonaKit uses git's own: "
            "check that `git fetch` works in the vault (an ssh key, or a credential helper for https)"
        )
    return f"git could not sync with {name} ({url}): {failed.said}"


def _integrate(kit: PersonaKit, git: Plumbing, incoming: str | None, report: Report) -> str:
    """Under the lock: take in hand edits, build the new history, move the vault to it. The new tip."""
    with kit.files.lock():
        trouble = kit.history.trouble()
        if trouble:
            raise PersonaKitError(f"{trouble}. Nothing was synced")
        recover(kit)  # a killed sync is finished first
        hold_arrivals(kit)  # then what a plain git pull brought since this device last looked
        dirty = kit.history.changed()  # one look at the whole vault (a full intake pass costs more at 10k)
        edited = [p.removeprefix("memories/") for p in dirty if memory_path(p)]
        if edited:
            kit.sync(edited)  # hand edits become commits first
            dirty = kit.history.changed()  # what is left: files that are not memories, unreadable ones
        head = kit.history.head()
        if head is None:
            raise PersonaKitError("the vault has no commit yet; run personakit init")
        if incoming is None or incoming == head or git.is_ancestor(incoming, head):
            return head
        refuse_planted(git, report.remote, head, incoming)
        base = git.merge_base(head, incoming)
        if base == head:
            tip, notes = incoming, []
        else:
            outcome = Integration(git, base, head, incoming).build()
            tip, notes = outcome.tip, outcome.notes
        arrived = look(git, head, tip, identities.known(kit.history))  # who made what more visible
        tip = hold(git, tip, arrived)  # a stranger's, held: on top, so the files land held
        notes += lost(git, head, incoming)
        identities.mark_checked(kit.history, tip)
        try:
            report.brought += move(kit, git, head, tip, dirty)
        except BaseException:
            identities.mark_checked(kit.history, head)
            raise
        report.notes += notes
        report.arrived += arrived
        return tip


def move(kit: PersonaKit, git: Plumbing, old: str, new: str, uncommitted: set[str]) -> int:
    """Move the vault (files, git's index, HEAD) from commit old to new; see step 3 above. Files changed."""
    changes = git.changes(old, new)
    dirty = sorted(uncommitted & changes.keys())
    if dirty:
        raise SyncStopped(
            f"{dirty[0]} has changes of yours that are not committed, and the sync would replace it; commit "
            f"or undo them (git -C {kit.root} status), then sync again. Nothing was changed"
        )
    if advance(kit, git, old, new) is None:
        raise SyncStopped(
            "the vault's HEAD moved during the sync (a git command run at the same time?); nothing was changed: "
            "run personakit sync again"
        )
    names = [p.removeprefix("memories/") for p in changes if memory_path(p)]
    if names:
        kit.sync(names)  # this process's index; the files are committed already, so git sees them clean
    return len(changes)


def _shown(url: str) -> str:
    """A remote's address as it may be printed: a password written into it is masked."""
    return re.sub(r"(://[^/@:]+):[^/@]*@", r"\1:***@", url)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _unique(notes: list[Note]) -> list[Note]:
    """One note per memory and kind: the last (a later round saw the later state)."""
    return list({(n.kind, n.id): n for n in notes}.values())
