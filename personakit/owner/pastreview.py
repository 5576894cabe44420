"""Review's last part: approved memories whose `until` has gone by, offered for rejecting.

A past memory is still returned by a read that matches it (marked `"past": true`, after current ones);
the owner may keep it so (a finished trip is still history) or reject it. Unconfirmed past memories are
in review's main walk, their `until` shown as past. Each memory is read again from disk before it is
shown; one decided or changed elsewhere meanwhile is passed over.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import date

from personakit.core.memory import InvalidMemory, Memory, parse_memory
from personakit.core.when import is_past
from personakit.errors import PersonaKitError
from personakit.owner.decisions import decide
from personakit.owner.editing import QUIT_KEYS
from personakit.vault.service import PersonaKit

KEYS = "r reject · n keep · q quit"


def past_memories(kit: PersonaKit, today: date) -> list[Memory]:
    """Approved memories whose until has passed, the longest past first."""
    found = [
        h.memory for h in kit.index.all() if h.memory.state == "approved" and is_past(h.memory.until, today)
    ]
    return sorted(found, key=lambda m: (m.until, m.created, m.name))


def walk_past(
    kit: PersonaKit,
    memories: list[Memory],
    key: Callable[[], str],
    say: Callable[[str], None],
    done: Counter[str],
) -> bool:
    """Offer each past memory for rejecting; False when the owner quits."""
    today = date.today()
    say(f"\n{len(memories)} approved but past (their until has gone by).  Keys: {KEYS}")
    for position, queued in enumerate(memories, 1):
        try:
            memory = parse_memory(kit.files.read(queued.name), queued.name)
        except (OSError, UnicodeError, InvalidMemory):
            continue
        if memory.state != "approved" or not is_past(memory.until, today):
            continue
        about = f"  about {', '.join(memory.about)}\n" if memory.about else ""
        say(f"\n[past {position}/{len(memories)}] {memory.id}  until {memory.until}\n  {memory.text}\n{about}"
            "  reject it? [r/n/q]: ")  # fmt: skip
        pressed = key()
        if pressed in QUIT_KEYS:
            say("quit")
            return False
        if pressed != "r":
            say("kept")
            continue
        try:
            decide(kit, memory.name, "rejected")
        except PersonaKitError as error:
            say(f"\n  Could not do that: {error}")
            continue
        say("rejected")
        done["rejected"] += 1
    return True
