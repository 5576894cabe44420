"""Secrets that are numbers or word lists with a check of their own: it decides, not the look.

- **Payment cards**: 14 to 19 digits, written whole or in the usual groups, with a known issuer prefix
  and length, passing Luhn. Phone numbers, ISBNs, IMEIs and tracking numbers fail one of the three.
- **IBANs**: a country code, its registered length, and mod 97.
- **National identity numbers** whose shape and check digit say what they are: US SSNs (`123-45-6789`,
  area, group and serial valid), UK National Insurance numbers, French NIRs (key mod 97), Italian codici
  fiscali, Brazilian CPFs (two check digits), Chinese resident ids (ISO 7064), Korean resident numbers,
  Spanish DNI and NIE letters. Any of these, and passports, driving licences, tax ids and the rest, when a
  label says so (`SSN 123456789`, `passport number: X1234567`).
- **BitLocker recovery keys**: eight groups of six digits, each divisible by 11.
- **BIP39 seed phrases**: 12 to 24 words of the English list, at least three quarters of them different,
  whose last bits are the SHA-256 checksum; after a label ("seed phrase", "recovery phrase", "mnemonic") the words alone suffice.
- **Bitcoin private keys** (WIF): base58 with a valid double-SHA-256 checksum.

The English BIP39 list ships as `data/bip39-english.txt`, byte-identical to the reference list (BIP-0039,
as in `mnemonic` 0.21; SHA-256 `2f5eed53...3b24dbda`), read on first need. The checksum is a few lines
of `hashlib`, so the project does not depend on `mnemonic`, whose lists are read from disk on every
`Mnemonic()` and whose `check` takes a whole phrase rather than finding one in text.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache
from importlib import resources

from personakit.core.credentials.lazyre import lazy
from personakit.core.credentials.patterns import CARD_RANGES, IBAN_LENGTHS, ID_LABELS
from personakit.core.credentials.runs import Span

# All found from a digit (each pattern opens with one, so re skips to digits fast); shapes that open
# with letters check them in a lookbehind and say how many there are (_LEAD). The first alternative that
# fits is taken, so the most specific shapes come first.
_FROM_DIGITS = lazy(
    r"\d(?<!\d\d)(?=\d| \d)(?:"  # the first digit of a number: two in a row, or "1 84" (a NIR)
    r"(?P<iban>(?<=(?<![A-Za-z0-9])[A-Za-z]{2}\d)\d(?:[ -]?[A-Za-z0-9]){11,30})"
    r"|(?P<codice>(?<=(?<![A-Za-z0-9])[A-Z]{6}\d)\d[A-EHLMPRST]\d{2}[A-Z]\d{3}[A-Z](?![A-Za-z0-9]))"
    r"|(?P<nino>(?<=(?<![A-Za-z0-9])[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d)\d ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9]))"
    r"|(?P<nino_spaced>(?<=(?<![A-Za-z0-9])[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] \d)\d ?\d{2} ?\d{2} ?[A-D](?![A-Za-z0-9]))"
    r"|(?P<nie>(?<=(?<![A-Za-z0-9])[XYZ]\d)\d{6}-?[A-Z](?![A-Za-z0-9]))"
    r"|(?P<nir>(?<=[12])(?<!\d.) ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}(?!\d))"
    r"|(?P<china>(?<=[1-9])(?<!\d.)\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dXx](?![\dA-Za-z]))"
    r"|(?P<korea>(?<!\d.)\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-[1-8]\d{6}(?!\d))"
    r"|(?P<cpf>(?<![\d.].)\d{2}\.\d{3}\.\d{3}-\d{2}(?!\d))"
    r"|(?P<ssn>(?<![\d-].)\d{2}-\d{2}-\d{4}(?![\d-]))"
    r"|(?P<bitlocker>(?<![\d-].)\d{5}(?:-\d{6}){7}(?![\d-]))"
    r"|(?P<dni>(?<![A-Za-z0-9].)\d{7}-?[A-Z](?![A-Za-z0-9]))"
    r"|(?P<card>(?<![\d.,/-].)(?:[ .-]?\d){13,18}(?![\d-]|[.,]\d))"
    r")"
)
_LEAD = {"iban": 2, "codice": 6, "nino": 2, "nino_spaced": 3, "nie": 1}
_LABELLED_ID = lazy(
    rf"(?i)(?<![A-Za-z])(?P<label>{ID_LABELS})(?![A-Za-z])[^\w\n]{{0,3}}(?:(?:number|no|num|id|is|was|are)\W{{1,3}}){{0,3}}"
    r"(?P<value>[A-Z0-9](?:[A-Z0-9]|[ .-](?=[A-Z0-9])){4,24})"
)
_CASE_SENSITIVE_LABELS = frozenset(
    [
        "sin",
        "tin",
        "ein",
        "nie",
        "nir",
        "nif",
        "pan",
        "dni",
        "bsn",
        "cpf",
        "cpr",
        "oib",
        "egn",
        "cnp",
        "rrn",
        "nino",
    ]
)
_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def number_spans(text: str) -> list[Span]:
    """Numbers with a check of their own."""
    spans: list[Span] = []
    for match in _FROM_DIGITS.finditer(text):
        kind = match.lastgroup or ""
        start = match.start() - _LEAD.get(kind, 0)
        written = text[start : match.end()]
        if kind == "iban":
            span = _iban(written, start)
            if span:
                spans.append(span)
        elif _VALID[kind](text, start, written):
            spans.append((start, match.end()))
        elif kind == "card":  # "4782 ... 2164 12/29": the digits after a card may run on into it
            while (cut := max(written.rfind(" "), written.rfind("-"), written.rfind("."))) > 0:
                written = written[:cut]
                if _card(written):
                    spans.append((start, start + len(written)))
                    break
    return spans


def _luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char) * (2 if index % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _card(written: str) -> bool:
    digits = re.sub(r"[ .-]", "", written)
    groups = [len(g) for g in re.split(r"[ .-]", written)]
    if (
        len(groups) > 1
        and groups not in ([4, 6, 5], [4, 6, 4])
        and (any(g != 4 for g in groups[:-1]) or groups[-1] > 4)
    ):
        return False  # not grouped as cards are printed
    if len(set(digits)) <= 2:
        return False  # 4444 4444 4444 4448, 0000...: test patterns and fillers
    for width, low, high, lengths in CARD_RANGES:
        if low <= int(digits[:width]) <= high and len(digits) in lengths:
            return _luhn(digits)
    return False


def _iban(written: str, offset: int) -> Span | None:
    upper = written.upper()
    length = IBAN_LENGTHS.get(upper[:2])
    if length is None:
        return None
    compact, end = "", 0
    for index, char in enumerate(upper):
        if char.isalnum():
            compact += char
            if len(compact) == length:
                end = index + 1
                break
    if len(compact) != length or not compact[2:4].isdigit():
        return None
    if end < len(written) and written[end].isalnum():
        return None  # the run goes on: not this country's IBAN
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    return (offset, offset + end) if int(number) % 97 == 1 else None


def _digits(written: str) -> str:
    return "".join(c for c in written if c.isdigit())


def _ssn(written: str) -> bool:
    area, group, serial = written.split("-")
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def _nir(written: str) -> bool:
    compact = written.replace(" ", "")
    body = compact[:5] + compact[5:7].replace("2A", "19").replace("2B", "18") + compact[7:13]
    return 97 - int(body) % 97 == int(compact[13:])


def _cpf(digits: str) -> bool:
    if len(set(digits)) == 1:
        return False
    for size in (9, 10):
        total = sum(int(d) * w for d, w in zip(digits[:size], range(size + 1, 1, -1), strict=True))
        if (total * 10 % 11) % 10 != int(digits[size]):
            return False
    return True


def _china_id(number: str) -> bool:
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(d) * w for d, w in zip(number[:17], weights, strict=True))
    return "10X98765432"[total % 11] == number[17].upper()


def _korea_rrn(written: str) -> bool:
    digits = written.replace("-", "")
    total = sum(int(d) * w for d, w in zip(digits[:12], (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5), strict=True))
    return (11 - total % 11) % 10 == int(digits[12])


def _bitlocker(written: str) -> bool:
    return all(int(group) % 11 == 0 and int(group) < 720896 for group in written.split("-"))


def _dni(text: str, start: int, written: str) -> bool:
    """A Spanish DNI or NIE: eight digits (or X, Y or Z and seven) and their letter, after a label."""
    written = written.replace("-", "")
    number = str("XYZ".index(written[0])) + written[1:8] if written[0] in "XYZ" else written[:8]
    return _DNI_LETTERS[int(number) % 23] == written[8] and _labelled(text, start, r"dni|nie|nif|documento")


_NOT_NINO = frozenset({"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"})
_VALID = {
    "nir": lambda text, start, written: _nir(written),
    "china": lambda text, start, written: _china_id(written),
    "korea": lambda text, start, written: _korea_rrn(written),
    "cpf": lambda text, start, written: _cpf(_digits(written)),
    "ssn": lambda text, start, written: _ssn(written),
    "bitlocker": lambda text, start, written: _bitlocker(written),
    "dni": _dni,
    "nie": _dni,
    "card": lambda text, start, written: _card(written),
    "nino": lambda text, start, written: written[:2] not in _NOT_NINO,
    "nino_spaced": lambda text, start, written: written[:2] not in _NOT_NINO,
    "codice": lambda text, start, written: True,
    "": lambda text, start, written: False,
}


def _labelled(text: str, start: int, label: str) -> bool:
    """A label just before start, with at most three short words between ("mi DNI es el ...")."""
    return bool(
        re.search(rf"(?i)(?:{label})(?:\W+\w{{1,4}}){{0,3}}\W{{1,20}}$", text[max(0, start - 60) : start])
    )


def labelled_id_spans(text: str, windows: list[Span]) -> list[Span]:
    """Identity numbers a label names: "SSN 123456789", "passport number: X1234567"."""
    spans: list[Span] = []
    for window_start, window_end in windows:
        for match in _LABELLED_ID.finditer(text, window_start, window_end):
            label = match.group("label")
            if label.lower() in _CASE_SENSITIVE_LABELS and not label.isupper():
                continue  # "a tin of", "a pan": only TIN and PAN are labels
            chunks = re.split(r"[ .-]", match.group("value"))
            while len(chunks) > 1 and chunks[-1].isalpha():
                chunks.pop()  # words after the number
            first = chunks[0]
            if not any(c.isdigit() for c in first) and not (first.isupper() and len(first) <= 3):
                continue  # "passport expires 2027": the label is not followed by its number
            value = match.group("value")[: sum(map(len, chunks)) + len(chunks) - 1]
            if sum(c.isdigit() for c in value) >= 5:
                spans.append((match.start("value"), match.start("value") + len(value)))
    return spans


def is_seed_word(word: str) -> bool:
    return word in _wordlist()


def seed_words() -> dict[str, int]:
    """The BIP39 English list, each word with its index."""
    return _wordlist()


@cache
def _wordlist() -> dict[str, int]:
    text = (
        resources.files("personakit.core.credentials")
        .joinpath("data/bip39-english.txt")
        .read_text(encoding="utf-8")
    )
    return {word: index for index, word in enumerate(text.split())}


def _bip39_checksum(indexes: tuple[int, ...]) -> bool:
    """The last n/3 bits of n words are the first bits of the SHA-256 of the rest (the entropy)."""
    value = 0
    for index in indexes:
        value = value << 11 | index
    bits = len(indexes) // 3
    entropy = (value >> bits).to_bytes(len(indexes) * 4 // 3, "big")
    return hashlib.sha256(entropy).digest()[0] >> (8 - bits) == value & ((1 << bits) - 1)


_TOKEN = lazy(r"\S+")


def seed_phrase_spans(lower: str, tokens: list[str], bare: dict[str, str]) -> list[Span]:
    """Runs of 12 to 24 BIP39 words: with a valid checksum, or after a label saying what they are.
    tokens are lower's whitespace-separated words; bare maps each to itself without end punctuation."""
    wordlist = _wordlist()
    listed = {token: bare[token] in wordlist for token in bare}
    # numbering ("1.", "2)") is left out, so "1. abandon 2. ability ..." is twelve words in a row
    kept = None
    if any(bare[token].isdigit() for token in bare):
        kept = [index for index, token in enumerate(tokens) if not bare[token].isdigit()]
        tokens = [tokens[index] for index in kept]
    marks = bytes(map(listed.__getitem__, tokens))
    if b"\x01" * 12 not in marks:
        return []
    found: list[tuple[int, int]] = []  # first and last word of each seed phrase
    for streak in re.finditer(rb"\x01{12,}", marks):
        low = max(0, streak.start() - 4)  # the words before it may say what it is
        words = [bare[token] for token in tokens[low : streak.end()]]
        found += [(low + a, low + b) for a, b in _seeds_in(words, streak.start() - low, streak.end() - low)]
    if not found:
        return []
    if kept is not None:
        found = [(kept[first], kept[last]) for first, last in found]
    wanted = {index for pair in found for index in pair}
    positions = {}
    for index, token in enumerate(_TOKEN.finditer(lower)):
        if index in wanted:
            positions[index] = token.span()
            if len(positions) == len(wanted):
                break
    return [(positions[first][0], positions[last][1]) for first, last in found]


