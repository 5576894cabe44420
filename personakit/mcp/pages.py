"""What the resources show, made once the vault is open: `resources.py` registers them, light, so the
server answers its host's handshake before these modules (the service, masking, the audit) are imported.

What leaves the process is made by `core.masking`. The history lines say what happened and who did it
(an assistant by its host's name, the owner as "the owner"), never what a commit's subject says: a
subject carries the memory's text as it was then, which the owner may have edited away, possibly while
the memory was restricted. Every resource read is one line in the read ledger, as a tool read is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, date
from functools import partial

from personakit.core.masking import PROFILE_MOST_CHARS, masked_names, present_detail, present_profile
from personakit.core.memory import VISIBLE_STATES, Memory
from personakit.core.people import clean_name, key
from personakit.core.when import is_past
from personakit.core.words import words
from personakit.owner.audit import Event, event
from personakit.vault.copies import effective
from personakit.vault.service import PersonaKit, now

_ID = re.compile(r"m_[0-9a-f]{12}")


# -- personakit://memory/{id} -------------------------------------------------------------------------
def memory_page(kit: PersonaKit, host: str, uri: str, ref: str) -> str | None:
    """The memory's JSON, or None for an id an assistant may not see (or none at all)."""
    memory = visible_memory(kit, ref)
    record(kit, host, uri, [memory.id] if memory else [])
    if memory is None:
        return None
    detail = present_detail(memory, one_liners(history(kit, memory)), date.today())
    return json.dumps(detail, ensure_ascii=False, indent=2)


def visible_memory(kit: PersonaKit, ref: str) -> Memory | None:
    """The memory with exactly this id, as its file says now, when an assistant may see it. A memory
    with two files (a copy made by hand) is visible only when every copy is: the most private one wins."""
    if not _ID.fullmatch(ref):
        return None
    kit.wait_until_synced()
    copies = [kit.current(hit) for hit in kit.indexed(lambda: kit.index.by_id(ref))]
    found = [m for m in copies if m is not None and m.id == ref]
    if not found or any(m.state not in VISIBLE_STATES for m in found):
        return None
    return found[0]


def history(kit: PersonaKit, memory: Memory) -> list[Event]:
    """The commits whose message names the memory's id, oldest first: every commit PersonaKit makes does
    (proposals, decisions, hand edits it takes in, imports). Not `owner.audit.memory_history`, which also
    follows the file through git's rename detection: limiting `git log` to a path diffs every commit's
    tree, ~2.7 s of CPU at 10k commits, while searching messages alone took 0.05 s."""
    return [event(c) for c in reversed(kit.history.commits("--fixed-strings", f"--grep={memory.id}"))]


def one_liners(events: Iterable[Event]) -> list[str]:
    """'2026-11-12 proposed by claude-desktop', '2026-11-13 approved by the owner': what happened, when
    (UTC date) and who; never a commit's subject."""
    lines = []
    for e in events:
        what = e.what
        if what == "commit":
            what = "imported" if e.subject.startswith("import ") else "changed with git"
        who = e.who.removesuffix(" (assistant)") if e.who.endswith(" (assistant)") else "the owner"
        lines.append(f"{e.when.astimezone(UTC).date().isoformat()} {what} by {who}")
    return lines


# -- personakit://profile -----------------------------------------------------------------------------
def profile_page(kit: PersonaKit, host: str, uri: str) -> str:
    kit.wait_until_synced()
    total = kit.indexed(lambda: kit.index.count("approved"))
    wanted = 200  # more only while they all fit: an entry takes at least 4 characters
    while True:
        hits = kit.indexed(partial(kit.index.newest, "approved", wanted))
        # The most private copy wins here too: a memory with a restricted copy is not in the profile.
        approved = [m for m in effective(kit, hits) if m is not None and m.state == "approved"]
        text, ids = present_profile(approved, total, PROFILE_MOST_CHARS, date.today())
        if len(ids) < len(approved) or len(hits) < wanted or wanted >= PROFILE_MOST_CHARS // 4:
            break
        wanted *= 4
    record(kit, host, uri, ids)
    return text


# -- personakit://about/{name} -------------------------------------------------------------------------
def about_text(kit: PersonaKit, host: str, uri: str, name: str) -> str | None:
    """The page of one name, or None when it shows nothing (as for a name nobody uses: no oracle)."""
    text, ids = about_page(kit, name)
    record(kit, host, uri, ids)
    return text if ids else None


def about_page(kit: PersonaKit, name: str) -> tuple[str, list[str]]:
    """The page of one name or alias, and the ids it shows (none: nothing approved and current)."""
    wanted = clean_name(name)
    person = next((p for p in kit.people.all() if key(wanted) in p.name_keys()), None)
    keys = person.name_keys() if person else {key(wanted)}
    terms = list(dict.fromkeys(w for n in (person.names() if person else (wanted,)) for w in words(n)))
    if not terms:
        return "", []
    kit.wait_until_synced()
    today = date.today()
    hits = kit.indexed(lambda: kit.index.search(terms, None))  # visible memories only: never the private
    found: dict[str, Memory] = {}
    for memory in map(kit.current, hits):
        if memory is not None and memory.state == "approved" and {key(n) for n in memory.about} & keys:
            found.setdefault(memory.id, memory)
    if not any(not is_past(m.until, today) for m in found.values()):
        return "", []
    shown = masked_names(person.names() if person else (wanted,))
    also = f" (also called {', '.join(shown[1:])})" if len(shown) > 1 else ""
    title = f"# About {shown[0]}\n\nWhat the user approved in PersonaKit about {shown[0]}{also}."
    return present_profile(list(found.values()), None, PROFILE_MOST_CHARS, today, title)


def record(kit: PersonaKit, host: str, uri: str, ids: list[str]) -> None:
    """One line in the read ledger: which resource a host opened and which memories it was given."""
    if kit.writable:
        kit.ledger.record({"at": now(), "host": host, "resource": uri, "ids": ids, "withheld": 0})
