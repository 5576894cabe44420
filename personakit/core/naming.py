"""How a memory is named: the id it gets from its text as a person reads it, and its file name's slug.

An id is `m_` and 12 hex digits of the SHA-256 of the text's reading form: `normalize` (case, spacing
and end punctuation aside), with look-alike letters folded as the credential check folds them and a
hyphen inside a word dropped, so invisible or look-alike changes make no new memory; plain texts keep
the ids they always had. A memory about others adds their names. A file name is a slug of the text that
can never name a path or a device.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable

from personakit.core.credentials.textview import fold
from personakit.core.people import key as name_key

_SPACE = re.compile(r"\s+")
_TRAILING = ".!?,;:…。！？、"
# Characters a reader never sees: they must not make a text another memory, nor reach an assistant.
_INVISIBLE = re.compile("[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")
_JOINED = re.compile(r"(?<=[^\W\d_])[-\u2010\u2011](?=[^\W\d_])")  # a hyphen inside a word


def clean(text: str) -> str:
    """One line of printable text: invisible characters (zero-width spaces and joiners, bidirectional
    controls, soft hyphens) are dropped; a control character separates words as a space does (dropped, it
    would glue two words into one the question's words no longer find); whitespace runs become one space."""
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Cs") else c for c in _INVISIBLE.sub("", text))
    return _SPACE.sub(" ", text).strip()


def normalize(text: str) -> str:
    """The form two texts share when they are "the same memory": case, spacing and end punctuation aside."""
    text = unicodedata.normalize("NFKC", clean(text)).casefold()
    return text.rstrip(_TRAILING + " ").strip()


def reading_form(text: str) -> str:
    """The text as a person reads it, its id's source: `normalize`, look-alikes folded as the credential
    check folds them (`textview.fold`), a hyphen inside a word dropped (loan-shark is loanshark). For plain
    letters, digits and spaces it is `normalize` itself: their ids are what they always were."""
    plain = normalize(text)
    if plain.isascii() and "-" not in plain:
        return plain
    return _JOINED.sub("", fold(plain))


def memory_id(text: str, about: Iterable[str] = ()) -> str:
    """The id a proposal of text gets; about others (`about`), their names are part of what it is."""
    return _hashed(reading_form(text), about)


def memory_ids(text: str, about: Iterable[str] = ()) -> list[str]:
    """The ids a memory with this text may have: its id, then the one PersonaKit before 0.4 made (from
    `normalize` alone, invisible characters kept), which a memory proposed then still has."""
    kept = "".join(c for c in _SPACE.sub(" ", text).strip() if unicodedata.category(c) not in ("Cc", "Cs"))
    legacy = unicodedata.normalize("NFKC", kept).casefold().rstrip(_TRAILING + " ").strip()
    return list(dict.fromkeys([memory_id(text, about), _hashed(legacy, about)]))


def _hashed(form: str, about: Iterable[str]) -> str:
    form += "".join(f"\nabout {n}" for n in sorted({name_key(n) for n in about}))
    return "m_" + hashlib.sha256(form.encode("utf-8")).hexdigest()[:12]


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
