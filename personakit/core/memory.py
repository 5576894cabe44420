"""The memory record and its file: states, categories, identity, parsing and minimal rewrites.

A memory is a Markdown file whose front matter holds `id`, `category`, `state`, `evidence`, `proposed_by`
and `created`, and whose body is the memory's text. The file is the truth; everything else is derived.
Three more keys link memories (see `personakit.owner.corrections`): `replaces` (the id of the memory a
correction replaces), `replaced_by` (on a memory the owner retired for a correction) and `similar` (the
ids of near-duplicates a proposal had when it was made). A value that is not an id is ignored.

Rewrites are line edits on the front matter, never a load-and-dump of the YAML: a state change touches
the one `state:` line and an evidence append adds one line, so an owner's formatting, comments and extra
keys survive and `git log -p` shows only the decision.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Literal, get_args

import frontmatter
import yaml

Category = Literal[
    "communication", "work-style", "tools", "preferences", "background", "constraints", "other"
]
State = Literal["unconfirmed", "approved", "rejected", "restricted"]
CATEGORIES: tuple[str, ...] = get_args(Category)
STATES: tuple[str, ...] = get_args(State)
VISIBLE_STATES = ("unconfirmed", "approved")  # the states a read may return
VERB = {"approved": "approve", "rejected": "reject", "restricted": "restrict", "unconfirmed": "unconfirm"}
MAX_TEXT = 300  # characters of memory text, as the contract says
MAX_QUOTE_STORED = 1_000  # characters of one stored quote; a read serves at most 240 of them

_ID = re.compile(r"^m_[0-9a-f]{12}$")
_SPACE = re.compile(r"\s+")
_TRAILING = ".!?,;:…。！？、"


class InvalidMemory(ValueError):
    """A memory file that cannot be read; `line` is 1-based in the file when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def clean(text: str) -> str:
    """One line of printable text: whitespace runs become one space; control characters are dropped."""
    text = _SPACE.sub(" ", text).strip()
    return "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cs"))


def normalize(text: str) -> str:
    """The form two texts share when they are "the same memory": case, spacing and end punctuation aside."""
    text = unicodedata.normalize("NFKC", clean(text)).casefold()
    return text.rstrip(_TRAILING + " ").strip()


def memory_id(text: str) -> str:
    return "m_" + hashlib.sha256(normalize(text).encode("utf-8")).hexdigest()[:12]


# Names Windows keeps for devices, whatever the extension: a memory file must never be called one.
_DEVICES = frozenset(["con", "prn", "aux", "nul", *(f"{p}{n}" for p in ("com", "lpt") for n in range(10))])


def _slug_words(text: str) -> list[str]:
    """Runs of letters, marks and digits, in any script; a Latin word loses its accents (Café: cafe)."""
    if text.isascii():
        return re.findall(r"[a-z0-9]+", text.lower())
    found, run = [], []
    for char in text + " ":
        if unicodedata.category(char)[0] in "LMN":
            run.append(char)
        elif run:
            found.append("".join(run))
            run = []
    plain = []
    for word in found:
        bare = "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))
        plain.append("".join(re.findall(r"[a-z0-9]+", bare.lower())) if bare.isascii() else word)
    return [w for w in plain if w]


def slug(text: str, most: int = 60, most_bytes: int = 120) -> str:
    """A file-name stem of letters, digits and dashes, so it can never name a path.

    Latin letters lose their accents (Café: cafe); the letters of other scripts stay, in NFC (東京に住む,
    мой). At most `most` characters and `most_bytes` bytes of UTF-8 (file systems count bytes)."""
    out = ""
    for word in _slug_words(unicodedata.normalize("NFC", text).casefold()):
        joined = f"{out}-{word}" if out else word
        if len(joined) > most or len(joined.encode()) > most_bytes:
            if not out:  # one long word (a sentence in a script without spaces): as much of it as fits
                while word and (len(word) > most or len(word.encode()) > most_bytes):
                    word = word[:-1]
                out = word
            break
        out = joined
    return out if out and out not in _DEVICES else f"{out}-memory".lstrip("-")


