"""Corrections, near-duplicates and clashes, as the owner decides them.

**Approving a correction** (a memory whose file says `replaces: m_old`; `decide` sends every approval of
one here, so `personakit approve NEW` and `review` both come this way) approves it and retires the old
memory in the same commit: the new file's `state:` becomes approved, the old one's `state:` rejected
with `replaced_by: <new id>` — one diff, both files, `replace m_old with m_new: text`. Rejecting a
correction is a plain rejection: the old memory stays as it was.

What may have changed since the correction was proposed, and what approving it does then (each said in
a sentence; nothing is lost: git keeps every version):

- the old memory is gone, or is no longer approved or unconfirmed (rejected, restricted, or replaced by
  another correction: a chain, or two corrections of one memory): the new one is approved on its own
  and the old one is left as it is;
- the old memory was edited by hand since: it is retired as it is now, and the sentence says so;
- the new one was approved already (by hand in its file): approving it again retires the old one.

**Merging a near-duplicate** moves one memory's quotes (those the other lacks) to the other one and
removes the first file, in one commit, `merge m_new into m_old: text`, whatever the states (but rejected)
and wherever they came from. The kept memory keeps its state, unless the one merged into it was more
private (restricted): then it becomes restricted too, in the same commit, as sync keeps the more private
decision. A target that changed state since it was shown (or is gone, or rejected) is not merged into,
nor is a rejected memory merged: nothing changes, and the sentence says so.

Both write their files under the vault lock and put every file back as it was if the commit fails.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from personakit.core.evidence import add_evidence
from personakit.core.memory import (
    VISIBLE_STATES,
    InvalidMemory,
    Memory,
    State,
    parse_memory,
    set_key,
    set_state,
)
from personakit.core.naming import normalize
from personakit.core.people import key, same_subject
from personakit.core.relations.pairs import clashes, clashes_with, search_words, similar_groups
from personakit.errors import PersonaKitError
from personakit.owner.people import notes
from personakit.vault.linking import copies, similar_to
from personakit.vault.service import PersonaKit
from personakit.vault.writing import write

Say = Callable[[str], None]
TIES_BY_NAME = 200  # memories created in one second that git is asked about by name; more: the whole folder
CLASH_CANDIDATES = 40  # memories sharing most words with one memory that review checks for clashes


# -- approving a correction ---------------------------------------------------------------------------
def approve_replacement(kit: PersonaKit, new: Memory, say: Say) -> tuple[Memory, bool]:
    """Approve `new` (a correction, as its file says now) and retire what it replaces, if it still can be.
    The caller holds the vault lock. Returns the new memory as it is now, and whether anything changed."""
    raw = kit.files.read(new.name)
    approved = set_state(raw, "approved")
    found = copies(kit, new.replaces)
    why_not = _cannot_retire(new, [m for m, _ in found])
    if why_not is not None:
        if why_not:
            say(why_not)
        if approved == raw:
            return new, False
        write(kit, [(new.name, raw, approved)], f"approve {new.id}: {new.text}")
        return parse_memory(approved, new.name), True
    (old, old_raw) = found[0]
    retired = set_key(set_state(old_raw, "rejected"), "replaced_by", new.id)
    edited = edited_since(kit, old, new.created)
    write(
        kit,
        [(new.name, raw, approved), (old.name, old_raw, retired)],
        f"replace {old.id} with {new.id}: {new.text}",
    )
    said = f"{old.id} is retired (rejected, replaced by {new.id}): {old.text}"
    if edited:
        said += " (it was edited by hand after the correction was proposed; it is retired as it is now)"
    say(said)
    return parse_memory(approved, new.name), True


def _cannot_retire(new: Memory, old: list[Memory]) -> str | None:
    """Why the memory new replaces cannot be retired now (a sentence), "" when it already is, None when
    it can be."""
    alone = f"{new.id} is approved on its own"
    if not old:
        return f"{new.replaces}, which {new.id} replaces, no longer exists (forgotten?), so {alone}"
    if len(old) > 1:
        return f"{len(old)} files have the id {new.replaces} ('personakit doctor' lists them); {alone}"
    (memory,) = old
    if memory.replaced_by == new.id:
        return ""
    if memory.replaced_by:
        return (
            f"{memory.id} was already replaced by {memory.replaced_by}; {alone}. If only one of the two "
            f"corrections is true, reject the other"
        )
    if memory.state not in VISIBLE_STATES:
        return f"{memory.id} is {memory.state} now, so it is left as it is and {alone}"
    return None


def edited_since(kit: PersonaKit, memory: Memory, moment: str) -> bool:
    """Was memory's file edited by hand (text or decision, not by PersonaKit) after moment (ISO UTC)?"""
    if not moment:
        return False
    for commit in kit.history.commits("--since", moment, "--", f"memories/{memory.name}"):
        if commit.subject.startswith((f"edit {memory.id}:", f"rename {memory.id}:")):
            return True
    return False


