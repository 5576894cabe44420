"""The only maker of what leaves the process: a memory as an assistant may see it.

Every memory a read returns passes through `present`, which keeps at most two quotes, masks email
addresses and anything credential-shaped an owner may have typed by hand, and shortens each quote to 240
characters. Restricted and rejected memories never reach this module: `reading` filters them first, and
each function here refuses them again. `present_detail` is one memory as the resource
`personakit://memory/{id}` shows it; `present_profile` the approved memories as the resource
`personakit://profile` shows them. `by_category` is the Markdown both the profile and `personakit export`
print.

An email address is masked in every form a reader would take for one, read through `textview` (so a
full-width `＠`, a zero-width space or look-alike letters change nothing):

- `sam@example.com`, `"sam smith"@example.com` (a quoted local part), `sam@[192.0.2.1]` and
  `sam@[IPv6:2001:db8::1]` (IP literals), `sam@bücher.de`, `用户@例子.广告` and `sam@xn--bcher-kva.de`
  (international and punycode domains), `sam%40example.com` (percent-encoded);
- `mailto:` links, decoded first (`mailto:%73%61%6D%40example.com`);
- disguised: `sam[@]example[.]com`, `sam(@)example.com`, `sam @ example . com`, `sam&#64;example.com`,
  `sam%2540example.com`, `sam@example dot com`, letters spaced out (`s a m @ e x a m p l e . c o m`), and
  an address written backwards inside a right-to-left override (U+202E), which displays forwards;
- spelled out: `sam [at] example [dot] com`, `sam(at)example(dot)com`, `sam AT example DOT com`,
  `sam at example dot com`, `orrin dot vale at example dot com`. A plain lower-case " at " before a real
  domain counts when a name comes before it (`priya at example.in`), not a word of the sentence, so
  "I work at example.com" stays as it is.

Not addresses: a decorator or a mention after a word (`the decorator @functools.cache`, `ping @sam`),
since an at sign with a space on one side only is not one.

A credential cut between a memory's text and a quote, or between two quotes, is masked in both parts.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import date
from functools import lru_cache
from typing import NotRequired
from urllib.parse import unquote

from typing_extensions import TypedDict  # pydantic needs it for schemas on Python < 3.12

from personakit.core.credentials.engine import mask_together
from personakit.core.credentials.textview import read
from personakit.core.memory import CATEGORIES, Category, Memory
from personakit.core.proposal import shorten
from personakit.core.when import is_past, said_of

MAX_QUOTES = 2
MAX_QUOTE_CHARS = 240
MAX_DETAIL_QUOTES = 10  # one memory opened on its own shows more of its evidence
KEPT_MASKED = 512  # memories masking changes, kept masked by `Plain` (they are rare: a key, an address)
PROFILE_MOST_CHARS = 8_000  # about 2,000 tokens, at the usual ~4 characters a token
UNCONFIRMED_NOTE = "Unconfirmed: extracted from the owner's conversations but not yet reviewed by them."
EMAIL_MASK = "[email]"
_DOT = r"[.\u3002]"  # IDNA reads the ideographic full stop as a dot
_TLD = r"(?:[^\W\d_]{2,63}|xn--[a-z0-9-]{2,59})(?![\w-])"
# An at sign as written, encoded or bracketed: sam@, sam%40 and sam%2540 (encoded once and twice), HTML's
# &#64; and &commat;, sam[@], sam(@). Spaces around a bare one count only on both sides ("sam @ example"),
# so a decorator or a mention after a word ("the decorator @functools.cache") is not an address.
_AT_SIGN = r"(?:@|%40|%2540|&#0*64;|&#x0*40;|&commat;)"
_AT = rf"(?:{_AT_SIGN}| {_AT_SIGN} |\s?[\[({{]\s?@\s?[\])}}]\s?)"
# A dot in a domain as written, bracketed or spelled: example.com, example[.]com, example . com, example dot com.
_DOMAIN_DOT = rf"(?:{_DOT}| {_DOT} |\s?[\[({{]\s?{_DOT}\s?[\])}}]\s?|\s?[\[({{]\s?dot\s?[\])}}]\s?|\s+dot\s+)"
# Local part and domain as RFC 5322 allows in practice; the TLD needs two letters so "a@b" stays.
_EMAIL = re.compile(
    r"(?:[\w.!#$%&'*+/=?^`{|}~-]+|\"(?:[^\"\\\n]|\\.){1,64}\")"
    rf"{_AT}"
    rf"(?:[\w-]+(?:{_DOMAIN_DOT}[\w-]+)*{_DOMAIN_DOT}{_TLD}|\[(?:IPv6:[0-9A-Fa-f:.]{{2,45}}|\d{{1,3}}(?:\.\d{{1,3}}){{3}})\])",
    re.IGNORECASE,
)
_COMMON_TLDS = (
    "com|org|net|edu|gov|io|co|ai|app|dev|me|info|biz|us|uk|de|fr|es|it|nl|be|ch|at|se|no|dk|fi|pl|pt|ie|ca|au"
    "|nz|jp|cn|kr|in|br|mx|ru|eu|email|mail"
)
_AT_WORD = r"\s*(?:\[\s*at\s*\]|\(\s*at\s*\)|\{\s*at\s*\}|<\s*at\s*>)\s*|(?-i:\s+AT\s+)"
_DOT_WORD = r"\s*(?:\[\s*dot\s*\]|\(\s*dot\s*\)|\{\s*dot\s*\}|<\s*dot\s*>)\s*|\s+DOT\s+|\s+dot\s+"
_LOCAL = r"(?<![\w'\u2019.+-])[\w.+-]{1,64}(?:\s+dot\s+[\w+-]{1,64})*"  # orrin dot vale at ...
_SPELLED = re.compile(
    rf"{_LOCAL}(?:{_AT_WORD})[\w-]{{1,63}}(?:(?:{_DOT_WORD}|\.)[\w-]{{1,63}})*(?:{_DOT_WORD}|\.)[^\W\d_]{{2,24}}(?![\w-])"
    rf"|{_LOCAL}\s+at\s+[\w-]{{1,63}}(?:\s+dot\s+[\w-]{{1,63}})*\s+dot\s+(?:{_COMMON_TLDS})(?![\w-])",
    re.IGNORECASE,
)
# "priya at example.in": a plain " at " before a real domain is an address when a name, not a word, comes
# before it ("I work at example.com" stays). The name is one word that is not a word of the sentence.
_NAME_AT = re.compile(
    r"(?<![\w'\u2019.+-])(?P<name>[A-Za-z][\w.+-]{1,63})\s+at\s+[\w-]{1,63}(?:\.[\w-]{1,63})*"
    rf"\.(?:{_COMMON_TLDS}|[a-z]{{2}})(?![\w-])"
)
_NOT_NAME_WORDS = """i me you him her it we us they them my your his its our their this that who someone everyone one me
    am is are was were be been being do does did work works worked working live lives lived living stay stays
    stayed staying job jobs intern interned interning role roles engineer developer designer manager based
    employed hired studied study studies studying shop shops shopped shopping buy bought order ordered look
    looked looking find found available online account accounts registered signed sign log logged login
    meet met meeting eat ate lunch dinner breakfast coffee arrive arrived here there up back out in on me
    listed hosted posted published read reading see seen it's i'm we're they're he's she's check checked
    site page blog docs store app email mail reach reached contact contacted write wrote available"""
_NOT_NAMES = frozenset(_NOT_NAME_WORDS.split())
_MAILTO = re.compile(r"mailto:([^\s\"'<>]+)", re.IGNORECASE)
_SPELLED_HINT = re.compile(
    r"(?i)dot|[\[({<]\s*at\s*[\])}>]|mailto:|\sat\s+\S+\.\w|&#|&commat;|%25|[\[({]\s?[@.]|\u202e| \S \S \S "
)
_SPACED_LETTERS = re.compile(r"(?<!\S)\S(?: \S){5,}(?!\S)")  # j o r d a n @ e x a m p l e . c o m
_REVERSED = re.compile("\u202e([^\u202c\n]{5,320})(?:\u202c|$)", re.MULTILINE)  # shown right to left


class SharedMemory(TypedDict):
    id: str
    text: str
    category: Category
    confirmed: bool
    evidence: list[str]
    about: NotRequired[list[str]]  # the others it is about, as plain names
    said: NotRequired[str]  # YYYY-MM-DD
    until: NotRequired[str]
    past: NotRequired[bool]  # true once until has gone by


class MemoryDetail(TypedDict):
    id: str
    text: str
    category: Category
    confirmed: bool
    evidence: list[str]
    created: str
    proposed_by: str
    history: list[str]
    note: NotRequired[str]
    about: NotRequired[list[str]]
    said: NotRequired[str]
    until: NotRequired[str]
    past: NotRequired[bool]


def mask_emails(text: str) -> str:
    """text with every email address replaced by EMAIL_MASK."""
    if text.isascii() and "@" not in text and "%40" not in text and not _SPELLED_HINT.search(text):
        return text  # the common case: no at sign of any kind, and no "at" or "dot" spelled out
    view = read(text)
    spans: list[tuple[int, int]] = []
    if any(sign in view.text for sign in ("@", "%40", "%2540", "&#", "&commat;")):
        spans += [m.span() for m in _EMAIL.finditer(view.text)]
    if _SPELLED_HINT.search(view.text):
        spans += [m.span() for m in _SPELLED.finditer(view.text)]
        spans += [m.span() for m in _NAME_AT.finditer(view.text) if m.group("name").lower() not in _NOT_NAMES]
        spans += [
            m.span() for m in _SPACED_LETTERS.finditer(view.text) if _EMAIL.search(m.group().replace(" ", ""))
        ]
    if "mailto:" in view.lower:
        spans += [m.span() for m in _MAILTO.finditer(view.text) if _EMAIL.search(unquote(m.group(1)))]
    spans = [view.original_span(*span) for span in spans]
    if "\u202e" in text:  # an address written backwards inside a right-to-left override reads forwards
        spans += [m.span() for m in _REVERSED.finditer(text) if _EMAIL.search(read(m.group(1)[::-1]).text)]
    parts: list[str] = []
    last = 0
    for start, end in _merged(spans):
        parts += [text[last:start], EMAIL_MASK]
        last = end
    parts.append(text[last:])
    return "".join(parts)


def mask(text: str) -> str:
    return mask_together([mask_emails(text)])[0]


def _visible(memory: Memory) -> None:
    if memory.state not in ("approved", "unconfirmed"):
        raise ValueError(f"{memory.id} is {memory.state}: it must never leave the process")


class Plain:
    """Memories that masking leaves as they are, each by a key of what masking reads (the text and the
    quotes a read shows). Masking scans for dozens of credential shapes, about 0.6-0.9 ms for a memory
    the first time it is shown (most of it the seams between its text and its quotes); a memory found
    plain once is shown without a scan after, in this process and, kept by `vault.plain`, in the next
    ones. A key is a 16-byte BLAKE2b digest: a memory another key's collision would let through unmasked
    is out of reach (2^-128 a pair). Only what masking itself found plain is added."""

    def __init__(self, keys: set[bytes] | None = None) -> None:
        self.keys = set() if keys is None else keys
        self.added: list[bytes] = []  # found plain since the keeper last saved
        self._masked: dict[bytes, tuple[str, tuple[str, ...]]] = {}  # the few that masking changes

    def shown(self, text: str, quotes: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        """What `present` shows of text and quotes: as masking makes them, with no scan when plain. Only
        what masking changes is kept whole (up to KEPT_MASKED of them); a plain memory is kept as its key,
        not as a copy of its words."""
        key = plain_key(text, quotes)
        shortened = tuple(shorten(q, MAX_QUOTE_CHARS) for q in quotes)
        if key in self.keys:
            return text, shortened
        masked = self._masked.get(key)
        if masked is not None:
            return masked
        masked = _mask_parts(text, quotes)
        if masked == (text, shortened):
            self.keys.add(key)
            self.added.append(key)
            return masked
        if len(self._masked) >= KEPT_MASKED:
            self._masked.clear()
        self._masked[key] = masked
        return masked


def plain_key(text: str, quotes: tuple[str, ...]) -> bytes:
    """A memory's key in `Plain`: each part with its length, so no two lists of parts share one."""
    h = hashlib.blake2b(digest_size=16)
    for part in (text, *quotes):
        data = part.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()