@dataclass(frozen=True)
class Memory:
    id: str
    text: str
    category: Category
    state: State  # the effective state: a missing or unknown one reads as "restricted"
    evidence: tuple[str, ...] = ()
    proposed_by: str = ""
    created: str = ""
    name: str = ""  # the file name inside memories/
    problems: tuple[str, ...] = field(default=(), compare=False)  # what doctor should report
    replaces: str = ""  # the id of the memory this one corrects, as proposed
    replaced_by: str = ""  # the id of the correction the owner approved in this one's place
    similar: tuple[str, ...] = ()  # ids of near-duplicates it had when proposed

    @property
    def confirmed(self) -> bool:
        return self.state == "approved"


def _as_text(value: object) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, date):
        return value.isoformat()
    return "" if value is None else str(value)


def _wrong(key: str, value: object, wanted: str) -> str:
    """What is wrong with a front-matter value, in words: "state 'aproved' is not a state"."""
    if value is None:
        return f"{key} is missing"
    if isinstance(value, str):
        return f"{key} '{value}' is not {wanted}" if value.strip() else f"{key} is empty"
    if isinstance(value, bool):
        return f"{key} is a yes or no, not {wanted}"
    if isinstance(value, list | dict):
        return f"{key} is {'a list' if isinstance(value, list) else 'a set of keys'}, not {wanted}"
    return f"{key} {_as_text(value)} is not {wanted}"


def parse_memory(raw: str, name: str = "") -> Memory:
    """Read a memory file's text. Lenient where a person could have typed it, strict where privacy is at stake."""
    if raw.startswith("\ufeff"):
        raw = raw[1:]
    if not raw.strip():
        raise InvalidMemory("the file is empty", 1)
    if not raw.startswith("---"):
        raise InvalidMemory("no front matter: the file must start with a line '---'", 1)
    try:
        post = frontmatter.loads(raw)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None  # the YAML text starts on the opening line
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise InvalidMemory(f"the front matter is not valid YAML: {problem}", line) from None
    meta = post.metadata
    if not isinstance(meta, dict) or not meta:
        raise InvalidMemory("the front matter is empty or not a set of 'key: value' lines", 1)
    text = clean(post.content)
    if not text:
        raise InvalidMemory("the memory text (below the front matter) is empty")

    problems: list[str] = []
    raw_state = meta.get("state")
    state: State = raw_state if isinstance(raw_state, str) and raw_state in STATES else "restricted"  # type: ignore[assignment]
    if state != raw_state:
        problems.append(f"{_wrong('state', raw_state, 'a state')}: treated as restricted")
    typed = meta.get("category")
    category: Category = typed if typed in CATEGORIES else "other"  # type: ignore[assignment]
    if category != typed:
        problems.append(f"{_wrong('category', typed, 'one of the seven')}: read as 'other'")
    mid = meta.get("id")
    if not (isinstance(mid, str) and _ID.match(mid)):
        if mid is not None:  # a missing id is no problem: it is made from the text, and written in
            problems.append(f"{_wrong('id', mid, 'm_ and 12 hex digits')}: made from the text instead")
        mid = memory_id(text)
    evidence = meta.get("evidence")
    if evidence is None:
        quotes: list[str] = []
    elif isinstance(evidence, list):
        quotes = [clean(_as_text(q)) for q in evidence if q is not None]
    else:
        problems.append("evidence is not a list: read as a list of one quote")
        quotes = [clean(_as_text(evidence))]
    if len(text) > MAX_TEXT:
        problems.append(f"the text is {len(text)} characters, over the {MAX_TEXT} a proposal may have")
    similar = meta.get("similar")
    return Memory(
        id=mid,
        text=text,
        category=category,
        state=state,
        evidence=tuple(q for q in quotes if q),
        proposed_by=clean(_as_text(meta.get("proposed_by"))),
        created=_as_text(meta.get("created")),
        name=name,
        problems=tuple(problems),
        replaces=_an_id(meta.get("replaces")),
        replaced_by=_an_id(meta.get("replaced_by")),
        similar=tuple(
            dict.fromkeys(i for i in map(_an_id, similar if isinstance(similar, list) else [similar]) if i)
        ),
    )


