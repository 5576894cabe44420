"""Key material with no name on it: long random tokens, private-key bodies, Bitcoin private keys.

- **Private-key bodies with no header**: base64 whose first bytes are the DER of a private key (PKCS#1,
  PKCS#8, SEC1), an `openssh-key-v1` blob or an OpenPGP secret-key packet, at any length, with the lines
  that follow it. A public key or a certificate starts differently and is left alone.
- **Bitcoin private keys** (WIF): base58 with a valid double-SHA-256 checksum.
- **Any other long random token**: 32 to 512 characters of the base64 alphabet with letters and digits,
  high entropy, frequent switches between upper case, lower case and digits, and not made of words.
  Base64 that decodes to readable text counts only if that text holds a secret.

Deliberately not secrets: hex of any length (commit hashes, digests; a hex secret is caught by its label),
UUIDs, document ids in a URL's path, SSH public keys and certificates, Subresource-Integrity hashes, base64
runs over 512 characters that are not a private key (data), IPFS and Bitcoin addresses, extended public
keys, and keys their provider documents as public (`pk_live_...`).

Only the long runs of key characters (`credential_runs`) are read, so prose costs next to nothing.
"""

from __future__ import annotations

import base64
import binascii
import bisect
import hashlib
import itertools
import math
import re
from collections import Counter
from collections.abc import Callable

from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.patterns import PUBLISHABLE
from personakit.core.credentials.runs import Runs, Span, merge

_RUN = lazy(r"[A-Za-z0-9+/_=-]{32,}")
_NEXT_KEY_LINE = lazy(r"\s{1,4}[A-Za-z0-9+/]{4,76}={0,2}(?![^\s])")
_NOT_RANDOM = lazy(
    r"(?:0x)?[0-9a-fA-F]+|[0-9a-fA-F-]+|[0-9/_=-]+"  # hex digests, UUIDs, numbers
    r"|sha(?:256|384|512)-.*|AAAA.*"  # Subresource Integrity, SSH public keys
    r"|Qm[1-9A-HJ-NP-Za-km-z]{44}|baf[a-z2-7]{50,}"  # IPFS
    r"|bc1[a-z0-9]{25,90}|[13][1-9A-HJ-NP-Za-km-z]{25,34}"  # Bitcoin
    r"|[xtyzuv]pub[1-9A-HJ-NP-Za-km-z]{100,112}"  # extended public keys
)
_PUBLIC_NAME = lazy(r"(?i)(?:publi|pub_?key)[\w-]*[\"'\]]?[ \t]*(?::|=>?)[ \t]*[\"'`]?\Z")
_SEGMENT = lazy(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_CAPITALIZED_WORD = lazy(r"[A-Z][a-z]{2,}")
_NAME_BREAK = lazy(r"[_/-]+")
_SWITCHES = lazy(r"[A-Za-z](?=\d)|\d(?=[A-Za-z])")
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
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BASE58_SET = frozenset(_BASE58)


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
        if text.endswith(("SHA256:", "SHA1:", "MD5:", "sha256:"), 0, start):
            continue  # a public key's fingerprint, as ssh prints it
        if text.endswith("base64,", 0, start):
            continue  # a data URI: content, not a key
        if "/" in token and text.endswith(".", 0, start):
            continue  # the path after a bare domain, as in docs.google.com/document/d/<id>
        run_start = runs.run_start(start)
        named = text[run_start:start].lower()  # what comes before the token in its run: pk., NAME=
        if text[run_start : run_start + 16].lower().startswith(PUBLISHABLE) or "publi" in named:
            continue  # a key its provider documents as public (pk_live_..., pk.eyJ...)
        if _PUBLIC_NAME.search(text, max(0, start - 48), start):
            continue  # assigned to a public name: public_key = "...", publicToken: "..."
        if any(named.endswith(prefix[: prefix.index(".") + 1]) for prefix in PUBLISHABLE if "." in prefix):
            continue
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
    """Whether base64 (possibly in lines) opens with the bytes of a private key, at its start or just
    after a few letters glued to it ("lineMIIJ..." when spaced-out words are closed up)."""
    head = "".join(token[:140].split())
    if len(head) < 40:
        return False
    offsets = [0, *(m.start() for m in _OPENING.finditer(head, 1, 20))]
    return any(_private_at(head[offset : offset + 64], long=len(token) >= 200) for offset in offsets)


_OPENING = lazy(r"MI|MC|MH|MG|b3Bl|lQ|lF|xc")  # how private keys open in base64


def _private_at(head: str, *, long: bool) -> bool:
    if len(head) < 40:
        return False
    try:
        raw = base64.b64decode(head[: len(head) // 4 * 4], validate=True)
    except (binascii.Error, ValueError):
        return False
    if raw.startswith(b"openssh-key-v1\x00"):
        return True
    if raw[0] in _PGP_SECRET and long:
        return _pgp_secret_packet(raw)
    return bool(_PRIVATE_DER.match(raw))


def _pgp_secret_packet(raw: bytes) -> bool:
    """An OpenPGP secret-key packet: a header, then version 4 or 5 and a known public-key algorithm."""
    if raw[0] >= 0xC0:  # new format: one length octet below 192, or two
        body = raw[2:] if raw[1] < 192 else raw[3:]
    else:
        body = raw[1 + (1 << (raw[0] & 0x03)) :] if (raw[0] & 0x03) < 3 else raw[1:]
    return (
        len(body) > 6 and body[0] in (4, 5) and body[5] in (1, 16, 17, 18, 19, 22)
    )  # version, time, algorithm


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
    """SHA256, x509, 2024, Policy, SecurityPolicy: a word, acronym or number rather than random text.
    Letters and digits that keep switching (68xlvs7fzj) are random, whatever their case."""
    if len(part) >= 8 and len(_SWITCHES.findall(part)) >= 3:
        return False
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