def present(memory: Memory, today: date | None = None, plain: Plain | None = None) -> SharedMemory:
    """A memory as a read returns it; `past` is judged by today (None: never past). With plain, a memory
    masking left as it is once is not scanned again."""
    _visible(memory)
    quotes = memory.evidence[:MAX_QUOTES]
    text, evidence = _masked(memory.text, quotes) if plain is None else plain.shown(memory.text, quotes)
    shared: SharedMemory = {
        "id": memory.id,
        "text": text,
        "category": memory.category,
        "confirmed": memory.confirmed,
        "evidence": list(evidence),
    }
    shared.update(who_and_when(memory, today))  # type: ignore[typeddict-item]
    return shared


def who_and_when(memory: Memory, today: date | None = None) -> dict[str, object]:
    """`about` (masked names, when any), `said`, `until` (when set) and `past` (when it has passed)."""
    found: dict[str, object] = {}
    if memory.about:
        found["about"] = list(masked_names(memory.about))
    said = said_of(memory.said, memory.created)
    if said:
        found["said"] = said
    if memory.until:
        found["until"] = memory.until
        if today is not None and is_past(memory.until, today):
            found["past"] = True
    return found


@lru_cache(maxsize=4096)
def masked_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """Names as they may leave the process: a hand-made file's name may hold an address or a key."""
    return tuple(mask_together([mask_emails(n) for n in names]))


