"""Accepting what another device's stranger changed: the owner's side of `vault/trust.py`.

A held memory's file says what the stranger's version had, on one front-matter line:
`held: "approved by Mallory <mallory@evil.example> (1a2b3c4d5e6f), kept restricted"`. Accepting it is
the owner's decision: one commit, `accept m_x: text (approved, from Mallory <mallory@evil.example>)`,
that gives the memory that state and drops the line; the identity becomes one this device knows (`vault/identities.py`), so its later
changes apply at once. `personakit sync --accept` accepts every held memory (after the owner read the
list the previous sync printed); `personakit review` asks about each first. Any other decision on the
memory (approve, reject, restrict) ends the hold as well, without trusting anyone; one made by hand in
the file leaves the line, whose `kept` state then no longer matches: such a hold is stale, and skipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from personakit.core.memory import STATES, InvalidMemory, Memory, key_value, parse_memory, set_state
from personakit.errors import PersonaKitError
from personakit.owner.editing import QUIT_KEYS, SKIP_KEYS
from personakit.vault import identities
from personakit.vault.service import PersonaKit
from personakit.vault.trust import HELD, release
from personakit.vault.writing import write

_LINE = re.compile(
    r"^(?P<state>[a-z]+) by (?P<who>.*<(?P<email>[^<>]*)>) \((?P<commit>[0-9a-f]+)\), kept (?P<kept>[a-z]+)$"
)


@dataclass(frozen=True)
class Held:
    memory: Memory
    state: str  # what the stranger's version said
    who: str  # "Name <email>"
    email: str

    def sentence(self) -> str:
        m = self.memory
        return f'{m.id} "{m.text}": {self.state} by {self.who}; held {m.state}'


def held(kit: PersonaKit) -> list[Held]:
    """Every held memory in the vault, by file name."""
    found = []
    for name in sorted(kit.files.list()):
        try:
            raw = kit.files.read(name)
            if "\nheld:" not in raw:
                continue
            memory = parse_memory(raw, name)
            line = key_value(raw, HELD)
        except (InvalidMemory, OSError, UnicodeError):
            continue
        parsed = _LINE.match(line or "")
        if parsed and parsed["state"] in STATES and parsed["kept"] == memory.state:  # else decided since
            found.append(Held(memory, parsed["state"], parsed["who"], parsed["email"]))
    return found


def accept(kit: PersonaKit, one: Held) -> None:
    """Give the memory the state the stranger's version had, drop the hold, trust the identity."""
    kit.require_writable()
    with kit.files.lock():
        raw = kit.files.read(one.memory.name)
        if key_value(raw, HELD) is None:
            raise PersonaKitError(f"{one.memory.id} is no longer held; nothing was changed")
        new = release(set_state(raw, one.state))
        message = f"accept {one.memory.id}: {one.memory.text} ({one.state}, from {one.who})"
        write(kit, [(one.memory.name, raw, new)], message)
        identities.trust(kit.history, {one.email})


def accept_all(kit: PersonaKit) -> list[str]:
    """Accept every held memory; a sentence for each."""
    said = []
    for one in held(kit):
        accept(kit, one)
        said.append(f'{one.memory.id} "{one.memory.text}": {one.state}, from {one.who}')
    return said


def review_held(kit: PersonaKit, key: Callable[[], str], say: Callable[[str], None]) -> bool:
    """Ask about each held memory first (review's opening); False when the owner quits."""
    waiting = held(kit)
    if not waiting:
        return True
    say(f"{len(waiting)} held: another device's change that an identity new to this vault made.")
    for one in waiting:
        say(f"\n  {one.sentence()}\n  y accept it (and trust {one.who}) · n keep it held · q quit: ")
        while True:
            pressed = key()
            if pressed == "y":
                accept(kit, one)
                say(f"accepted: {one.state}")
                break
            if pressed in SKIP_KEYS:
                say("kept held")
                break
            if pressed in QUIT_KEYS:
                say("quit")
                return False
    return True
