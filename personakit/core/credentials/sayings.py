"""Passwords said the way people say them in chat, where no word stands right before the value.

- the value first: `Tr0ub4dor&3 is the password for everything`, `Quarry#Stone9 was my old pin`;
- asked and answered: `My password? It's Sunflower2024`;
- after a clause: `the password is the dog's name plus 99: Biscuit99`;
- set off by commas: `I use the same password, Quarry#Stone9, on every site`;
- reused: `I always use Tr0ub4dor&3 for everything` (the sentence must say what for: a password, a
  login, every site, everything);
- a service and its password on a line of their own: `Netflix: Sunflower!2024`;
- a key said to be one: `the key's Sunflower2024`.

With so little around it, the value must look like a password on its own: letters and digits, and a
symbol or both cases (`Sunflower2024`, `Quarry#Stone9`); a line label's value needs a symbol, or all of
lower case, upper case and digits, so "Flight: BA2490" and "Version: v2.3.1" stay. Versions, times,
paths, addresses and URLs are never passwords here.
"""

from __future__ import annotations

import re

from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.patterns import PUBLISHABLE
from personakit.core.credentials.runs import Span
from personakit.core.credentials.values import placeholder_key

# "Password1 is the most common password": a password talked about, not one of the owner's.
_RANKED = (
    r"(?:most|common|popular|worst|weakest|weak|default|example|typical|sample|famous|top|classic|leaked)\b"
)
_WORD = r"(?:password|passcode|passphrase|passwd|pin|pw|pwd)"
_VALUE = r"(?P<value>[^\s,;\"'`()<>]{4,64})"
_SAID = (  # (pattern, what the lower-cased text must hold for it to be tried)
    (
        lazy(
            rf"(?i)(?<!\S){_VALUE} (?:is|was|'s|=) (?:the|my|our|your|his|her|their) (?:(?!{_RANKED})[\w-]+ ){{0,2}}{_WORD}\b"
        ),
        "pass",
    ),
    (lazy(rf"(?i)\b{_WORD}\?\s*(?:it'?s|it is|is|=)\s+{_VALUE}"), "?"),
    (lazy(rf"(?i)\b(?:password|passcode|passphrase|pw)\b[^.\n:]{{1,60}}:\s*{_VALUE}"), ":"),
    (lazy(rf"(?i)\b{_WORD}\s*,\s*{_VALUE},"), ","),
    (lazy(rf"(?i)\b(?<!publishable )(?:key|token|secret)(?:'s|\s+is)\s+{_VALUE}"), ""),
)
_REUSED = lazy(rf"(?i)\b(?:use|used|using|reuse|reused)\s+{_VALUE}\s+(?:for|on|everywhere|as|at)\b")
_REUSED_FOR = lazy(
    r"(?i)password|passcode|\bpw\b|log\s?in|sign\s?in|every\s?(?:thing|where|site|account)|go-to"
)
_LABEL = lazy(
    r"(?m)^[ \t]*(?:[-*•][ \t]*)?[A-Z][A-Za-z&+.' -]{1,24}:[ \t]+(?P<value>[^\s,;\"'`()<>:/]{6,32})[ \t]*$"
)
_SYMBOL = lazy(r"[!@#$%^&*?~+=]")
_NOT_A_PASSWORD = lazy(
    r"(?i).*(?:\d[.:/]\d|://|www\.|@.*\.|\.(?:com|org|net|io|md|py|txt|pdf)\b).*|v?\d[\d.]*"
)
_SENTENCE_END = lazy(r"[.!?\n]")
_END_PUNCTUATION = ".,;:!?)]}'\""


def saying_spans(text: str, lower: str, windows: list[Span]) -> list[Span]:
    """windows: where the words that name a secret are (`hints`); the sayings that hold one read only there."""
    spans: list[Span] = []
    for start, end in windows:
        window = lower[start:end]
        for pattern, sign in _SAID:
            if sign in window:
                spans += [
                    span for match in pattern.finditer(text, start, end) if (span := _judged(text, match))
                ]
    if (" use" in lower or lower.startswith("use")) and _REUSED_FOR.search(lower):
        for match in _REUSED.finditer(text):
            start = max(text.rfind(".", 0, match.start()), text.rfind("\n", 0, match.start())) + 1
            stop = _SENTENCE_END.search(text, match.end())
            value = match.group("value")
            plain = not _SYMBOL.search(value) and sum(c.isdigit() for c in value) < 2
            if (
                _REUSED_FOR.search(text, start, stop.end() if stop else len(text))
                and not plain
                and (span := _judged(text, match))
            ):
                spans.append(span)  # "use Python3 for everything" is a language, not a password
    if ":" in text:
        spans += [span for match in _LABEL.finditer(text) if (span := _judged(text, match))]
    return spans


def _judged(text: str, match: re.Match[str]) -> Span | None:
    start = match.start("value")
    value = match.group("value").rstrip(_END_PUNCTUATION)
    end = start + len(value)
    if len(value) < 6:
        return None
    if (
        value.lower().startswith(PUBLISHABLE)
        or placeholder_key(value)
        or _NOT_A_PASSWORD.fullmatch(value)
        or not (any(c.isalpha() for c in value) and any(c.isdigit() for c in value))
    ):
        return None
    symbol = bool(_SYMBOL.search(value))
    cases = any(c.isupper() for c in value) and any(c.islower() for c in value)
    return (start, end) if symbol or cases else None
