"""Building one linear history out of this device's commits and the remote's, memory by memory.

Given the commit both sides last shared (`base`), this device's tip (`head`) and the remote's
(`incoming`), `Integration.build` returns a new tip whose first parent chain is the remote's history
followed by this device's work. Nothing here touches the work tree, git's index or a ref: the new
commits are built off to the side (`store.plumbing`), and `personakit.sync.syncing` moves HEAD to them.

- What each side changed since `base` is read memory by memory, by id (a file renamed on one side is
  still the same memory). A memory or file changed on one side only needs no rule.
- This device's commits are replayed on top of the remote's, each with its own author, date and message
  (an assistant's proposal stays `<host> (assistant)`), carrying what only this device changed. A commit
  left with nothing to carry is dropped: what it did is in the remote's history already, or below.
- Each memory changed on both sides is then merged by `core.merging` in one commit of its own,
  `sync m_x: text (what was decided)`, made as the owner; the report lists its notes. Its state follows
  the decisions that stand on each side (`personakit.sync.standing`), which the commit records, since this
  device's own decision commits on it are not carried over.
- A file that is not a memory and changed on both sides is merged by git's own text merge; if that
  conflicts, `SyncStopped` is raised before anything was changed.
- Two different memories that end up wanting one file name keep both: the one from this device gets
  another name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from personakit.core.memory import InvalidMemory, Memory, parse_memory
from personakit.core.merging import Merged, Note, merge_memory
from personakit.core.naming import slug
from personakit.errors import PersonaKitError
from personakit.store.files import plain_name
from personakit.store.plumbing import Entry, Plumbing, Replayed
from personakit.sync.standing import Decision, merge_standing, standing, trailers

REGULAR = ("100644", "100755")
_SETTLED = re.compile(r"sync (m_[0-9a-f]{12}):")
Versions = tuple[Entry | None, Entry | None, Entry | None]  # (base, here, there)


class SyncStopped(PersonaKitError):
    """The sync cannot go on without the owner; nothing was changed."""


@dataclass
class Outcome:
    tip: str
    notes: list[Note] = field(default_factory=list)


class Integration:
    def __init__(self, git: Plumbing, base: str | None, head: str, incoming: str) -> None:
        self.git, self.base, self.head, self.incoming = git, base, head, incoming
        self.local = git.changes(base, head)  # path -> (in base, here)
        self.remote = git.changes(base, incoming)  # path -> (in base, there)
        self.tree = git.tree(incoming)  # the tree being built, as it is now
        self.tip = incoming
        self._parsed: dict[str, Memory | None] = {}
        self.remap: dict[str, str] = {}  # a path of this device's -> where its memory went instead
        self._history: dict[str, list[Replayed]] = {}

    # -- reading the two sides ----------------------------------------------------------------------
    def versions(self, path: str) -> Versions:
        mine, theirs = self.local.get(path), self.remote.get(path)
        old = (mine or theirs or (None, None))[0]
        return old, (mine[1] if mine else old), (theirs[1] if theirs else old)

    def memory(self, path: str, entry: Entry | None) -> Memory | None:
        """The memory a file holds, or None when it is not one (another kind of file, or unreadable)."""
        if entry is None or entry[0] not in REGULAR or not _memory_path(path):
            return None
        if entry[1] not in self._parsed:
            try:
                self._parsed[entry[1]] = parse_memory(self.git.blob(entry[1]).decode("utf-8"), path)
            except (InvalidMemory, UnicodeError):
                self._parsed[entry[1]] = None
        return self._parsed[entry[1]]

    def managed(self, path: str, *entries: Entry | None) -> bool:
        """Is every version of path that exists a readable memory (so the per-memory rules apply)?"""
        present = [e for e in entries if e is not None]
        return bool(present) and all(self.memory(path, e) is not None for e in present)

    def ids(self, changes: dict[str, tuple[Entry | None, Entry | None]], commits: list[Replayed]) -> set[str]:
        """The memories one side touched since base: changed in the end, or changed and changed back (a
        decision taken back still counts, see `personakit.sync.standing`), or merged by a `sync` commit."""
        found = set()
        for step in [changes] + [c.changes for c in commits]:
            for path, (old, new) in step.items():
                if path not in changes or self.managed(path, *self.versions(path)):
                    found |= {m.id for m in (self.memory(path, old), self.memory(path, new)) if m}
        named = (_SETTLED.match(c.message) for c in commits)  # a sync commit may change no file
        return found | {m.group(1) for m in named if m}

    def where(self, side: int, mid: str) -> tuple[str, Entry] | None:
        """Where memory mid is in base (0), here (1) or there (2): its path and entry, or None."""
        sides = (self.local.keys() | self.remote.keys(), self.local.keys(), self.remote.keys())
        touched = sides[side]
        for path in sorted(touched):
            entry = self.versions(path)[side]
            found = self.memory(path, entry)
            if found is not None and entry is not None and found.id == mid:
                return path, entry
        if side:  # not among this side's changes: where base had it, if this side left that file alone
            at_base = self.where(0, mid)
            if at_base is not None and at_base[0] not in touched:
                return at_base
        return None

    # -- building -----------------------------------------------------------------------------------
    def build(self) -> Outcome:
        outcome = Outcome(self.incoming)
        self.local_ids = self.ids(self.local, self._commits(self.head))
        self.remote_ids = self.ids(self.remote, self._commits(self.incoming))
        plain = self._merge_plain_files()  # first: a conflict stops everything before any work
        for commit in self._commits(self.head):
            self._replay(commit)
        for path, entry in plain.items():
            self._commit({path: entry}, f"sync: {path}, changed on both devices, merged by git")
        for mid in sorted(self.local_ids & self.remote_ids):
            self._settle(mid, outcome.notes)
        outcome.tip = self.tip
        return outcome

    def _merge_plain_files(self) -> dict[str, Entry | None]:
        merged: dict[str, Entry | None] = {}
        for path in sorted(self.local.keys() & self.remote.keys()):
            old, mine, theirs = self.versions(path)
            if self.managed(path, old, mine, theirs) or mine == theirs:
                continue
            text = None
            if mine is not None and theirs is not None and mine[0] == theirs[0]:
                text = self.git.merge_text(
                    self.git.blob(old[1]) if old else b"", self.git.blob(mine[1]), self.git.blob(theirs[1])
                )
            if text is None:
                raise SyncStopped(
                    f"{path} was changed on this device and on the other in ways git cannot merge; nothing "
                    f"was changed. Merge it yourself (git pull in the vault), then run personakit sync again"
                )
            merged[path] = (mine[0] if mine else "100644", self.git.write_blob(text))
        return merged

    def _merge(
        self, mid: str
    ) -> tuple[Merged, tuple[tuple[str, Entry] | None, ...], tuple[frozenset[Decision], frozenset[Decision]]]:
        found = (self.where(0, mid), self.where(1, mid), self.where(2, mid))
        base, here, there = (self.git.blob(f[1][1]).decode("utf-8") if f else None for f in found)
        old = standing(self.git, self.base, mid)
        decisions = merge_standing(
            old,
            standing(self.git, self.head, mid, self.base, old),
            standing(self.git, self.incoming, mid, self.base, old),
        )
        mine, rest = ({state for _, state in part} for part in decisions)
        try:
            taken = lambda other: self.git.mentions(self.tip, other)  # noqa: E731
            return merge_memory(base, here, there, taken, (mine, rest)), found, decisions
        except InvalidMemory as error:
            name = next(f[0] for f in found if f)
            raise SyncStopped(
                f"{name} was changed on both devices and the two could not be merged ({error}); nothing "
                "was changed. Fix the file on one device, then run personakit sync again"
            ) from None

    def _commits(self, tip: str) -> list[Replayed]:
        if tip not in self._history:
            self._history[tip] = self.git.commits(self.base, tip)
        return self._history[tip]

    def _replay(self, commit: Replayed) -> None:
        """Build commit again on top of the tip, carrying only what the remote did not touch."""
        changes: dict[str, Entry | None] = {}
        places: list[tuple[str, Entry, Memory]] = []
        for path, (old, new) in sorted(commit.changes.items()):
            before, after = self.memory(path, old), self.memory(path, new)
            is_memory = (old is None or before is not None) and (new is None or after is not None)
            if path in self.remote and not (is_memory and self.managed(path, *self.versions(path))):
                continue  # a file the remote changed, not a memory: merged later if this device changed it too
            if not is_memory:
                changes[path] = new  # not a memory, and the remote left it alone
                continue
            target = self.remap.get(path, path)
            if before and after and before.id == after.id:
                if before.id not in self.remote_ids:
                    changes[target] = new
                continue
            if before and before.id not in self.remote_ids:
                changes[target] = None
            if after and new is not None and after.id not in self.remote_ids:
                places.append((path, new, after))
        for path, entry, memory in places:  # after the removals, so a memory may take a freed name
            target = self.remap.get(path, path)
            there = changes[target] if target in changes else self.tree.get(target)
            holder = self.memory(target, there)
            if there is not None and (holder is None or holder.id != memory.id):
                target = self._free(path.removeprefix("memories/").removesuffix(".md"), memory.id, changes)
                self.remap[path] = target
            changes[target] = entry
        self._commit(changes, commit.message, commit)

    def _settle(self, mid: str, notes: list[Note]) -> None:
        """Merge memory mid, changed on both sides, and commit it as one `sync` commit.

        Replays never touch a memory the remote changed, so it is still where the remote has it."""
        merged, found, decided = self._merge(mid)
        if not any(found):
            return  # made and forgotten again on both sides since base: nothing to settle
        old, mine, theirs = found
        changes: dict[str, Entry | None] = {}
        if merged.text is not None:
            moved = mine is not None and (old is None or mine[0] != old[0])  # added or renamed here
            target = (mine if moved else theirs or mine or old)[0]  # type: ignore[index]
            held = self.memory(target, self.tree.get(target))
            if target in self.tree and (held is None or held.id != mid):
                target = self._free(slug(parse_memory(merged.text).text), mid, changes)
            changes[target] = ("100644", self.git.write_blob(merged.text.encode("utf-8")))
        if theirs is not None and theirs[0] not in changes:
            changes[theirs[0]] = None
        if merged.second is not None:
            second = parse_memory(merged.second)
            path = self._free(slug(second.text), second.id, changes)
            changes[path] = ("100644", self.git.write_blob(merged.second.encode("utf-8")))
        notes.extend(merged.notes)
        versions = [merged.text] + [self.git.blob(f[1][1]).decode("utf-8") for f in found if f]
        text = parse_memory(next(v for v in versions if v)).text
        what = "; ".join(_summary(n) for n in merged.notes) or "changed on both devices: merged"
        lines = trailers(decided[0] | decided[1])
        message = f"sync {mid}: {text} ({what})" + (f"\n{lines}" if lines else "")
        # Kept even when it changes no file: this device's decisions, whose commits are not carried over
        self._commit(changes, message, keep_empty=bool(merged.notes or decided[0]))

    # -- helpers ------------------------------------------------------------------------------------
    def _free(self, stem: str, mid: str, changes: dict[str, Entry | None]) -> str:
        taken = self.tree.keys() | {p for p, e in changes.items() if e is not None}
        candidates = [f"memories/{stem}.md", f"memories/{stem}-{mid[2:8]}.md"]
        candidates += (f"memories/{stem}-{mid[2:8]}-{n}.md" for n in range(2, 1000))
        return next(c for c in candidates if c not in taken)

    def _commit(
        self,
        changes: dict[str, Entry | None],
        message: str,
        author: Replayed | None = None,
        keep_empty: bool = False,
    ) -> None:
        changes = {p: e for p, e in changes.items() if self.tree.get(p) != e}
        if not changes and not keep_empty:
            return
        tree = self.git.build_tree(self.tip, changes)
        self.tip = self.git.commit_tree(tree, self.tip, message, author)
        for path, entry in changes.items():
            if entry is None:
                self.tree.pop(path, None)
            else:
                self.tree[path] = entry


def _memory_path(path: str) -> bool:
    return path.startswith("memories/") and plain_name(path.removeprefix("memories/"))


def _summary(note: Note) -> str:
    if note.kind == "decisions":
        return f"{note.here} here, {note.there} on the other device: kept {note.kept}"
    if note.kind == "texts":
        return f"text edited on both devices: the other device's text is now {note.second}"
    if note.kind == "kept":
        if note.here == "forgotten":
            return "forgotten here, changed on the other device: kept"
        return "changed here, forgotten on the other device: kept"
    return f"category {note.here} here, {note.there} on the other device: kept {note.kept}"