# -- merging a near-duplicate -------------------------------------------------------------------------
def merge(kit: PersonaKit, newer: Memory, into: str, shown_state: State | None = None) -> Memory:
    """Move newer's quotes into the memory `into` names and remove newer's file; one commit. With
    shown_state, the target must still be in the state it was shown in. Returns the target as it is now
    (restricted when newer was restricted)."""
    kit.require_writable()
    with kit.files.lock():
        try:
            raw = kit.files.read(newer.name)
            current = parse_memory(raw, newer.name)
        except (OSError, InvalidMemory, UnicodeError):
            raise PersonaKitError(
                f"memories/{newer.name} is gone or unreadable now; nothing was merged"
            ) from None
        found = copies(kit, into)
        if len(found) != 1:
            gone = "is gone (forgotten meanwhile?)" if not found else "is in more than one file"
            raise PersonaKitError(f"{into} {gone}; nothing was merged")
        (target, target_raw) = found[0]
        if shown_state is not None and target.state != shown_state:
            raise PersonaKitError(
                f"{into} was {shown_state} when shown and is {target.state} now; nothing was merged"
            )
        if target.state == "rejected":
            raise PersonaKitError(f"{into} is rejected; nothing was merged (reject this one instead)")
        if current.state == "rejected":
            raise PersonaKitError(
                f"{current.id} is rejected; nothing was merged (forget it instead: personakit forget {current.id})"
            )
        if target.name == current.name:
            raise PersonaKitError(f"{into} is this memory itself; nothing was merged")
        merged = target_raw
        for quote in current.evidence:
            if normalize(quote) not in {normalize(q) for q in parse_memory(merged).evidence}:
                merged = add_evidence(merged, quote)
        if current.state == "restricted" and target.state != "restricted":
            merged = set_state(merged, "restricted")  # its quotes were never to be shown: nor are they now
        write(
            kit,
            [(target.name, target_raw, merged), (current.name, raw, None)],
            f"merge {current.id} into {target.id}: {target.text}",
        )
        return parse_memory(merged, target.name)


# -- what review and show need ------------------------------------------------------------------------
def current(kit: PersonaKit, memory_id: str) -> Memory | None:
    """The memory with this id as its file says now, when exactly one file has it."""
    found = copies(kit, memory_id)
    return found[0][0] if len(found) == 1 else None


def corrections_of(kit: PersonaKit, memory_id: str) -> list[Memory]:
    """The memories proposed as corrections of memory_id, as their files say now, oldest first."""
    found = []
    for hit in kit.indexed(lambda: kit.index.by_replaces(memory_id)):
        memory = kit.current(hit)
        if memory is not None and memory.replaces == memory_id:
            found.append(memory)
    return sorted(found, key=lambda m: (m.created, m.id))


def likely_clashes(kit: PersonaKit, memory: Memory) -> list[tuple[Memory, str]]:
    """The visible memories that likely disagree with memory, with the reason (not the one it replaces)."""
    terms = search_words(memory.text)
    if not terms:
        return []
    hits = kit.indexed(lambda: kit.index.search(terms, CLASH_CANDIDATES))
    others = {}
    for hit in hits:
        other = kit.current(hit)
        if (
            other is not None
            and other.state in VISIBLE_STATES
            and other.id not in (memory.id, memory.replaces)
        ):
            others[other.id] = other
    reasons = clashes_with(memory.text, [(m.id, m.text) for m in others.values()])
    people = notes(kit).all()
    return [
        (others[mid], reason)
        for mid, reason in reasons
        if same_subject(memory.about, others[mid].about, people)  # "Carla is vegan" / "Is not vegan"
    ]


