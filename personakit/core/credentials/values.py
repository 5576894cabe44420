"""Whether what was said or assigned to a secret word is a secret, and not a word, a reference or a
placeholder.

Strengths: strong words take a plain word ("password is swordfish"); pins need digits; weak words
("token", "secret") need letters and digits; bare "key" and "seed" need a key by its shape (hex of a key's
length, or long and random); short forms ("pass:") need a digit or a symbol. Never a secret: code that
names one kept elsewhere (`os.environ[...]`, `settings.SECRET_KEY`, `getpass()`, `${API_KEY}`),
placeholders (`<token>`, `xxxx`, `your-key-here`, `changeme`), keys their provider documents as public,
type annotations (`private_key: Ed25519PrivateKey`), and ordinary English ("the password is in the
vault", "is required", "2fa-protected").
"""

from __future__ import annotations

import itertools

import personakit.core.credentials.words as words
from personakit.core.credentials.bodies import looks_random, made_of_names
from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.patterns import PUBLISHABLE
from personakit.core.credentials.textview import fold

_KEYWORD_ALONE = lazy(
    rf"(?i)(?:{words.STRONG}|{words.PIN}|{words.WEAK}|pass|passwords|key|keys|credentials?|pw|secrets?|tokens?)"
)

_REFERENCE = lazy(
    r"\$\{?[A-Za-z_\d][\w.]*\}?|%\w+%|%[sdr]|(?:/|~/|\.\.?/|https?://|op://|env:|vault:|file:|bw://).*"
    r"|ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-[\w-]+|sk-ssh-[\w@.-]+"  # the type that opens a public key
)

_CODE_WORDS = frozenset(words.CODE_WORDS.split())

_ENV_NAME = lazy(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")

_DOTTED_NAME = lazy(r"[A-Za-z_]+(?:\.[A-Za-z_]\w*)+")  # settings.SECRET_KEY, not p4ss.w0rd

_IDENTIFIER = lazy(r"[a-z]+(?:_[a-z]+)+|[a-z]+(?:[A-Z][a-z]*)+")

_TYPE_NAME = lazy(r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*")  # private_key: Ed25519PrivateKey | None

_AFTER_TYPE = lazy(r"\s*(?:[,)|=\]]|->|$)")

_CAPITALIZED_WORD = lazy(r"[A-Z][a-z]{2,}")

_CALL = lazy(r"[\w.$]+\s*[(\[{].*[)\]}][\w.()\[\]]*")  # getpass(), os.environ["X"], cfg[key].value

_PLACEHOLDER = lazy(
    r"(?i)[x*.•_#?-]+|…|your[\w-]*|[\w-]*_here|redacted|hidden|masked|placeholder|changeme|example|dummy"
    r"|\[secret]|\[redacted]|\[email]"
)

_WORD_BREAK = lazy(r"[\s-]+")

_ORDINARY_SUFFIX = lazy(
    r"(?i)[a-z]{2,}(?:ed|ing|ly|able|ible|ive|ous|ful|less|ness|ment|tion|sion|ity|ent|ant|ure|al|ic)"
)

_ORDINARY = frozenset(words.ORDINARY.split())

_FOREIGN_ORDINARY = frozenset(
    fold(w).lower() for table in words.LANGUAGES.values() for w in table["ordinary"].split()
)

_HEX_KEY = lazy(r"(?:0x)?[0-9a-fA-F]{32}|(?:0x)?[0-9a-fA-F]{40}|(?:0x)?[0-9a-fA-F]{64}|[0-9a-fA-F]{96,128}")

_ANGLED = lazy(r"<[^<>]*>|^<|>$")  # <your-token>, <token: a slot to fill; a lone ">" may be a symbol
_NOT_ALNUM = lazy(r"[\W_]+")

WHOLE = lazy(r"[\d -]+|[a-z]{4}(?: [a-z]{4}){3}")  # digit groups and app passwords stay whole


def letters_and_digits(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def mixed_case(value: str) -> bool:
    return any(a.islower() and b.isupper() for a, b in itertools.pairwise(value))


def is_value(value: str, *, strength: str, code_like: bool, plain_words: bool, quoted: bool = False) -> bool:
    """Whether what was said or assigned to a secret word is a secret, not a word or a reference."""
    if len(value) < (3 if strength == "pin" else 4) or is_placeholder(value):
        return False
    if len(value) >= 16 and placeholder_key(value):
        return False  # AIzaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, glc_1111...
    if value.lower().startswith(PUBLISHABLE) or is_reference(value, code_like=code_like, quoted=quoted):
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
            len(value) >= 8 and has_digit and has_alpha and not ordinary(value) and not made_of_names(value)
        )
    if strength == "short":
        return has_alpha and has_digit and not ordinary(value)
    if strength == "pin":
        return sum(c.isdigit() for c in value) >= 3 and (bool(WHOLE.fullmatch(value)) or not ordinary(value))
    if not plain_words and value.replace(" ", "").isalpha():
        return False
    return not ordinary(value)


def is_type_annotation(text: str, value: str, end: int) -> bool:
    """private_key: SSHPrivateKeyTypes, ...: a CamelCase type name where code expects one."""
    if not _TYPE_NAME.fullmatch(value) or not _AFTER_TYPE.match(text, end):
        return False
    last = value.rsplit(".", 1)[-1]  # non-empty: the pattern ends with a name
    capitalized = _CAPITALIZED_WORD.findall(last)  # SecretStr, Ed25519PrivateKey: two words or more
    return "_" not in last and len(capitalized) >= 2 and sum(map(len, capitalized)) >= len(last) / 2


def is_placeholder(value: str) -> bool:
    lowered = value.lower()
    return bool(
        any(map(lowered.__contains__, words.PLACEHOLDER_MARKS))
        or any(map(value.__contains__, words.PLACEHOLDER_CASED))
        or _PLACEHOLDER.fullmatch(value)
        or _KEYWORD_ALONE.fullmatch(value)
        or _REFERENCE.fullmatch(value)
        or _ANGLED.search(value)
    )


def placeholder_key(value: str) -> bool:
    """A key written to be replaced: a placeholder, a run of the alphabet or the digits, or mostly one
    character (ghp_xxxx..., glpat-XXXXXXXXXXX-XXXXXXXX, AKIAIOSFODNN7EXAMPLE, xoxp-1234567890). An escaped
    line break ends it (a value written inside a JSON string: "TOKEN=xoxa-...\\nNEXT=true")."""
    value = value.split("\\n", 1)[0]
    if is_placeholder(value) or any(map(value.lower().__contains__, words.PLACEHOLDER_RUNS)):
        return True
    core = _NOT_ALNUM.sub("", value)
    return len(core) >= 6 and max(map(core.count, set(core))) * 2 >= len(core)


def names_elsewhere(value: str) -> bool:
    """A name of something kept elsewhere, not a literal: $VAR, %VAR%, an environment name, a dotted
    attribute, a snake_case or camelCase identifier, a code word (None, null, str)."""
    return bool(
        value[:1] in "$%"
        or value.lower() in _CODE_WORDS
        or _ENV_NAME.fullmatch(value)
        or _DOTTED_NAME.fullmatch(value)
        or _IDENTIFIER.fullmatch(value)
    )


def is_reference(value: str, *, code_like: bool, quoted: bool = False) -> bool:
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


def ordinary(value: str) -> bool:
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


def ordinary_word(word: str) -> bool:
    """A plain word of English or of one of the other languages that follows "password:" in prose."""
    lowered = word.lower()
    return lowered in _FOREIGN_ORDINARY or lowered in _ORDINARY or bool(_ORDINARY_SUFFIX.fullmatch(word))
