"""Secrets recognised by their own shape, with no word around them.

1. **Provider keys** with a published prefix (`sk-ant-`, `AKIA`, `ghp_`, `xoxb-`, ...; the table is
   `credential_patterns.PROVIDERS`). The key must still mix character classes, so prose such as
   `sk-learn-compatible` is not one. Keys their provider documents as public (`pk_live_`, a Supabase
   `anon` JWT) are not secrets.
2. **Structured secrets**: JWTs, password hashes, the password of a connection string, `Authorization`
   headers, `curl -u user:pass`, `.netrc` lines, PEM private-key blocks.
3. **Private-key bodies with no header**: base64 whose first bytes are the DER of a private key (PKCS#1,
   PKCS#8, SEC1), an `openssh-key-v1` blob or an OpenPGP secret-key packet, at any length. A public key
   or a certificate starts differently and is left alone.
4. **Any other long random token**: 32 to 512 characters of the base64 alphabet with letters and digits,
   high entropy, frequent switches between upper case, lower case and digits, and not made of words.
   Base64 that decodes to readable text counts only if that text holds a secret.

Deliberately not secrets: hex of any length (commit hashes, digests; a hex secret is caught by its label),
UUIDs, document ids in a URL's path, SSH public keys and certificates, Subresource-Integrity hashes, base64
runs over 512 characters that are not a private key (data), IPFS and Bitcoin identifiers.

Speed: every regex is compiled once and runs in linear time. Provider patterns start with a literal (a
word boundary is checked in Python, because a leading lookbehind makes `re` try every position), and all
of them are skipped for text with no run of 14 token characters and none of a few short literals.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import hashlib
import itertools
import json
import math
import re
import string
from collections import Counter
from collections.abc import Callable

from personakit.core.credential_patterns import (
    ANY_CASE,
    LEADS,
    NEEDS_DIGIT,
    PROVIDERS,
    PUBLISHABLE,
    STRUCTURES,
    WRITTEN_PASSWORDS,
)

Span = tuple[int, int]

PROVIDER_RES = tuple((kind, re.compile(pattern)) for kind, pattern in PROVIDERS)
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
# Runs of key characters long enough to hold a provider key: every provider shape in _IN_RUNS lies
# inside one (a test checks it), so only the runs are read, joined by line breaks.
RUN_CHARS = "A-Za-z0-9_+/=.$%~:-"
LONG_RUN = re.compile(rf"[{RUN_CHARS}]{{14,}}")

_PEM_BEGIN = re.compile(r"-----BEGIN ([A-Z0-9 ]{1,60})-----")
_PEM_END = re.compile(r"-----END ([A-Z0-9 ]{1,60})-----")
_PEM_BODY = re.compile(r"[A-Za-z0-9+/=\s\\:,-]*")  # base64 lines, "\n" escapes, Proc-Type headers
_PEM_KEY_LINE = re.compile(r"[A-Za-z0-9+/=]{20,}")  # a mention of the header alone is not a key
_PEM_MAX = 65536  # private-key blocks are far smaller; a farther END belongs to something else

_RUN = re.compile(r"[A-Za-z0-9+/_=-]{32,}")
_NEXT_KEY_LINE = re.compile(r"\s{1,4}[A-Za-z0-9+/]{4,76}={0,2}(?![^\s])")
_URL = re.compile(r"://[^\s<>\"'`]+|www\.[^\s<>\"'`]+")
_SCHEME_CHARS = frozenset(string.ascii_letters + string.digits + "+.-")
_NOT_RANDOM = re.compile(
    r"(?:0x)?[0-9a-fA-F]+|[0-9a-fA-F-]+|[0-9/_=-]+"  # hex digests, UUIDs, numbers
    r"|sha(?:256|384|512)-.*|AAAA.*"  # Subresource Integrity, SSH public keys
    r"|Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[a-z2-7]{50,}"  # IPFS
    r"|bc1[a-z0-9]{25,90}|[13][1-9A-HJ-NP-Za-km-z]{25,34}"  # Bitcoin
    r"|[xtyzuv]pub[1-9A-HJ-NP-Za-km-z]{100,112}"  # extended public keys
)
_SEGMENT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_CAPITALIZED_WORD = re.compile(r"[A-Z][a-z]{2,}")
_NAME_BREAK = re.compile(r"[_/-]+")
RUN_MIN, RUN_MAX = 32, 512
# Calibrated on thousands of random keys per alphabet (base62, base64, lower or upper case with digits,
# base32) of 32 to 128 characters: their 1st percentile lies above both thresholds.
_ENTROPY_PER_LOG2 = 0.72  # bits per character, as a share of log2(length) (log2(64) at most)
_MIN_SWITCHES = 0.1  # share of neighbouring characters that switch between upper, lower and digit
# DER openings of private keys: SEQUENCE, then version 0 and a modulus (PKCS#1) or an algorithm
# (PKCS#8), or version 1 and an octet string (SEC1); "openssh-key-v1"; OpenPGP secret-key packets.
_PRIVATE_DER = re.compile(
    rb"\x30(?:\x82..|\x81.|[\x00-\x7f])\x02\x01(?:\x00(?:\x02|\x30)|\x01\x04)", re.DOTALL
)
_PGP_SECRET = frozenset({0x94, 0x95, 0x96, 0x97, 0x9C, 0x9D, 0x9E, 0x9F, 0xC5, 0xC7})


class Runs:
    """The long runs of key characters in a text, joined by line breaks, with the way back to the text."""

    def __init__(self, text: str) -> None:
        self.spans = [m.span() for m in LONG_RUN.finditer(text)]
        self.joined = "\n".join(text[start:end] for start, end in self.spans)
        self._starts: list[int] = []
        position = 0
        for start, end in self.spans:
            self._starts.append(position)
            position += end - start + 1

    def back(self, start: int, end: int) -> Span:
        index = bisect.bisect_right(self._starts, start) - 1
        offset = self.spans[index][0] - self._starts[index]
        return start + offset, end + offset

    def run_start(self, start: int) -> int:
        """Where the long run holding text position start begins."""
        return self.spans[bisect.bisect_right([s for s, _ in self.spans], start) - 1][0]


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
            else:
                windows.append((position, position + reach))
            position = lower.find(literal, position + 1)
        for start, end in windows:
            for match in pattern.finditer(source, start, end):
                span = _provider_match(source, kind, pattern, match, placeholder)
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
    if kind not in STRUCTURES and not mixed(value):
        return None
    if kind in WRITTEN_PASSWORDS and placeholder(value):
        return None
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
        if index < len(positions) and positions[index] - begin.end() <= _PEM_MAX:
            body = text[begin.end() : positions[index]]
            stop = positions[index] + len(f"-----END {label}-----")
        else:  # cut short: the key runs as far as its base64 does
            body_match = _PEM_BODY.match(text, begin.end())
            stop = body_match.end() if body_match else begin.end()
            body = text[begin.end() : stop]
        if _PEM_KEY_LINE.search(body):
            (private if "PRIVATE" in label else public).append((begin.start(), stop))
        pos = max(stop, begin.end())
    return private, public


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


def random_token_spans(
    text: str, runs: Runs, excluded: list[Span], is_secret_text: Callable[[str], bool]
) -> list[Span]:
    """Long random-looking tokens outside URLs and public key blocks, and private-key bodies anywhere."""
    zones = merge(excluded)
    zone_starts = [start for start, _ in zones]
    spans: list[Span] = []
    for joined_run in _RUN.finditer(runs.joined):
        start, end = runs.back(*joined_run.span())
        token = joined_run.group()
        if private_key_body(token):
            spans.append((start, _key_lines_end(text, end)))
            continue
        if len(token) in (51, 52) and _base58check(token):
            spans.append((start, end))  # a Bitcoin private key (WIF)
            continue
        if len(token) > 4 * RUN_MAX:
            continue  # data, such as an inlined image
        index = bisect.bisect_right(zone_starts, end - 1) - 1
        if index >= 0 and zones[index][1] > start:
            continue
        if text.endswith("base64,", 0, start):
            continue  # a data URI: content, not a key
        if "/" in token and text.endswith(".", 0, start):
            continue  # the path after a bare domain, as in docs.google.com/document/d/<id>
        if text[runs.run_start(start) :].lower().startswith(PUBLISHABLE):
            continue  # a key its provider documents as public (pk_live_..., pk.eyJ...)
        offset = start
        name = ""
        for piece in token.split("="):  # KEY=value; trailing padding leaves empty pieces
            public = piece.lower().startswith(PUBLISHABLE) or "PUBLI" in name.upper()
            if len(piece) >= RUN_MIN and not public and looks_random(piece, is_secret_text):
                spans.append((offset, offset + len(piece)))
            offset += len(piece) + 1
            name = piece
    return spans


def _key_lines_end(text: str, end: int) -> int:
    """Where a private-key body that goes on in lines ends: after its last line of base64."""
    while line := _NEXT_KEY_LINE.match(text, end):
        end = line.end()
    return end


_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58_SET = frozenset(_BASE58)


def _base58check(token: str) -> bool:
    """Base58 whose last four bytes are its double SHA-256 checksum, with a private key's length."""
    if not _BASE58_SET.issuperset(token) or token[0] not in "5KLc9":
        return False
    number = 0
    for char in token:
        number = number * 58 + _BASE58.index(char)
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    payload, checksum = raw[:-4], raw[-4:]
    return (
        len(payload) in (33, 34) and hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == checksum
    )


