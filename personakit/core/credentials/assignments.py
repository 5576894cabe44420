"""Secrets assigned in code and configuration: a literal given to a name that holds a secret.

Some thirty shapes, in the words of the languages that write them:

- assignments: `stripeToken = "..."`, `DB_PASSWORD=...`, `api_key: ...`, Go's `token := "..."` and
  `var token string = "..."`, make's `:=`, `::=`, `:::=` and `?=`, PHP's `$token .= "..."`, `=>`, C's
  `char secret[] = "..."`, and comparisons (`if (password == "...")`, `"..." === password`);
- calls that set a named value: `System.setProperty("API_TOKEN", "...")`, `os.environ.setdefault(...)`,
  WordPress's `define('AUTH_KEY', '...')`, `GetEnvOrDefault("api_token", "...")`;
- XML elements, the value on its own lines: `<apiToken>\\n  ...\\n</apiToken>`;
- a Kubernetes `kind: Secret`: every entry under `data:` (base64 of six bytes or more) or `stringData:`.

The name decides how much the value must look like a secret (`words`): a password name takes
any literal that is not a word, a reference or a placeholder; a token or secret-key name a literal of
eight characters or more with a digit (or a long hex or UUID); a bare `key` one that looks random. Names
of ids, paths, lengths and switches (`TOKEN_TTL`, `credentialsId`, `token_url`) and public keys
(`publicToken`) hold no secret. The value ends where the literal ends: `Xq7pLm2vR9${x}` is the password
`Xq7pLm2vR9` followed by a reference, not a reference.

Only the windows `hints` opens are read (every secret name holds a hint stem).
"""

from __future__ import annotations

import re

import personakit.core.credentials.words as words
from personakit.core.credentials.bodies import looks_random, made_of_names
from personakit.core.credentials.hints import Hints
from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.patterns import PUBLISHABLE
from personakit.core.credentials.runs import Span
from personakit.core.credentials.values import (
    is_placeholder,
    is_type_annotation,
    names_elsewhere,
    ordinary,
    placeholder_key,
)

