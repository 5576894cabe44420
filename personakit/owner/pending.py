"""Quotes waiting for the owner: `personakit review`'s second part, after the unconfirmed memories.

An assistant sees only quotes the owner has seen (`core.evidence`): a quote proposed for a memory the
owner already decided about waits in the file's `pending_evidence`. Review shows each such memory with
its evidence and the waiting quotes; `a` accepts them (moved to `evidence`: assistants see them from now
on), `d` drops them, `n` skips, `q` quits. Each answer is one commit whose diff is that move, in every
file of the memory (copies included), read again from disk under the vault lock.
"""

from __future__ import annotations

from collections.abc import Callable

from personakit.core.evidence import accept_pending, drop_pending
from personakit.core.memory import Memory
from personakit.errors import PersonaKitError
from personakit.owner.editing import QUIT_KEYS, SKIP_KEYS
from personakit.vault.copies import on_disk
from personakit.vault.service import PersonaKit
from personakit.vault.writing import write

KEYS = "a accept · d drop · n skip · q quit"


def waiting(kit: PersonaKit) -> list[Memory]:
    """The memories with quotes waiting for the owner, oldest first."""
    found = {h.memory.id: h.memory for h in kit.index.all() if h.memory.pending}
    return sorted(found.values(), key=lambda m: (m.created, m.name))


def settle(kit: PersonaKit, memory: Memory, accept: bool) -> int:
    """Accept (or drop) the memory's waiting quotes in each of its files; one commit. How many quotes."""
    kit.require_writable()
    with kit.files.lock():
        files, _ = on_disk(kit, memory.id)
        changes = []
        quotes = 0
        for there, raw in files:
            if there.pending:
                quotes += len(there.pending)
                changes.append((there.name, raw, accept_pending(raw, there) if accept else drop_pending(raw)))
        if not changes:
            return 0
        verb = "accept" if accept else "drop"
        write(
            kit, changes, f"{verb} evidence for {memory.id}: {memory.text} ({quotes} quote(s) proposed later)"
        )
    return quotes


def walk(kit: PersonaKit, key: Callable[[], str], say: Callable[[str], None], done: dict[str, int]) -> bool:
    """Ask about each memory with waiting quotes; False when the owner quits."""
    queue = waiting(kit)
    if not queue:
        return True
    say(f"\n{len(queue)} with quotes proposed after your decision, oldest first.  Keys: {KEYS}")
    for position, memory in enumerate(queue, 1):
        lines = ["", f"[{position}/{len(queue)}] {memory.id}  ({memory.state})", f"  {memory.text}"]
        lines += [f"  evidence: {quote!r}" for quote in memory.evidence] or ["  evidence: none"]
        lines += [f"  proposed later, not shown to assistants: {quote!r}" for quote in memory.pending]
        lines.append("  accept these quotes? [a/d/n/q]: ")
        say("\n".join(lines))
        while True:
            pressed = key()
            if pressed in ("a", "d"):
                try:
                    count = settle(kit, memory, accept=pressed == "a")
                except PersonaKitError as error:
                    say(f"not changed: {error}")
                    break
                word = "accepted" if pressed == "a" else "dropped"
                say(f"{word} ({count})" if count else "already settled elsewhere")
                done[f"quotes {word}"] = done.get(f"quotes {word}", 0) + 1
                break
            if pressed in SKIP_KEYS:
                say("skipped")
                break
            if pressed in QUIT_KEYS:
                say("quit")
                return False
            say(f"\n  {KEYS}\naccept these quotes? ")
    return True
