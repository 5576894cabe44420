"""Secrets known by where they are written: command lines, URLs, Wi-Fi join strings, configuration.

- **Command lines**: the password flag of the tool it belongs to (`mysql -pSECRET`, `sshpass -p x`,
  `redis-cli -a x`, `smbclient -U user%x`, `xfreerdp /p:x`, `nmcli ... password x`), long flags anywhere
  (`--password x`, `--password=x`, `-storepass x`, `--token x`), and `openssl -passin pass:x`.
- **Environment and configuration names**: `PGPASSWORD=x`, `MYSQL_PWD=x`, `SSHPASS=x`, `APP_KEY=...`: an
  upper-case name holding a secret word, assigned a literal. Names of public keys, ids, paths, lengths and
  switches (`TOKEN_TTL=3600`, `PUBLIC_KEY_PATH=...`) are not secrets.
- **XML elements** such as `<password>x</password>` and `<keyMaterial>x</keyMaterial>` (Wi-Fi profiles).
- **Wi-Fi join strings**: `WIFI:T:WPA;S:home;P:secret;;`, the QR code phones scan.
- **URLs**: query values of secret keys (`?password=`, `&api_key=`, `&token=`, `&sig=`, `#access_token=`;
  a token must look random) and one-click login tokens in paths (`/magic-link/<token>`,
  `/reset-password/<token>`). Document ids in paths stay allowed.
"""

from __future__ import annotations

import itertools
import re

import personakit.core.credentials.words as words
from personakit.core.credentials.bodies import looks_random, made_of_names
from personakit.core.credentials.hints import TOOL_HINTS, Hints
from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.patterns import (
    CLI_OPENSSL_PASS,
    CLI_SECRET_FLAGS,
    CLI_TOOLS,
    MAGIC_PATH_WORDS,
    QUERY_PASSWORDS,
    QUERY_TOKENS,
)
from personakit.core.credentials.runs import Span
from personakit.core.credentials.tokens import url_spans
from personakit.core.credentials.values import is_placeholder, is_value