_PASSWORD = frozenset(words.PASSWORD_SEGMENTS.split())
_TOKEN = frozenset(words.TOKEN_SEGMENTS.split())
_KEY = frozenset(words.KEY_SEGMENTS.split())
_KEY_AFTER = frozenset(words.KEY_AFTER.split())
_NOT_AFTER = frozenset(words.NOT_AFTER.split())
_NOT_BEFORE = frozenset(words.NOT_BEFORE.split())
_NAME = r"[A-Za-z_$@][\w$-]{0,80}(?:\.[A-Za-z_$][\w$-]{0,80}){0,4}"
_LITERAL = r"\"[^\"\n]{0,300}\"|'[^'\n]{0,300}'|`[^`\n]{0,300}`"
# Unquoted, a value runs to the end of its line when nothing else follows it (a generated password may
# hold brackets); otherwise it stops at the first bracket, quote or separator.
_BARE_TO_END = r"[^\s\"'`,;]{1,300}(?=[\"'`,;]?[ \t]*(?:\n|\Z))"
_BARE = r"(?:[^\s\"'`,;<>(){}\[\]$]|\$(?![{(])){1,300}"
_ASSIGN = lazy(
    rf"(?<![\w$.-])(?P<q>[\"'`]?)(?P<name>{_NAME})(?P=q)(?:\[\d*\])?"
    r"(?:[ \t]*:[ \t]*[A-Za-z_][\w.\[\]|]{0,30}[ \t]*(?==)|[ \t]+(?:string|\[\]byte|any|bool|int)(?=[ \t]*=[^=]))?"
    r"[ \t]*(?P<op>:{1,3}=|\?\?=|\?=|\.=|\+=|=>|===?|!==?|=|:)"
    rf"[ \t]*@?(?P<value>{_LITERAL}|{_BARE_TO_END}|{_BARE})"
)
_COMPARED = lazy(rf"(?P<value>{_LITERAL})[ \t]*(?:===?|!==?)[ \t]*(?P<name>{_NAME})")
_CALL = lazy(
    rf"[\w.$]{{1,60}}\([ \t]*(?P<q>[\"'])(?P<name>[\w.-]{{1,80}})(?P=q)[ \t]*,[ \t]*(?P<value>{_LITERAL})"
)
_XML = lazy(r"<(?P<name>[\w.:-]{1,80})(?:\s[^<>\n]{0,200})?>\s*(?P<value>[^<>\s]{1,300})\s*</(?P=name)>")
# Each shape needs a character in the window: an assignment "=" or ":", a comparison "=", a call "(",
# an element "</".
_SIGNS = ((_ASSIGN, ("=", ":")), (_COMPARED, ("==", "!=")), (_CALL, ("(",)), (_XML, ("</",)))
_KIND_SECRET = lazy(r"(?im)^[ \t]*kind:[ \t]*[\"']?secret[\"']?[ \t]*$")
_DOCUMENT = lazy(r"(?m)^---[ \t]*$")  # YAML documents in one text: only a Secret's own data counts
_DATA = lazy(r"(?m)^(?P<indent>[ \t]*)(?P<key>data|stringData):[ \t]*$")
_ENTRY = lazy(
    r"(?m)(?P<indent>[ \t]*)(?:[\w.-]+:[ \t]*(?P<value>[^\s#][^\n]*?)|#[^\n]*|[\w.-]+:)?[ \t]*(?:\n|\Z)"
)
_BASE64 = lazy(r"[A-Za-z0-9+/]{8,}={0,2}")
_SEGMENTS = lazy(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_UUID = lazy(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_HEX = lazy(r"(?:0x)?[0-9a-fA-F]{16,}")
_SWITCHES = lazy(r"[A-Za-z](?=\d)|\d(?=[A-Za-z])")
_OPENS = {")": "(", "]": "[", "}": "{"}
_SYMBOLS = lazy(r"[^\w\s]")
_CALLED = lazy(r"[A-Za-z_$][\w.$]*\s*[(\[]")
_SYMBOL = lazy(r"[!@#$%^&*+=?~|\\/<>{}\[\]()¨¿¡§]")
# A well-formed reference ends a literal: ${NAME}, $(command), $NAME, %(name)s, %NAME%, {{ ... }}, #{...}, <%
# (a "${" inside a generated password, as in m{{h}o)p${e]nob(..., does not)
_REFERENCE_START = lazy(
    r"\$\{[A-Za-z_][\w.:-]*\}|\$\([^()]*\)|\$[A-Za-z_\d]|%\([\w.]+\)|%[A-Za-z_]+%|\{\{[ \t]*[\w.$| ]+[ \t]*\}\}|#\{[^{}]*\}|<%"
)


def assignment_spans(text: str, hints: Hints) -> list[Span]:
    spans: list[Span] = []
    for start, end in hints.windows:
        window = text[start:end]
        patterns = [pattern for pattern, signs in _SIGNS if any(sign in window for sign in signs)]
        for pattern in patterns:
            for match in pattern.finditer(text, start, end):
                if pattern is _ASSIGN and match.group("op") == ":" and match.group("name").lower() == "https":
                    continue
                strength = name_strength(match.group("name"))
                if strength and (span := _value_span(text, match, strength)):
                    spans.append(span)
    return spans


def kubernetes_spans(text: str) -> list[Span]:
    """The values under `data:` and `stringData:` of a manifest of `kind: Secret`."""
    spans: list[Span] = []
    starts = [0, *(m.end() for m in _DOCUMENT.finditer(text))]
    documents = [(a, b) for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    secret_documents = [(a, b) for a, b in documents if _KIND_SECRET.search(text, a, b)]
    for block in (b for a, end in secret_documents for b in _DATA.finditer(text, a, end)):
        indent, encoded = len(block.group("indent")), block.group("key") == "data"
        position = block.end()
        while position < len(text) and (entry := _ENTRY.match(text, position)) and entry.end() > position:
            position = entry.end()
            raw = entry.group("value")
            if raw is None:
                continue  # a blank line or a comment
            if len(entry.group("indent")) <= indent:
                break
            value = raw.strip("\"'")
            if "{{" in value or is_placeholder(value):
                continue
            if encoded:
                secret = bool(_BASE64.fullmatch(value)) and len(value) * 3 // 4 >= 6
            else:
                secret = len(value) >= 4 and not ordinary(value)
            if secret:
                start = entry.start("value") + raw.index(value)
                spans.append((start, start + len(value)))
    return spans


def name_strength(name: str) -> str | None:
    """ "password", "token" or "key" when name holds a secret; None when it does not."""
    segments = [s.upper() for s in _SEGMENTS.findall(name)]
    for index in range(len(segments) - 1, -1, -1):
        segment = segments[index]
        strength = None
        if segment in _PASSWORD:
            strength = "password"
        elif segment in _TOKEN or segment.endswith(words.GLUED_ENDINGS):
            strength = (
                "password" if segment.endswith(("PASSWORD", "PASSWD", "PASSPHRASE", "SSHPASS")) else "token"
            )
        elif segment in _KEY and index > 0:
            strength = "token" if segments[index - 1] in _KEY_AFTER else "key"
        if strength is None:
            continue
        if any(s in _NOT_AFTER for s in segments[index + 1 :]):
            return None
        if any(s in _NOT_BEFORE for s in segments[:index]):
            return None
        return strength
    return None


def _value_span(text: str, match: re.Match[str], strength: str) -> Span | None:
    start, end = match.span("value")
    value = match.group("value")
    quoted = value[:1] in "\"'`" and len(value) >= 2 and value[-1] == value[0]
    if quoted:
        start, end, value = start + 1, end - 1, value[1:-1]
    if not quoted and text[end : end + 1] in ("(", "[", "."):
        return None  # a call or an attribute: Field(...), os.environ[...], settings.TOKEN
    if not quoted and match.groupdict().get("op") == ":" and is_type_annotation(text, value, end):
        return None  # private_key: Ed25519PrivateKey | None
    reference = _REFERENCE_START.search(value)
    if reference:  # the literal ends where a reference starts: Xq7pLm2vR9${x}
        value = value[: reference.start()]
    value = value.strip() if quoted else value.rstrip(".,:")
    while (
        not quoted
        and value[-1:] in (")", "]", "}")
        and value.count(value[-1]) > value.count(_OPENS[value[-1]])
    ):
        value = value[:-1]  # "password": null}: the bracket closes what holds the value
    end = start + len(value)
    return (start, end) if value and is_secret_value(value, strength, quoted=quoted) else None


def is_secret_value(value: str, strength: str, *, quoted: bool) -> bool:
    if " " in value or len(value) < 4 or not any(c.isalnum() for c in value):
        return False
    if is_placeholder(value) or placeholder_key(value) or value.lower().startswith(PUBLISHABLE):
        return False
    if len(_SWITCHES.findall(value)) < 4 and (_CALLED.match(value) or names_elsewhere(value)):
        return False  # a name or a call; a value whose letters and digits keep switching is a key
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    if strength == "password":  # a digit, a symbol, or mixed case inside ("Tr0ub4dor", "hal+9", "qwERty")
        mixed = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
        return (has_digit or bool(_SYMBOL.search(value)) or mixed) and not ordinary(value)
    if _UUID.fullmatch(value) or _HEX.fullmatch(value):
        return strength == "token" or len(value) >= 32
    if strength == "key":
        return len(value) >= 16 and has_digit and has_alpha and looks_random(value, lambda _: False)
    if value.isdigit():
        return len(value) >= 12
    if len(value) >= 12 and has_alpha and len(set(_SYMBOLS.findall(value))) >= 4:
        return True  # a generated password of letters and symbols: m{{h}o)p${e]nob(ody[finds>-_$#thisone}}
    return len(value) >= 8 and has_digit and has_alpha and not made_of_names(value) and not ordinary(value)
