"""The rules of a read: overlap order, the approved fill, `withheld` and `note`.

Input is what the index found, already checked against the files on disk; output is the result an
assistant gets. Order: more distinct shared words first; then a finer score (the rarity of the shared
words, a word found only in a quote counting three quarters); then approved before unconfirmed; then newest. When fewer than three memories
match, approved memories that did not match fill the result up to three places, never past `limit`: the
ones closest to the question first (near words, then category; see `store.ranking.Ranker.fill`), then the
newest. When none matches, `note` says so and asks the model to read again in other words.

A memory whose `until` has passed (`core.when.is_past`) is still returned when it matches, marked
`"past": true`, after the current memories that share as many words; it never fills a place. "Today" is
the caller's (the owner's local day).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import NotRequired

from typing_extensions import TypedDict  # pydantic needs it for schemas on Python < 3.12

from personakit.core.masking import UNCONFIRMED_NOTE, Plain, SharedMemory, present
from personakit.core.memory import Memory
from personakit.core.when import is_past

DEFAULT_LIMIT = 7
MAX_LIMIT = 20
FILL_TO = 3
NOTE = UNCONFIRMED_NOTE  # the contract's exact sentence
# When no memory shares a word with the question, the model is told so, and how to ask better.
ASK_AGAIN = "Read again naming the topic in other words the owner might use."
FILL_NOTE = (
    "None of these memories shares a word with the question: they are the approved memories closest to it. "
    + ASK_AGAIN
)
EMPTY_NOTE = "No memory you may read shares a word with the question. " + ASK_AGAIN


class ReadResult(TypedDict):
    memories: list[SharedMemory]
    withheld: int
    note: NotRequired[str]


@dataclass(frozen=True)
class Match:
    memory: Memory
    shared: int  # distinct words the memory shares with the question
    fine: float  # tie-break within the same count, in [0, 1)


def clamp_limit(limit: int) -> int:
    return max(1, min(MAX_LIMIT, limit))


def order_key(match: Match, today: date | None = None) -> tuple[int, bool, float, str]:
    past = today is not None and is_past(match.memory.until, today)
    return (-match.shared, past, -match.fine, tie_break(match.memory.state, match.memory.created))


def tie_break(state: str, created: str) -> str:
    """The order among equal scores as one string, ascending: approved first, then the newest."""
    return ("0" if state == "approved" else "1") + recency(created)


def recency(created: str) -> str:
    """A key that sorts the newest `created` first (printable ASCII, as timestamps are, is mirrored),
    and a memory with no date last. The index sorts by the same key."""
    return created.translate(_MIRROR) or "\x7f"


_MIRROR = {c: chr(0x9E - c) for c in range(ord(" "), ord("~") + 1)}


def compose(
    matches: list[Match],
    approved: list[Memory],
    withheld: int,
    limit: int,
    today: date | None = None,
    plain: Plain | None = None,
) -> ReadResult:
    """matches: visible memories sharing a word; approved: approved memories, closest to the question first
    (may overlap). today: the day past memories are judged by (None: none is past). plain: the memories
    masking left as they are (`core.masking.Plain`)."""
    limit = clamp_limit(limit)
    chosen = [m.memory for m in sorted(matches, key=lambda m: order_key(m, today))[:limit]]
    if len(chosen) < FILL_TO:
        taken = {m.memory.id for m in matches}
        for memory in approved:
            if len(chosen) >= min(FILL_TO, limit):
                break
            past = today is not None and is_past(memory.until, today)
            if memory.id not in taken and memory.confirmed and not past:
                chosen.append(memory)
                taken.add(memory.id)
    result: ReadResult = {"memories": [present(m, today, plain) for m in chosen], "withheld": withheld}
    notes = [NOTE] if any(not m.confirmed for m in chosen) else []
    if not matches:
        notes.append(FILL_NOTE if chosen else EMPTY_NOTE)
    if notes:
        result["note"] = " ".join(notes)
    return result


def unique(matches: list[Match]) -> list[Match]:
    """One match per id: two files claiming one id (a copy made by hand) must not show twice."""
    seen: set[str] = set()
    out = []
    for match in matches:
        if match.memory.id not in seen:
            seen.add(match.memory.id)
            out.append(match)
    return out
