"""Secrets said or assigned: a value given to a word that names a secret, in English and thirty languages.

`password is hunter2`, `API_KEY=...`, `"token": "..."`, `changed my PIN to 4821`, `pw: hunter2`,
`Das WLAN-Passwort lautet Sonne42!`, `密码是abc123`, `the door code is 12 34 56`. The value has to look
like one: quoted, or holding a digit or symbol, or (after strong English words such as "password") a word
that is not ordinary English. So "the password is in the vault", "password is required", "my gym pass is
the gold tier" and "the key to the shed is under the mat" are not credentials, nor are code references
(`os.environ[...]`, `settings.SECRET_KEY`, `getpass()`) or placeholders (`<token>`, `${API_KEY}`, `xxxx`).

Strengths: strong words take a plain word; pins need a digit; weak words ("token", "secret", "pass")
need letters and digits; bare "key" and "seed" need a value that is a key by its shape (long, random or
hex). In the other languages a value after "is" needs a digit, a symbol, quotes or mixed case, since
there is no list of every ordinary word. The word tables are `credential_words`.

Only the value is reported, so "password is hunter2" masks to "password is [secret]". The patterns run
only in windows around a cheap literal hint found in the lower-cased view.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

import personakit.core.credential_words as words
from personakit.core.credential_patterns import PUBLISHABLE
from personakit.core.credential_tokens import Span, looks_random, made_of_names, merge
from personakit.core.textview import fold

_WINDOW_BEFORE, _WINDOW_AFTER = 80, 420  # around a hint: the words before it and the longest value
_VALUE = (
    r"(?P<value>[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}(?![a-z])"  # an app password: "abcd efgh ijkl mnop"
    r"|\d{1,6}(?:[ -]\d{1,6}){1,7}(?![\w-])"  # digit groups: 12 34 56, 123-456
    r"|[A-Za-z0-9]{3,8}(?:[ -][A-Za-z0-9]{3,8}){2,11}(?![\w-])"  # grouped keys (JBSW Y3DP ...), checked after
    r"""|"[^"\n]{1,200}"|'[^'\n]{1,200}'|`[^`\n]{1,200}`|“[^”\n]{1,200}”|«[^»\n]{1,200}»|„[^“”\n]{1,200}[“”]"""
    r"|「[^」\n]{1,200}」|『[^』\n]{1,200}』"
    r"""|(?:[^\s"'`,;&<>]|&(?!\w{1,30}=)){1,200})"""  # '&' ends a value only where a query parameter starts
)
_SEPARATOR = (
    r"[\"'`*_]{0,3}(?P<sep>"
    r"\s*:\s*[A-Za-z_][\w.\[\]| ]{0,30}?\s*=(?!=)"  # password: str = "..."
    r"|\s*(?:=>|:=|==|=|:|->)"
    rf"|(?:{words.SAID})(?:\s+(?:{words.SAID_MORE}))?\s*:?"
    r"|\s+(?=[^\s\"'`,;<>]{0,40}\d)(?=[^\s\"'`,;<>]{8}|\d{4,10}(?![\w-]))"  # none: "password hunter2!x", "PIN 4821"
    r")[*_]{0,2}\s*"
)
# Before a word: not after a letter, or at a camelCase join (dbPassword).
_WORD_START = r"(?:(?<![A-Za-z])|(?-i:(?<=[a-z])(?=[A-Z])))"
_ENGLISH = re.compile(
    rf"(?i){_WORD_START}(?:(?P<strong>{words.STRONG}|pw)|(?P<pin>{words.PIN})|(?P<weak>{words.WEAK}))(?![A-Za-z])"
    r"(?:\s+(?:for|to|of|on|at|from)(?:\s+[\w'.@-]{1,30}){1,4}?)?"  # "the password for the router is ..."
    rf"{_SEPARATOR}{_VALUE}"
)
_SET_TO = re.compile(
    r"(?i)(?<![A-Za-z])(?:set|change[ds]?|reset|update[ds]?)\s+(?:[\w'-]{1,20}\s+){0,3}?"
    rf"(?:(?P<strong>{words.STRONG}|pw)|(?P<pin>{words.PIN}))\s+(?:to|as)\s+{_VALUE}"
)
_SHORT_FORM = re.compile(r"(?i)pass|pw|pwd|pswd|p/w|pword|passwd")


def _phrase(text: str) -> str:
    """A table phrase as a regex on the folded, lower-cased view: spaces and hyphens loosened."""
    return re.escape(fold(text).lower()).replace(r"\ ", r"[\s-]*").replace(r"\-", r"[\s-]?")


