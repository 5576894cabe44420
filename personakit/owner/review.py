"""`personakit review`: walk the unconfirmed memories in a terminal, oldest first, one key per decision.

Each decision goes through the service, so it is one commit whose diff is that decision. An edit opens
`$VISUAL` or `$EDITOR` on the memory's file and then takes the saved file in like any hand edit (one
commit, "edit m_x: ... (by hand)"); an editor that fails leaves the file as it was (`edit_in_editor`,
which `personakit edit` uses too). Files can change under a review (a running server, Obsidian, another
terminal): each memory is read again from disk just before it is shown, and one deleted or decided
elsewhere meanwhile is passed over with a word.

A correction is shown beside the memory it replaces (both texts, both quotes), and approving it retires
that one in the same commit. A near-duplicate offers `m`, merging it into the memory it repeats: one it
was marked `similar` to when proposed or imported, or one the vault holds now, in any state. The memories
a proposal likely clashes with are shown under it, each with its reason.

"Oldest first" is by `created`, and by commit order among memories created in the same second. After the
unconfirmed ones, review walks the near-duplicates `personakit similar` lists that are already decided
(two approved memories that say the same): each newer one is shown with `m` to merge it into the older.
Last, approved memories whose `until` has gone by are offered for rejecting (`owner.pastreview`).
Ctrl-C ends a review as `q` does: what was decided is committed, and the summary is said.
"""

from __future__ import annotations

import os
import select
import sys
from collections import Counter
from collections.abc import Callable
from datetime import date
from typing import cast

from personakit.core.memory import CATEGORIES, Category, InvalidMemory, Memory, State, parse_memory
from personakit.errors import PersonaKitError
from personakit.owner import pending
from personakit.owner.audit import local, who_and_when_lines
from personakit.owner.corrections import current, likely_clashes, merge, merge_targets, oldest_first
from personakit.owner.decisions import decide, recategorize
from personakit.owner.editing import QUIT_KEYS, SKIP_KEYS, edit_in_editor
from personakit.owner.held import review_held
from personakit.owner.pastreview import past_memories, walk_past
from personakit.vault.service import PersonaKit

KEYS = "a approve · r reject · s restrict · e edit · c category · m merge · n skip · q quit · ? help"
HELP = """\
  a  approve: assistants may use it (returned with confirmed: true)
  r  reject: never used; kept in the file so a new proposal of it stays rejected
  s  restrict: kept, never shown to an assistant (only counted as withheld)
  e  edit the file in $VISUAL or $EDITOR; the saved file is committed as your edit
  c  change its category
  m  merge it into the near-duplicate shown: its quotes move there, and this one is removed
  n  skip it for now (also space or Enter)
  q  quit (also Esc or Ctrl-D); what you decided so far is committed"""
_DECISIONS: dict[str, State] = {"a": "approved", "r": "rejected", "s": "restricted"}