def _mask_parts(text: str, quotes: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    masked = mask_together([mask_emails(t) for t in (text, *quotes)])
    return masked[0], tuple(shorten(q, MAX_QUOTE_CHARS) for q in masked[1:])


# Masking scans for dozens of credential shapes; the same memories are read again and again.
_masked = lru_cache(maxsize=4096)(_mask_parts)


def _merged(spans: object) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):  # type: ignore[call-overload]
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def present_detail(memory: Memory, history: list[str], today: date | None = None) -> MemoryDetail:
    """One memory opened on its own: more of its evidence, when and by whom it was proposed, and its
    history as one-liners that the caller built from what happened, never from what the text once said."""
    _visible(memory)
    text, evidence = _masked(memory.text, memory.evidence[:MAX_DETAIL_QUOTES])
    detail: MemoryDetail = {
        "id": memory.id,
        "text": text,
        "category": memory.category,
        "confirmed": memory.confirmed,
        "evidence": list(evidence),
        "created": memory.created,
        "proposed_by": mask(memory.proposed_by) or "unknown",
        "history": [mask(line) for line in history],
    }
    if not memory.confirmed:
        detail["note"] = UNCONFIRMED_NOTE
    detail.update(who_and_when(memory, today))  # type: ignore[typeddict-item]
    return detail


