"""`personakit review`: walk the unconfirmed memories in a terminal, oldest first, one key per decision.

Each decision goes through the service, so it is one commit whose diff is that decision. An edit opens
`$VISUAL` or `$EDITOR` on the memory's file and then takes the saved file in like any hand edit (one
commit, "edit m_x: ... (by hand)"); an editor that fails leaves the file as it was. Files can change
under a review (a running server, Obsidian, another terminal): each memory is read again from disk just
before it is shown, and one deleted or decided elsewhere meanwhile is passed over with a word.
"""

from __future__ import annotations

import os
import select
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from contextlib import suppress
from typing import cast

from personakit.core.memory import CATEGORIES, Category, InvalidMemory, Memory, State, parse_memory
from personakit.errors import PersonaKitError
from personakit.owner.audit import local
from personakit.owner.decisions import decide, recategorize
from personakit.service import PersonaKit

KEYS = "a approve · r reject · s restrict · e edit · c category · n skip · q quit · ? help"
HELP = """\
  a  approve: assistants may use it (returned with confirmed: true)
  r  reject: never used; kept in the file so a new proposal of it stays rejected
  s  restrict: kept, never shown to an assistant (only counted as withheld)
  e  edit the file in $VISUAL or $EDITOR; the saved file is committed as your edit
  c  change its category
  n  skip it for now (also space or Enter)
  q  quit (also Esc or Ctrl-D); what you decided so far is committed"""
_DECISIONS: dict[str, State] = {"a": "approved", "r": "rejected", "s": "restricted"}


class Review:
    def __init__(self, kit: PersonaKit, key: Callable[[], str], say: Callable[[str], None]) -> None:
        self.kit = kit
        self.key = key
        self.say = say
        self.done: Counter[str] = Counter()

    def run(self) -> int:
        queue = sorted(
            (h.memory for h in self.kit.index.all() if h.memory.state == "unconfirmed"),
            key=lambda m: (m.created, m.name),
        )
        if not queue:
            self.say("Nothing to review: no memory is unconfirmed.")
            return 0
        self.say(f"{len(queue)} unconfirmed, oldest first.  Keys: {KEYS}")
        for position, queued in enumerate(queue, 1):
            memory = self._current(queued)
            if memory is not None and not self._decide(memory, position, len(queue)):
                break
        self.say(self._summary())
        return 0

    # -- one memory -----------------------------------------------------------------------------------
    def _decide(self, memory: Memory, position: int, total: int) -> bool:
        """Ask about one memory until it is decided or skipped; False when the owner quits."""
        self._show(memory, position, total)
        while True:
            key = self.key()
            if key in _DECISIONS:
                self._apply(memory, _DECISIONS[key])
                return True
            if key in ("n", " ", "\r", "\n"):
                self.say("skipped")
                self.done["skipped"] += 1
                return True
            if key in ("q", "\x1b", "\x04", ""):
                self.say("quit")
                return False
            if key == "e":
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
            f"[{position}/{total}] {memory.id}  ({memory.category})",
            f"  {memory.text}",
            f"  proposed by {memory.proposed_by or 'unknown'}, {local(memory.created) if memory.created else 'at an unknown time'}",
        ]
        lines += [f"  evidence: {quote!r}" for quote in memory.evidence] or ["  evidence: none"]
        lines += [f"  note: {problem}" for problem in memory.problems]
        lines.append("  decide [a/r/s/e/c/n/q, ? for help]: ")
        self.say("\n".join(lines))

    def _apply(self, memory: Memory, state: State) -> None:
        try:
            _, changed = decide(self.kit, memory.name, state)
        except PersonaKitError as error:
            self._gone_or(memory, error)
            return
        self.say(state if changed else f"was already {state}")
        self.done[state] += 1

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
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        path = self.kit.files.path(memory.name)
        if not editor:
            self.say(
                f"\n  No editor: neither $VISUAL nor $EDITOR is set. Set one (for example: export EDITOR=nano) "
                f"or open {path} in any editor. Nothing changed.\ndecide: "
            )
            return memory
        try:
            before = self.kit.files.read(memory.name)
        except OSError:
            self._gone(memory)
            return None
        try:
            code = subprocess.call([*shlex.split(editor), str(path)])
        except OSError as error:
            self.say(
                f"\n  Could not start the editor {editor!r}: {error.strerror or error}. Nothing changed.\ndecide: "
            )
            return memory
        if code != 0:
            self._restore(memory, before)
            self.say(f"\n  The editor {editor!r} failed (exit status {code}). Nothing changed.\ndecide: ")
            return memory
        self.kit.sync([memory.name])
        return self._after_edit(memory, before)

    def _after_edit(self, memory: Memory, before: str) -> Memory | None:
        try:
            raw = self.kit.files.read(memory.name)
        except OSError:
            self.say(f"\n  memories/{memory.name} was deleted in the editor; committed as forgetting it.")
            self.done["forgotten"] += 1
            return None
        if raw == before:
            self.say("unchanged\ndecide: ")
            return memory
        try:
            edited = parse_memory(raw, memory.name)
        except InvalidMemory as error:
            where = f"memories/{memory.name}" + (f":{error.line}" if error.line else "")
            self.say(
                f"\n  {where} cannot be read now ({error}); it is not committed until it can be: "
                "press e to fix it, or n to leave it for later (personakit doctor lists it).\ndecide: "
            )
            return memory
        if f"memories/{memory.name}" in self.kit.history.changed("memories"):
            self.say(
                "\n  Your edit is saved but not committed: it holds something shaped like a password or key. "
                "Remove it (press e) and it will be."
            )
        else:
            self.say("\n  edited (committed as your edit)")
        self.done["edited"] += 1
        if edited.state != "unconfirmed":
            self.say(f"  now {edited.state}")
            return None
        return edited

    def _restore(self, memory: Memory, before: str) -> None:
        with suppress(OSError), self.kit.files.lock():
            if self.kit.files.read(memory.name) != before:
                self.kit.files.write(memory.name, before)

    # -- files that change under the review ---------------------------------------------------------
    def _current(self, queued: Memory) -> Memory | None:
        """The memory as its file says now; None (with a word) if it is gone or decided elsewhere."""
        try:
            memory = parse_memory(self.kit.files.read(queued.name), queued.name)
        except FileNotFoundError:
            self._gone(queued)
            return None
        except (InvalidMemory, OSError, UnicodeError):
            self.say(f"\nmemories/{queued.name} cannot be read now; skipped (personakit doctor says why)")
            return None
        if memory.state != "unconfirmed":
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
