"""`personakit add`: a memory in the owner's own words, approved at once, in one commit signed by them.

The checks a proposal gets apply (empty, over 300 characters, shaped like a password or key), and the
quote is optional: the owner needs no evidence of what they say about themselves. The same memory again
(the same text, as a proposal counts it) is never a second file:

- an unconfirmed one (an assistant proposed it) is approved: the owner just said it is true;
- an approved one stays as it is (a new quote is added to its evidence);
- a rejected or restricted one is left alone and the owner is told: making it visible is a decision
  of its own (`personakit approve`), not a side effect of typing it again.
"""

from __future__ import annotations

from typing import Literal

from personakit.core.evidence import add_evidence
from personakit.core.memory import MAX_TEXT, Memory, parse_memory, render_memory, set_state
from personakit.core.naming import memory_id, normalize, slug
from personakit.core.proposal import Reason, check_proposal
from personakit.errors import PersonaKitError
from personakit.vault.service import PersonaKit, now
from personakit.vault.writing import write

OWNER = "owner"  # proposed_by of the owner's own memories
Outcome = Literal["added", "approved", "evidence", "unchanged"]
REFUSED: dict[Reason, str] = {
    "empty_text": "the memory's text is empty",
    "too_long": f"the text is over {MAX_TEXT} characters; say it in fewer",
    "credential_shape": "the text or the quote looks like a password, key or token, which PersonaKit never stores",
    "empty_quote": "the quote is empty; leave --quote out, or give your own words",
}


def add(kit: PersonaKit, text: str, quote: str | None, category: str) -> tuple[Memory, Outcome]:
    """Store the owner's memory (approved), or approve the same one an assistant proposed; one commit."""
    checked = check_proposal(text, text if quote is None else quote, category)
    if isinstance(checked, str):
        raise PersonaKitError(f"{REFUSED[checked]}; nothing was stored")
    kit.require_writable()
    mid = memory_id(checked.text)
    quotes = () if quote is None else (checked.quote,)
    with kit.files.lock():
        found = kit.find_memory(mid, checked.text)
        if found is None:
            memory = Memory(
                id=mid, text=checked.text, category=checked.category, state="approved", evidence=quotes,
                proposed_by=OWNER, created=now(), name=kit.files.free_name(slug(checked.text), mid[2:8]),
            )  # fmt: skip
            write(kit, [(memory.name, None, render_memory(memory))], f"add {mid}: {memory.text}")
            return memory, "added"
        memory, raw = found
        if memory.state in ("rejected", "restricted"):
            raise PersonaKitError(
                f"{mid} already says that, and you {memory.state} it, so nothing was changed; "
                f"to let assistants use it: personakit approve {mid}"
            )
        new = raw
        if quotes and normalize(quotes[0]) not in {normalize(q) for q in memory.evidence}:
            new = add_evidence(new, quotes[0])
        if memory.state != "approved":
            new = set_state(new, "approved")
        if new == raw:
            return memory, "unchanged"
        verb = "approve" if memory.state != "approved" else "evidence for"
        write(kit, [(memory.name, raw, new)], f"{verb} {mid}: {memory.text}")
        return parse_memory(new, memory.name), "approved" if verb == "approve" else "evidence"