def present_profile(
    memories: list[Memory],
    total: int | None = None,
    most_chars: int = PROFILE_MOST_CHARS,
    today: date | None = None,
    title: str = "",
) -> tuple[str, list[str]]:
    """The approved memories as Markdown within most_chars, with the ids it holds: what holds for now
    (an `until` still ahead, soonest first) apart from what lasts (grouped by category, newest first),
    and the names the memories are about. Past memories are left out. Those that do not fit (the
    oldest), and those of `total` not given, are counted in a last line. With a title, the page of one
    name (`personakit://about/{name}`): that title, and no line of names."""
    for memory in memories:
        if memory.state != "approved":
            raise ValueError(f"{memory.id} is {memory.state}: only approved memories are in the profile")
    kept = [m for m in memories if today is None or not is_past(m.until, today)]
    past = len(memories) - len(kept)
    if not kept and not (total or 0) - past:
        return f"{title or PROFILE_TITLE}\n\nNothing is approved yet.\n", []
    now = sorted((m for m in kept if m.until), key=lambda m: (m.until, m.created))
    lasting = sorted((m for m in kept if not m.until), key=lambda m: m.created, reverse=True)
    named = not title  # the profile names whom each memory is about; one name's page need not
    head, names = [title or PROFILE_TITLE, ""], _names_line(kept) if named else ""
    if names:
        head += [names, ""]
    shown: list[Memory] = []
    if now:
        head.append("## For now")
        for memory in now:
            line = f"- {_entry(memory, named)} (until {memory.until})"
            if sum(map(len, head)) + len(line) > most_chars // 4:
                break
            head.append(line)
            shown.append(memory)
        head.append("")
    entries = [(m.category, _entry(m, named)) for m in lasting]
    rest = None if total is None else total - past - len(shown)
    text, taken = by_category(entries, "\n".join(head).rstrip("\n"), most_chars, rest)
    return text, [m.id for m in [*shown, *lasting[:taken]]]


