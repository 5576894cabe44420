"""Checking a proposal: the four refusal reasons, in the contract's order, before anything touches disk;
then its optional names and days (`who_and_when`), each wrong one a sentence."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Literal, cast, get_args

from personakit.core.credentials.engine import holds_credential
from personakit.core.memory import CATEGORIES, MAX_QUOTE_STORED, MAX_TEXT, Category
from personakit.core.naming import clean
from personakit.core.people import check_about
from personakit.core.when import check_day

Reason = Literal["empty_text", "too_long", "credential_shape", "empty_quote"]
REASONS: tuple[str, ...] = get_args(Reason)


@dataclass(frozen=True)
class Proposal:
    """A proposal that passed every check: cleaned text and quote, and a known category."""

    text: str
    quote: str
    category: Category


def shorten(text: str, most: int) -> str:
    """text cut to at most `most` characters, at a word boundary when one is near, ending in '…'."""
    if len(text) <= most:
        return text
    cut = text[: most - 1]
    space = cut.rfind(" ")
    if space >= most * 2 // 3:
        cut = cut[:space]
    return cut.rstrip() + "…"


def check_proposal(text: str, quote: str, category: str) -> Proposal | Reason:
    """The accepted Proposal, or the reason it is refused."""
    text, quote = clean(text), clean(quote)
    if not text:
        return "empty_text"
    if len(text) > MAX_TEXT:
        return "too_long"
    if holds_credential(text, quote):  # each alone, and the two joined: a key cut in two is still a key
        return "credential_shape"
    if not quote:
        return "empty_quote"
    known = category.strip().lower() if isinstance(category, str) else ""
    return Proposal(
        text, shorten(quote, MAX_QUOTE_STORED), cast(Category, known) if known in CATEGORIES else "other"
    )


def who_and_when(
    about: object, said: object, until: object, today: date
) -> tuple[tuple[str, ...], str, str] | str:
    """A proposal's names and days, checked; a sentence saying what is wrong when one is."""
    names = check_about(about)
    if isinstance(names, str):
        return names
    try:
        said_day = check_day(said, "said", today) or ""
        until_day = check_day(until, "until", today) or ""
    except ValueError as error:
        return f"{error}; nothing was stored"
    if said_day and until_day and until_day < said_day:
        return f"until {until_day} is before said {said_day}; nothing was stored"
    return names, said_day, until_day
