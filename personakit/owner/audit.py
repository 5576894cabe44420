"""The owner's audit trail: what happened to each memory (git) and what assistants read (the ledger).

Git is the log of changes. Every commit PersonaKit makes names its memory in the subject, in one
convention: `propose m_x: text`, `evidence for m_x: text`, `approve|reject|restrict m_x: text`,
`categorize m_x: text (as tools)`, `edit m_x: text (by hand)`, `rename m_x: text (by hand, was a.md)`,
`forget m_x: text`, `sync m_x: text (what sync decided)`, and for two memories at once
`replace m_old with m_new: new text` (a correction approved, the old memory retired) and
`merge m_new into m_old: old text` (a near-duplicate merged). An assistant's commits are authored
`<host> (assistant)`, the owner's by their git identity. Commits made by hand with git keep their own subject and are shown as they are.

The read ledger (`.personakit/reads.jsonl`) is the log of reads: one line per `personakit_read`, never
in git and never sent anywhere. The owner's own `personakit search` is not recorded in it.

This module only reads and formats; the CLI prints what it returns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from personakit.core import meaning
from personakit.core.memory import Memory
from personakit.core.people import expand
from personakit.core.reading import ReadResult
from personakit.core.when import is_past, said_of
from personakit.core.words import words, written_without_spaces
from personakit.errors import PersonaKitError
from personakit.owner.corrections import link_lines
from personakit.owner.people import notes
from personakit.store.history import Commit
from personakit.store.index import ALL_WORDS_FIELDS
from personakit.vault import identities
from personakit.vault.service import PersonaKit

_SUBJECT = re.compile(
    r"^(?P<verb>[a-z]+)(?: for)? (?P<id>m_[0-9a-f]{12})(?: (?:with|into) (?P<other>m_[0-9a-f]{12}))?: (?P<text>.*)$",
    re.S,
)
_DONE = {
    "propose": "proposed",
    "evidence": "added evidence",
    "approve": "approved",
    "reject": "rejected",
    "restrict": "restricted",
    "unconfirm": "marked unconfirmed",
    "categorize": "changed category",
    "edit": "edited by hand",
    "rename": "renamed by hand",
    "forget": "forgot",
    "add": "added",
    "undo": "undone",
    "replace": "replaced",
    "merge": "merged",
    "sync": "synced",
}


@dataclass(frozen=True)
class Event:
    """One commit, read through the message convention."""

    when: datetime
    who: str
    what: str  # "proposed", "approved", "edited by hand", ..., or "commit" for one made by hand with git
    memory_id: str | None
    subject: str
    sha: str
    email: str = ""
    new: bool = False  # an identity this device does not know (vault/identities.py): not the owner's


def event(commit: Commit) -> Event:
    found = _SUBJECT.match(commit.subject)
    what, mid = "commit", None
    if found and found["verb"] in _DONE:
        what, mid = _DONE[found["verb"]], found["id"]
        if found["verb"] == "forget" and commit.subject.endswith("(file deleted by hand)"):
            what = "deleted by hand"
        elif commit.subject.endswith("(by hand)") and "by hand" not in what:
            what += " by hand"  # a decision made in an editor: "approved by hand"
    return Event(_when(commit.date), commit.author, what, mid, commit.subject, commit.sha, commit.email)


def _when(iso: str) -> datetime:
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return datetime.fromtimestamp(0, UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def local(moment: datetime | str) -> str:
    """A moment as the owner reads it: local time, to the minute."""
    if isinstance(moment, str):
        moment = _when(moment)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def parse_since(text: str | None) -> datetime | None:
    """`7d`, `12h`, `2w`, `30m` ago, or a date (`2026-11-01`); None for None."""
    if not text:
        return None
    found = re.fullmatch(r"\s*(\d+)\s*([mhdw])\s*", text)
    if found:
        unit = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}[found[2]]
        return datetime.now(UTC) - timedelta(**{unit: int(found[1])})
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise PersonaKitError(
            f"--since {text!r} is not a time; give an age such as 7d, 12h or 2w, or a date such as 2026-11-01"
        ) from None
    return moment if moment.tzinfo else moment.astimezone()


# -- the audit trail ----------------------------------------------------------------------------------
def trail(kit: PersonaKit, since: datetime | None = None, limit: int | None = None) -> list[Event]:
    """Commits that touched memories/, newest first, those that came in through a merge too (git's default
    history simplification would hide a side's commit whose change the other side also made)."""
    args = ["--full-history"] + ([f"--since={since.isoformat()}"] if since else [])
    if limit:
        args.append(f"--max-count={limit}")
    known = identities.known(kit.history) | {identities.ASSISTANT_EMAIL}
    found = (event(c) for c in kit.history.commits(*args, "--", "memories"))
    return [replace(e, new=e.email.casefold() not in known) for e in found]


def memory_history(kit: PersonaKit, memory: Memory) -> list[Event]:
    """A memory's commits, oldest first: every commit whose message names its id.

    Each commit PersonaKit makes names the memory it changes, and so do the ones it makes for hand edits
    (edited, renamed or deleted by hand), so this is the memory's whole story, across renames; a revert
    made with git keeps the name too. Only commit messages are read (`git log --grep`), never the trees:
    following the file instead (`git log --follow -- memories/NAME`) reads the memories/ folder's tree in
    every commit, which took minutes with 100,000 commits of 10,000 memories; this takes well under a
    second. A commit made by hand with git that touches the file without naming the id is left out (`git
    log -- memories/NAME` finds it)."""
    commits = kit.history.commits("--fixed-strings", f"--grep={memory.id}")
    order = {c.sha: i for i, c in enumerate(commits)}
    return sorted((event(c) for c in commits), key=lambda e: (e.when, -order[e.sha]))


def history_lines(memory: Memory, events: list[Event]) -> list[str]:
    """One memory's history as lines; an edit that changed its text as "was ... / now ...", and a
    replacement or merge naming the other memory."""
    lines = []
    text = None
    for e in events:
        found = _SUBJECT.match(e.subject)
        what, about = e.what, ""
        if found and found["other"]:  # replace old with new / merge new into old
            first, other = found["id"], found["other"]
            if found["verb"] == "replace":
                what, about = (
                    ("replaced", f" (by {other})")
                    if memory.id == first
                    else ("approved", f" (replacing {first})")
                )
            else:
                about = f" (into {other})" if memory.id == first else f" ({first} merged in)"
        line = f"  {local(e.when)}  {what:<18} {e.who}{about}" + (
            f": {e.subject}" if e.what == "commit" else ""
        )
        lines.append(line)
        if found and found["verb"] == "sync":  # what the devices had decided, as the commit recorded it
            lines += [f"      {said}" for said in _merged(found["text"])]
        if found and found["id"] == memory.id and not found["other"]:
            said = re.sub(r" \(by hand(?:, was [^)]*)?\)$", "", found["text"])
            if text is not None and said != text and e.what in ("edited by hand", "renamed by hand"):
                lines += [f"      was: {text}", f"      now: {said}"]
            text = said
    return lines


def _merged(text: str) -> list[str]:
    """What a `sync m_x: text (what was decided)` commit says each device did, in words true on every
    device: the device that merged wrote "here" for itself."""
    found = re.search(r" \(([^()]*)\)$", text)
    if not found:
        return []
    parts = found[1].split("; ")
    return [p.replace(" here,", " on one device,").replace("this device", "one device") for p in parts]


def format_event(e: Event) -> str:
    """One line of the trail: when, who, and the commit's subject (which names the memory). An identity
    new to this vault is named with its address and marked."""
    who = f"{e.who} (new) <{e.email}>" if e.new else e.who
    return f"{local(e.when)}  {who:<28} {e.subject}"


# -- the read ledger ----------------------------------------------------------------------------------
def reads(kit: PersonaKit, since: datetime | None = None, limit: int | None = None) -> list[dict[str, Any]]:
    """Ledger entries, newest first (read from the ledger's end: the newest are what is asked for)."""
    found: list[dict[str, Any]] = []
    for entry in kit.ledger.newest_first():
        if limit and len(found) >= limit:
            break
        if since is None or _when(str(entry.get("at", ""))) >= since:
            found.append(entry)
    return found


def last_read(kit: PersonaKit, memory_id: str) -> dict[str, Any] | None:
    for entry in kit.ledger.newest_first(containing=memory_id):
        if memory_id in (entry.get("ids") or ()):
            return entry
    return None


def format_read(entry: dict[str, Any], texts: dict[str, str] | None = None) -> str:
    """A read as lines: who asked what, then each memory given, with its text as it is now."""
    ids = [str(i) for i in entry.get("ids") or []]
    texts = texts or {}
    given = [f"{mid}  {texts.get(mid, '(forgotten since)')}" if texts else mid for mid in ids]
    withheld = entry.get("withheld", 0)
    said = f"{local(str(entry.get('at', '')))}  {entry.get('host') or '?'} {asked(entry)}"
    lines = [said, f"    given: {given[0] if given else 'nothing'}", *(f"           {g}" for g in given[1:])]
    if withheld:
        lines.append(f"    withheld: {withheld} (restricted; counted, never shown)")
    return "\n".join(lines)


def asked(entry: dict[str, Any], doing: bool = False) -> str:
    """What a ledger entry's host did: asked a question (a tool read) or opened a resource; a damaged
    entry's missing question is said in words."""
    if entry.get("resource"):
        return f"{'opening' if doing else 'opened'} {entry['resource']}"
    question = entry.get("question")
    return f"{'asking' if doing else 'asked'} " + (
        repr(question) if isinstance(question, str) else "(no question recorded)"
    )


# -- show -----------------------------------------------------------------------------------------------
def state_shown(memory: Memory) -> str:
    """The state, and why when a typo made it restricted: "restricted (state 'aproved' is not a state)"."""
    odd = next((p for p in memory.problems if p.startswith("state ")), None)
    return f"{memory.state} ({odd.removesuffix(': treated as restricted')})" if odd else memory.state


def describe(kit: PersonaKit, memory: Memory) -> list[str]:
    """Everything the owner may want to know about one memory, as lines."""
    lines = [
        f"{memory.id}  {state_shown(memory)}  {memory.category}",
        memory.text,
        "",
        f"file:      memories/{memory.name}",
        f"proposed:  by {memory.proposed_by or 'unknown'}, {local(memory.created) if memory.created else 'unknown'}",
        *who_and_when_lines(memory),
        "evidence:" if memory.evidence else "evidence:  none",
        *(f"  - {quote}" for quote in memory.evidence),
        *(
            ["proposed later, waiting for you in 'personakit review' (assistants do not see these):"]
            if memory.pending
            else []
        ),
        *(f"  - {quote}" for quote in memory.pending),
    ]
    if memory.problems:
        lines += ["problems:", *(f"  - {p}" for p in memory.problems)]
    lines += link_lines(kit, memory)
    lines += ["", "history (git, oldest first):"]
    lines += history_lines(memory, memory_history(kit, memory)) or ["  not committed yet"]
    seen = last_read(kit, memory.id)
    if seen:
        lines.append(
            f"last read: {local(str(seen.get('at', '')))} by {seen.get('host') or '?'}, {asked(seen, doing=True)}"
        )
    else:
        lines.append("last read: never given to an assistant (as far as the read ledger remembers)")
    return lines


def who_and_when_lines(memory: Memory) -> list[str]:
    """`about`, `said` (or the day it was proposed, for a memory without one) and `until`, as lines."""
    lines = [f"about:     {', '.join(memory.about)}"] if memory.about else []
    said = said_of(memory.said, memory.created)
    if said:
        lines.append(f"said:      {said}" + ("" if memory.said else " (the day it was proposed)"))
    if memory.until:
        lines.append(
            f"until:     {memory.until}" + (" (past)" if is_past(memory.until, date.today()) else "")
        )
    return lines


def who_and_when_tag(memory: Memory) -> str:
    """The same, short, for a line of `personakit list`: "  [about Carla; until 2026-12-20]"."""
    parts = [f"about {', '.join(memory.about)}"] if memory.about else []
    parts += [f"said {memory.said}"] if memory.said else []
    if memory.until:
        parts.append(f"until {memory.until}" + (", past" if is_past(memory.until, date.today()) else ""))
    return f"  [{'; '.join(parts)}]" if parts else ""


# -- search, for the owner's eyes -----------------------------------------------------------------------
Reasons = tuple[Memory, list[tuple[str, str]], list[tuple[str, str]]]  # memory, shared pairs, near pairs


def matching(kit: PersonaKit, question: str) -> list[Reasons]:
    """Every memory sharing a word with question, in any state, as its file says now, with the question's
    words it shares (directly or through a word that counts as one) and the near words it has."""
    terms = words(question)
    terms += expand(terms, notes(kit).all())
    reach = meaning.expand(terms)
    found = []
    for hit in kit.indexed(lambda: kit.index.search(reach.classes, None, ALL_WORDS_FIELDS)):
        memory = kit.current(hit)
        if memory is not None:
            found.append((memory, *meaning.explained(reach, memory.text, memory.evidence, memory.about)))
    return found


def filled(kit: PersonaKit, question: str, result: ReadResult, matched: Iterable[str]) -> dict[str, str]:
    """Why each returned memory that shares no word was chosen to fill: near words, category, or newest."""
    terms = words(question)
    reach = meaning.expand(terms + expand(terms, notes(kit).all()))
    spelled, matched = _as_asked(question), set(matched)
    why = {}
    for shown in result["memories"]:
        if shown["id"] in matched:
            continue
        hits = kit.index.by_id(shown["id"])
        memory = kit.current(hits[0]) if hits else None
        mine = meaning.memory_word_set(memory.text, memory.evidence) if memory else set()
        near = [(asked, word) for asked, word in reach.wide if word in mine]  # what the fill looked for
        if near:
            why[shown["id"]] = (
                "fill: related (" + ", ".join(f"{spelled.get(q, q)} ~ {w}" for q, w in near) + ")"
            )
        elif memory is not None and memory.category in reach.categories:
            why[shown["id"]] = f"fill: category ({memory.category})"
        else:
            why[shown["id"]] = "fill: newest approved"
    return why


def explain(
    question: str,
    result: ReadResult,
    matching: Iterable[Reasons],
    limit: int,
    fills: dict[str, str] | None = None,
) -> list[str]:
    """Why each memory was returned or not: what the assistant's answer above does not say."""
    returned = [m["id"] for m in result["memories"]]
    spelled = _as_asked(question)
    words_of: dict[str, str] = {}
    withheld, held_back = [], []
    for memory, pairs, near in matching:
        shared = ", ".join(spelled.get(q, q) + ("" if q == w else f" (as {w})") for q, w in pairs)
        if memory.id in returned:
            related = ", ".join(f"{spelled.get(q, q)} ~ {w}" for q, w in near)
            words_of.setdefault(memory.id, f"shares: {shared}" + (f"; related: {related}" if related else ""))
        elif memory.state == "restricted":
            why = "restricted"
            odd = [p for p in memory.problems if p.startswith("state ")]
            if odd:
                why = odd[0]
            withheld.append(f"  {memory.id}  {why}: {memory.text!r} (shares: {shared})")
        elif memory.state == "rejected":
            held_back.append(f"  {memory.id}  rejected, so never returned: {memory.text!r}")
        else:
            held_back.append(
                f"  {memory.id}  {memory.state}, ranked below the limit of {limit}: {memory.text!r} "
                f"(shares: {shared})"
            )
    lines = ["", "For your eyes only (an assistant never sees this part):"]
    if returned:
        lines.append("returned:")
        for mid in returned:
            lines.append(
                f"  {mid}  " + (words_of.get(mid) or (fills or {}).get(mid) or "fill: newest approved")
            )
    else:
        lines.append("returned: nothing")
    lines.append(f"withheld ({len(withheld)}; counted, never shown):" if withheld else "withheld: nothing")
    lines += withheld
    if held_back:
        lines.append("matched but not returned:")
        lines += held_back
    return lines


def _as_asked(question: str) -> dict[str, str]:
    """Each word of the question as the index counts it (stemmed, folded), mapped to how it was asked."""
    spelled: dict[str, str] = {}
    for token in re.findall(r"[\w'’-]+", question):
        for stem in words(token):
            if not written_without_spaces(stem):  # a pair of characters is shown as it is, not its run
                spelled.setdefault(stem, token)
    return spelled