class Review:
    def __init__(self, kit: PersonaKit, key: Callable[[], str], say: Callable[[str], None]) -> None:
        self.kit = kit
        self.key = key
        self.say = say
        self.done: Counter[str] = Counter()
        self.targets: list[Memory] = []  # the near-duplicates shown with the memory, as they were shown
        self.also: list[str] = []  # near-duplicates to offer besides those the memory's text finds
        self.shown: set[str] = set()  # ids walked as unconfirmed

    def run(self) -> int:
        """Walk the held changes, the unconfirmed memories, then the decided near-duplicates. 0, or 130
        after Ctrl-C (the summary is said either way)."""
        try:
            # a stranger's changes first: they wait on the owner (owner/held.py)
            if (
                review_held(self.kit, self.key, self.say)
                and self._walk_unconfirmed()
                and self._walk_duplicates()
            ):
                past = past_memories(self.kit, date.today())
                if past:
                    walk_past(self.kit, past, self.key, self.say, self.done)
                # then the quotes proposed for memories already decided (`owner.pending`)
                pending.walk(self.kit, self.key, self.say, self.done)
        except KeyboardInterrupt:
            self.say("\ninterrupted")
            self.say(self._summary())
            return 130
        self.say(self._summary())
        return 0

    def _walk_unconfirmed(self) -> bool:
        """False when the owner quit."""
        queue = oldest_first(
            self.kit, [h.memory for h in self.kit.index.all() if h.memory.state == "unconfirmed"]
        )
        if not queue:
            self.say("Nothing to review: no memory is unconfirmed.")
            return True
        self.say(f"{len(queue)} unconfirmed, oldest first.  Keys: {KEYS}")
        for position, queued in enumerate(queue, 1):
            self.shown.add(queued.id)
            memory = self._current(queued)
            if memory is not None and not self._decide(memory, position, len(queue)):
                return False
        return True

    def _walk_duplicates(self) -> bool:
        """The newer memories of each group of decided near-duplicates, each offered to merge into the
        others (the oldest first). False when the owner quit."""
        from personakit.owner.corrections import vault_similar

        queue: list[tuple[Memory, list[str]]] = []
        for group in vault_similar(self.kit):  # each oldest first: a newer decided one may go into an older
            queue += [
                (m, [o.id for o in group if o.id != m.id])
                for m in group[1:]
                if m.state != "unconfirmed" and m.id not in self.shown
            ]
        if not queue:
            return True
        count = len(queue)
        self.say(
            f"\n{count} decided memor{'ies repeat' if count != 1 else 'y repeats'} an older one "
            "(personakit similar); m merges it into the older."
        )
        for position, (queued, others) in enumerate(queue, 1):
            memory = self._current(queued, decided=True)
            if memory is None:
                continue
            self.also = others
            if not self._decide(memory, position, count):
                return False
        return True

    # -- one memory -----------------------------------------------------------------------------------
    def _decide(self, memory: Memory, position: int, total: int) -> bool:
        """Ask about one memory until it is decided or skipped; False when the owner quits."""
        self._show(memory, position, total)
        while True:
            key = self.key()
            if key in _DECISIONS:
                self._apply(memory, _DECISIONS[key])
                return True
            if key in SKIP_KEYS:
                self.say("skipped")
                self.done["skipped"] += 1
                return True
            if key in QUIT_KEYS:
                self.say("quit")
                return False
            if key == "m" and self.targets:
                if self._merge(memory):
                    return True
            elif key == "e":
                edited = self._edit(memory)
                if edited is None:
                    return True  # gone, or decided in the editor
                if edited is not memory:  # changed: show it as it is now
                    memory = edited
                    self._show(memory, position, total)
            elif key == "c":
                memory = self._categorize(memory)
            elif key in ("?", "h"):
                self.say(f"\n{HELP}\ndecide: ")
            else:
                self.say(f"\n  {KEYS}\ndecide: ")

    def _show(self, memory: Memory, position: int, total: int) -> None:
        lines = [
            "",
            f"[{position}/{total}] {memory.id}  ({memory.category}"
            + (f", {memory.state})" if memory.state != "unconfirmed" else ")"),
            f"  {memory.text}",
            f"  proposed by {memory.proposed_by or 'unknown'}, {local(memory.created) if memory.created else 'at an unknown time'}",
        ]
        lines += [f"  {line}" for line in who_and_when_lines(memory)]
        lines += [f"  evidence: {quote!r}" for quote in memory.evidence] or ["  evidence: none"]
        lines += [f"  note: {problem}" for problem in memory.problems]
        self.targets = merge_targets(self.kit, memory, self.also)
        lines += self._relations(memory)
        keys = "a/r/s/e/c/m/n/q" if self.targets else "a/r/s/e/c/n/q"
        lines.append(f"  decide [{keys}, ? for help]: ")
        self.say("\n".join(lines))

    def _relations(self, memory: Memory) -> list[str]:
        """What the memory replaces, what it repeats, and what it likely clashes with, as lines."""
        lines = []
        if memory.replaces:
            old = current(self.kit, memory.replaces)
            if old is None:
                lines.append(f"  replaces {memory.replaces}, which is no longer in the vault")
            else:
                lines.append(f"  replaces {old.id} ({old.state}): {old.text}")
                lines += [f"    its evidence: {quote!r}" for quote in old.evidence]
                if old.replaced_by and old.replaced_by != memory.id:
                    lines.append(f"    already replaced by {old.replaced_by}: approving this one leaves it")
                elif old.state in ("approved", "unconfirmed"):
                    lines.append(f"    approving this retires it (rejected, replaced by {memory.id})")
                else:
                    lines.append(f"    it is {old.state}: approving this one leaves it as it is")
        for other in self.targets:
            lines.append(f"  near-duplicate of {other.id} ({other.state}): {other.text}")
            lines += [f"    its evidence: {quote!r}" for quote in other.evidence]
            lines.append(f"    m: merge into {other.id} (this one's quotes move there; this one is removed)")
        for other, reason in likely_clashes(self.kit, memory):
            lines.append(f"  clashes with {other.id} ({other.state}): {other.text}")
            lines.append(f"    {reason}")
        return lines

    def _apply(self, memory: Memory, state: State) -> None:
        notes: list[str] = []
        try:
            _, changed = decide(self.kit, memory.name, state, notes.append)
        except PersonaKitError as error:
            self._gone_or(memory, error)
            return
        self.say(state if changed else f"was already {state}")
        for note in notes:
            self.say(f"  {note}")
        self.done[state] += 1

    def _merge(self, memory: Memory) -> bool:
        """Merge memory into (one of) its near-duplicates as shown; True when it was merged."""
        targets = self.targets
        target = targets[0]
        if len(targets) > 1:
            menu = "  ".join(f"{n} {t.id}" for n, t in enumerate(targets, 1))
            self.say(f"\n  {menu}\nmerge into (1-{len(targets)}, any other key: none): ")
            key = self.key()
            if not (key.isdigit() and 1 <= int(key) <= len(targets)):
                self.say("not merged\ndecide: ")
                return False
            target = targets[int(key) - 1]
        try:
            merged = merge(self.kit, memory, target.id, target.state)
        except PersonaKitError as error:
            self.say(f"\n  Could not merge: {error}.\ndecide: ")
            return False
        self.say(f"merged into {merged.id}: {merged.text}")
        self.done["merged"] += 1
        return True

    def _categorize(self, memory: Memory) -> Memory:
        menu = "  ".join(f"{n} {c}" for n, c in enumerate(CATEGORIES, 1))
        self.say(f"\n  {menu}\ncategory (1-{len(CATEGORIES)}, any other key keeps {memory.category}): ")
        key = self.key()
        if not (key.isdigit() and 1 <= int(key) <= len(CATEGORIES)):
            self.say(f"kept {memory.category}\ndecide: ")
            return memory
        category = cast(Category, CATEGORIES[int(key) - 1])
        try:
            updated, changed = recategorize(self.kit, memory.name, category)
        except PersonaKitError as error:
            self._gone_or(memory, error)
            return memory
        if changed:
            self.done["recategorized"] += 1
        self.say(f"{updated.category}\ndecide [a/r/s/e/c/n/q]: ")
        return updated

    def _edit(self, memory: Memory) -> Memory | None:
        """Open the editor; the memory as saved, or None when it is gone or no longer unconfirmed."""
        outcome, edited = edit_in_editor(self.kit, memory, self.say, again="press e")
        if outcome == "deleted":
            self.done["forgotten"] += 1
        if edited is None:
            return None
        if outcome == "edited":
            self.done["edited"] += 1
            if edited.state != "unconfirmed":
                self.say(f"  now {edited.state}")
                return None
        if outcome != "edited":
            self.say("decide: ")
        return edited

    # -- files that change under the review ---------------------------------------------------------
    def _current(self, queued: Memory, decided: bool = False) -> Memory | None:
        """The memory as its file says now; None (with a word) if it is gone or decided elsewhere (or, for
        a decided one, decided otherwise)."""
        try:
            memory = parse_memory(self.kit.files.read(queued.name), queued.name)
        except FileNotFoundError:
            self._gone(queued)
            return None
        except (InvalidMemory, OSError, UnicodeError):
            self.say(f"\nmemories/{queued.name} cannot be read now; skipped (personakit doctor says why)")
            return None
        if memory.state != queued.state or (memory.state != "unconfirmed" and not decided):
            self.say(f"\n{memory.id} was {memory.state} meanwhile; passed over")
            return None
        return memory

    def _gone(self, memory: Memory) -> None:
        self.kit.sync([memory.name])  # the deletion is committed as the owner's, so the trail has no hole
        self.say(f"\nmemories/{memory.name} ({memory.id}) was deleted meanwhile; skipped")

    def _gone_or(self, memory: Memory, error: PersonaKitError) -> None:
        if self.kit.files.stat(memory.name) is None:
            self._gone(memory)
        else:
            self.say(f"\n  Could not do that: {error}")

    def _summary(self) -> str:
        decided = [f"{n} {what}" for what, n in self.done.items() if n and what != "skipped"]
        left = sum(1 for h in self.kit.index.all() if h.memory.state == "unconfirmed")
        said = ", ".join(decided) if decided else "nothing decided"
        return f"\nDone: {said}; {left} still unconfirmed."


def read_key() -> str:
    """One key press from the terminal, without waiting for Enter ('' at end of input)."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        data = os.read(fd, 1)
        if data == b"\x1b":  # Esc alone quits; an arrow key (Esc [ A) is just a key we do not use
            while select.select([fd], [], [], 0.03)[0]:
                data += os.read(fd, 16)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    return data.decode("utf-8", "replace").lower()


def require_terminal() -> None:
    if not sys.stdin.isatty():
        raise PersonaKitError(
            "review needs a terminal to read your key presses; in a script, use "
            "'personakit list --state unconfirmed' and 'personakit approve|reject|restrict ID'"
        )


def review(kit: PersonaKit) -> int:
    """Review in this process's terminal."""
    require_terminal()

    def say(text: str) -> None:
        end = "" if text.endswith(": ") else "\n"
        print(text, end=end, flush=True)

    return Review(kit, read_key, say).run()
