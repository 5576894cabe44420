"""Secrets recognised by their own shape: provider keys, structured secrets and PEM blocks.

1. **Provider keys** with a published prefix (`sk-ant-`, `AKIA`, `ghp_`, `xoxb-`, ...; the table is
   `credential_patterns.PROVIDERS`). The key must still mix character classes, so prose such as
   `sk-learn-compatible` is not one. Keys their provider documents as public (`pk_live_`, a Supabase
   `anon` JWT) are not secrets.
2. **Structured secrets**: JWTs, password hashes, the password of a connection string, `Authorization`
   headers, `curl -u user:pass`, `.netrc` lines.
3. **PEM blocks**: private-key blocks are secrets, public ones (certificates, public keys) mark text that
   the random-token check leaves alone.

Keys without a name on them (random tokens, private-key bodies) are `credential_bodies`.

Speed: every regex is compiled once and runs in linear time. Provider patterns start with a literal (a
word boundary is checked in Python, because a leading lookbehind makes `re` try every position). They read
only the long runs of key characters (`credential_runs`), joined, and the few shapes that hold spaces read
only the neighbourhood of their literal.
"""

from __future__ import annotations

import bisect
import json
import re
import string
from collections.abc import Callable

from personakit.core.credentials.bodies import decoded_text
from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.patterns import (
    ALL_CLASSES,
    ANY_CASE,
    LEADS,
    NEEDS_DIGIT,
    NOT_CAMEL,
    PROVIDERS,
    STRUCTURES,
)
from personakit.core.credentials.runs import LONG_RUN, Runs, Span

PROVIDER_RES = tuple((kind, lazy(pattern)) for kind, pattern in PROVIDERS)

# Shapes that hold spaces or characters outside a run, found from a literal at their start: the literal
# (on the lower-cased text) and how far the shape may reach from it.
_FROM_LITERAL = {
    "connection string": ("://", 700),
    "curl user": ("-u", 300),
    "netrc": ("machine", 900),
    "authorization": ("authorization", 700),
    "bearer": ("bearer", 600),
    "basic auth": ("basic", 600),
    "putty private key": ("private-lines", 4000),
    "teams webhook": ("webhook.office.com", 600),
    "argon2": ("$argon2", 400),
    "ldap ssha": ("{s", 300),
}

_IN_RUNS = tuple((kind, pattern) for kind, pattern in PROVIDER_RES if kind not in _FROM_LITERAL)

_AT_LITERALS = tuple((kind, pattern) for kind, pattern in PROVIDER_RES if kind in _FROM_LITERAL)

# For the seam checks (`engine`): the literals the shapes outside runs start from, and all the shapes
# read in runs as one pattern (names taken off their groups), which matches in a run if any of them does.
LITERALS = tuple(literal for literal, _ in _FROM_LITERAL.values())
_GROUP_NAME = re.compile(r"\(\?P<\w+>")
ANY_IN_RUN = lazy(
    "|".join("(?:" + _GROUP_NAME.sub("(?:", p) + ")" for kind, p in PROVIDERS if kind not in _FROM_LITERAL)
)

_PEM_BEGIN = lazy(r"-----BEGIN ([A-Z0-9 ]{1,60})-----")

_PEM_END = lazy(r"-----END ([A-Z0-9 ]{1,60})-----")

_PEM_BODY = lazy(r"[A-Za-z0-9+/=\s\\:,-]*")  # base64 lines, "\n" escapes, Proc-Type headers

_PEM_KEY_LINE = lazy(r"[A-Za-z0-9+/=]{20,}")  # a mention of the header alone is not a key

_PEM_PLACEHOLDER = lazy(r"(?i)[.…x*\s]*|<[^<>]*>|\[[^\[\]]*\]|\.\.\.[\w ]*\.\.\.")
_PEM_MAX = 65536  # private-key blocks are far smaller; a farther END belongs to something else

_URL = lazy(r"://[^\s<>\"'`]+|www\.[^\s<>\"'`]+")

_CAMEL_WORD = lazy(r"[A-Z]?[a-z]{3,}")
_PLACEHOLDER_AFTER = frozenset({"####", "****", "xxxx", "XXXX", "...."})  # xoxp-5723...-####

_SCHEME_CHARS = frozenset(string.ascii_letters + string.digits + "+.-")


def maybe_provider(text: str, lower: str) -> bool:
    """The quick check: False for text no provider pattern can match (most prose)."""
    return bool(LONG_RUN.search(text)) or any(literal in lower for literal, _ in _FROM_LITERAL.values())


def provider_spans(text: str, lower: str, runs: Runs, placeholder: Callable[[str], bool]) -> list[Span]:
    spans: list[Span] = []
    if runs.spans:
        joined = runs.joined
        for kind, pattern in _IN_RUNS:
            for match in pattern.finditer(joined):
                span = _provider_match(joined, kind, pattern, match, placeholder)
                if span:
                    spans.append(runs.back(*span))
    for kind, pattern in _AT_LITERALS:
        literal, reach = _FROM_LITERAL[kind]
        source = lower if kind in ANY_CASE else text
        windows: list[Span] = []
        position = lower.find(literal)
        while position >= 0:
            if windows and position <= windows[-1][1]:
                windows[-1] = (windows[-1][0], position + reach)
            else:  # a little before: "--user" holds the literal "-u" one character in
                windows.append((max(0, position - 2), position + reach))
            position = lower.find(literal, position + 1)
        for start, end in windows:
            for match in pattern.finditer(source, start, end):
                span = _provider_match(text, kind, pattern, match, placeholder)  # values keep their case
                if span:
                    spans.append(span)
    return spans


