"""When a memory was said, and until when it holds: `said` and `until`, as `YYYY-MM-DD` days.

- `said` is the day the owner said it. A proposal's is its first evidence's day, which is the day it was
  made (`created`), unless the host passes an older day (a conversation from before) or an import keeps
  its source's. A memory without `said` was said on its `created` day (`said_of`).
- `until` is the last day a memory holds (a trip, a project). After that day it is past (`is_past`): a
  read still returns it when it matches, marked, after current memories; it never fills a place, and the
  profile leaves it out.

Days are calendar days with no time zone; "today" is given by the caller (the owner's local day), so
this module reads no clock. A proposal's days are checked strictly (`check_day`); a file's are read
leniently (`read_day`) and what cannot be read is reported.
"""

from __future__ import annotations

import re
from datetime import date, datetime

EARLIEST = date(1900, 1, 1)
_DAY = re.compile(r"\d{4}-\d\d-\d\d")


def _as_day(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str) and _DAY.fullmatch(value.strip()):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            return None
    return None


def check_day(value: object, name: str, today: date) -> str | None:
    """A proposal's `said` or `until` as YYYY-MM-DD (None when not given); ValueError with one sentence
    when it is not a day, is before 1900, or (`said`) is after today."""
    if value is None or value == "":
        return None
    day = _as_day(value)
    shown = str(value)[:40]
    if day is None:
        raise ValueError(f"{name} '{shown}' is not a day written YYYY-MM-DD, such as 2026-12-20")
    if day < EARLIEST:
        raise ValueError(f"{name} {day.isoformat()} is before 1900")
    if name == "said" and day > today:
        raise ValueError(f"said {day.isoformat()} is in the future; give the day the user said it")
    return day.isoformat()


def read_day(value: object, name: str) -> tuple[str, str]:
    """A file's `said` or `until`: the day as YYYY-MM-DD ("" when none) and a problem ("" when none)."""
    if value is None or value == "":
        return "", ""
    day = _as_day(value)
    if day is None or day < EARLIEST:
        shown = str(value)[:40]
        return "", f"{name} '{shown}' is not a day written YYYY-MM-DD: read as no {name}"
    return day.isoformat(), ""


def said_of(said: str, created: str) -> str:
    """When a memory was said: its `said`, else the day of its `created` ("" when neither is a day)."""
    if said:
        return said
    day = _as_day(created[:10])
    return day.isoformat() if day else ""


def is_past(until: str, today: date) -> bool:
    """Has the memory's `until` day gone by? A memory without one never passes."""
    return bool(until) and until < today.isoformat()
