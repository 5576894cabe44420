"""Masking reads a seam again only where the joined texts may hold something (`hints.glues_to_read`): these
tests prove the shortcut changes nothing.

The reference is the route every seam took before it, kept here and nowhere in the product: each text
alone, then each seam joined in full, glued and with a space, and read as one text (`find_credentials`),
spans near the seam kept. Masked texts, the masked memory a read returns (`masking._masked`, addresses
first) and `holds_credential` must equal the reference's on: the whole credential corpus (both parts, as
proposals carry them, and each secret and near-miss as a text, a first quote and a second quote beside
everyday memories); the outside corpus (public scanners' test strings); thousands of memories of
`bench/zipf.py`'s and `bench/generate.py`'s shapes; and seams made to be hard: a key, a number, a seed
phrase, a hint word or a sign cut at every position between a text and its quote and between two
quotes, glued, spaced, and with invisible, full-width and look-alike characters at the cut.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from personakit.core.credentials.engine import (
    _EDGE,
    _may_be_spread_out,
    _pairs,
    _read_alone,
    find_credentials,
    holds_credential,
    mask_together,
)
from personakit.core.credentials.engine import _masked as masked_spans
from personakit.core.credentials.hints import glues_to_read
from personakit.core.credentials.runs import merge
from personakit.core.masking import MAX_QUOTE_CHARS, MAX_QUOTES, _masked, mask_emails
from personakit.core.proposal import shorten

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "bench")]

from credential_corpus import PARTS, benign, secrets  # noqa: E402
from credential_kinds import KEY_KINDS  # noqa: E402
from outside_corpus import MEMORY_TEXT, cases  # noqa: E402

_SEAM = 4096
_SEAM_REACH = 500


def reference_seam(a: str, b: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The seam check as it was: both glues, the joined texts read in full."""
    from personakit.core.credentials.engine import _glued_word, _worth_joining

    if not _worth_joining(a[-_EDGE:], b[:_EDGE]):
        return [], []
    left, right = a[-_SEAM:], b[:_SEAM]
    offset = len(a) - len(left)
    in_a: list[tuple[int, int]] = []
    in_b: list[tuple[int, int]] = []
    for glue in ("", " "):
        cut, resume = len(left), len(left) + len(glue)
        joined = left + glue + right
        for start, end in find_credentials(joined):
            if end <= cut - _SEAM_REACH or start >= resume + _SEAM_REACH:
                continue
            if not glue and start < cut < end and _glued_word(joined[start:cut], joined[cut:end]):
                continue
            if start < cut:
                in_a.append((offset + start, offset + min(end, cut)))
            if end > resume:
                in_b.append((max(start, resume) - resume, end - resume))
    return merge(in_a), merge(in_b)


def reference_together(texts: Sequence[str]) -> tuple[str, ...]:
    spans = [find_credentials(text) for text in texts]
    for i, j in _pairs(len(texts)):
        if texts[i] and texts[j]:
            in_a, in_b = reference_seam(texts[i], texts[j])
            spans[i] += in_a
            spans[j] += in_b
    return tuple(
        masked_spans(text, merge(found), "[secret]") for text, found in zip(texts, spans, strict=True)
    )


def reference_holds(*texts: str) -> bool:
    texts = tuple(t for t in texts if t)
    if any(find_credentials(text) for text in texts):
        return True
    return any(any(reference_seam(texts[i], texts[j])) for i, j in _pairs(len(texts)))