_VALUE = r"(?P<value>\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|[^\s\"'`,;&<>]{1,200})"
_FLAG_GATE = lazy(r"[-/](?<!\S.)(?:-?[A-Za-z]|p:)")
_TOOLS = {tool: lazy(rest) for names, rest in CLI_TOOLS.items() for tool in names.split()}
_TOOL = lazy(
    r"(?<![\w./-])(?P<tool>"
    + "|".join(sorted(map(re.escape, _TOOLS), key=len, reverse=True))
    + r")(?![\w.-])"
)
_COMMAND_END = lazy(r"\n|\|\||&&|;|\|")
_LONG_FLAG = lazy(rf"(?i)(?<![\w-])(?:{CLI_SECRET_FLAGS})(?![\w-])(?P<sep>=|\s+){_VALUE}")
_OPENSSL_PASS = lazy(rf"(?i)(?<![\w-]){CLI_OPENSSL_PASS}{_VALUE}")
_NAME_PART = lazy(
    r"(?:" + "|".join(words.SECRET_NAME_GLUED.split()) + r")"
    r"|(?:^|_)(?:" + "|".join(words.SECRET_NAME_SEGMENTS.split()) + r")(?:_|$)"
)
_NOT_SECRET_NAME = lazy(r"(?:^|_)(?:" + "|".join(words.NOT_SECRET_NAME_SEGMENTS.split()) + r")(?:_|$)")
_ENV_GATE = ("PASS", "PWD", "SECRET", "TOKEN", "KEY", "CREDENTIAL")
_ENV = lazy(
    r"(?<![A-Za-z0-9_.$-])(?:export\s+|set\s+|setx\s+|\$env:)?(?P<name>[A-Z][A-Z0-9_]{2,60})(?![A-Za-z0-9_])"
    rf"[ \t]*(?P<sep>=|:(?!//)|[ \t](?=\S))[ \t]*{_VALUE}"
)
_XML = lazy(
    r"(?i)<(?P<tag>[\w:.-]{0,30}(?:password|passwd|secret|token|apikey|api_key|keymaterial|psk|passphrase)"
    r"[\w.-]{0,30})(?:\s[^<>]{0,200})?>(?P<value>[^<\n]{1,200})</"
)
_ID_TAG = lazy(r"(?:Id|ID|_id|Ids|IDs)\Z")  # <UserSecretsId>: a project's id, not a secret
_KEY_VALUE = lazy(  # .NET appSettings: <add key="ApiSecret" value="..." />
    r"(?i)key\s*=\s*\"[^\"]{0,40}(?:password|passwd|secret|token|apikey|api_key|connectionstring)[^\"]{0,40}\""
    r"\s+value\s*=\s*\"(?P<value>[^\"]{1,200})\""
)
_WIFI = lazy(r"(?i)wifi:(?:[a-z]{1,2}:(?:\\.|[^;\\\n]){0,200};){0,8}?p:(?P<value>(?:\\.|[^;\\\n]){1,200})")
# One-time codes in the words the messages that carry them use: "Use 110376 to verify", "482913 is your
# code", "Your Amazon code is 482913".
_SMS_CODES = (
    lazy(
        r"(?i)(?<![\w-])(?:use|enter|type)\s+(?P<value>\d{4,8})\s+(?:to|as|for)\s+"
        r"(?:verify|log\s*in|sign\s*in|confirm|complete|continue|finish|reset|authenticate|your)"
    ),
    lazy(
        r"(?i)(?<![\w-])(?P<value>(?:[a-z]-)?\d{4,8})\s+is\s+your\s+(?:[\w-]+\s+){0,3}(?:code|otp|pin|passcode|password)\b"
    ),
    lazy(r"(?i)\byour\s+(?:[\w-]+\s+){0,3}code\s*(?:is|:)\s*(?P<value>\d{4,8})(?![\w-])"),
)
_SMS_HINTS = frozenset(
    {"verif", "confirm", "code", "otp", "pin", "pass", "login", "auth", "password", "passcode"}
)
# "user / password" after a word that says what the pair is for.
_PAIR = lazy(
    r"(?i)(?<![\w-])(?:login|log-in|log\s+in(?:to)?|sign\s+in(?:to)?|bank|credentials?|creds|account|user(?:name)?"
    r"|router|admin|wi-?fi|e-?mail|mail|ssh|ftp"
    r"|vpn|database|db|server|nas)\b[^\n/]{0,40}?(?<![^\s:=])[\w.@+-]{2,64}\s+/\s+(?P<value>[^\s/]{6,64})"
)
_QUERY = lazy(r"[?&#;](?P<key>[A-Za-z0-9_.\-\[\]%]{1,40})=(?P<value>[^&#\s\"'<>]{1,500})")
_MAGIC_PATH = lazy(
    r"(?i)/(?:" + "|".join(map(re.escape, sorted(MAGIC_PATH_WORDS, key=len, reverse=True))) + r")(?=/)"
)
_SEGMENT = lazy(r"/([^/?#\s]+)")


def context_spans(text: str, lower: str, hints: Hints) -> list[Span]:
    spans: list[Span] = []
    tools = bool(hints.found & TOOL_HINTS)
    for start, end in hints.windows:
        window = lower[start:end]
        if _FLAG_GATE.search(text, start, end):
            spans += _flag_spans(text, start, end)
        if tools:
            spans += _tool_spans(text, lower, start, end)
        if any(part in text[start:end] for part in _ENV_GATE):
            spans += _env_spans(text, start, end)
        if "value" in window:
            spans += [
                m.span("value") for m in _KEY_VALUE.finditer(text, start, end) if _literal(m.group("value"))
            ]
        if "</" in window:
            spans += [
                m.span("value")
                for m in _XML.finditer(text, start, end)
                if _literal(m.group("value")) and not _ID_TAG.search(m.group("tag"))
            ]
        if "wifi:" in window:
            spans += [
                m.span("value")
                for m in _WIFI.finditer(text, start, end)
                if not is_placeholder(m.group("value"))
            ]
    if hints.found & _SMS_HINTS:
        for start, end in hints.windows:
            spans += [m.span("value") for pattern in _SMS_CODES for m in pattern.finditer(text, start, end)]
    if " / " in text:
        for match in _PAIR.finditer(text):
            value = match.group("value").rstrip(".,;)")
            if _strong_looking(value) and "@" not in value:
                spans.append((match.start("value"), match.start("value") + len(value)))
    if "=" in text:
        spans += _query_spans(text)
    if "://" in text or "www." in lower:
        spans += _magic_link_spans(text)
    return spans


