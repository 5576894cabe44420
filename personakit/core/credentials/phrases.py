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
only in the windows `credential_hints` finds. Whether a value is one is `credential_values`.
"""

from __future__ import annotations

import bisect
import re

import personakit.core.credentials.words as words
from personakit.core.credentials.hints import Hints
from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.runs import Span
from personakit.core.credentials.textview import fold
from personakit.core.credentials.values import (
    WHOLE,
    is_placeholder,
    is_reference,
    is_type_annotation,
    is_value,
    letters_and_digits,
    mixed_case,
    ordinary,
    ordinary_word,
)
from personakit.core.words import STOP_WORDS

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
    r"|\s+(?=[^\s\"'`,;<>]{0,40}\d)(?=[^\s\"'`,;<>]{8}|\d{3,17}(?![\w-])|\d{1,5}(?:[ -]\d{1,5}){2})"  # none: "PIN 4821"
    r"|\s+(?=[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}(?![a-z]))"  # "the app password abcd efgh ijkl mnop"
    r")[*_]{0,2}[ \t]*(?:!!?[a-z]{1,12}\s+)?"  # a YAML tag before the value: password: !!str ...
)

# Before a word: not after a letter, or at a camelCase join (dbPassword).
_WORD_START = r"(?:(?<![A-Za-z])|(?-i:(?<=[a-z])(?=[A-Z])))"

_ENGLISH = lazy(
    rf"(?i){_WORD_START}(?:(?P<strong>{words.STRONG}|pw)|(?P<pin>{words.PIN})|(?P<weak>{words.WEAK}))(?![A-Za-z])"
    r"(?:\s+(?:for|to|of|on|at|from)(?:\s+[\w'.@-]{1,30}){1,4}?)?"  # "the password for the router is ..."
    r"(?:\s+(?:here|there|today|now|currently|still|also|too))?"  # "the password here is ..."
    r"(?:\s*\([^()\n]{1,24}\))?"  # "encryption key (hex): ..."
    rf"{_SEPARATOR}{_VALUE}"
)

_SET_TO = lazy(
    r"(?i)(?<![A-Za-z])(?:set|change[ds]?|reset|update[ds]?)\s+(?:[\w'-]{1,20}\s+){0,3}?"
    rf"(?:(?P<strong>{words.STRONG}|pw)|(?P<pin>{words.PIN}))\s+(?:to|as)\s+{_VALUE}"
)

_SHORT_FORM = lazy(r"(?i)pass|pw|pwd|psw|pswd|p/w|pword|passwd")


# Nouns that may follow a secret word with nothing between, in any language ("kata sandi wifi: ...").
_QUALIFIER = r"(?:wi-?fi|wlan|router|email|e-mail|mail|bank|vpn|app|admin|server|laptop|netflix|icloud)"


def _phrase(text: str) -> str:
    """A table phrase as a regex on the folded, lower-cased view: spaces and hyphens loosened."""
    return re.escape(fold(text).lower()).replace(r"\ ", r"[\s-]*").replace(r"\-", r"[\s-]?")


def _foreign() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, tuple[str, str]]]:
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
    source = (
        rf"(?:(?<![^\W\d_])(?P<word>{by_length(latin)})(?![^\W\d_])|(?P<cjk>{by_length(cjk)}))"
        rf"(?:\s*(?:{by_length(links)})(?:\s+[\w'.@-]{{1,30}}){{1,5}}?|\s+{_QUALIFIER}"
        r"|(?:\s+[^\W\d_]{3,30}){1,2}(?=\s+[—–]\s))?"  # "Пароль администратора — ...": a genitive
        rf"(?P<sep>\s*(?:[:=]|->)\s*|\s+(?:{by_length(said)})(?![^\W\d_])\s*:?\s*|\s*(?:{by_length(said_cjk)})\s*:?\s*"
        r"|\s+[—–-]\s*|\s+(?=[^\s\"'`,;<>]{0,40}\d)(?=[^\s\"'`,;<>]{6}|\d{3,10}(?![\w-])))"
        r"(?:(?:le|la|el|lo|o|a|het|de|der|die|das)\s+(?=[^\s]*\d))?" + _VALUE  # "est le 8089"
    )
    # The qualifier's words are taken as few as can be; when what follows them is no value, as many
    # ("Senha do Wi-Fi da casa de praia: ...", where "da" would otherwise be read as "is").
    return lazy(source), lazy(source.replace("{1,5}?", "{1,5}", 1)), strengths


_FOREIGN, _FOREIGN_LONGEST, _FOREIGN_STRENGTHS = _foreign()


def _foreign_span(text: str, lower: str, match: re.Match[str]) -> Span | None:
    if span := _foreign_value(text, match):
        return span
    longest = _FOREIGN_LONGEST.match(lower, match.start())
    return _foreign_value(text, longest) if longest and longest.end() != match.end() else None


_PUBLIC = ("public", "publishable", "pub")
_LETTER_CODE = lazy(
    r"(?=[^\s]*\d)(?=[^\s]*[A-Z])[A-Z0-9]{3,4}-[A-Z0-9]{3,4}|(?=[^\s]*\d)(?=[^\s]*[A-Z])[A-Z0-9]{6,8}"
)
_CODE_WORD = lazy(  # a booking's "confirmation code" is no secret; a sign-in code is
    r"(?i)(?:sign[ -]?in|log[ -]?in|verification|2fa|mfa|otp|auth\w*|security|one[ -]time|backup|recovery)[ _-]codes?$"
)
_PASSPHRASE = lazy(r"[a-z]{3,12}(?: [a-z]{3,12}){3,7}(?=[ \t]*(?:[.!?,;\n]|$))")
_PASS_LABELS = frozenset(
    {"wifi", "wi-fi", "router", "admin", "email", "e-mail", "bank", "login", "my", "the wifi"}
)
_REFERENCE_INSIDE = lazy(r"\$[{(]")
_CJK = lazy(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")

_NOT_SECRET_KEYS = frozenset(words.NOT_SECRET_KEYS.split())
_NOT_SECRET_CODES = frozenset(words.NOT_SECRET_CODES.split())

_LIST_GAP = lazy(r"\s*[,;/]?\s*")

_SHAPE = str.maketrans("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "9" * 10 + "a" * 52)

_YEAR = lazy(r"(?:19|20)\d\d")

_UNJOINED_PIN = lazy(r"\d{4,17}[#*]?|\d{1,5}(?:[ -]\d{1,5}){1,7}")
_PLACES = frozenset({"door", "gate", "garage", "safe", "alarm", "keypad", "lockbox"})  # "door: 4812#"
_APP_PASSWORD = lazy(r"[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}")
_CARD_CODE = lazy(r"(?i)cvv2?|cvc2?|csc")  # three digits are a whole card security code


def phrase_spans(text: str, lower: str, hints: Hints) -> list[Span]:
    """Every phrase starts at a word a little before one of its hints. Where hints are few, the patterns
    are tried at those words only; where they crowd a window, one scan of the window is cheaper."""
    spans: list[Span] = []
    for window_start, window_end in hints.windows:
        first = bisect.bisect_left(hints.starts, window_start)
        last = bisect.bisect_left(hints.starts, window_end)
        if last - first <= _FEW_HINTS:
            spans += _at_hints(text, lower, hints.starts[first:last])
            continue
        window = lower[window_start:window_end]
        for match in _ENGLISH.finditer(text, window_start, window_end):
            spans += _judged(text, match, code_like=not words_said(match), plain_words=True)
        if _SET_HINT.search(window):
            for match in _SET_TO.finditer(text, window_start, window_end):
                spans += _judged(text, match, code_like=False, plain_words=False)
        for match in _FOREIGN.finditer(lower, window_start, window_end):
            spans += [span] if (span := _foreign_span(text, lower, match)) else []
    return spans


def _at_hints(text: str, lower: str, starts: list[int]) -> list[Span]:
    spans: list[Span] = []
    tried: set[int] = set()
    english_end = foreign_end = set_to_end = 0
    for hint in starts:
        for start in _word_starts(text, max(0, hint - _KEYWORD_BEFORE), hint):
            if start in tried:
                continue
            tried.add(start)
            if start >= english_end and (match := _ENGLISH.match(text, start)):
                spans += _judged(text, match, code_like=not words_said(match), plain_words=True)
                english_end = match.end()
            if start >= foreign_end and (match := _FOREIGN.match(lower, start)):
                spans += [span] if (span := _foreign_span(text, lower, match)) else []
                foreign_end = match.end()
        before = max(0, hint - _SET_BEFORE)
        if hint >= set_to_end and _SET_HINT.search(lower, before, hint):
            for match in _SET_TO.finditer(text, before, hint + _KEYWORD_AFTER):
                spans += _judged(text, match, code_like=False, plain_words=False)
                set_to_end = match.end()
    return spans


_FEW_HINTS = 3  # hints in a window up to which trying the patterns at them beats scanning the window
_KEYWORD_BEFORE = 32  # a keyword starts at most this far before its hint ("personal access token")
_KEYWORD_AFTER = 420  # and its value ends within this far after it
_SET_BEFORE = 80  # "set the office wifi password to": the verb is a few words before
_SET_HINT = lazy(r"set|chang|updat")


def _word_starts(text: str, start: int, hint: int) -> list[int]:
    """Where words start in text[start:hint], and the hint itself (a CJK word has no start of its own)."""
    return [*(m.start() for m in _WORD_BEGINS.finditer(text, start, hint)), hint]


_WORD_BEGINS = lazy(r"(?<![^\W\d_])\w|(?<=[a-z])[A-Z]")


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
    reference = _REFERENCE_INSIDE.search(raw, 1)
    if reference:  # Tr0ub4dor&3${HOME}: the password, then a reference; a value that is one is judged whole
        raw = raw[: reference.start()]
    value = raw.rstrip(".,:;)]}'\"。、，")  # sentence punctuation; "!" and "?" may belong to the password
    return start, start + len(value), value, False


def _judged(text: str, match: re.Match[str], *, code_like: bool, plain_words: bool) -> list[Span]:
    groups = match.groupdict()
    if text[max(0, match.start() - 14) : match.start()].lower().rstrip("_-. ").endswith(_PUBLIC):
        return []  # publicToken, public_key, publishable key: public by name
    strength = "pin" if groups.get("pin") else "weak" if groups.get("weak") else "strong"
    start, end, value, quoted = _value(text, match)
    separator = groups.get("sep") or ""
    grouped = not quoted and bool(_grouped(value))
    passphrase = _PASSPHRASE.match(text, start) if strength == "strong" and not quoted else None
    if passphrase and not any(word in STOP_WORDS for word in passphrase.group().split()):
        return [passphrase.span()]  # "my password is correct horse battery staple"
    value = _first_word(value, quoted)
    end = start + len(value)
    unjoined = bool(separator) and separator.isspace()  # no ":" or "is" between word and value
    if unjoined:
        short_code = strength == "pin" and len(value) == 3 and value.isdigit()
        if short_code and not _CARD_CODE.fullmatch(groups.get("pin") or ""):
            return []
        if strength == "pin" and not short_code and not _UNJOINED_PIN.fullmatch(value) and not grouped:
            return []
        if strength == "weak":  # "token 7f3a...", "the key (hex) ...": a key by its shape only
            word = match.group("weak").lower()
            if word == "pass" and len(value) >= 8 and _strong_looking(value):
                strength = "short"
            elif word in ("pass", "seed") or _not_a_secret_key(text, match.start()):
                return []
            else:
                strength = "bare"
        if strength == "strong" and value.isdigit() and 4 <= len(value) <= 10 and not _YEAR.fullmatch(value):
            strength = "pin"  # "one-time password 558210"
        code_like, plain_words = True, False
    if (
        strength == "pin"
        and not unjoined
        and _LETTER_CODE.fullmatch(value)
        and _CODE_WORD.search(groups.get("pin") or "")
    ):
        strength = "grouped"  # "Slack sign-in code: OKB-VZ5": a code of letters and digits
    if strength == "pin" and (groups.get("pin") or "").lower() in _PLACES:
        following = text[end : end + 24].split()
        if not _UNJOINED_PIN.fullmatch(value) or (following and following[0][:1].isalpha()):
            return []  # "the safe is 100 years old", "the door is 1234 Main St": not a code
    if strength == "pin" and (groups.get("pin") or "").lower() in ("code", "codes"):
        before = text[max(0, match.start() - 30) : match.start()].lower().split()
        if not before or before[-1].strip("'\"") in _NOT_SECRET_CODES:
            return []  # "the postal code for the office is 10115"
    if strength == "weak" and match.group("weak").lower() in ("key", "seed"):
        if _not_a_secret_key(text, match.start()):
            return []
        strength = "bare"
    if strength == "weak" and match.group("weak").lower() == "pass" and separator.strip() in (":", "="):
        strength = "short"
        line = text[text.rfind("\n", 0, match.start()) + 1 : match.start()].strip(" \t-*•").lower()
        if not line or line in _PASS_LABELS:
            strength, plain_words = "strong", True  # "pass: raspberry" as a line's label, "wifi pass: ..."
    if (
        strength == "strong"
        and _SHORT_FORM.fullmatch(match.group("strong") or "")
        and separator.strip() in (":", "=")
    ):
        plain_words = True
    if grouped:
        strength = "grouped" if strength in ("weak", "bare") else strength
    if not quoted and "=" in separator and value.replace("_", "").isalpha():
        return []  # password = user_input: a variable (an .env file's plain-word password is missed)
    if not quoted and ":" in separator and is_type_annotation(text, value, end):
        return []
    if (
        unjoined
        and strength == "pin"
        and _YEAR.fullmatch(value)
        and (groups.get("pin") or "").lower() in ("pin", "pins")
    ):
        return []  # "enamel pin 1998": a year, not a PIN
    app_password = bool(_APP_PASSWORD.fullmatch(value)) and "app" in (groups.get("strong") or "").lower()
    if (
        unjoined
        and strength != "pin"
        and (len(value) < 8 or not letters_and_digits(value))
        and not app_password
    ):
        return []
    plain_words = plain_words or app_password
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


def _strong_looking(value: str) -> bool:
    """Letters, digits, and a symbol or both cases: "Croissant_Kiosk9", not "gold2024"."""
    has_case = any(c.isupper() for c in value) and any(c.islower() for c in value)
    return letters_and_digits(value) and (has_case or not value.isalnum())


def _first_word(value: str, quoted: bool) -> str:
    """A value that ran on over several words is its first word, unless it is groups of one key."""
    if quoted or " " not in value or WHOLE.fullmatch(value) or _grouped(value):
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
        or is_reference(value, code_like=code_like, quoted=quoted)
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
        return (start, end) if len(value) >= 6 and has_digit and letters_and_digits(value) else None
    if quoted or has_digit or not value.isalpha() or mixed_case(value):
        return (start, end) if not ordinary(value) else None
    if (separator in (":", "=", "->") or language in words.CJK_LANGUAGES) and not ordinary_word(value):
        return start, end
    return None