def is_id(value: object) -> bool:
    """Is value a memory id: `m_` and 12 lowercase hex digits, nothing more?"""
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def _an_id(value: object) -> str:
    return value if is_id(value) else ""  # type: ignore[return-value]


def _scalar(value: str) -> str:
    """value as one line of YAML that reads back as exactly that string."""
    dumped = yaml.safe_dump([value], allow_unicode=True, width=2**31, default_flow_style=False)
    return dumped.rstrip("\n")[2:]


def render_memory(memory: Memory) -> str:
    """The text of a new memory file, in the documented key order."""
    lines = ["---", f"id: {memory.id}", f"category: {memory.category}", f"state: {memory.state}", "evidence:"]
    lines += [f"  - {_scalar(q)}" for q in memory.evidence]
    lines += [f"proposed_by: {_scalar(memory.proposed_by or 'unknown')}", f"created: {memory.created}"]
    if memory.replaces:
        lines.append(f"replaces: {memory.replaces}")
    if memory.similar:
        lines += ["similar:", *(f"  - {mid}" for mid in memory.similar)]
    lines.append("---")
    return "\n".join(lines) + "\n" + memory.text + "\n"


def _front_matter_end(lines: list[str]) -> int:
    if not lines or lines[0].rstrip("\r\n").lstrip("\ufeff") != "---":
        raise InvalidMemory("no front matter", 1)
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n") in ("---", "..."):
            return i
    raise InvalidMemory("the front matter has no closing '---'")


def _newline(lines: list[str]) -> str:
    return "\r\n" if lines[0].endswith("\r\n") else "\n"


def set_key(raw: str, key: str, value: str) -> str:
    """raw with its top-level `key:` line (and only that line) saying value; a comment on it stays."""
    lines = raw.splitlines(keepends=True)
    end = _front_matter_end(lines)
    nl = _newline(lines)
    for i in range(1, end):
        if re.match(rf"{re.escape(key)}\s*:", lines[i]):
            comment = re.search(r"\s+#.*$", lines[i].rstrip("\r\n"))
            lines[i] = f"{key}: {value}{comment.group(0) if comment else ''}{nl}"
            break
    else:
        lines.insert(end, f"{key}: {value}{nl}")
    return "".join(lines)


def set_state(raw: str, state: str) -> str:
    if state not in STATES:
        raise ValueError(f"unknown state {state!r}")
    return set_key(raw, "state", state)


def set_category(raw: str, category: str) -> str:
    if category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}")
    return set_key(raw, "category", category)


def add_evidence(raw: str, quote: str) -> str:
    """raw with quote appended to its evidence list, touching as few lines as possible."""
    lines = raw.splitlines(keepends=True)
    end = _front_matter_end(lines)
    nl = _newline(lines)
    item = _scalar(quote)
    for i in range(1, end):
        if not re.match(r"evidence\s*:", lines[i]):
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
            old = parse_memory(raw).evidence
            block = [f"evidence:{nl}"] + [f"  - {_scalar(q)}{nl}" for q in (*old, quote)]
            lines[i : i + 1] = block
        break
    else:
        lines[end:end] = [f"evidence:{nl}", f"  - {item}{nl}"]
    return "".join(lines)


def with_memory_id(raw: str, memory_id: str) -> str:
    """raw with `id: memory_id` as its first front-matter line, when it has no id (or an empty one)."""
    lines = raw.splitlines(keepends=True)
    end = _front_matter_end(lines)
    for i in range(1, end):
        found = re.match(r"id\s*:(.*)$", lines[i].rstrip("\r\n"))
        if found:
            value = found.group(1).split(" #")[0].strip()
            return raw if value and value not in ("~", "null", "''", '""') else set_key(raw, "id", memory_id)
    lines.insert(1, f"id: {memory_id}{_newline(lines)}")
    return "".join(lines)