def _flag_spans(text: str, window_start: int, window_end: int) -> list[Span]:
    spans: list[Span] = []
    for match in (
        *_LONG_FLAG.finditer(text, window_start, window_end),
        *_OPENSSL_PASS.finditer(text, window_start, window_end),
    ):
        start, end = match.span("value")
        value = match.group("value")
        quoted = value[:1] in "\"'"
        if quoted:
            start, end, value = start + 1, end - 1, value[1:-1]
        plain = quoted or match.groupdict().get("sep") == "="
        if not value.startswith("-") and is_value(
            value, strength="strong", code_like=False, plain_words=plain
        ):
            spans.append((start, end))
    return spans


def _tool_spans(text: str, lower: str, window_start: int, window_end: int) -> list[Span]:
    spans: list[Span] = []
    for tool in _TOOL.finditer(lower, window_start, window_end):
        end = _COMMAND_END.search(text, tool.end(), tool.end() + 400)
        stop = end.start() if end else min(len(text), tool.end() + 400)
        found = _TOOLS[tool.group("tool")].search(text, tool.end() - 1, stop)
        if found:
            start, finish = found.span("value")
            value = found.group("value")
            if value[:1] in "\"'" and len(value) >= 2:
                start, finish, value = start + 1, finish - 1, value[1:-1]
            if _literal(value) and not value.startswith("-"):
                spans.append((start, finish))
    return spans


def _env_spans(text: str, window_start: int, window_end: int) -> list[Span]:
    spans: list[Span] = []
    for match in _ENV.finditer(text, window_start, window_end):
        name = match.group("name")
        if not _NAME_PART.search(name) or _NOT_SECRET_NAME.search(name):
            continue
        if match.group("sep").isspace() and not text[max(0, match.start() - 8) : match.start()].endswith(
            ("setx ", "set ")
        ):
            continue  # "SECRET_KEY value" needs setx before it to be an assignment
        start, end = match.span("value")
        value = match.group("value")
        if value[:1] in "\"'" and len(value) >= 2:
            start, end, value = start + 1, end - 1, value[1:-1]
        value = value.rstrip(".,")
        if _literal(value):
            spans.append((start, start + len(value)))
    return spans


def _strong_looking(value: str) -> bool:
    """A password on its own: letters and digits, and a symbol or both cases."""
    letters = any(c.isalpha() for c in value) and any(c.isdigit() for c in value)
    return letters and (
        not value.isalnum() or (any(c.isupper() for c in value) and any(c.islower() for c in value))
    )


def _literal(value: str) -> bool:
    """A value written where only a secret goes: any literal that is not a placeholder or a reference."""
    value = value.strip()
    return len(value) >= 4 and is_value(value, strength="strong", code_like=False, plain_words=True)


def _query_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for match in _QUERY.finditer(text):
        key = match.group("key").lower().strip("[]")
        value = match.group("value").rstrip(".,)")
        start = match.start("value")
        if (key in QUERY_PASSWORDS and _literal(value)) or (key in QUERY_TOKENS and _token(value)):
            spans.append((start, start + len(value)))
    return spans


def _token(value: str) -> bool:
    """A token in a URL: long, with letters and digits, not made of words or names."""
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    if len(value) < 12 or not has_digit or not has_alpha or is_placeholder(value):
        return False
    if re.fullmatch(r"[0-9a-fA-F]{16,}", value):
        return True
    return not made_of_names(value) and (
        len(value) >= 20 or looks_random(value, lambda _: False) or _mixed(value)
    )


def _mixed(value: str) -> bool:
    return (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
    )


def _magic_link_spans(text: str) -> list[Span]:
    spans: list[Span] = []
    for start, end in url_spans(text):
        path_end = min(
            (i for i in (text.find("?", start, end), text.find("#", start, end)) if i > 0), default=end
        )
        for word in _MAGIC_PATH.finditer(text, start, path_end):
            for following in itertools.islice(_SEGMENT.finditer(text, word.end(), path_end), 3):
                piece = following.group(1)
                if len(piece) >= 16 and _token(piece):
                    spans.append(following.span(1))
    return spans