def _entry(memory: Memory, named: bool = True) -> str:
    text = _masked(memory.text, ())[0]
    return f"{text} (about {', '.join(masked_names(memory.about))})" if memory.about and named else text


def _names_line(memories: list[Memory]) -> str:
    """Whom the memories are about besides the user, most often first."""
    counts: dict[str, tuple[int, str]] = {}
    for memory in memories:
        for name in masked_names(memory.about):
            n, shown = counts.get(name.casefold(), (0, name))
            counts[name.casefold()] = (n + 1, shown)
    if not counts:
        return ""
    ranked = sorted(counts.values(), key=lambda c: (-c[0], c[1].casefold()))
    listed = ", ".join(name for _, name in ranked[:MAX_PROFILE_NAMES])
    more = f" and {len(ranked) - MAX_PROFILE_NAMES} more" if len(ranked) > MAX_PROFILE_NAMES else ""
    return f"Others these memories are about: {listed}{more} (personakit://about/{{name}} gives one)."


MAX_PROFILE_NAMES = 30
PROFILE_TITLE = "# About the user\n\nWhat the user has approved in PersonaKit, newest first in each group."
_LEFT_OUT = "({left} older approved {noun} left out to keep this short; personakit_read finds them by topic.)"


def by_category(
    entries: Sequence[tuple[str, str]],
    title: str = "",
    most_chars: int | None = None,
    total: int | None = None,
) -> tuple[str, int]:
    """Markdown: a heading per category, in the documented order, and a bullet per text, keeping the
    given order within each. With most_chars, only the first entries that fit, and a line counting the
    rest (of `total`, when more exist than were given). Returns the text and how many entries it holds."""
    size = len(title) + 2 + len(_LEFT_OUT) + 10  # room for the line counting what was left out
    seen: set[str] = set()
    taken = 0
    for category, text in entries:
        grows = len(text) + 3 + (0 if category in seen else len(_heading(category)) + 2)
        if most_chars is not None and size + grows > most_chars:
            break
        size += grows
        seen.add(category)
        taken += 1
    lines = [title, ""] if title else []
    for category in CATEGORIES:
        texts = [text for c, text in entries[:taken] if c == category]
        if texts:
            lines += [_heading(category), *(f"- {text}" for text in texts), ""]
    left = max(total or 0, len(entries)) - taken
    if left:
        lines.append(_LEFT_OUT.format(left=left, noun="memory was" if left == 1 else "memories were"))
    return "\n".join(lines).rstrip("\n") + "\n", taken


def _heading(category: str) -> str:
    return "## " + category.replace("-", " ").capitalize()
