"""What `--json` prints, for scripts: plain dictionaries in shapes that stay stable (docs/cli.md shows them).

A memory is `{"id", "text", "category", "state", "file", "created", "proposed_by", "evidence",
"pending_evidence", "problems", "about", "said", "until"}` (`about` a list of names, `said` a day, `until` a day or null); `show` adds `"history"` (events, oldest first) and `"last_read"`. An event (a commit) is
`{"at", "who", "what", "memory", "subject", "commit"}`; a read is `{"at", "host", "question", "given",
"withheld"}` with `given` a list of `{"id", "text"}` (`text` null for a memory that is gone). Times are ISO
8601. Keys may be added later; none is removed or changes meaning. The owner's own command line shows
every state, restricted and rejected included: nothing here goes to an assistant.
"""

from __future__ import annotations

from typing import Any

from personakit.core.memory import Memory
from personakit.core.when import said_of
from personakit.owner.audit import Event
from personakit.vault.service import PersonaKit


def memory_record(memory: Memory) -> dict[str, Any]:
    return {
        "id": memory.id,
        "text": memory.text,
        "category": memory.category,
        "state": memory.state,
        "file": f"memories/{memory.name}",
        "created": memory.created or None,
        "proposed_by": memory.proposed_by or None,
        "evidence": list(memory.evidence),
        "pending_evidence": list(memory.pending),
        "problems": list(memory.problems),
        **who_and_when(memory),
    }


def who_and_when(memory: Memory) -> dict[str, Any]:
    """`about` (names), `said` (YYYY-MM-DD, its created day when the file has none) and `until` (or null)."""
    return {
        "about": list(memory.about),
        "said": said_of(memory.said, memory.created) or None,
        "until": memory.until or None,
    }


def event_record(event: Event) -> dict[str, Any]:
    return {
        "at": event.when.isoformat(),
        "who": event.who,
        "email": event.email,
        "new_identity": event.new,
        "what": event.what,
        "memory": event.memory_id,
        "subject": event.subject,
        "commit": event.sha,
    }


def texts_of(kit: PersonaKit, ids: list[str]) -> dict[str, str]:
    """The text of each id that a memory still has (any state: these are the owner's eyes only)."""
    found = {}
    for mid in dict.fromkeys(ids):
        hits = kit.indexed(lambda mid=mid: kit.index.by_id(mid))  # type: ignore[misc]
        if hits:
            found[mid] = hits[0].memory.text
    return found


def read_record(entry: dict[str, Any], texts: dict[str, str]) -> dict[str, Any]:
    ids = [str(i) for i in entry.get("ids") or []]
    return {
        "at": entry.get("at"),
        "host": entry.get("host"),
        "question": entry.get("question"),
        "given": [{"id": mid, "text": texts.get(mid)} for mid in ids],
        "withheld": entry.get("withheld", 0),
    }