_MOST_CHECKS = 2000  # a long run of list words (a pasted word list) is read this far
_LABEL_WORDS = frozenset(
    ["seed", "phrase", "mnemonic", "recovery", "words", "wallet", "bip", "backup", "secret", "sentence"]
)


def _seeds_in(words: list[str], start: int, end: int) -> list[tuple[int, int]]:
    """The seed phrase among words[start:end], all of them list words, as its first and last index."""
    while end - start > 12 and words[start] in _LABEL_WORDS:
        start += 1  # "seed phrase abandon ...": the label's own list words are not part of the phrase
    if _LABEL_WORDS.intersection(words[max(0, start - 4) : start]):
        return [(start, end - 1)]
    wordlist = _wordlist()
    indexes = [wordlist[word] for word in words[start:end]]
    seen: set[tuple[int, ...]] = set()
    for size in (24, 21, 18, 15, 12):
        for first in range(min(len(indexes) - size + 1, _MOST_CHECKS)):
            candidate = tuple(indexes[first : first + size])
            if candidate not in seen:
                seen.add(candidate)
                # random words repeat rarely: "long long long ... write" passes the checksum by chance
                if len(set(candidate)) >= size * 3 // 4 and _bip39_checksum(candidate):
                    return [(start + first, start + first + size - 1)]
    return []
