"""Which of the owner's decisions on a memory still stand at a commit, read from git's history.

A sync merges two sides' states by their decisions, not only by their files (see `core.merging`): a
decision counts even when a side came back to where it started, and two devices that decided without
knowing of each other both count. Each decision is an event: the commit that made it (`approve`,
`reject`, `restrict`, a hand edit of the `state:` line, or a memory the owner added with its state). A
later decision replaces what stood before it on its side; a forget, or a new proposal after it, clears
it. A `sync m_x` commit, which merged the two sides' decisions when their own commits could not be
carried over, lists what stood after it in trailers (`Decided: restricted (1a2b3c4d5e6f)`), so every
device reads the same events from the shared history.

Only PersonaKit's commit subjects (`verb m_x: text`) are read: a commit made by hand with git that names
no memory is not a decision here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from personakit.core.memory import InvalidMemory, parse_memory
from personakit.store.plumbing import Plumbing, Replayed

Decision = tuple[str, str]  # (the event: the commit that made it, first 12 digits; the state)

TRAILER = "Decided:"
_SUBJECT = re.compile(r"(?P<verb>[a-z]+)(?: for)? (?P<id>m_[0-9a-f]{12}):")
_TRAILER = re.compile(rf"^{TRAILER} (?P<state>[a-z]+) \((?P<event>[0-9a-f]+)\)$", re.M)
_STATES = {"approve": "approved", "reject": "rejected", "restrict": "restricted", "unconfirm": "unconfirmed"}


def standing(
    git: Plumbing,
    tip: str | None,
    mid: str,
    since: str | None = None,
    before: frozenset[Decision] = frozenset(),
) -> frozenset[Decision]:
    """The decisions on memory mid that stand at commit tip; with since, an ancestor of tip, only the
    commits after it are read, and `before` is what stood at since."""
    if tip is None:
        return frozenset()
    for commit in reversed(git.commits(since, tip, "--first-parent", "--fixed-strings", f"--grep={mid}")):
        found = _SUBJECT.match(commit.message)
        if found is None or found["id"] != mid:
            continue
        verb = found["verb"]
        if verb in _STATES:
            return frozenset({(commit.sha[:12], _STATES[verb])})
        if verb == "sync":
            return frozenset((m["event"], m["state"]) for m in _TRAILER.finditer(commit.message))
        if verb in ("forget", "propose"):
            return frozenset()
        changed = _state_change(git, commit, mid, made=verb == "add")
        if changed is not None:
            return frozenset({(commit.sha[:12], changed)})
    return before if since else frozenset()


def merge_standing(
    base: frozenset[Decision], here: frozenset[Decision], there: frozenset[Decision]
) -> tuple[frozenset[Decision], frozenset[Decision]]:
    """What stands after a merge, as (this side's new decisions, the rest): a decision that stood at base
    stands on only if both sides kept it (a side that decided again, or forgot, replaced it)."""
    kept = (here | there) - (base - (here & there))
    mine = kept & (here - base)
    return mine, kept - mine


def trailers(decisions: Iterable[Decision]) -> str:
    return "".join(f"\n{TRAILER} {state} ({event})" for event, state in sorted(decisions))


def _state_change(git: Plumbing, commit: Replayed, mid: str, made: bool = False) -> str | None:
    """The state a hand edit gave memory mid, when it changed it; with made, the state the owner gave a
    memory they added themselves (`personakit add`)."""
    states: list[set[str]] = [set(), set()]
    for path, entries in commit.changes.items():
        for side, entry in enumerate(entries):
            if entry is None or not path.startswith("memories/"):
                continue
            try:
                memory = parse_memory(git.blob(entry[1]).decode("utf-8"))
            except (InvalidMemory, UnicodeError):
                continue
            if memory.id == mid:
                states[side].add(memory.state)
    before, after = states
    if made and not before and len(after) == 1:
        return next(iter(after))
    return next(iter(after)) if before and len(after) == 1 and after != before else None