def private_key_body(token: str) -> bool:
    """Whether base64 (possibly in lines) opens with the bytes of a private key."""
    head = "".join(token[:120].split())[:64]
    if len(head) < 40:
        return False
    try:
        raw = base64.b64decode(head[: len(head) // 4 * 4], validate=True)
    except (binascii.Error, ValueError):
        return False
    if raw.startswith(b"openssh-key-v1\x00"):
        return True
    if raw[0] in _PGP_SECRET and len(token) >= 200:
        return _pgp_secret_packet(raw)
    return bool(_PRIVATE_DER.match(raw))


def _pgp_secret_packet(raw: bytes) -> bool:
    """An OpenPGP secret-key packet: a header, then version 4 or 5 and a known public-key algorithm."""
    if raw[0] >= 0xC0:  # new format: one length octet below 192, or two
        body = raw[2:] if raw[1] < 192 else raw[3:]
    else:
        body = raw[1 + (1 << (raw[0] & 0x03)) :] if (raw[0] & 0x03) < 3 else raw[1:]
    return len(body) > 6 and body[0] in (4, 5) and body[5 if body[0] == 4 else 5] in (1, 16, 17, 18, 19, 22)


def looks_random(token: str, is_secret_text: Callable[[str], bool]) -> bool:
    """Long, mixed, high-entropy and not made of words."""
    length = len(token)
    if length > RUN_MAX or _NOT_RANDOM.fullmatch(token):
        return False
    if not any(c.isdigit() for c in token) or not any(c.isalpha() for c in token):
        return False
    entropy = -sum(n / length * math.log2(n / length) for n in Counter(token).values())
    if entropy < _ENTROPY_PER_LOG2 * math.log2(min(length, 64)):
        return False
    kinds = [0 if c.isdigit() else 1 if c.isupper() else 2 for c in token if c.isalnum()]
    if sum(a != b for a, b in itertools.pairwise(kinds)) / max(1, len(kinds) - 1) < _MIN_SWITCHES:
        return False
    if made_of_names(token):
        return False
    decoded = decoded_text(token)
    if decoded is not None:
        return is_secret_text(decoded)  # base64 of words or JSON, unless they hide a secret
    letters = [c for c in token if c.isalpha()]
    vowels = sum(c in "aeiouAEIOU" for c in letters) / len(letters)
    segments = _SEGMENT.findall(token)
    mean_segment = sum(map(len, segments)) / len(segments)
    capitalized = sum(map(len, _CAPITALIZED_WORD.findall(token))) / length  # CamelCase identifiers
    return not ((vowels >= 0.3 and mean_segment >= 3.0) or (vowels >= 0.25 and capitalized >= 0.6))


def made_of_names(token: str) -> bool:
    """TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, deps/openssl/crypto/x509: parts that each keep one case.

    A random key's separators cut it into parts that mix upper and lower case; a constant, a path or
    an advisory id is made of words, acronyms, numbers and hashes, each in one case.
    """
    parts = [part for part in _NAME_BREAK.split(token) if part]
    if len(parts) < 3:
        return False
    mixed_length = sum(len(part) for part in parts if not _one_case(part))
    return mixed_length <= 0.25 * len(token)


def _one_case(part: str) -> bool:
    """SHA256, x509, 2024, Policy, SecurityPolicy: a word, acronym or number rather than random text."""
    if part.isupper() or part.islower() or part.isdigit() or part.istitle():
        return True
    return sum(map(len, _CAPITALIZED_WORD.findall(part))) >= 0.6 * len(part)


def decoded_text(token: str) -> str | None:
    """The text that token is base64 of, if it decodes to printable text (a JWT header, a sentence)."""
    stripped = token.rstrip("=")
    if len(stripped) % 4 == 1:
        return None
    padded = stripped + "=" * (-len(stripped) % 4)
    altchars = b"-_" if "-" in token or "_" in token else None
    try:
        decoded = base64.b64decode(padded, altchars=altchars, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return decoded if decoded.isprintable() else None


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


def merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        elif end > start:
            merged.append((start, end))
    return merged