def _foreign() -> tuple[re.Pattern[str], dict[str, tuple[str, str]]]:
    strengths: dict[str, tuple[str, str]] = {}
    latin: list[str] = []
    cjk: list[str] = []
    said: set[str] = set()
    said_cjk: set[str] = set()
    links: set[str] = set()
    for language, table in words.LANGUAGES.items():
        for strength in ("secret", "pin"):
            for phrase in table[strength].split("|"):
                key = re.sub(r"[\s-]+", "", fold(phrase).lower())
                strengths.setdefault(key, (language, strength))
                (cjk if language in words.CJK_LANGUAGES else latin).append(_phrase(phrase))
        (said_cjk if language in words.CJK_LANGUAGES else said).update(
            _phrase(s) for s in table["said"].split("|") if s
        )
        links |= {_phrase(s) for s in table["link"].split("|") if s}
    by_length = lambda items: "|".join(sorted(set(items), key=len, reverse=True))  # noqa: E731
    pattern = re.compile(
        rf"(?:(?<![^\W\d_])(?P<word>{by_length(latin)})(?![^\W\d_])|(?P<cjk>{by_length(cjk)}))"
        rf"(?:\s*(?:{by_length(links)})(?:\s+[\w'.@-]{{1,30}}){{1,3}}?)?"
        rf"(?P<sep>\s*(?:[:=]|->)\s*|\s+(?:{by_length(said)})(?![^\W\d_])\s*:?\s*|\s*(?:{by_length(said_cjk)})\s*:?\s*"
        r"|\s+[—–-]\s*|\s+(?=[^\s\"'`,;<>]{0,40}\d)(?=[^\s\"'`,;<>]{6}|\d{3,10}(?![\w-])))" + _VALUE
    )
    return pattern, strengths


_FOREIGN, _FOREIGN_STRENGTHS = _foreign()
_FIRST_WORDS = {
    fold(phrase).lower().split()[0]
    for table in words.LANGUAGES.values()
    for strength in ("secret", "pin")
    for phrase in table[strength].split("|")
}
_SHORT = {w for w in _FIRST_WORDS if len(w) < 4 and w.isascii()}  # whole words: "mot", not "motor"
_STEMS = sorted(set(words.HINT_STEMS.split()) | (_FIRST_WORDS - _SHORT), key=len, reverse=True)
_HINT_WORDS = frozenset(words.HINT_WORDS.split()) | _SHORT


def _trie(literals: list[str]) -> str:
    """One regex for many literals, factored by their first characters: `re` tries alternatives one by
    one, so 150 hints side by side cost 150 comparisons at every character, and a trie a handful."""
    root: dict[str, dict] = {}  # type: ignore[type-arg]
    for literal in literals:
        node = root
        for char in literal:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict) -> str:  # type: ignore[type-arg]
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(root)


_HINT_STEM = re.compile(_trie(_STEMS))
ID_HINTS = frozenset(words.ID_HINTS.split())
TOOL_HINTS = frozenset(words.TOOL_HINTS.split())


class Hints(NamedTuple):
    """Where the phrase and context checks read, and which hint words were found (each family reads
    only if one of its own words is among them)."""

    windows: list[Span]
    found: frozenset[str]


def hint_windows(lower: str, distinct: set[str]) -> Hints:
    """Windows around the words that may name a secret. distinct: lower's whitespace-separated words."""
    # A word name is near a word's start or end: a run of key characters is read only so far, and a
    # megabyte of base64 is not searched for hints.
    shown: Iterable[str] = distinct
    if sum(map(len, distinct)) > 4096 and max(map(len, distinct)) > 256:
        shown = [word if len(word) <= 256 else word[:128] + " " + word[-128:] for word in distinct]
    joined = " ".join(shown)
    pieces = set(_HINT_WORDS.intersection(distinct))
    pieces.update(_HINT_WORDS.intersection(_NOT_LETTERS.split(" ".join(w for w in shown if not w.isalpha()))))
    found = set(_HINT_STEM.findall(joined)) | pieces
    found |= {literal for literal in words.HINT_LITERALS if literal in lower}
    starts: list[int] = []
    for hint in found:
        whole = hint in _HINT_WORDS
        position = lower.find(hint)
        while position >= 0:
            # A phrase puts a separator (a space, ":", "=", a quote) soon after its word; a hint inside
            # a long run of key characters opens no window.
            if (not whole or _whole_word(lower, position, len(hint))) and (
                not hint.isascii() or _SEPARATOR_NEAR.search(lower, position, position + 40)
            ):
                starts.append(position)
            position = lower.find(hint, position + 1)
    windows = merge([(max(0, start - _WINDOW_BEFORE), start + _WINDOW_AFTER) for start in sorted(starts)])
    return Hints(windows, frozenset(found) if windows else frozenset())


