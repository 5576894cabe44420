"""A memory's quotes: which of them assistants may see, and how many are kept.

- **Only quotes the owner has seen.** An assistant sees a memory's `evidence`: the quotes it had when the
  owner approved it (or decided otherwise). A quote proposed later for a memory that is not unconfirmed
  waits in `pending_evidence`, which no read, resource or search shows, until the owner accepts it in
  `personakit review` (moved to `evidence`, one commit) or drops it. A quote for an unconfirmed memory
  goes to `evidence` at once: such a memory is shown as unconfirmed, and the owner sees its quotes when
  deciding about it. The file and its git history show which is which.
- **A bounded number.** A memory keeps its first MAX_QUOTES quotes (`evidence` and `pending_evidence`
  together); a later new quote is not kept but counted in `quotes_not_kept`, so the owner knows how many
  more there were, and a proposal's cost stays bounded however often an assistant repeats it.

Line edits only, as every rewrite of a memory file (`core.memory`): the diff shows the quote and nothing
else.
"""

from __future__ import annotations

import re

from personakit.core.front_matter import bounds, key_lines, value_end
from personakit.core.memory import Memory, newline, parse_memory, scalar, set_key
from personakit.core.naming import normalize

MAX_QUOTES = 20  # quotes kept per memory, seen and pending together
PENDING = "pending_evidence"
NOT_KEPT = "quotes_not_kept"
_NOT_KEPT = re.compile(rf"^{NOT_KEPT}\s*:\s*(\d+)", re.MULTILINE)


def with_quote(raw: str, memory: Memory, quote: str, seen: bool) -> str:
    """raw with a new quote for memory: unchanged when the memory has it already; in `evidence` when seen
    (a quote for an unconfirmed memory, or one the owner adds), else in `pending_evidence`; past
    MAX_QUOTES, counted instead."""
    have = (*memory.evidence, *memory.pending)
    if normalize(quote) in {normalize(q) for q in have}:
        return raw
    if len(have) >= MAX_QUOTES:
        return set_key(raw, NOT_KEPT, str(not_kept(raw) + 1))
    return add_evidence(raw, quote, "evidence" if seen else PENDING)


def not_kept(raw: str) -> int:
    """How many quotes past MAX_QUOTES were proposed and not kept."""
    found = _NOT_KEPT.search(raw.split("\n---", 1)[0])
    return int(found.group(1)) if found else 0


def accept_pending(raw: str, memory: Memory) -> str:
    """raw with its pending quotes moved to the end of its evidence: the owner has seen them."""
    for quote in memory.pending:
        if normalize(quote) not in {normalize(q) for q in memory.evidence}:
            raw = add_evidence(raw, quote)
    return drop_pending(raw)


def drop_pending(raw: str) -> str:
    """raw without its `pending_evidence` list."""
    lines = raw.splitlines(keepends=True)
    end = bounds(lines)
    for start in reversed(key_lines(lines, end, PENDING)):
        del lines[start : value_end(lines, start, end)]
        end = bounds(lines)
    return "".join(lines)


def add_evidence(raw: str, quote: str, key: str = "evidence") -> str:
    """raw with quote appended to its evidence list (or another list: key), touching few lines."""
    lines = raw.splitlines(keepends=True)
    end = bounds(lines)
    nl = newline(lines)
    item = scalar(quote)
    for i in range(1, end):
        if not re.match(rf"{key}\s*:", lines[i]):
            continue
        rest = lines[i].split(":", 1)[1].strip()
        if rest in ("", "|", ">") or rest.startswith("#"):
            last, indent = i, "  "
            for j in range(i + 1, end):
                if lines[j].strip() and not lines[j][0].isspace() and not lines[j].startswith("-"):
                    break
                if lines[j].lstrip().startswith("- "):
                    indent = lines[j][: len(lines[j]) - len(lines[j].lstrip())]
                if lines[j].strip():
                    last = j
            lines.insert(last + 1, f"{indent}- {item}{nl}")
        else:  # a flow list or a single string on the key's line: rewrite that one key as a block list
            old = getattr(parse_memory(raw), "pending" if key == "pending_evidence" else "evidence")
            block = [f"{key}:{nl}"] + [f"  - {scalar(q)}{nl}" for q in (*old, quote)]
            lines[i : i + 1] = block
        break
    else:
        lines[end:end] = [f"{key}:{nl}", f"  - {item}{nl}"]
    return "".join(lines)
