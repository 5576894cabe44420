"""A random string that a regex matches, as gitleaks' `secrets.NewSecret` (a port of lucasjones/reggen)
draws one: each unbounded repeat at most one more than its least."""

from __future__ import annotations

import random
import re
from typing import Any

try:
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # Python < 3.11
    import sre_parse  # type: ignore[no-redef]

_CATEGORY = {
    "CATEGORY_DIGIT": "0123456789",
    "CATEGORY_WORD": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
    "CATEGORY_SPACE": " ",
}
_PRINTABLE = [chr(c) for c in range(33, 127)]


def _chars(items: list[tuple[Any, Any]]) -> list[str]:
    chars: list[str] = []
    negate = False
    for op, value in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            chars.append(chr(value))
        elif name == "RANGE":
            chars += [chr(c) for c in range(value[0], value[1] + 1)]
        elif name == "CATEGORY":
            chars += list(_CATEGORY.get(str(value), "a"))
    if negate:
        return [c for c in _PRINTABLE if c not in chars] or ["a"]
    return chars


def _generate(parsed: Any, rng: random.Random, extra: int = 1) -> str:
    out: list[str] = []
    for op, value in parsed:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(value))
        elif name == "NOT_LITERAL":
            out.append(rng.choice([c for c in _PRINTABLE if ord(c) != value]))
        elif name == "ANY":
            out.append(rng.choice(_PRINTABLE))
        elif name == "IN":
            out.append(rng.choice(_chars(value)))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, sub = value
            high = low + extra if high == sre_parse.MAXREPEAT else high  # reggen's Generate(1)
            out += [_generate(sub, rng, extra) for _ in range(rng.randint(low, high))]
        elif name == "SUBPATTERN":
            out.append(_generate(value[-1], rng, extra))
        elif name == "BRANCH":
            out.append(_generate(rng.choice(value[1]), rng, extra))
        elif name == "CATEGORY":
            out.append(rng.choice(_CATEGORY.get(str(value), "a")))
        # AT (anchors), GROUPREF and the like write nothing
    return "".join(out)


def new_secret(regex: str, rng: random.Random) -> str:
    regex = (
        regex.replace(r"\z", r"\Z").replace("[[:alnum:]]", "[A-Za-z0-9]").replace("[:alnum:]", "A-Za-z0-9")
    )
    regex = re.sub(r"\(\?P?<\w+>", "(", regex)
    return _generate(sre_parse.parse(regex), rng)