def merge_targets(kit: PersonaKit, memory: Memory, also: Iterable[str] = ()) -> list[Memory]:
    """The memories memory could be merged into now (present, not rejected): those it was marked `similar`
    to, the near-duplicates the vault has now (whatever their state or origin), and also (ids)."""
    ids = [*memory.similar, *similar_to(kit, memory.text, exclude={memory.id}), *also]
    found = []
    for mid in dict.fromkeys(ids):
        other = current(kit, mid)
        present = other is not None and other.state != "rejected" and other.id != memory.id
        # Never merge Carla's allergy into the owner's.
        if present and other is not None and same_subject(memory.about, other.about):
            found.append(other)
    return found


def link_lines(kit: PersonaKit, memory: Memory) -> list[str]:
    """For `show`: what memory replaces, what replaced it, corrections proposed for it, its near-duplicates."""
    lines = []
    if memory.replaces:
        lines.append(f"replaces:    {_brief(kit, memory.replaces)}")
    if memory.replaced_by:
        lines.append(f"replaced by: {_brief(kit, memory.replaced_by)}")
    for other in corrections_of(kit, memory.id):
        if other.id != memory.replaced_by:
            lines.append(f"correction:  {other.id} ({other.state}): {other.text}")
    lines += [f"similar to:  {_brief(kit, mid)}" for mid in memory.similar]
    return lines


def _brief(kit: PersonaKit, memory_id: str) -> str:
    other = current(kit, memory_id)
    return f"{memory_id} ({other.state}): {other.text}" if other else f"{memory_id} (no longer in the vault)"


# -- over the whole vault ---------------------------------------------------------------------------------
def vault_clashes(kit: PersonaKit) -> list[tuple[Memory, Memory, str]]:
    """Pairs of visible memories (approved or unconfirmed) that likely disagree, the older one first."""
    visible = oldest_first(kit, (m for m in _indexed(kit) if m.state in VISIBLE_STATES))
    by_id = {m.id: m for m in visible}
    people = notes(kit).all()
    found = clashes([(m.id, m.text) for m in visible])
    return [
        (by_id[a], by_id[b], why)
        for a, b, why in found
        if same_subject(by_id[a].about, by_id[b].about, people)
    ]


def vault_similar(kit: PersonaKit) -> list[list[Memory]]:
    """Groups of near-duplicates among the memories that are not rejected, each oldest first."""
    kept = oldest_first(kit, (m for m in _indexed(kit) if m.state != "rejected"))
    by_id = {m.id: m for m in kept}
    groups = []
    for ids in similar_groups([(m.id, m.text) for m in kept]):
        by_subject: dict[frozenset[str], list[Memory]] = {}  # the same words about others are not the same
        for mid in dict.fromkeys(ids):
            by_subject.setdefault(frozenset(map(key, by_id[mid].about)), []).append(by_id[mid])
        groups += [group for group in by_subject.values() if len(group) > 1]
    return groups


def _indexed(kit: PersonaKit) -> list[Memory]:
    """Every memory as indexed (the owner's commands bring the index level with the files first)."""
    return [hit.memory for hit in kit.indexed(lambda: list(kit.index.all()))]


def oldest_first(kit: PersonaKit, memories: Iterable[Memory]) -> list[Memory]:
    """memories by `created`; those created in the same second by the order git committed them. Once
    each: two files with one id (a hand-made copy) are one memory here, and doctor reports them."""
    unique = {m.id: m for m in memories}
    by_second: dict[str, list[Memory]] = {}
    for memory in unique.values():
        by_second.setdefault(memory.created, []).append(memory)
    tied = [f":(literal)memories/{m.name}" for same in by_second.values() if len(same) > 1 for m in same]
    order: dict[str, int] = {}
    if tied:  # only ties ask git: about their files, or (many) in one walk of the folder's history
        asked = tied if len(tied) <= TIES_BY_NAME else ["memories"]
        added = kit.history.log(
            "--reverse", "--no-renames", "--diff-filter=A", "--format=", "--name-only", "-z", "--", *asked
        )
        for path in added.split("\0"):
            order.setdefault(path.strip().removeprefix("memories/"), len(order))
    return sorted(unique.values(), key=lambda m: (m.created, order.get(m.name, len(order)), m.name))
