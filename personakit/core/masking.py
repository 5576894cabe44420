"""The only maker of what leaves the process: a memory as an assistant may see it.

Every memory a read returns passes through `present`, which keeps at most two quotes, masks email
addresses and anything credential-shaped an owner may have typed by hand, and shortens each quote to 240
characters. Restricted and rejected memories never reach this module: `reading` filters them first.
"""

from __future__ import annotations

import re
from functools import lru_cache

from typing_extensions import TypedDict  # pydantic needs it for schemas on Python < 3.12

from personakit.core.credentials import mask_credentials
from personakit.core.memory import Category, Memory
from personakit.core.proposal import shorten

MAX_QUOTES = 2
MAX_QUOTE_CHARS = 240
EMAIL_MASK = "[email]"
# Local part and domain as RFC 5322 allows in practice; the TLD needs two letters so "a@b" stays.
_EMAIL = re.compile(r"[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)*\.[^\W\d_]{2,}", re.UNICODE)


class SharedMemory(TypedDict):
    id: str
    text: str
    category: Category
    confirmed: bool
    evidence: list[str]


def mask(text: str) -> str:
    return mask_credentials(_EMAIL.sub(EMAIL_MASK, text))


def present(memory: Memory) -> SharedMemory:
    if memory.state not in ("approved", "unconfirmed"):
        raise ValueError(f"{memory.id} is {memory.state}: it must never leave the process")
    text, evidence = _masked(memory.text, memory.evidence[:MAX_QUOTES])
    return {
        "id": memory.id,
        "text": text,
        "category": memory.category,
        "confirmed": memory.confirmed,
        "evidence": list(evidence),
    }


@lru_cache(maxsize=4096)
def _masked(text: str, quotes: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """Masking scans for dozens of credential shapes; the same memories are read again and again."""
    return mask(text), tuple(shorten(mask(q), MAX_QUOTE_CHARS) for q in quotes)