_NOT_LETTERS = re.compile(r"[^\w]+|[\d_]+")
_SEPARATOR_NEAR = re.compile(r"[\s:=>\"'`。，：]")


def _whole_word(lower: str, start: int, length: int) -> bool:
    before = lower[start - 1 : start]
    after = lower[start + length : start + length + 1]
    return not before.isalpha() and not after.isalpha()


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")

_KEYWORD_ALONE = re.compile(
    rf"(?i)(?:{words.STRONG}|{words.PIN}|{words.WEAK}|pass|passwords|key|keys|credentials?|pw|secrets?|tokens?)"
)
_REFERENCE = re.compile(
    r"\$\{?[A-Za-z_][\w.]*\}?|%\w+%|%[sdr]|(?:/|~/|\.\.?/|https?://|op://|env:|vault:|file:|bw://).*"
    r"|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-[\w-]+|sk-ssh-[\w@.-]+"  # the type that opens a public key
)
_CODE_WORDS = frozenset(words.CODE_WORDS.split())
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_DOTTED_NAME = re.compile(r"[A-Za-z_]+(?:\.[A-Za-z_]\w*)+")  # settings.SECRET_KEY, not p4ss.w0rd
_IDENTIFIER = re.compile(r"[a-z]+(?:_[a-z]+)+|[a-z]+(?:[A-Z][a-z]*)+")
_TYPE_NAME = re.compile(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*")  # private_key: Ed25519PrivateKey | None
_AFTER_TYPE = re.compile(r"\s*(?:[,)|=\]]|->|$)")
_CAPITALIZED_WORD = re.compile(r"[A-Z][a-z]{2,}")
_CALL = re.compile(r"[\w.$]+\s*[(\[{].*[)\]}][\w.()\[\]]*")  # getpass(), os.environ["X"], cfg[key].value
_PLACEHOLDER = re.compile(
    r"(?i)[x*.•_#?-]+|…|your[\w-]*|[\w-]*_here|redacted|hidden|masked|placeholder|changeme|example|dummy"
    r"|\[secret]|\[redacted]|\[email]"
)
_WORD_BREAK = re.compile(r"[\s-]+")
_ORDINARY_SUFFIX = re.compile(
    r"(?i)[a-z]{2,}(?:ed|ing|ly|able|ible|ive|ous|ful|less|ness|ment|tion|sion|ity|ent|ant|ure|al|ic)"
)
_ORDINARY = frozenset(words.ORDINARY.split())
_FOREIGN_ORDINARY = frozenset(
    fold(w).lower() for table in words.LANGUAGES.values() for w in table["ordinary"].split()
)
_NOT_SECRET_KEYS = frozenset(words.NOT_SECRET_KEYS.split())
_LIST_GAP = re.compile(r"\s*[,;/]?\s*")
_SHAPE = str.maketrans("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "9" * 10 + "a" * 52)
_WHOLE = re.compile(r"[\d -]+|[a-z]{4}(?: [a-z]{4}){3}")  # digit groups and app passwords stay whole
_YEAR = re.compile(r"(?:19|20)\d\d")
_UNJOINED_PIN = re.compile(r"\d{4,10}|\d{2,5}(?:[ -]\d{2,5}){1,3}")


def _letters_and_digits(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


_HEX_KEY = re.compile(
    r"(?:0x)?[0-9a-fA-F]{32}|(?:0x)?[0-9a-fA-F]{40}|(?:0x)?[0-9a-fA-F]{64}|[0-9a-fA-F]{96,128}"
)


def phrase_spans(text: str, lower: str, hints: Hints) -> list[Span]:
    spans: list[Span] = []
    for window_start, window_end in hints.windows:
        window = lower[window_start:window_end]
        for match in _ENGLISH.finditer(text, window_start, window_end):
            spans += _judged(text, match, code_like=not words_said(match), plain_words=True)
        if "set" in window or "chang" in window or "updat" in window:
            for match in _SET_TO.finditer(text, window_start, window_end):
                spans += _judged(text, match, code_like=False, plain_words=False)
        for match in _FOREIGN.finditer(lower, window_start, window_end):
            span = _foreign_value(text, match)
            if span:
                spans.append(span)
    return spans


def words_said(match: re.Match[str]) -> bool:
    return bool(re.match(words.SAID, match.group("sep") or ""))


def _value(text: str, match: re.Match[str]) -> tuple[int, int, str, bool]:
    """The value's span, text and whether it was quoted: sentence punctuation off, cut at CJK letters."""
    start, end = match.span("value")
    raw = text[start:end]
    if len(raw) >= 2 and raw[0] in "\"'`“«„「『":
        return start + 1, end - 1, raw[1:-1], True
    cjk = _CJK.search(raw)
    if cjk:  # a value ends at the first CJK letter; one that starts with one is words, not a password
        raw = raw[: cjk.start()]
    value = raw.rstrip(".,:;)]}'\"。、，")  # sentence punctuation; "!" and "?" may belong to the password
    return start, start + len(value), value, False


def _judged(text: str, match: re.Match[str], *, code_like: bool, plain_words: bool) -> list[Span]:
    groups = match.groupdict()
    strength = "pin" if groups.get("pin") else "weak" if groups.get("weak") else "strong"
    start, end, value, quoted = _value(text, match)
    separator = groups.get("sep") or ""
    unjoined = bool(separator) and separator.isspace()  # no ":" or "is" between word and value
    if unjoined:
        if strength == "weak" or (strength == "pin" and not _UNJOINED_PIN.fullmatch(value)):
            return []
        code_like, plain_words = True, False
    if strength == "weak" and match.group("weak").lower() in ("key", "seed"):
        if _not_a_secret_key(text, match.start()):
            return []
        strength = "bare"
    if strength == "weak" and match.group("weak").lower() == "pass" and separator.strip() in (":", "="):
        strength = "short"
    if (
        strength == "strong"
        and _SHORT_FORM.fullmatch(match.group("strong") or "")
        and separator.strip() in (":", "=")
    ):
        plain_words = True
    if not quoted and _grouped(value):
        strength = "grouped" if strength in ("weak", "bare") else strength
    value = _first_word(value, quoted)
    end = start + len(value)
    if not quoted and "=" in separator and value.replace("_", "").isalpha():
        return []  # password = user_input: a variable (an .env file's plain-word password is missed)
    if not quoted and ":" in separator and _is_type_annotation(text, value, end):
        return []
    if unjoined and strength == "pin" and _YEAR.fullmatch(value):
        return []  # "enamel pin 1998": a year, not a PIN
    if unjoined and strength != "pin" and (len(value) < 8 or not _letters_and_digits(value)):
        return []
    if not is_value(
        value,
        strength=strength,
        code_like=code_like and not quoted,
        plain_words=plain_words or quoted,
        quoted=quoted,
    ):
        return []
    spans = [(start, end)]
    if strength == "pin" and not quoted:  # a list: backup codes 1234 5678, 2345 6789, ...
        shape = value.translate(_SHAPE)
        position = end
        while gap := _LIST_GAP.match(text, position):
            item = text[gap.end() : gap.end() + len(value)]
            after = text[gap.end() + len(value) : gap.end() + len(value) + 1]
            if not gap.group() or item.translate(_SHAPE) != shape or after.isalnum():
                break
            spans.append((gap.end(), gap.end() + len(value)))
            position = gap.end() + len(value)
    return spans


def _first_word(value: str, quoted: bool) -> str:
    """A value that ran on over several words is its first word, unless it is groups of one key."""
    if quoted or " " not in value or _WHOLE.fullmatch(value) or _grouped(value):
        return value
    return value.split(" ", 1)[0]


def _grouped(value: str) -> str | None:
    """JBSW Y3DP EHPK 3PXP, ABCD-1234-EFGH: groups of one length (the last may be shorter) with digits."""
    groups = re.split(r"[ -]", value)
    if len(groups) < 3 or len({len(g) for g in groups[:-1]}) != 1 or len(groups[-1]) > len(groups[0]):
        return None
    with_digits = sum(any(c.isdigit() for c in g) for g in groups)
    if with_digits * 2 < len(groups) and not all(g.isupper() or g.isdigit() for g in groups):
        return None
    return value


def _not_a_secret_key(text: str, start: int) -> bool:
    """The word before "key" makes it a table's, a map's or a door's: primary key, cache key, house key."""
    before = text[max(0, start - 30) : start].lower().split()
    return bool(before) and before[-1].strip("'\"_-") in _NOT_SECRET_KEYS


def _foreign_value(text: str, match: re.Match[str]) -> Span | None:
    word = match.group("word") or match.group("cjk")
    language, strength = _FOREIGN_STRENGTHS.get(re.sub(r"[\s-]+", "", word), ("", "secret"))
    start, end, value, quoted = _value(text, match)
    value = _first_word(value, quoted)
    end = start + len(value)
    separator = match.group("sep").strip()
    code_like = separator in ("=", ":", "->")
    if (
        len(value) < (3 if strength == "pin" else 4)
        or is_placeholder(value)
        or _is_reference(value, code_like=code_like, quoted=quoted)
    ):
        return None
    if not quoted and separator == "=" and value.replace("_", "").isalpha():
        return None  # passwort = eingabe: a variable
    has_digit = any(c.isdigit() for c in value)
    if strength == "pin":
        if not separator and _YEAR.fullmatch(value):
            return None  # "enamel pin 1998": a year, not a PIN
        return (start, end) if sum(c.isdigit() for c in value) >= 3 else None
    if not separator:  # "пароль qwerty123": with nothing between, the value must look like one alone
        return (start, end) if len(value) >= 6 and has_digit and _letters_and_digits(value) else None
    if quoted or has_digit or not value.isalpha() or _mixed_case(value):
        return (start, end) if not _ordinary(value) else None
    if separator in (":", "=", "->") or language in words.CJK_LANGUAGES:
        lowered = value.lower()
        if (
            lowered not in _FOREIGN_ORDINARY
            and lowered not in _ORDINARY
            and not _ORDINARY_SUFFIX.fullmatch(value)
        ):
            return start, end
    return None


def _mixed_case(value: str) -> bool:
    return any(a.islower() and b.isupper() for a, b in zip(value, value[1:], strict=False))


def is_value(value: str, *, strength: str, code_like: bool, plain_words: bool, quoted: bool = False) -> bool:
    """Whether what was said or assigned to a secret word is a secret, not a word or a reference."""
    if len(value) < (3 if strength == "pin" else 4) or is_placeholder(value):
        return False
    if value.lower().startswith(PUBLISHABLE) or _is_reference(value, code_like=code_like, quoted=quoted):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    if strength == "grouped":
        return True
    if strength == "bare":
        if _HEX_KEY.fullmatch(value):
            return True
        return len(value) >= 16 and has_digit and has_alpha and looks_random(value, lambda _: False)
    if strength == "weak":
        return (
            len(value) >= 8 and has_digit and has_alpha and not _ordinary(value) and not made_of_names(value)
        )
    if strength == "short":
        return has_alpha and (has_digit or not value.isalnum()) and not _ordinary(value)
    if strength == "pin":
        return sum(c.isdigit() for c in value) >= 3 and (_WHOLE.fullmatch(value) or not _ordinary(value))
    if not plain_words and value.replace(" ", "").isalpha():
        return False
    return not _ordinary(value)


def _is_type_annotation(text: str, value: str, end: int) -> bool:
    """private_key: SSHPrivateKeyTypes, ...: a CamelCase type name where code expects one."""
    if not _TYPE_NAME.fullmatch(value) or not _AFTER_TYPE.match(text, end):
        return False
    last = value.rsplit(".", 1)[-1]  # non-empty: the pattern ends with a name
    capitalized = _CAPITALIZED_WORD.findall(last)  # SecretStr, Ed25519PrivateKey: two words or more
    return len(capitalized) >= 2 and sum(map(len, capitalized)) >= len(last) / 2


def is_placeholder(value: str) -> bool:
    return bool(
        _PLACEHOLDER.fullmatch(value)
        or _KEYWORD_ALONE.fullmatch(value)
        or _REFERENCE.fullmatch(value)
        or "<" in value
        or ">" in value
    )


def _is_reference(value: str, *, code_like: bool, quoted: bool = False) -> bool:
    """Code that names a secret kept elsewhere: a call, an index, an attribute, an environment variable.
    Unquoted, any bracket is code; quoted, only a whole call or index is (a generated key may hold one)."""
    return bool(
        (not quoted and any(c in value for c in "()[]{}"))
        or _CALL.fullmatch(value)
        or value[:1] in "([{"
        or value.lower() in _CODE_WORDS
        or _ENV_NAME.fullmatch(value)
        or _DOTTED_NAME.fullmatch(value)
        or (code_like and _IDENTIFIER.fullmatch(value))
    )


def _ordinary(value: str) -> bool:
    """True when every word of value is ordinary English or too short to be a secret ("2fa-protected")."""
    for part in _WORD_BREAK.split(value):
        word = part.strip(".,!?'’\"")
        if len(word) <= 3:
            continue
        if not word.replace("'", "").isalpha():
            return False
        if word.lower() not in _ORDINARY and not _ORDINARY_SUFFIX.fullmatch(word):
            return False
    return True