def reference_memory(text: str, quotes: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    masked = reference_together([mask_emails(t) for t in (text, *quotes)])
    return masked[0], tuple(shorten(q, MAX_QUOTE_CHARS) for q in masked[1:])


def differences(groups: Iterable[Sequence[str]]) -> list[tuple[Sequence[str], str]]:
    """Every group of texts on which the product and the reference differ, and how."""
    found: list[tuple[Sequence[str], str]] = []
    for texts in groups:
        if mask_together(texts) != reference_together(texts):
            found.append((texts, "mask_together"))
        if holds_credential(*texts) != reference_holds(*texts):
            found.append((texts, "holds_credential"))
        if 1 <= len(texts) <= 1 + MAX_QUOTES:
            text, quotes = texts[0], tuple(texts[1:])
            if _masked.__wrapped__(text, quotes) != reference_memory(text, quotes):
                found.append((texts, "_masked"))
    return found


def _zipf_and_generated(n: int) -> list[tuple[str, ...]]:
    import generate
    import zipf

    memories = [*itertools.islice(zipf.memories(n), n), *itertools.islice(generate.memories(n), n)]
    return [(m.text, *m.evidence[:MAX_QUOTES]) for m in memories]


EVERYDAY = [
    "Prefers tea without sugar.",
    "Birthday felin spicy noisi brainchild grottiest ret barbital.",
    "Grew up in Rome before 3pm",
    "I do planning in 25 minute bursts with breaks",
    "Bury talck climb detonator legibility newsier",
    "my cat Sven is sitting on my keyboard again, cc kavya@example.com",
]


def _corpus_groups() -> list[tuple[str, ...]]:
    """The credential corpus as proposals carry it, and each value beside everyday texts and quotes."""
    groups: list[tuple[str, ...]] = []
    rng = random.Random(25)
    for part in PARTS:
        for item in [*secrets(part), *benign(part)]:
            groups.append((item.text, item.quote) if item.quote else (item.text,))
            other = rng.choice(EVERYDAY)
            groups += [
                (other, item.text),
                (item.text, other),
                (other, other, item.text),
                (other, item.text, other),
            ]
    return groups


def _outside_groups() -> list[tuple[str, ...]]:
    rng = random.Random(26)
    groups: list[tuple[str, ...]] = []
    for case in cases():
        groups += [(MEMORY_TEXT, case.text), (case.text, rng.choice(EVERYDAY))]
    return groups


# What a seam is cut through: keys of every kind, numbers, seed phrases, hint words and signs.
_CUT_WORDS = [
    "password: Otter.9872?",
    "my pin is 4821",
    "card 4111 1111 1111 1111 exp 12/29",
    "IBAN DE89 3704 0044 0532 0130 00",
    "SSN 123-45-6789",
    "seed phrase: abandon ability able about above absent absorb abstract absurd abuse access accident",
    "legal winner thank year wave sausage worth useful legal winner thank yellow",
    "https://user:hunter2pass@db.example.com/app",
    "-----BEGIN RSA PRIVATE KEY-----",
    "kind: Secret data: dG9rZW4=",
    "wi-fi p/w 2fa 7z a / b c=d www.example.com",
    "Authorization: Bearer abcdef0123456789ABCDEF",
    "ab3d x9qz k2j4 p7mw r5tn",
    "s k - a n t - 1 2 3 4",
    "ΣΟΦΙΑΣ ΚΩΔΙΚΟΣ: Ηλιος2024",
    "Netflix: Sunflower!2024 and I use Tr0ub4dor&3 for everything",
    "s k \u19da a n t 1 2 3 4 5 6 7 8",
]


def _cut_groups(values: list[str]) -> list[tuple[str, ...]]:
    """Each value cut at every position: text | quote, and quote | second quote; glued, a space on
    either side of the cut, and an invisible, full-width or look-alike character at it."""
    joins = [("", ""), (" ", ""), ("", " "), ("\u200b", ""), ("", "\u2060"), ("\uff0e", ""), ("", "\u0430")]
    groups: list[tuple[str, ...]] = []
    rng = random.Random(28)
    for value in values:
        cuts = range(len(value) + 1)  # every position; in a long value, near its ends and some between
        if len(value) > 60:
            cuts = sorted({*range(20), *range(len(value) - 20, len(value) + 1), *rng.sample(cuts, 10)})
        for k in cuts:
            for n, (before, after) in enumerate(joins):
                head, tail = value[:k] + before, after + value[k:]
                shapes = [(head, tail), ("Noted " + head, tail + " later"), ("Noted", head, tail)]
                groups.append(shapes[(k + n) % 3])
    return groups


def _key_values(per_kind: int) -> list[str]:
    rng = random.Random(27)
    return [maker(rng) for _, maker, _ in KEY_KINDS for _ in range(per_kind)]


# Each slow one compares the product with a slow reference over a whole corpus: 3-5 min alone on 2 cores,
# past the default 300 s when the machine is busy or slow (CI failed so on 2026-12-02, on unchanged code).
LONG = 1200


def test_the_shortcut_is_taken_on_everyday_memories() -> None:
    """The point of it: everyday texts and quotes are quiet, and most of their seams are not read again
    (if none were skipped, the tests below would prove nothing about the shortcut)."""
    groups = _zipf_and_generated(300)
    skipped = total = 0
    for texts in groups:
        read = [_read_alone(t) for t in texts]
        for i, j in _pairs(len(texts)):
            a, b = read[i][1], read[j][1]
            total += 2
            skipped += 2 - len(glues_to_read(a, b, _may_be_spread_out)) if a and b else 0
    assert skipped > 0.6 * total


def test_a_seam_the_shortcut_must_read_is_read() -> None:
    """Quiet texts whose seam makes a key, a hint, a sign or a number are read joined, as before."""
    for a, b in [
        ("Noted the deploy key ghp_Zq8RtY2pWx4Lm6Nb", "FAKEk3Jd9QvTg7HsXc1UaB0 for later"),
        ("The wifi", "-fi password is Otter.9872?"),
        ("call me on 4111 1111", "1111 1111 tomorrow"),
        (
            "the seed is abandon ability able about above absent",
            "absorb abstract absurd abuse access accident",
        ),
        ("actual brass scan magic swift treat rad", "io gap hip bomb couple pause"),  # radio: 12 words
    ]:
        assert mask_together([a, b]) == reference_together([a, b])
        assert holds_credential(a, b) == reference_holds(a, b)
    assert mask_together(["actual brass scan magic swift treat rad", "io gap hip bomb couple pause"]) == (
        "[secret]",
        "[secret]",
    )
    a, b = (_read_alone(t)[1] for t in ("Password hunting is", "fun for the kids"))
    assert a and a.hinted and b and not b.hinted
    assert glues_to_read(a, b, _may_be_spread_out) == ("", " ")  # a hint: its seams are read


def test_seams_match_on_the_corpora_fast() -> None:
    groups = _corpus_groups()[::40] + _outside_groups()[::80] + _zipf_and_generated(100)
    groups += _cut_groups([word for word in _CUT_WORDS if len(word) < 30])[::5]
    assert differences(groups) == []


@pytest.mark.slow
@pytest.mark.timeout(LONG)
def test_seams_match_on_the_whole_credential_corpus() -> None:
    assert differences(_corpus_groups()) == []


@pytest.mark.slow
@pytest.mark.timeout(LONG)
def test_seams_match_on_the_outside_corpus() -> None:
    assert differences(_outside_groups()) == []


@pytest.mark.slow
@pytest.mark.timeout(LONG)
def test_seams_match_on_thousands_of_everyday_memories() -> None:
    assert differences(_zipf_and_generated(3000)) == []


@pytest.mark.slow
@pytest.mark.timeout(LONG)
def test_seams_match_with_a_secret_cut_at_every_position() -> None:
    assert differences(_cut_groups(_CUT_WORDS + _key_values(1))) == []