def _provider_match(
    text: str, kind: str, pattern: re.Pattern[str], match: re.Match[str], placeholder: Callable[[str], bool]
) -> Span | None:
    start, end = match.span("secret") if "secret" in pattern.groupindex else match.span()
    if kind in LEADS:
        start = _lead_start(text, start, *LEADS[kind])
        if start < 0:
            return None
    elif start > 0 and text[start - 1].isalnum() and text[start].isalnum():
        return None  # glued to a longer word, so part of that word
    value = text[start:end]
    if kind in NEEDS_DIGIT and not any(c.isdigit() for c in value):
        return None
    if kind not in STRUCTURES and not mixed(value) and kind != "aws access key id":  # AKIA + 16: exact enough
        return None
    if kind in ALL_CLASSES and not all(
        any(test(c) for c in value) for test in (str.islower, str.isupper, str.isdigit)
    ):
        return None
    if kind in NOT_CAMEL and sum(map(len, _CAMEL_WORD.findall(value))) >= 0.6 * len(value):
        return None
    if placeholder(value) or text[end : end + 4] in _PLACEHOLDER_AFTER:
        return None  # ghp_xxxx..., AKIAIOSFODNN7EXAMPLE, a password written as "password"
    if kind == "slack" and sum(c.isdigit() for c in value) < 4:
        return None  # a Slack token is mostly digits and hex; "xoxo-indieweb-1" is a file name
    if kind == "curl user" and (
        value == match.group("user") or len(set(value)) == 1 or value[0] in "[{$<%(" or value.startswith("-")
    ):
        return None  # test:test, xxx:yyy, [PASSWORD], $1:$2, {{ .Values.password }}
    if kind == "basic auth" and not _is_basic_credential(value, placeholder):
        return None
    if kind == "jwt" and _public_jwt(value):
        return None
    return start, end


def _lead_start(text: str, start: int, chars: str, fewest: int, most: int) -> int:
    """Where the lead before a key's literal begins, or -1 when it is too short."""
    lead = start
    while lead > 0 and start - lead < most and text[lead - 1] in chars:
        lead -= 1
    return lead if start - lead >= fewest else -1


def pem_spans(text: str) -> tuple[list[Span], list[Span]]:
    """Private-key blocks (secrets) and public blocks such as certificates (not secrets)."""
    ends: dict[str, list[int]] = {}
    for end in _PEM_END.finditer(text):
        ends.setdefault(end.group(1), []).append(end.start())
    private: list[Span] = []
    public: list[Span] = []
    pos = 0
    while begin := _PEM_BEGIN.search(text, pos):
        label = begin.group(1)
        positions = ends.get(label, [])
        index = bisect.bisect_left(positions, begin.end())
        complete = index < len(positions) and positions[index] - begin.end() <= _PEM_MAX
        if complete:
            body = text[begin.end() : positions[index]]
            stop = positions[index] + len(f"-----END {label}-----")
        else:  # cut short: the key runs as far as its base64 does
            body_match = _PEM_BODY.match(text, begin.end())
            stop = body_match.end() if body_match else begin.end()
            body = text[begin.end() : stop]
        if _PEM_KEY_LINE.search(body):
            (private if "PRIVATE" in label else public).append((begin.start(), stop))
        elif "PRIVATE" in label and (complete or body[:1] in "\r\n") and _written_body(body):
            private.append((begin.start(), stop))  # a private key written out in words is still one
        pos = max(stop, begin.end())
    return private, public


def _written_body(body: str) -> bool:
    """A private-key block's body that is not base64 but says something: two words or more, or twelve
    characters ("super secret private key here"); not one word ("anything"), nothing, or a placeholder."""
    words = body.split()
    return (len(words) >= 2 or len("".join(words)) >= 12) and not _PEM_PLACEHOLDER.fullmatch(body.strip())


def url_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for match in _URL.finditer(text):
        start = floor = match.start()
        if text.startswith("://", start):  # take in the scheme
            floor = max(0, start - 32)
        while start > floor and text[start - 1] in _SCHEME_CHARS:
            start -= 1
        spans.append((start, match.end()))
    return spans


def _public_jwt(token: str) -> bool:
    """A Supabase `anon` key: a JWT its provider documents as safe to put in a web page."""
    parts = token.split(".")
    payload = decoded_text(parts[1]) if len(parts) == 3 else None
    try:
        claims = json.loads(payload) if payload else None
    except ValueError:
        return False
    return isinstance(claims, dict) and claims.get("role") == "anon" and "supabase" in str(claims.get("iss"))


def _is_basic_credential(value: str, placeholder: Callable[[str], bool]) -> bool:
    """A Basic authorization value is base64 of "user:password"."""
    decoded = decoded_text(value)
    if decoded is None:
        return False
    _user, colon, password = decoded.partition(":")
    return bool(colon and password) and not placeholder(password)


def mixed(value: str) -> bool:
    """At least two of lower case, upper case and digits, as every generated key has."""
    return sum(any(test(c) for c in value) for test in (str.islower, str.isupper, str.isdigit)) >= 2
